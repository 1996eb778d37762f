"""Measure the search bot's match win rate against the greedy bot (docs/bots.md).

    python bench/search_vs_greedy.py [--matches 400] [--rules basic] [--worlds 8] [--seed 2026]

Plays a seat-rotated tournament on all CPUs and prints the table and the JSON summary.
Plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import time

from bendolib import bots
from bendolib.tournament import run_tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--rules", default="basic")
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--opponent", default="greedy")
    args = parser.parse_args()
    start = time.perf_counter()
    result = run_tournament(
        args.rules,
        [bots.get("search", worlds=args.worlds), bots.get(args.opponent)],
        args.matches,
        seed=args.seed,
        progress=lambda done, total: print(f"\r{done}/{total}", end="", flush=True),
    )
    elapsed = time.perf_counter() - start
    print()
    print(result.table())
    print(f"{elapsed:.0f} s")
    print(json.dumps({k: v for k, v in result.to_dict().items() if k != "records"}, indent=2))


if __name__ == "__main__":
    main()
