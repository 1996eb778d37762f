"""Tournament speed-up with worker processes, and self-play decisions per second, serial,
in a process pool and on a local Dask cluster (docs/bots.md).

    python bench/scaling.py [--matches 200] [--games 40] [--workers 2] [--repeat 3]

Each figure is measured ``--repeat`` times and printed as min / median / max.  The local
cluster is ``distributed.LocalCluster`` with ``--workers`` worker processes of one thread
on 127.0.0.1 (needs ``bendolib[dask]``).  Plain script: it prints figures and asserts
nothing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from bendolib import selfplay
from bendolib.runner import SerialExecutor, process_pool
from bendolib.tournament import run_tournament


def _spread(values: list[float]) -> str:
    return f"{min(values):.1f} / {statistics.median(values):.1f} / {max(values):.1f}"


def _timed(run: Callable[[], Any], repeat: int) -> tuple[list[float], Any]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - start)
    return times, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=args.workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )
    client = Client(cluster)
    pool = process_pool(args.workers)
    executors: dict[str, Executor] = {
        "serial": SerialExecutor(),
        f"{args.workers} processes": pool,
        f"dask, {args.workers} workers": client.get_executor(),
    }
    bots = ["greedy", "random"]
    print(f"tournament, {args.matches} matches of greedy vs random (basic), seconds:")
    reference = None
    serial_median = 0.0
    for label, executor in executors.items():

        def tournament(executor: Executor = executor) -> Any:
            return run_tournament("basic", bots, args.matches, seed=1, executor=executor)

        times, result = _timed(tournament, args.repeat)
        reference = reference or result.to_dict()
        same = result.to_dict() == reference
        median = statistics.median(times)
        serial_median = serial_median or median
        print(f"  {label:18} {_spread(times)}  speed-up {serial_median / median:.2f}  same: {same}")
    print(f"self-play, {args.games} games of greedy vs greedy (basic, npz), decisions/s:")
    for label, executor in executors.items():

        def play(executor: Executor = executor) -> Any:
            folder = tempfile.mkdtemp()
            return selfplay.selfplay(
                "basic",
                ["greedy", "greedy"],
                args.games,
                folder,
                seed=1,
                shard_games=10,
                file_format="npz",
                executor=executor,
            )

        times, summary = _timed(play, args.repeat)
        rates = [summary.decisions / t for t in times]
        print(f"  {label:18} {_spread(rates)}  ({summary.decisions} decisions)")
    pool.shutdown()
    client.close()
    cluster.close()


if __name__ == "__main__":
    main()
