"""
The built-in chain rule sets on tile sets of more than 64 tiles (issue 24 point 2: "Any
tile set the library accepts: double-9, double-12, double-15 and the action-tile sets in
the core"), for the differential tests: the compiled kernel's wide build
(``bendolib._kernel_wide``) plays 65 to 128 tiles, its huge build
(``bendolib._kernel_huge``) 129 to 256, its vast build (``bendolib._kernel_vast``) 257 to
1,024 (the library's limit).
"""

from __future__ import annotations

from functools import cache

import bendolib
from bendolib.geometry.chain import ChainGeometry
from bendolib.rules.bendomino import ACTION_TILES
from bendolib.tiles import TileSet

#: The built-in rule sets on a chain (straight or bend): the ones the wide build plays.
CHAIN_GAMES = tuple(
    name
    for name in bendolib.rules.names()
    if isinstance(bendolib.rules.get(name).geometry, ChainGeometry)
)


@cache
def on_double(name: str, top: int) -> bendolib.RuleSet:
    """
    Rule set ``name`` played with the double-``top`` set of its geometry's tiles (curved
    on the bend lattice, straight on the line); an action-tile rule set keeps its six
    action tiles on top of them (double-12: 97 tiles).
    """
    rules = bendolib.rules.get(name)
    tiles = TileSet.double(top, straight=not rules.geometry.uses_bends)
    if any(tile in rules.tileset.tiles for tile in ACTION_TILES):
        tiles = TileSet(f"{tiles.name} + actions", tiles.tiles + ACTION_TILES)
    return rules.configure(f"{name}-d{top}", tileset=tiles)


#: (rule set name, players) of every chain rule set, for double-12.
LARGE_CONFIGS = [
    (name, players) for name in CHAIN_GAMES for players in bendolib.rules.get(name).player_counts
]
#: (rule set name, players) of every chain rule set with its most players, for double-15.
HUGE_CONFIGS = [(name, bendolib.rules.get(name).player_counts[-1]) for name in CHAIN_GAMES]
#: (rule set name, players) of every chain rule set with its fewest players, for double-22
#: and double-30 (the vast build).
VAST_CONFIGS = [(name, bendolib.rules.get(name).player_counts[0]) for name in CHAIN_GAMES]
