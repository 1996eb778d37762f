"""
``bendolib simulate`` and ``bendolib selfplay`` driven as a user would: progress,
records, Ctrl-C (issue 14, point 13; issue 16, points 3, 4 and 11).
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bendolib import records
from bendolib.cli import main

SRC = str(Path(__file__).resolve().parents[1] / "src")


def run(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_a_bar_on_a_terminal_and_plain_lines_elsewhere(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "--games", "4", "--bots", "random", "greedy", "--jobs", "1"]
    status, _, err = run(argv, capsys, monkeypatch)
    assert status == 0 and "\r" not in err and err.splitlines()[-1].startswith("4/4 matches")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(argv) == 0
    shown = terminal.getvalue()
    assert shown.startswith("\r[") and "] 4/4 matches" in shown and shown.endswith("\n")


def test_simulate_rejects_negative_jobs_and_documents_its_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--bots", "random", "greedy", "--jobs", "-2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bendolib: ") and err.count("\n") == 1
    assert "--jobs: must be 0 (one worker process per CPU) or a positive" in err
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "number of matches (default: 100)" in shown
    assert "seed of the run (default: 0): the same seed plays the same matches" in shown


def test_the_table_prints_each_interval_in_brackets(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "--games", "4", "--bots", "random", "greedy", "--jobs", "1", "--quiet"]
    out = run(argv, capsys, monkeypatch)[1]
    rows = out.splitlines()[2:]
    for row in rows:  # e.g. "0  random  1/4  0.250  [0.046, 0.699]  52.5  [14.3, 90.7]"
        assert row.count("[") == 2 and row.count(", ") == 2


def test_simulate_writes_a_record_of_every_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "records"
    argv = ["simulate", "--games", "3", "--bots", "greedy", "random", "--jobs", "1"]
    status, out, err = run([*argv, "--json", "--records", str(folder)], capsys, monkeypatch)
    assert status == 0 and "3 records written to" in err
    data = json.loads(out)
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"match-00000{i}.json" for i in range(3)]
    for file, match in zip(files, data["records"], strict=True):
        record = records.load(file.read_text())
        final = records.replay(record)
        assert list(final.scores) == match["scores"] and record.seed == match["seed"]
        assert list(record.names) == [data["entrants"][e] for e in match["seats"]]


def _interrupt(argv: list[str], after: float) -> tuple[int, str, str, float]:
    """
    Run the command, and press Ctrl-C (SIGINT to its process group) ``after`` seconds
    after its first line of progress (the run has started).
    """
    env = {**os.environ, "PYTHONPATH": SRC}
    child = subprocess.Popen(
        [sys.executable, "-m", "bendolib", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    assert child.stderr is not None
    first = child.stderr.readline()
    time.sleep(after)
    pressed = time.monotonic()
    os.killpg(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=30)
    return child.returncode, out, first + err, time.monotonic() - pressed


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_simulate_within_two_seconds_and_prints_what_finished(jobs: str) -> None:
    # search: a match takes longer than Ctrl-C may wait; the workers' matches are ended
    argv = ["simulate", "--games", "100000", "--bots", "greedy", "search", "--jobs", jobs]
    status, out, err, took = _interrupt(argv, 1.5)
    assert re.match(r"\d+/100000 matches, \d+ s", err)  # the first progress line
    assert status == 130, err
    assert took < 2.0, took
    assert "Traceback" not in err
    assert "interrupted:" in err and "of 100000 matches finished" in err
    assert "(interrupted)" in out.splitlines()[0]


def test_selfplay_writes_resumes_and_repeats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    np = pytest.importorskip("numpy")
    from bendolib import selfplay

    base = ["selfplay", "--bots", "greedy", "--seed", "3", "--jobs", "1", "--quiet"]
    small = [*base, "--games", "3", "--shard-games", "2", "--format", "npz"]
    status, out, _ = run([*small, "--out", str(tmp_path / "a")], capsys, monkeypatch)
    assert status == 0 and out.startswith("3 of 3 games in")
    more = [*base, "--games", "4", "--shard-games", "2", "--format", "npz"]
    out = run([*more, "--out", str(tmp_path / "a")], capsys, monkeypatch)[1]
    assert "(2 were there already); this run wrote 2 games" in out
    out = run([*more, "--out", str(tmp_path / "b")], capsys, monkeypatch)[1]
    assert "this run wrote 4 games" in out
    a, b = selfplay.load(tmp_path / "a"), selfplay.load(tmp_path / "b")
    assert all(np.array_equal(a[k], b[k]) for k in selfplay.COLUMNS)
    assert sorted(set(a["game"].tolist())) == [0, 1, 2, 3]
