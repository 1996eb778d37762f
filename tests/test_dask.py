"""
Tournaments and self-play on a Dask cluster through ``executor=`` (issue 16, point 5):
a local in-process cluster gives the same results as the serial run; progress and
Ctrl-C work there too.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

distributed: Any = pytest.importorskip("distributed", reason="needs the dask extra")
np: Any = pytest.importorskip("numpy")

from bendolib import rules, selfplay  # noqa: E402
from bendolib.runner import SerialExecutor, parallelism  # noqa: E402
from bendolib.tournament import TournamentInterrupted, run_tournament  # noqa: E402

SHORT = rules.get("basic", target=40)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with distributed.Client(
        processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None
    ) as c:
        yield c


def test_a_tournament_on_the_cluster_equals_the_serial_run(client: Any) -> None:
    executor = client.get_executor()
    assert parallelism(executor) == 2
    seen: list[tuple[int, int]] = []
    on_cluster = run_tournament(
        SHORT,
        ["greedy", "random", "random"],
        12,
        seed=5,
        executor=executor,
        progress=lambda done, total: seen.append((done, total)),
    )
    serial = run_tournament(
        SHORT, ["greedy", "random", "random"], 12, seed=5, executor=SerialExecutor()
    )
    assert on_cluster.to_dict() == serial.to_dict()
    assert seen[-1] == (12, 12)


def test_self_play_on_the_cluster_equals_the_serial_run(client: Any, tmp_path: Path) -> None:
    args = (SHORT, ["greedy", "random"], 4)
    selfplay.selfplay(
        *args,
        tmp_path / "c",
        seed=2,
        shard_games=3,
        file_format="npz",
        executor=client.get_executor(),
    )
    selfplay.selfplay(
        *args, tmp_path / "s", seed=2, shard_games=3, file_format="npz", executor=SerialExecutor()
    )
    on_cluster, serial = selfplay.load(tmp_path / "c"), selfplay.load(tmp_path / "s")
    assert all(np.array_equal(on_cluster[k], serial[k]) for k in selfplay.COLUMNS)


def test_ctrl_c_stops_a_run_on_the_cluster(client: Any) -> None:
    from ctrl_c import give_up_after, pressing_ctrl_c

    # Ctrl-C at 1 s (and again every 2 s; the run gives up after 20 s): a lost press costs
    # seconds here, not the minutes of 100,000 matches (tests/ctrl_c.py)
    with pressing_ctrl_c(1.0) as sent, pytest.raises(TournamentInterrupted) as caught:
        run_tournament(
            SHORT,
            ["greedy", "random"],
            100_000,
            executor=client.get_executor(),
            progress=give_up_after(20),
        )
    assert time.monotonic() - sent[0] < 2.0
    assert 0 < len(caught.value.result.records) < 100_000
    # the cluster is free again: the next run is not queued behind the cancelled one
    again = run_tournament(SHORT, ["greedy", "random"], 2, executor=client.get_executor())
    assert len(again.records) == 2


def test_a_league_on_the_cluster_equals_the_serial_run(client: Any) -> None:
    # Issue 26, point 2: "runnable on the executors run_tournament already takes (Dask
    # included)"; a process bot too (each worker thread starts its own program).
    import sys

    from bendolib.bots import ProcessBot
    from bendolib.league import run_league

    script = Path(__file__).resolve().parents[1] / "examples" / "protocol" / "heaviest_bot.py"
    bot = ProcessBot([sys.executable, str(script)], name="heaviest")
    entrants: list[Any] = ["greedy", "random", bot]
    try:
        cluster = run_league(SHORT, entrants, 12, seed=4, executor=client.get_executor())
        serial = run_league(SHORT, entrants, 12, seed=4, executor=SerialExecutor())
    finally:
        bot.close()
    assert cluster.records == serial.records and len(cluster.records) == 12
    assert all(r.forfeit == -1 for r in cluster.records)
