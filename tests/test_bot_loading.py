"""
Bots from anywhere (issue 26, point 1): ``--bots`` takes registered names,
``module:Class``, ``path/to/bot.py:Class`` and installed bots, with literal arguments.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from bendolib import bots, rules
from bendolib.bots import BotSpecError, GreedyBot, SearchBot, UnknownBotError
from bendolib.bots.spec import FileBot, parse, split_specs
from bendolib.engine import legal_moves, new_game
from bendolib.tournament import run_tournament
from cli_driver import run

FLAT = '''
import random

from bendolib.bots import GreedyBot


class FlatMC:
    """A bot written in a separate file (the issue's 'mybot:FlatMC')."""

    def __init__(self, worlds=8, label="flat"):
        self.worlds = worlds
        self.name = f"{label}{worlds}"

    def choose(self, observation, legal_moves, rng):
        return GreedyBot().choose(observation, legal_moves, rng)
'''


@pytest.fixture
def bot_file(tmp_path: Path) -> Path:
    path = tmp_path / "mybot.py"
    path.write_text(FLAT, encoding="utf-8")
    return path


def test_bot_texts_split_at_the_commas_outside_brackets_and_quotes() -> None:
    assert split_specs("greedy,search(worlds=4, forced_draws=False),x.py:B(s='a,b')") == [
        "greedy",
        "search(worlds=4, forced_draws=False)",
        "x.py:B(s='a,b')",
    ]


def test_arguments_are_literals_and_never_run() -> None:
    # "parse safely, never eval: only literals"
    assert parse("m:C(1, 'a', worlds=10, xs=[1, 2], d={'k': None})") == (
        "m:C",
        (1, "a"),
        {"worlds": 10, "xs": [1, 2], "d": {"k": None}},
    )
    for bad in ["x(__import__('os').system('true'))", "x(a=b)", "x(**{'a': 1})", "x(1", "(1)"]:
        with pytest.raises(BotSpecError):
            parse(bad)
    with pytest.raises(TypeError, match="str"):
        parse(3)  # type: ignore[arg-type]


def test_registered_names_modules_and_files_build_bots(bot_file: Path) -> None:
    assert bots.load("search(worlds=3)") == SearchBot(worlds=3)
    assert isinstance(bots.load("bendolib.bots.baseline:GreedyBot"), GreedyBot)
    assert bots.load("bendolib.bots:SearchBot(worlds=2)") == SearchBot(worlds=2)
    flat = bots.load(f"{bot_file}:FlatMC(worlds=10)")
    assert isinstance(flat, FileBot) and flat.name == "flat10"
    state = new_game(rules.get("basic"), 2, 1)
    legal = legal_moves(state)
    move = flat.choose(state.observation(0), legal, random.Random(0))
    assert move in legal
    again = pickle.loads(pickle.dumps(flat))  # worker processes load the file again
    assert (
        again.name == "flat10"
        and again.choose(state.observation(0), legal, random.Random(0)) == move
    )


def test_wrong_bot_texts_say_what_is_wrong(bot_file: Path) -> None:
    with pytest.raises(UnknownBotError, match=r"unknown bot 'nobody'.*module:Class"):
        bots.load("nobody")
    with pytest.raises(BotSpecError, match="cannot import 'no_such_module'"):
        bots.load("no_such_module:Bot")
    with pytest.raises(BotSpecError, match="has no 'Nothing'"):
        bots.load(f"{bot_file}:Nothing")
    with pytest.raises(BotSpecError, match="no bot file"):
        bots.load("missing/bot.py:Bot")
    with pytest.raises(BotSpecError, match="TypeError"):
        bots.load(f"{bot_file}:FlatMC(depth=3)")
    with pytest.raises(BotSpecError, match="no choose"):
        bots.load("random:Random")


def test_bots_installed_by_another_package_are_found_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "bots installed by other packages through an entry-point group (bendolib.bots)"
    (tmp_path / "fakebots_26.py").write_text(FLAT, encoding="utf-8")
    info = tmp_path / "fakebots_26-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakebots-26\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[bendolib.bots]\nflatmc = fakebots_26:FlatMC\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "flatmc" in bots.names() and "flatmc" in bots.installed()
    assert bots.load("flatmc(worlds=4)").name == "flat4"  # type: ignore[attr-defined]
    assert bots.get("flatmc", worlds=5).name == "flat5"  # type: ignore[attr-defined]


def test_the_adapters_ismcts_bot_is_nameable() -> None:
    pytest.importorskip("pyspiel", reason="the ismcts bot needs the openspiel extra")
    from bendolib.adapters.openspiel import ISMCTSBot

    bot = bots.load("ismcts(simulations=5)")
    assert isinstance(bot, ISMCTSBot) and bot.simulations == 5


def test_a_bot_in_a_file_plays_a_tournament_in_worker_processes(bot_file: Path) -> None:
    result = run_tournament(
        rules.get("basic", target=20), [bots.load(f"{bot_file}:FlatMC"), "random"], 2
    )
    assert result.entrants == ("flat8", "random") and len(result.records) == 2


def test_simulate_takes_a_bot_from_a_file_with_arguments(
    bot_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # "bendolib simulate --bots mybot:FlatMC says unknown bot": no longer
    argv = ["simulate", "--param", "target=20", "--games", "2", "--jobs", "1", "--bots"]
    status, out, err = run([*argv, f"{bot_file}:FlatMC(worlds=10)", "greedy"], capsys, monkeypatch)
    assert status == 0, err
    assert "flat10" in out
    monkeypatch.syspath_prepend(str(bot_file.parent))
    status, out, err = run([*argv, "mybot:FlatMC(worlds=3),random"], capsys, monkeypatch)
    assert status == 0 and "flat3" in out, err
    status, out, err = run([*argv, "greedy", "mybot:FlatMC(worlds=x)"], capsys, monkeypatch)
    assert status == 2 and "literals" in err and "Traceback" not in err
