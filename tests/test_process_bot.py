"""
The out-of-process bot protocol (issue 26, point 1): a match against a bot in a
separate process; late, illegal or crashing bots forfeit, never hang (docs/protocol.md).
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import random
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bendolib import rules
from bendolib.bots import ProcessBot
from bendolib.bots.process import observation_message
from bendolib.moves import Move
from bendolib.observation import Observation
from bendolib.tournament import BotError, SerialExecutor, play_match, run_tournament
from cli_driver import SOURCE, run

ROOT = Path(__file__).resolve().parents[1]
CLIENT = ROOT / "examples" / "protocol" / "heaviest_bot.py"
SHORT = rules.get("basic", target=30)


def client(*options: str, **params: Any) -> ProcessBot:
    return ProcessBot([sys.executable, str(CLIENT), *options], **params)


def _reference() -> Any:
    spec = importlib.util.spec_from_file_location("heaviest_reference", CLIENT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class InProcessHeaviest:
    """The reference client's policy, called in this process on the same messages."""

    name = "heaviest"

    def __init__(self) -> None:
        self.policy = _reference().choose

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        text = self.policy(observation_message(observation, legal_moves))
        return next(m for m in legal_moves if str(m) == text)


def test_a_match_against_a_bot_in_another_process_is_the_match_of_its_policy() -> None:
    # "a test that runs a match against a bot in a separate process"
    bot = client()
    try:
        remote = play_match(SHORT, [bot, "greedy"], seed=4)
        assert bot.process is not None and bot.process.poll() is None
        local = play_match(SHORT, [InProcessHeaviest(), "greedy"], seed=4)
        assert remote.moves == local.moves and remote.final.is_game_over
        assert remote.forfeit == -1 and bot.engine_name == "heaviest"
    finally:
        bot.close()


def test_a_process_bot_plays_a_tournament_in_worker_processes() -> None:
    bot = client(name="heaviest")
    copy = pickle.loads(pickle.dumps(bot))  # the process is not pickled, only the command
    assert copy.command == bot.command and copy.process is None
    result = run_tournament(SHORT, [bot, "random"], 8, seed=1)
    assert result.entrants == ("heaviest", "random") and len(result.records) == 8
    assert all(r.forfeit == -1 for r in result.records)
    # Threads never share a program: the same bot object in two threads plays the same.
    with ThreadPoolExecutor(2) as pool:
        threads = run_tournament(SHORT, [bot, "random"], 8, seed=1, executor=pool)
    bot.close()
    assert threads.records == result.records


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (("--illegal",), "answered the illegal move '9-9@9L'"),
        (("--sleep", "30"), "did not answer in time"),
        (("--crash",), "closed its output (exit status 3)"),
    ],
)
def test_a_late_illegal_or_dead_bot_forfeits_the_match(
    options: tuple[str, ...], problem: str
) -> None:
    # "clean errors and a forfeit for illegal or late moves, never a hang"
    bot = client(*options, move_time=0.5)
    start = time.monotonic()
    result = play_match(SHORT, ["greedy", bot], seed=2)
    assert time.monotonic() - start < 5.0
    assert result.forfeit == 1 and problem in result.reason
    assert result.winners == (0,) and not result.final.is_game_over
    assert bot.process is None  # killed; started again for the next match
    again = run_tournament(SHORT, ["greedy", bot], 2, executor=SerialExecutor())
    assert [r.forfeit for r in again.records] == [1, 0]
    assert again.standings[0].wins == 2


def test_a_bot_that_never_greets_is_a_clean_error_and_is_killed() -> None:
    silent = ProcessBot([sys.executable, "-c", "import time; time.sleep(60)"], start_time=0.5)
    start = time.monotonic()
    with pytest.raises(BotError, match="did not start: it did not answer in time"):
        play_match(SHORT, [silent, "greedy"], seed=1)
    assert time.monotonic() - start < 5.0
    with pytest.raises(BotError, match="cannot start the bot"):
        play_match(SHORT, [ProcessBot("/no/such/program"), "greedy"], seed=1)


def test_closing_a_process_bot_ends_its_process() -> None:
    bot = client()
    play_match(SHORT, [bot, "random"], seed=3)
    process = bot.process
    assert process is not None
    bot.close()
    assert process.poll() is not None


def test_wrong_process_bot_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        ProcessBot("")
    with pytest.raises(ValueError, match="seconds"):
        ProcessBot("x", move_time=0)
    with pytest.raises(TypeError, match="str"):
        ProcessBot(3)  # type: ignore[arg-type]


def test_simulate_and_league_take_a_process_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # "A bot written in a separate file, and one in a separate process, play in a rated
    # league from the command line"
    process = f"process(command={[sys.executable, str(CLIENT)]!r}, name='heaviest')"
    (tmp_path / "mybot.py").write_text(
        "from bendolib.bots import GreedyBot\n\n\nclass Mine:\n    name = 'mine'\n\n"
        "    def choose(self, observation, legal_moves, rng):\n"
        "        return GreedyBot().choose(observation, legal_moves, rng)\n"
    )
    argv = ["simulate", "--param", "target=30", "--games", "2", "--jobs", "1"]
    status, out, err = run([*argv, "--bots", process, "greedy"], capsys, monkeypatch)
    assert status == 0 and "heaviest" in out, err
    results, svg = tmp_path / "league.json", tmp_path / "ratings.svg"
    league = ["league", "--param", "target=30", "--jobs", "1", "--results", str(results)]
    entrants = ["--bots", "greedy", "random", f"{tmp_path / 'mybot.py'}:Mine", process]
    status, out, err = run(
        [*league, "--games", "12", *entrants, "--svg", str(svg)], capsys, monkeypatch
    )
    assert status == 0, err
    assert "12 of 12 matches" in out and "heaviest" in out and "mine" in out
    assert svg.read_text().startswith("<svg")
    status, out, err = run([*league, "--games", "24", "--pairs", *entrants], capsys, monkeypatch)
    assert status == 0 and "24 of 24 matches" in out, err
    assert "wins against each other" in out and "3 heaviest" in out


def _programs(marker: str) -> list[int]:
    """The processes whose command line holds ``marker`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads Linux's /proc")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_with_a_process_bot_stops_promptly_and_leaves_no_program(jobs: str) -> None:
    # "never a hang ... kill the child on exit"
    marker = f"arena-{os.getpid()}-{jobs}"
    bot = f"process(command={[sys.executable, str(CLIENT), marker]!r})"
    argv = ["simulate", "--games", "100000", "--jobs", jobs, "--bots", "greedy", bot]
    child = subprocess.Popen(
        [sys.executable, "-m", "bendolib", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": SOURCE},
        start_new_session=True,
    )
    assert child.stderr is not None
    child.stderr.readline()
    time.sleep(1.0)
    assert _programs(marker)  # the bot's programs are running
    pressed = time.monotonic()
    os.killpg(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130 and time.monotonic() - pressed < 2.0, err
    assert "Traceback" not in err and "(interrupted)" in out
    deadline = time.monotonic() + 3.0
    while _programs(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _programs(marker)


def test_self_play_data_of_a_forfeited_match(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from bendolib import selfplay

    late = client("--late", "0.5", move_time=0.3, name="late")
    summary = selfplay.selfplay(
        SHORT, ["greedy", late], 2, tmp_path, seed=1, file_format="npz", executor=SerialExecutor()
    )
    late.close()
    assert summary.games == 2 and summary.decisions > 0
