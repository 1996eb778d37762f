"""The triangle games' step API: the compiled paths against the Python engine, interleaved.

    python bench/triangle_step.py [--slice 0.3] [--rounds 5] [--players 2]

Random playouts (every move uniform among ``legal_moves``, ``apply`` a new state each
move, from the same dealt positions) of Triangle Dominoes and Triominoes, slice by slice
with the compiled step paths (``engine._step_legal``, ``_step_apply``) and with them
switched off (the Python engine), so that both see the same load.  Prints playouts per
CPU second, median (min - max), and the ratio of each interleaved pair (min / median /
max).  Plain script: asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import bendolib
from bendolib import GameState, apply, engine, legal_moves, new_game


def rate(states: list[GameState], compiled: bool, slice_s: float, rng: random.Random) -> float:
    saved = engine._step_legal, engine._step_apply
    if not compiled:
        engine._step_legal = engine._step_apply = None
    try:
        count, k = 0, rng.randrange(len(states))
        start = time.process_time()
        while time.process_time() - start < slice_s:
            state = states[k % len(states)]
            while not state.is_round_over:
                legal = legal_moves(state)
                state = apply(state, legal[rng.randrange(len(legal))])
            count += 1
            k += 1
        return count / (time.process_time() - start)
    finally:
        engine._step_legal, engine._step_apply = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--slice", type=float, default=0.3, help="CPU seconds per turn")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    if engine._step_legal is None:
        print("the compiled kernel is not loaded: nothing to compare")
        return
    print(f"{'rule set':18} {'p':>2} {'compiled playouts/s':>26} {'Python playouts/s':>22} ratio")
    for name in ("triangle-dominoes", "triominoes"):
        rules = bendolib.rules.get(name)
        states = [new_game(rules, args.players, seed=seed) for seed in range(50)]
        rng = random.Random(1)
        rate(states, True, 0.5, rng)  # warm the memo tables
        fast, slow, ratios = [], [], []
        for _ in range(args.rounds):
            f = rate(states, True, args.slice, rng)
            s = rate(states, False, args.slice, rng)
            fast.append(f)
            slow.append(s)
            ratios.append(f / s)
        print(
            f"{name:18} {args.players:>2} {statistics.median(fast):>8,.0f} "
            f"({min(fast):,.0f} - {max(fast):,.0f}) {statistics.median(slow):>6,.0f} "
            f"({min(slow):,.0f} - {max(slow):,.0f}) {min(ratios):.2f}x / "
            f"{statistics.median(ratios):.2f}x / {max(ratios):.2f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
