"""
``legal_moves`` + ``apply`` per decision on double-12 (issue 24, point 2): the wide
build's compiled step paths against the Python engine, interleaved in one process;
``--tops 15,22,30`` the same on larger sets (double-15 in the huge build, double-22 and
double-30 in the vast build).

Run from the repository root: ``python bench/step_wide.py [--tops 12] [--games 8]`` (a
few seconds a set).
"""

from __future__ import annotations

import argparse
import random
import time

import bendolib
from bendolib import RuleSet, apply, engine, legal_moves, new_game
from bendolib.rules.bendomino import ACTION_TILES
from bendolib.tiles import TileSet


def on_double(name: str, top: int) -> RuleSet:
    """Rule set ``name`` on the double-``top`` set (tests/large_sets.py's on_double)."""
    rules = bendolib.rules.get(name)
    tiles = TileSet.double(top, straight=not rules.geometry.uses_bends)
    if any(tile in rules.tileset.tiles for tile in ACTION_TILES):
        tiles = TileSet(f"{tiles.name} + actions", tiles.tiles + ACTION_TILES)
    return rules.configure(f"{name}-d{top}", tileset=tiles)


STEP = ("_step_legal", "_step_apply")  # (off, they take the larger builds' off too)
SAVED = {name: getattr(engine, name) for name in STEP}


def run(rules: RuleSet, players: int, compiled: bool, games: int) -> tuple[float, int]:
    """Microseconds per decision and decisions, over ``games`` random rounds."""
    for name, function in SAVED.items():
        setattr(engine, name, function if compiled else None)
    decisions, spent = 0, 0.0
    for seed in range(games):
        state = new_game(rules, players, seed)
        rng = random.Random(seed)
        start = time.perf_counter()
        while not state.is_game_over:
            moves = legal_moves(state)
            state = apply(state, moves[rng.randrange(len(moves))])
            decisions += 1
        spent += time.perf_counter() - start
    return spent / decisions * 1e6, decisions


def main() -> None:
    """Print the best of 5 interleaved repetitions per rule set, compiled and Python."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tops", default="12", help="the double-N sets, comma separated")
    parser.add_argument("--games", type=int, default=8, help="rounds a repetition")
    args = parser.parse_args()
    for top in (int(top) for top in args.tops.split(",")):
        for name, players in (("basic", 2), ("classic-draw", 4), ("bendo-all-in-actions", 2)):
            one(name, players, top, args.games)


def one(name: str, players: int, top: int, games: int) -> None:
    """Print the best of 5 interleaved repetitions of ``name`` on double-``top``."""
    rules = on_double(name, top)
    compiled, python = [], []
    for _ in range(5):
        compiled.append(run(rules, players, True, games))
        python.append(run(rules, players, False, games))
    fast = min(t for t, _ in compiled)
    slow = min(t for t, _ in python)
    print(
        f"{name} {players}p double-{top}: compiled {fast:.1f} us/decision, "
        f"python {slow:.1f} us/decision, x{slow / fast:.1f} "
        f"({compiled[0][1]} decisions a repetition)"
    )


if __name__ == "__main__":
    main()
