"""What each loader costs as its input grows: time and peak memory at 1x, 4x and 16x.

    PYTHONPATH=src python bench/cost.py [--repeat 3]

For every reader of outside input (position text, records, rule specs, move notation) it
builds a valid input at three sizes, about 1x, 4x and 16x, and a few malformed ones (a
huge text, deep nesting, a number of thousands of digits), then prints the input's size
in characters, the best time of ``--repeat`` runs (CPU, ``time.process_time``) and the
peak memory allocated while reading (``tracemalloc``, in a separate run), with each
figure's ratio to the 1x one.  Cost in proportion to the input means ratios near the
size ratios (4, 16) or below; a reader that is quadratic shows 16 and 256.

Plain script: it prints figures and asserts nothing (docs/records.md, "Limits", quotes
its output).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import bendolib
from bendolib import BendolibError, position_text, records
from bendolib._rule_spec import rules_from_spec, rules_to_spec
from bendolib.notation import parse_pattern
from bendolib.tiles import TileSet

#: double-N sets of 36, 136 and 528 tiles (about 1x, 4x and 16x).
TOPS = (7, 15, 31)


def big_rules(top: int) -> bendolib.RuleSet:
    """basic with a double-``top`` curved set."""
    return bendolib.rules.get("basic").configure(f"basic-{top}", tileset=TileSet.double(top))


def played(rules: bendolib.RuleSet, moves: int, seed: int = 1) -> bendolib.GameState:
    """A state after ``moves`` moves, always the first legal one."""
    state = bendolib.new_game(rules, 2, seed)
    for _ in range(moves):
        if state.is_game_over:
            break
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    return state


def long_match(rounds: int) -> bendolib.GameState:
    """A classic-block match of ``rounds`` rounds (the target never reached)."""
    rules = bendolib.rules.get("classic-block", target=10**9)
    state = bendolib.new_game(rules, 2, 1)
    while state.round_number < rounds or not state.is_round_over:
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    return state


def measure(call: Callable[[], Any], repeat: int) -> tuple[float, int]:
    """Best CPU seconds of ``repeat`` runs, and the peak bytes traced in one more."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        _quietly(call)
        best = min(best, time.process_time() - start)
    tracemalloc.start()
    _quietly(call)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak


def _quietly(call: Callable[[], Any]) -> None:
    # a malformed input is refused: the cost of refusing it is what is measured
    with contextlib.suppress(BendolibError):
        call()


def cases() -> list[tuple[str, list[tuple[str, Callable[[], Any]]]]]:
    """Each loader's inputs at 1x, 4x and 16x, as (label, call) pairs."""
    out: list[tuple[str, list[tuple[str, Callable[[], Any]]]]] = []

    positions = [position_text.dumps(played(big_rules(top), 20)) for top in TOPS]
    out.append(
        ("position_text.loads (tiles)", [(p, _call(position_text.loads, p)) for p in positions])
    )
    matches = [position_text.dumps(long_match(n)) for n in (50, 200, 800)]
    out.append(
        ("position_text.loads (rounds)", [(p, _call(position_text.loads, p)) for p in matches])
    )
    garbage = ["basic players=2 hands=" + "9-9," * (2_000 * k) for k in (1, 4, 16)]
    out.append(
        ("position_text.loads (bad tile)", [(g, _call(position_text.loads, g)) for g in garbage])
    )
    huge = ["basic " + "x" * (1_000_000 * k) for k in (1, 4, 16)]
    out.append(
        ("position_text.loads (too big)", [(h, _call(position_text.loads, h)) for h in huge])
    )

    tile_records = [records.dump(played(big_rules(top), 20)) for top in TOPS]
    out.append(("records.load (tiles)", [(r, _call(records.load, r)) for r in tile_records]))
    round_records = [records.dump(long_match(n)) for n in (50, 200, 800)]
    out.append(("records.load (rounds)", [(r, _call(records.load, r)) for r in round_records]))
    out.append(
        (
            "records.load+replay (rounds)",
            [(r, _call(lambda t: records.replay(records.load(t)), r)) for r in round_records],
        )
    )
    nested = ["[" * (100_000 * k) for k in (1, 4, 16)]
    out.append(("records.load (nesting)", [(n, _call(records.load, n)) for n in nested]))
    digits = [
        records.dump(played(bendolib.rules.get("basic"), 2)).replace(
            '"seed": 1', '"seed": ' + "9" * (5_000 * k)
        )
        for k in (1, 4, 16)
    ]
    out.append(("records.load (long number)", [(d, _call(records.load, d)) for d in digits]))

    specs = [json.dumps(rules_to_spec(big_rules(top))) for top in TOPS]
    out.append(
        (
            "records.rules_from_spec (tiles)",
            [(s, _call(lambda t: rules_from_spec(json.loads(t)), s)) for s in specs],
        )
    )
    moves = ["6-6@" + "1" * n + "L" for n in (5, 20, 80)]
    out.append(("notation.parse_pattern", [(m, _call(parse_pattern, m)) for m in moves]))
    return out


def _call(function: Callable[[str], Any], text: str) -> Callable[[], Any]:
    return lambda: function(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per input (best kept)")
    args = parser.parse_args()
    print(f"{'loader':34} {'chars':>11} {'x':>6} {'ms':>9} {'x':>6} {'peak KB':>10} {'x':>6}")
    for name, inputs in cases():
        base: tuple[int, float, int] | None = None
        for text, call in inputs:
            seconds, peak = measure(call, args.repeat)
            size = len(text)
            if base is None:
                base = (size, seconds, peak)
            ratios = (size / base[0], seconds / max(base[1], 1e-9), peak / max(base[2], 1))
            print(
                f"{name:34} {size:>11,} {ratios[0]:>6.1f} {seconds * 1000:>9.2f} "
                f"{ratios[1]:>6.1f} {peak / 1024:>10,.0f} {ratios[2]:>6.1f}"
            )
            name = ""


if __name__ == "__main__":
    main()
