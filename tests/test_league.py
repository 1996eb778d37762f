"""Leagues with ratings (issue 26, point 2): tables, mirrored deals, resuming, Ctrl-C."""

from __future__ import annotations

import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor

import pytest

from bendolib import league, records, rules
from bendolib.bots import GreedyBot, RandomBot
from bendolib.errors import BendolibError
from bendolib.league import (
    LeagueFileError,
    LeagueInterrupted,
    league_match,
    load_results,
    run_league,
    tables,
)
from bendolib.runner import SerialExecutor
from cli_driver import SOURCE
from cli_driver import run as cli_run

SHORT = rules.get("basic", target=30)
SERIAL = SerialExecutor()


def test_a_round_robin_seats_every_combination_and_a_gauntlet_only_the_challengers() -> None:
    # "round robin / gauntlet over any number of entrants"
    assert tables(4, 2) == ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
    assert tables(4, 3) == ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))
    assert tables(4, 2, gauntlet=1) == ((0, 1), (0, 2), (0, 3))
    assert tables(5, 3, gauntlet=2) == (
        (0, 2, 3), (0, 2, 4), (0, 3, 4), (1, 2, 3), (1, 2, 4), (1, 3, 4)
    )  # fmt: skip
    with pytest.raises(ValueError, match="entrants"):
        tables(1, 2)
    with pytest.raises(ValueError, match="gauntlet"):
        tables(3, 2, gauntlet=3)


def test_deals_are_mirrored_and_shared_by_every_table() -> None:
    # "seats rotated and deals mirrored (the same deals with the seats swapped)"
    table_list = tables(3, 2)
    matches = [league_match(i, 7, table_list) for i in range(12)]
    for k in range(0, 12, 2):
        (seats_a, deal_a, bots_a), (seats_b, deal_b, bots_b) = matches[k], matches[k + 1]
        assert deal_a == deal_b and seats_b == seats_a[::-1] and bots_a != bots_b
    # Deal 0 at each of the three tables, then deal 1 at each.
    assert [m[0] for m in matches[:6:2]] == [(0, 1), (0, 2), (1, 2)]
    assert len({m[1] for m in matches[:6]}) == 1 and matches[6][1] != matches[0][1]


def test_a_league_of_four_bots_rates_the_strong_above_the_weak() -> None:
    pytest.importorskip("openskill", reason="ratings need the ratings extra (openskill)")
    result = run_league(SHORT, ["greedy", "random", GreedyBot(), RandomBot()], 24, seed=3,
                        executor=SERIAL)  # fmt: skip
    assert result.entrants == ("greedy#1", "random#1", "greedy#2", "random#2")  # named apart
    assert len(result.records) == 24 and not result.interrupted
    standings = result.standings
    assert [s.matches for s in standings] == [12, 12, 12, 12]
    for s in standings:
        assert 0.0 <= s.mean_points.low <= s.mean_points.value <= s.mean_points.high
    ratings = result.ratings
    assert ratings is not None
    assert min(ratings[0].mu, ratings[2].mu) > max(ratings[1].mu, ratings[3].mu)
    assert all(r.low < r.mu < r.high for r in ratings)
    table = result.table()
    assert "rating" in table and "win rate by seat" in table
    pairs = result.head_to_head()
    for a in range(4):
        for b in range(4):
            if a != b:  # each pair met at one table: 24 matches / 6 tables
                assert pairs[a][b][1] == 4 and pairs[a][b][0] + pairs[b][a][0] <= 4
    assert result.pairs_table().splitlines()[1].startswith("0 greedy#1")
    svg = ET.fromstring(result.ratings_svg())
    assert svg.tag.endswith("svg") and len([e for e in svg.iter() if e.tag.endswith("circle")]) == 4


def test_without_openskill_the_table_says_how_to_get_ratings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(league, "ratings_available", lambda: False)
    result = run_league(SHORT, ["greedy", "random"], 2, executor=SERIAL)
    assert result.ratings is None and "pip install 'bendolib[ratings]'" in result.table()
    with pytest.raises(BendolibError, match="openskill"):
        result.ratings_svg()


def test_the_results_are_the_same_on_every_executor() -> None:
    # "runnable on the executors run_tournament already takes"
    serial = run_league(SHORT, ["greedy", "random", "random"], 12, seed=5, executor=SERIAL)
    with ThreadPoolExecutor(2) as pool:
        threads = run_league(SHORT, ["greedy", "random", "random"], 12, seed=5, executor=pool)
    assert serial.records == threads.records


