"""
The testing kit's runtime per registered rule set (docs/testing.md, "Runtime per rule set").

For each rule set: ``check_ruleset(rules)`` with its defaults, then
``check_ruleset(rules, invariants=["plays the same every time"])``; prints a Markdown row
each: the rule set, whether every invariant held, the moves played, the seconds of each
run (CPU of this process / wall) and the load average.

    PYTHONPATH=src python bench/kit_runtime.py

``python bench/kit_runtime.py --runs 3 triominoes`` times ``check_ruleset(rules)`` of the
rule sets named, 3 times each, and prints the CPU seconds' min / median / max.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import bendolib
from bendolib.testing import check_ruleset
from bendolib.testing import invariants as inv


def repeated(names: list[str], runs: int) -> None:
    """CPU seconds of ``check_ruleset(rules)``, ``runs`` times per rule set: min / median / max."""
    for name in names:
        rules = bendolib.rules.get(name)
        seconds = []
        for _ in range(runs):
            c0 = time.process_time()
            report = check_ruleset(rules)
            seconds.append(time.process_time() - c0)
        print(
            f"| {name} | {report.ok} | {report.moves} | {min(seconds):.1f} / "
            f"{statistics.median(seconds):.1f} / {max(seconds):.1f} | "
            f"{os.getloadavg()[0]:.1f} |",
            flush=True,
        )


def main() -> None:
    """Time the kit on every registered rule set."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="rule sets (default: every registered one)")
    parser.add_argument("--runs", type=int, default=1, help="runs per rule set")
    args = parser.parse_args()
    if args.runs > 1:
        repeated(args.names or list(bendolib.rules.names()), args.runs)
        return
    for name in args.names or bendolib.rules.names():
        rules = bendolib.rules.get(name)
        c0, w0 = time.process_time(), time.perf_counter()
        report = check_ruleset(rules)
        c1, w1 = time.process_time(), time.perf_counter()
        check_ruleset(rules, invariants=[inv.REPLAYS])
        c2, w2 = time.process_time(), time.perf_counter()
        load = os.getloadavg()[0]
        print(
            f"| {name} | {report.ok} | {report.moves} | {c1 - c0:.1f} / {w1 - w0:.1f} "
            f"| {c2 - c1:.1f} / {w2 - w1:.1f} | {load:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
