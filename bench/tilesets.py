"""The cost of a decision and of a playout by tile set, double-6 to double-30 and
triangles 0-4 to 0-8: the compiled kernel against the Python engine (issue 24 point 2).

    PYTHONPATH=src python bench/tilesets.py [--rules basic,classic-draw]
        [--triangles triangle-dominoes,triominoes] [--players 2] [--rounds 5]
        [--count 1000] [--python-count 20] [--tops 6,9,12,15,22,30]

For each rule set of ``--rules`` and double-N set of its geometry's tiles (double-6: 28
tiles and double-9: 55 in ``bendolib._kernel``; double-12: 91 in
``bendolib._kernel_wide``; double-15: 136 in ``bendolib._kernel_huge``; double-22: 276
and double-30: 496 in ``bendolib._kernel_vast``; ``--tops`` picks the sets), and for
each triangle rule set of ``--triangles`` and triangle set (triangles 0-4 with mirrors:
45 tiles in ``bendolib._kernel``; 0-5 with mirrors: 76 and 0-6: 84 in
``bendolib._kernel_wide``; 0-8: 165 in ``bendolib._kernel_huge``; ``--triangles ""``
leaves them out) it times random playouts from a fresh deal to the end of the round,
two ways, taking turns round after round so that both see the same load:

* ``kernel``: ``bendolib.playouts.playouts``, ``--count`` playouts in one call (a set
  that falls back to the Python engine, where a build is missing, says so in its row);
* ``python``: ``bendolib.playouts.reference_playouts``, ``--python-count`` playouts, the
  Python engine (the specification).

Each round deals a new state (seed = round) for both.  Per round and side: CPU
microseconds (``time.process_time``) per playout and per decision (a move of a playout,
``Outcome.moves``), and the ratio python / kernel per decision; the script prints min /
median / max over the rounds.  Plain script: asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import bendolib
from bendolib import new_game
from bendolib.errors import KernelFallbackWarning
from bendolib.playouts import kernel_reason, playouts, reference_playouts
from bendolib.tiles import TileSet

TOPS = "6,9,12,15,22,30"
#: The triangle sets, by (highest number, mirrors): 45, 76, 84 and 165 tiles.
TRIANGLE_SETS = ((4, True), (5, True), (6, False), (8, False))


def on_double(name: str, top: int) -> bendolib.RuleSet:
    """Rule set ``name`` with the double-``top`` set of its geometry's tiles."""
    rules = bendolib.rules.get(name)
    tiles = TileSet.double(top, straight=not rules.geometry.uses_bends)
    return rules.configure(f"{name}-d{top}", tileset=tiles)


def on_triangles(name: str, top: int, mirrors: bool) -> bendolib.RuleSet:
    """Triangle rule set ``name`` with ``TileSet.triangles(top, mirrors=mirrors)``."""
    tiles = TileSet.triangles(top, mirrors=mirrors)
    return bendolib.rules.get(name).configure(f"{name}-t{len(tiles)}", tileset=tiles)


def timed(play: Callable[[], Any]) -> tuple[float, int, int]:
    """CPU seconds, playouts and moves of one call of ``play``."""
    start = time.process_time()
    outcomes = play()
    return time.process_time() - start, len(outcomes), sum(o.moves for o in outcomes)


def spread(values: list[float], digits: int = 2) -> str:
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{mid:.{digits}f} ({low:.{digits}f} - {high:.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="basic,classic-draw")
    parser.add_argument("--triangles", default="triangle-dominoes,triominoes")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--python-count", type=int, default=20)
    parser.add_argument("--tops", default=TOPS, help="the double-N sets, comma separated")
    args = parser.parse_args()
    warnings.simplefilter("ignore", KernelFallbackWarning)
    print(
        f"random playouts from a fresh deal, {args.players} players, {args.rounds} rounds "
        f"(kernel: {args.count} a call; python: {args.python_count}); "
        "CPU us, median (min - max) over the rounds"
    )
    header = (
        f"{'rules':<22} {'tiles':>5}  {'side':<18} {'us/playout':>25} "
        f"{'us/decision':>25} {'python/kernel':>25}"
    )
    print(header)
    sets = [
        (f"{name}-d{top}", on_double(name, top))
        for name in args.rules.split(",")
        if name
        for top in (int(top) for top in args.tops.split(","))
    ]
    sets += [
        (f"{name}-t{top}{'m' if mirrors else ''}", on_triangles(name, top, mirrors))
        for name in args.triangles.split(",")
        if name
        for top, mirrors in TRIANGLE_SETS
    ]
    for label, rules in sets:
        reason = kernel_reason(rules, args.players)
        per: dict[str, tuple[list[float], list[float]]] = {
            "kernel": ([], []),
            "python": ([], []),
        }
        ratios: list[float] = []
        for k in range(args.rounds):
            state = new_game(rules, args.players, seed=k)
            # (a fallback plays as many playouts as the Python side: the same engine)
            count = args.count if reason is None else args.python_count
            sides: dict[str, Callable[[], Any]] = {
                "kernel": partial(playouts, state, count, seed=k),
                "python": partial(reference_playouts, state, args.python_count, seed=k),
            }
            order = ("kernel", "python") if k % 2 == 0 else ("python", "kernel")
            decision: dict[str, float] = {}
            for side in order:
                seconds, count, moves = timed(sides[side])
                per[side][0].append(1e6 * seconds / count)
                per[side][1].append(1e6 * seconds / moves)
                decision[side] = seconds / moves
            ratios.append(decision["python"] / decision["kernel"])
        for side in ("kernel", "python"):
            shown = side if side == "python" or reason is None else "kernel (fallback)"
            ratio = spread(ratios) if side == "kernel" else ""
            print(
                f"{label:<22} {len(rules.tileset):>5}  {shown:<18} "
                f"{spread(per[side][0]):>25} {spread(per[side][1], 3):>25} {ratio:>25}"
            )
        if reason is not None:
            print(f"{'':<22} {'':>5}  ({reason})")


if __name__ == "__main__":
    main()