def test_a_league_resumes_from_its_results_file(tmp_path: pathlib.Path) -> None:
    # "resumable (a results file written atomically, progress reloaded)"
    path = tmp_path / "league.json"
    bots = ["greedy", "random", "random"]
    first = run_league(SHORT, bots, 6, seed=2, executor=SERIAL, results=path)
    assert load_results(path).records == first.records
    seen: list[tuple[int, int]] = []
    second = run_league(SHORT, bots, 12, seed=2, executor=SERIAL, results=path,
                        progress=lambda done, total: seen.append((done, total)))  # fmt: skip
    assert seen[0][0] >= 6 and seen[-1] == (12, 12)
    fresh = run_league(SHORT, bots, 12, seed=2, executor=SERIAL)
    assert second.records == fresh.records
    assert json.loads(path.read_text())["finished"] == 12
    assert [p.name for p in tmp_path.iterdir()] == ["league.json"]  # no temporary left
    with pytest.raises(LeagueFileError, match="another league"):
        run_league(SHORT, bots, 12, seed=9, executor=SERIAL, results=path)
    path.write_text("{not json")
    with pytest.raises(LeagueFileError, match="not a league results file"):
        run_league(SHORT, bots, 12, seed=2, executor=SERIAL, results=path)


def test_ctrl_c_keeps_the_finished_matches_in_the_result_and_the_file(
    tmp_path: pathlib.Path,
) -> None:
    # "progress and Ctrl-C like simulate (stops promptly, reports what finished)"
    path = tmp_path / "league.json"

    def progress(done: int, total: int) -> None:
        if done >= 4:
            raise KeyboardInterrupt

    with pytest.raises(LeagueInterrupted) as caught:
        run_league(SHORT, ["greedy", "random", "random"], 30, seed=1, executor=SERIAL,
                   progress=progress, results=path)  # fmt: skip
    stopped = caught.value.result
    assert stopped.interrupted and 4 <= len(stopped.records) < 30
    assert load_results(path).records == stopped.records


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_the_league_command_promptly_and_keeps_what_finished(
    jobs: str, tmp_path: pathlib.Path
) -> None:
    # "progress and Ctrl-C like simulate (stops promptly, reports what finished)"
    path = tmp_path / "league.json"
    argv = ["league", "--games", "100000", "--bots", "greedy", "search", "random", "greedy"]
    env = {**os.environ, "PYTHONPATH": SOURCE}
    child = subprocess.Popen(
        [sys.executable, "-m", "bendolib", *argv, "--jobs", jobs, "--results", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    assert child.stderr is not None
    first = child.stderr.readline()
    time.sleep(1.5)
    pressed = time.monotonic()
    os.killpg(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=30)
    took = time.monotonic() - pressed
    assert re.match(r"\d+/100000 matches, \d+ s", first), first
    assert child.returncode == 130, err
    assert took < 2.0, took
    assert "Traceback" not in err and "run the same command again to resume" in err
    finished = int(re.search(r"interrupted: (\d+) of 100000 matches finished", err).group(1))  # type: ignore[union-attr]
    assert "(interrupted)" in out.splitlines()[0]
    assert len(load_results(path).records) == finished


def test_a_league_match_becomes_a_game_record(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for keep in (True, False):
        result = run_league(SHORT, ["greedy", "random", "search"], 6, seed=8, executor=SERIAL,
                            keep_moves=keep)  # fmt: skip
        match = result.records[3]
        record = result.record(3)
        assert records.replay(record).scores == match.scores
        assert list(record.names) == [result.entrants[e] for e in match.seats]
    with pytest.raises(BendolibError, match="no match 99"):
        result.record(99)
    argv = ["league", "--param", "target=30", "--games", "6", "--jobs", "1", "--quiet"]
    folder = tmp_path / "matches"
    status, _, err = cli_run(
        [*argv, "--records", str(folder), "--bots", "greedy", "random", "search"],
        capsys,
        monkeypatch,
    )
    assert status == 0, err
    assert sorted(p.name for p in folder.iterdir())[0] == "match-000000.json"
    assert len(list(folder.iterdir())) == 6
