"""
How fast the testing kit catches the bugs planted in ``tests/planted_bugs.py``.

For every planted bug, each tool that applies is run until it reports the bug:
``check_ruleset`` (then ``minimise``) and ``api_state_machine`` for a broken rule set,
``check_bot`` and ``bot_state_machine`` for a broken bot.  Prints a Markdown table: the
check that named the bug, the seconds to catch it (CPU time of this process, and wall
time), and the length of the reported counterexample in moves (for a machine: the moves
in the failing step's report, after hypothesis has shrunk it).

    PYTHONPATH=src python bench/planted_bugs.py            # every bug, every tool
    PYTHONPATH=src python bench/planted_bugs.py --quick    # the checkers only
    PYTHONPATH=src python bench/planted_bugs.py --only "lowest side wins"

The machines run with ``max_examples=300, stateful_step_count=20``, derandomized.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bendolib.testing import (
    api_state_machine,
    bot_state_machine,
    check_bot,
    check_ruleset,
    minimise,
)
from planted_bugs import Planted, planted


def _timed(run: Callable[[], object]) -> tuple[object, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = run()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def _machine(machine: type[RuleBasedStateMachine]) -> tuple[str, int | None]:
    machine.TestCase.settings = settings(
        machine.TestCase.settings,
        max_examples=300,
        stateful_step_count=20,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    try:
        machine.TestCase().runTest()
    except AssertionError as exc:
        text = str(exc)
        moves = re.search(r"after (\d+) moves", text)
        choices = re.search(r"choices=\[([^\]]*)\]", text)
        length = int(moves.group(1)) if moves else None
        if length is None and choices is not None:
            length = len([c for c in choices.group(1).split(",") if c.strip()])
        return text.split(":")[0], length
    return "not caught", None  # printed as "-"


def rows(bug: Planted, quick: bool) -> list[str]:
    """The table's rows for one bug: one per tool."""
    out = []
    if bug.is_bot:
        report, cpu, wall = _timed(lambda: check_bot(bug.bot, bug.rules, max_moves=60))
        assert hasattr(report, "violation")
        found = report.violation
        named = found.invariant if found else "not caught"
        length = len(found.moves) if found else "-"
        out.append(f"| check_bot | {named} | {cpu:.2f} / {wall:.2f} | {length} |")
        if not quick:
            (named, length), cpu, wall = _timed(  # type: ignore[misc]
                lambda: _machine(bot_state_machine(bug.bot, bug.rules))
            )
            shown = "-" if length is None else length
            out.append(f"| bot_state_machine | {named} | {cpu:.1f} / {wall:.1f} | {shown} |")
        return out
    fresh = next(p for p in planted() if p.name == bug.name)
    report, cpu, wall = _timed(lambda: check_ruleset(fresh.rules, games=20, seed=0))
    assert hasattr(report, "violation")
    found = report.violation
    if found is None:
        out.append(f"| check_ruleset | not caught | {cpu:.2f} / {wall:.2f} | - |")
    else:
        short, mcpu, _ = _timed(lambda: minimise(fresh.rules, found))
        assert hasattr(short, "moves")
        out.append(
            f"| check_ruleset | {found.invariant} | {cpu:.2f} / {wall:.2f} | {len(found.moves)}"
            f" (minimised: {len(short.moves)} in {mcpu:.1f} s) |"
        )
    if not quick and "api_state_machine" in bug.tools:
        fresh = next(p for p in planted() if p.name == bug.name)
        machine = api_state_machine(fresh.rules)
        (named, length), cpu, wall = _timed(partial(_machine, machine))  # type: ignore[misc]
        shown = "-" if length is None else length
        out.append(f"| api_state_machine | {named} | {cpu:.1f} / {wall:.1f} | {shown} |")
    return out


def main() -> None:
    """Run every planted bug through the tools and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the checkers only")
    parser.add_argument("--only", action="append", help="a planted bug's name (repeatable)")
    args = parser.parse_args()
    print("| area | planted bug | expected | tool | named | seconds (CPU / wall) | moves |")
    print("|---|---|---|---|---|---|---|")
    for bug in planted():
        if args.only and bug.name not in args.only:
            continue
        random.seed(25)  # the bugs that use the global random draw the same on every run
        for row in rows(bug, args.quick):
            print(f"| {bug.area} | {bug.name} | {bug.invariant} {row}", flush=True)


if __name__ == "__main__":
    main()
