"""CPU time of the same random rounds, for comparing two versions of the code.

    python bench/fixed_rounds.py [--rules basic,classic-block] [--rounds 150]

Plays ``--rounds`` 2-player rounds of each rule set (seeds 0, 1, ...; moves chosen by
``random.Random(7)``) after 50 rounds of warm-up, three times, and prints the fastest
time in CPU milliseconds and the number of moves.  Run it alternately under two source
trees (``PYTHONPATH=<tree>/src``) and compare the minima: they are the least disturbed
by other load.  Plain script: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time

import bendolib


def run(name: str, rounds: int) -> tuple[float, int]:
    """CPU seconds and moves of ``rounds`` random 2-player rounds of ``name``."""
    rules = bendolib.rules.get(name)
    rng = random.Random(7)
    moves = 0
    start = time.process_time()
    for seed in range(rounds):
        state = bendolib.new_game(rules, 2, seed)
        while not state.is_round_over:
            legal = bendolib.legal_moves(state)
            state = bendolib.apply(state, legal[rng.randrange(len(legal))])
            moves += 1
    return time.process_time() - start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="basic,classic-block")
    parser.add_argument("--rounds", type=int, default=150)
    args = parser.parse_args()
    for name in args.rules.split(","):
        run(name, 50)  # warm the memo tables up
        best = min(run(name, args.rounds)[0] for _ in range(3))
        print(f"{name} {best * 1e3:.1f} ms {run(name, args.rounds)[1]} moves")


if __name__ == "__main__":
    main()
