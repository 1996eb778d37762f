"""The bot arena in numbers (issue 26): a process bot's long run, a league's time.

    python bench/arena.py protocol [--matches 1000] [--jobs 2] [--rules basic] [--misbehave 0.01]
    python bench/arena.py league [--bots 6] [--matches 600] [--jobs 2]

``protocol`` plays ``--matches`` matches of the reference client of docs/protocol.md
(examples/protocol/heaviest_bot.py, a separate process per worker) against greedy and
prints the time, the moves and the forfeits: every match must end (no hang).  With
``--misbehave P`` its opponent is a second copy of the client that answers late on a
fraction P of its decisions (0.2 s per move allowed), so the forfeit path runs too.

``league`` plays a round robin of ``--bots`` cheap bots (random and greedy, alternately)
with progress on stderr, Ctrl-C stopping it like ``bendolib league``, and prints its
time and table.  Plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from bendolib import bots
from bendolib.bots import ProcessBot
from bendolib.league import LeagueInterrupted, run_league
from bendolib.runner import SerialExecutor, process_pool
from bendolib.tournament import run_tournament

CLIENT = Path(__file__).resolve().parents[1] / "examples" / "protocol" / "heaviest_bot.py"


def _progress(done: int, total: int) -> None:
    print(f"\r{done}/{total}", end="", file=sys.stderr, flush=True)


def protocol(args: argparse.Namespace) -> None:
    heaviest = ProcessBot([sys.executable, str(CLIENT)], move_time=args.move_time)
    entrants: list[Any] = [heaviest, "greedy"]
    if args.misbehave:
        # The same client answering late on a fraction of its decisions: forfeits.
        late = [sys.executable, str(CLIENT), "--late", str(args.misbehave)]
        entrants = [heaviest, ProcessBot(late, move_time=0.2, name="late")]
    pool = SerialExecutor() if args.jobs == 1 else process_pool(args.jobs)
    start = time.perf_counter()
    result = run_tournament(args.rules, entrants, args.matches, args.seed, pool, _progress)
    elapsed = time.perf_counter() - start
    pool.shutdown()
    print(file=sys.stderr)
    forfeits = [r for r in result.records if r.forfeit >= 0]
    moves = sum(r.moves for r in result.records)
    print(result.table())
    print(
        f"{len(result.records)} matches, {moves} moves, {len(forfeits)} forfeits, "
        f"{elapsed:.1f} s wall-clock ({args.jobs} jobs), "
        f"{elapsed / max(1, len(result.records)) * 1000:.1f} ms per match"
    )
    reasons: dict[str, int] = {}
    for r in forfeits:
        reasons[r.reason] = reasons.get(r.reason, 0) + 1
    for reason, count in sorted(reasons.items()):
        print(f"  {count} x {reason}")


def league(args: argparse.Namespace) -> None:
    entrants = [bots.get("random" if i % 2 else "greedy") for i in range(args.bots)]
    pool = SerialExecutor() if args.jobs == 1 else process_pool(args.jobs)
    start = time.perf_counter()
    try:
        result = run_league(args.rules, entrants, args.matches, args.seed, executor=pool,
                            progress=_progress)  # fmt: skip
    except LeagueInterrupted as stop:
        result = stop.result
    elapsed = time.perf_counter() - start
    pool.shutdown()
    print(file=sys.stderr)
    print(result.table())
    print(
        f"{len(result.records)} of {args.matches} matches, {len(result.tables)} tables, "
        f"{elapsed:.1f} s wall-clock ({args.jobs} jobs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    first = sub.add_parser("protocol")
    first.add_argument("--matches", type=int, default=1000)
    first.add_argument("--move-time", type=float, default=2.0)
    first.add_argument("--misbehave", type=float, default=0.0)
    second = sub.add_parser("league")
    second.add_argument("--bots", type=int, default=6)
    second.add_argument("--matches", type=int, default=600)
    for each in (first, second):
        each.add_argument("--jobs", type=int, default=2)
        each.add_argument("--rules", default="basic")
        each.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    protocol(args) if args.what == "protocol" else league(args)


if __name__ == "__main__":
    main()
