"""Bot strength on the triangle games: greedy vs random and search vs greedy (docs/triangles.md).

    python bench/triangle_bots.py [--matches 100] [--search-matches 20] [--worlds 4] [--seed 2026]

Two players, seats rotated, on all CPUs. Triangle Dominoes plays one round a match (its
rules); Triominoes plays matches to 400 for greedy vs random, and single rounds
(``target=1``) for search vs greedy, whose rollouts run in the compiled kernel
(docs/triangles.md).
Plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import time

from bendolib import bots
from bendolib.rules.triangles import TRIANGLE_DOMINOES, TRIOMINOES
from bendolib.tournament import run_tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--search-matches", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    one_round = TRIOMINOES.configure("triominoes-one-round", target=1)
    runs = [
        ("triangle-dominoes", TRIANGLE_DOMINOES, "greedy", "random", args.matches),
        ("triominoes", TRIOMINOES, "greedy", "random", args.matches),
        ("triangle-dominoes", TRIANGLE_DOMINOES, "search", "greedy", args.search_matches),
        ("triominoes, one round", one_round, "search", "greedy", args.search_matches),
    ]
    for label, rules, first, second, matches in runs:
        entrant = bots.get("search", worlds=args.worlds) if first == "search" else bots.get(first)
        start = time.perf_counter()
        result = run_tournament(rules, [entrant, bots.get(second)], matches, seed=args.seed)
        elapsed = time.perf_counter() - start
        print(f"== {label}: {first} vs {second}, {matches} matches, {elapsed:.0f} s")
        print(result.table())


if __name__ == "__main__":
    main()
