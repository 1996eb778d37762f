"""
The built-in chain rule sets on tile sets of more than 64 tiles (issue 24 point 2: "Any
tile set the library accepts: double-9, double-12, double-15 and the action-tile sets in
the core"), for the differential tests: the compiled kernel's wide build
(``bendolib._kernel_wide``) plays 65 to 128 tiles, its huge build
(``bendolib._kernel_huge``) 129 to 256, its vast build (``bendolib._kernel_vast``) 257 to
1,024 (the library's limit).  And the triangle games on sets of more than 64 triangles
(:func:`on_triangles`).
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

import bendolib
from bendolib import engine
from bendolib._kernel_abi import load_build
from bendolib.geometry.chain import ChainGeometry
from bendolib.rules.bendomino import ACTION_TILES
from bendolib.tiles import TileSet

#: The wide build of the kernel (65 to 128 tiles), its step functions set up by
#: ``bendolib.engine``; None where it is not built (or without the kernel).
WIDE: ModuleType | None = load_build("_kernel_wide") if engine._step_kernel is not None else None

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


#: Triangle sets beyond ``bendolib._kernel``'s 64 tiles, by (highest number, mirrors):
#: 76 and 84 tiles, played in ``bendolib._kernel_wide`` (playouts and the step paths).
LARGE_TRIANGLE_SETS = [(5, True), (6, False)]
#: And beyond 128: 165 and 249 tiles, played in ``bendolib._kernel_huge`` (playouts).
HUGE_TRIANGLE_SETS = [(8, False), (8, True)]
#: Every triangle set of 65 to 256 tiles (the long profiles): 76, 84, 119, 120 (the wide
#: build), 176, 165, 249 and 220 tiles (the huge build).
EVERY_LARGE_TRIANGLE_SET = [
    (5, True),
    (6, False),
    (6, True),
    (7, False),
    (7, True),
    (8, False),
    (8, True),
    (9, False),
]


@cache
def on_triangles(name: str, top: int, mirrors: bool = False) -> bendolib.RuleSet:
    """Triangle rule set ``name`` with ``TileSet.triangles(top, mirrors=mirrors)``."""
    tiles = TileSet.triangles(top, mirrors=mirrors)
    return bendolib.rules.get(name).configure(f"{name}-t{len(tiles)}", tileset=tiles)


#: (rule set name, players) of every chain rule set with its fewest players, for double-22
#: and double-30 (the vast build).
VAST_CONFIGS = [(name, bendolib.rules.get(name).player_counts[0]) for name in CHAIN_GAMES]
