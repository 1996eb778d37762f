"""
The testing kit's runtime per registered rule set (docs/testing.md, "Runtime per rule set").

For each rule set: ``check_ruleset(rules)`` with its defaults, then
``check_ruleset(rules, invariants=["plays the same every time"])``; prints a Markdown row
each: the rule set, whether every invariant held, the moves played, the seconds of each
run (CPU of this process / wall) and the load average.

    PYTHONPATH=src python bench/kit_runtime.py
"""

from __future__ import annotations

import os
import time

import bendolib
from bendolib.testing import check_ruleset
from bendolib.testing import invariants as inv


def main() -> None:
    """Time the kit on every registered rule set."""
    for name in bendolib.rules.names():
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
