"""The triangle games' step API: the compiled paths against the Python engine, interleaved.

    python bench/triangle_step.py [--slice 0.3] [--rounds 5] [--players 2]

Random rounds of Triangle Dominoes and Triominoes (dealt positions, every move uniform
among ``legal_moves``, chosen once beforehand and replayed: the timed loop is
``legal = legal_moves(state); state = apply(state, legal[k])`` and nothing else), slice
by slice with the compiled step paths (``engine._step_legal``, ``_step_apply``) and with
them switched off (the Python engine), so that both see the same load.  Prints rounds
per CPU second, median (min - max), and the ratio of each interleaved pair (min /
median / max).  Plain script: asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import bendolib
from bendolib import GameState, apply, engine, legal_moves, new_game

Round = tuple[GameState, tuple[int, ...]]


def rounds(states: list[GameState], rng: random.Random) -> list[Round]:
    """Each dealt state with the indices of a random round's moves."""
    out = []
    for state in states:
        start, choices = state, []
        while not state.is_round_over:
            legal = legal_moves(state)
            choices.append(rng.randrange(len(legal)))
            state = apply(state, legal[choices[-1]])
        out.append((start, tuple(choices)))
    return out


def rate(games: list[Round], compiled: bool, slice_s: float, first: int) -> float:
    saved = engine._step_legal, engine._step_apply
    if not compiled:
        engine._step_legal = engine._step_apply = None
    try:
        count, k = 0, first
        start = time.process_time()
        while time.process_time() - start < slice_s:
            state, choices = games[k % len(games)]
            for index in choices:
                legal = legal_moves(state)
                state = apply(state, legal[index])
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
    print(f"{'rule set':18} {'p':>2} {'compiled rounds/s':>26} {'Python rounds/s':>22} ratio")
    for name in ("triangle-dominoes", "triominoes"):
        rules = bendolib.rules.get(name)
        states = [new_game(rules, args.players, seed=seed) for seed in range(50)]
        games = rounds(states, random.Random(1))
        rate(games, True, 0.5, 0)  # warm the memo tables
        fast, slow, ratios = [], [], []
        for r in range(args.rounds):
            f = rate(games, True, args.slice, 7 * r)
            s = rate(games, False, args.slice, 7 * r)
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
