"""Compiled-kernel playouts against the Python step API, interleaved, every rule set.

    python bench/kernel.py [--slice 0.3] [--rounds 5] [--rules basic,classic-block] [--json]

For each rule set and allowed player count, two engines play random playouts (every
move uniform among the legal ones, to the end of the round) from the same dealt
positions, taking turns slice by slice so that both see the same machine load:

* ``kernel``: :func:`bendolib.playouts.playouts` (the compiled kernel when it is built),
  ``--batch`` playouts per call, deals rotating;
* ``step``: the Python step API, ``legal_moves`` + ``apply`` with ``random.Random``,
  a new immutable state every move, from the same deals (with ``--python-step``, its
  compiled paths switched off: the Python engine alone).

Dealing is outside both (every playout starts from a dealt state, as a search's do).
Prints playouts per CPU second (``time.process_time``) as median (min - max) over the
rounds, and the ratio kernel / step of each round (median, min - max).  Plain script:
asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

import bendolib
from bendolib import GameState, apply, legal_moves, new_game
from bendolib import playouts as kernel_api


def deals(rules: bendolib.RuleSet, players: int, count: int = 50) -> list[GameState]:
    return [new_game(rules, players, seed=seed) for seed in range(count)]


def kernel_runner(states: list[GameState], batch: int) -> Callable[[int], int]:
    def run(k: int) -> int:
        return len(kernel_api.playouts(states[k % len(states)], batch, seed=k))

    return run


def step_runner(states: list[GameState]) -> Callable[[int], int]:
    rng = random.Random(1)

    def run(k: int) -> int:
        state = states[k % len(states)]
        while not state.is_round_over:
            legal = legal_moves(state)
            state = apply(state, legal[rng.randrange(len(legal))])
        return 1

    return run


def rate(run: Callable[[int], int], slice_s: float, start_at: int) -> float:
    count = 0
    k = start_at
    start = time.process_time()
    while time.process_time() - start < slice_s:
        count += run(k)
        k += 1
    return count / (time.process_time() - start)


def spread(values: list[float]) -> tuple[float, float, float]:
    return min(values), statistics.median(values), max(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slice", type=float, default=0.3, help="CPU seconds per turn")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch", type=int, default=200, help="kernel playouts per call")
    parser.add_argument("--rules", default=",".join(bendolib.rules.names()))
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--python-step",
        action="store_true",
        help="the step side without its compiled paths (the Python engine)",
    )
    args = parser.parse_args()
    if args.python_step:
        from bendolib import engine as steps

        steps._step_legal = steps._step_apply = None
    if not args.json:
        engine = "compiled kernel" if kernel_api.KERNEL else "Python engine (no kernel)"
        print(f"bendolib.playouts runs on the {engine}")
        print(
            f"{'rule set':24} {'p':>2} {'kernel playouts/s':>30} {'step API playouts/s':>26} "
            f"{'kernel / step':>24}"
        )
    rows = []
    for name in args.rules.split(","):
        rules = bendolib.rules.get(name)
        for players in rules.player_counts:
            states = deals(rules, players)
            kernel, step = kernel_runner(states, args.batch), step_runner(states)
            kernel(0), step(0)  # warm the memo tables
            kernel_rates, step_rates, ratios = [], [], []
            for r in range(args.rounds):
                k = rate(kernel, args.slice, 1000 * r)
                s = rate(step, args.slice, 1000 * r)
                kernel_rates.append(k)
                step_rates.append(s)
                ratios.append(k / s)
            row = {
                "rules": name,
                "players": players,
                "kernel": spread(kernel_rates),
                "step": spread(step_rates),
                "ratio": spread(ratios),
                "fallback": kernel_api.kernel_reason(rules, players),
            }
            rows.append(row)
            if not args.json:
                (k0, k1, k2), (s0, s1, s2), (r0, r1, r2) = row["kernel"], row["step"], row["ratio"]
                print(
                    f"{name:24} {players:>2} {k1:>10,.0f} ({k0:,.0f} - {k2:,.0f})"
                    f" {s1:>8,.0f} ({s0:,.0f} - {s2:,.0f}) {r1:>7.1f}x ({r0:.1f} - {r2:.1f})",
                    flush=True,
                )
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
