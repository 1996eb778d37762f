"""Soak run: millions of random moves of every rule set and player count, every invariant checked.

Runs :func:`bendolib.testing.check_ruleset` in batches over every registered rule set and
every player count it allows, sharing ``--moves`` equally between those combinations,
on ``--jobs`` worker processes, until each has played its share.  Stops at the first
violated invariant and prints it with the seed and moves that reproduce it (exit 1).

    PYTHONPATH=src python bench/soak.py --moves 1000000 --jobs 2

Not part of the test suite (it takes a while); docs/testing.md records the last run.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

import attrs

import bendolib
from bendolib.rng import derive_seed
from bendolib.testing import CheckReport, check_ruleset
from bendolib.testing.checker import DEFAULT_SPACING


@attrs.frozen
class Cell:
    """One rule set and player count, and its share of the moves."""

    index: int
    rules: str
    players: int


@attrs.define
class Tally:
    games: int = 0
    rounds: int = 0
    moves: int = 0
    batches: int = 0


def run_batch(
    cell: Cell, batch: int, seed: int, games: int, spacing: dict[str, int]
) -> CheckReport:
    """Check ``games`` games of one cell; the batch's seed derives from the run's."""
    rules = bendolib.rules.get(cell.rules)
    return check_ruleset(
        rules,
        games=games,
        seed=derive_seed(seed, cell.index, batch),
        players=cell.players,
        spacing=spacing,
    )


def parse_spacing(items: Sequence[str]) -> dict[str, int]:
    """``name=n`` pairs (names as in DEFAULT_SPACING, spaces written as '-')."""
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        out[name.replace("-", " ")] = int(value)
    return out


def cells(names: Sequence[str]) -> list[Cell]:
    out: list[Cell] = []
    for name in names:
        for players in bendolib.rules.get(name).player_counts:
            out.append(Cell(len(out), name, players))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1_000_000, help="total moves (default 1e6)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
    parser.add_argument("--games", type=int, default=10, help="games per batch (default 10)")
    parser.add_argument("--rules", nargs="*", help="rule sets (default: every registered one)")
    parser.add_argument(
        "--spacing",
        nargs="*",
        default=[],
        help="check a costly invariant in every n-th state, e.g. sampling-consistency=64 "
        f"(defaults: {dict(DEFAULT_SPACING)})",
    )
    args = parser.parse_args(argv)
    spacing = {**DEFAULT_SPACING, **parse_spacing(args.spacing)}

    names = args.rules or list(bendolib.rules.names())
    todo = cells(names)
    share = -(-args.moves // len(todo))
    tallies = {cell: Tally() for cell in todo}
    print(
        f"soak: {len(names)} rule sets, {len(todo)} (rule set, players) combinations, "
        f"{share} moves each, {args.jobs} jobs, seed {args.seed}, spacing {spacing}",
        flush=True,
    )
    start = time.perf_counter()
    violation = None
    checked: dict[str, int] = {}
    pending: dict[Future[CheckReport], Cell] = {}
    with ProcessPoolExecutor(args.jobs) as pool:

        def submit(cell: Cell) -> None:
            tally = tallies[cell]
            future = pool.submit(run_batch, cell, tally.batches, args.seed, args.games, spacing)
            tally.batches += 1
            pending[future] = cell

        for cell in todo:
            submit(cell)
        last_report = start
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                cell = pending.pop(future)
                report = future.result()
                tally = tallies[cell]
                tally.games += report.games
                tally.rounds += report.rounds
                tally.moves += report.moves
                for name, n in report.checks:
                    checked[name] = checked.get(name, 0) + n
                if report.violation is not None and violation is None:
                    violation = report
                if violation is None and tally.moves < share:
                    submit(cell)
            if violation is not None:
                for future in pending:
                    future.cancel()
                break
            now = time.perf_counter()
            if now - last_report > 30:
                total = sum(t.moves for t in tallies.values())
                print(f"  {total:>10,} moves  {now - start:7.0f} s", flush=True)
                last_report = now
    elapsed = time.perf_counter() - start

    print(f"\n{'rule set':24} {'players':>7} {'games':>7} {'rounds':>7} {'moves':>9}")
    for cell, tally in tallies.items():
        print(
            f"{cell.rules:24} {cell.players:>7} {tally.games:>7} {tally.rounds:>7} "
            f"{tally.moves:>9,}"
        )
    games = sum(t.games for t in tallies.values())
    rounds = sum(t.rounds for t in tallies.values())
    moves = sum(t.moves for t in tallies.values())
    print(
        f"\ntotal: {moves:,} moves, {rounds:,} rounds, {games:,} games; "
        f"{len(names)} rule sets, {len(todo)} combinations; {elapsed:.0f} s "
        f"({moves / elapsed:,.0f} moves/s on {args.jobs} jobs)"
    )
    print("checks: " + ", ".join(f"{name} {n:,}" for name, n in checked.items()))
    if violation is not None:
        print(f"\nVIOLATION\n{violation}", file=sys.stderr)
        return 1
    print("violations: 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
