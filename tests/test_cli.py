"""The ``bendolib`` command, driven as a user would: arguments, typed input, output."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import bendolib
from bendolib import position_text as pt
from bendolib import records
from bendolib.cli import main
from bendolib.state import GameState


def run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def finished_match(seed: int = 4) -> GameState:
    state = bendolib.new_game(bendolib.rules.get("basic", target=40), 2, seed)
    rng = random.Random(seed)
    while not state.is_game_over:
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    return state


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "match.json"
    path.write_text(records.dump(finished_match(), names=["ann", "bob"]), encoding="utf-8")
    return path


def test_demo_works_as_the_readme_says(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(["demo"], capsys, monkeypatch)
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "basic: 2 players, seed 1"
    assert lines[1].startswith("round 1  player ")
    assert lines[-1].startswith("scores: [") and "winner: player" in lines[-1]
    assert run([], capsys, monkeypatch)[1] == out  # no command: the demo


def test_demo_plays_a_team_game_without_players_given(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`demo --rules no-draw-teams` failed ("for 4 players, not 2"): without --players it
    takes the fewest the rule set allows, as play does."""
    status, out, _ = run(["demo", "--rules", "no-draw-teams"], capsys, monkeypatch)
    assert status == 0
    assert out.splitlines()[0] == "no-draw-teams: 4 players, seed 1"


def test_demo_names_the_winning_team(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21 point 6: `bendolib demo` on a team game names the winning team and its
    players (it printed "winner: player 1" for team (1, 3)), as play and replay do."""
    for seed in range(1, 8):
        status, out, _ = run(
            ["demo", "--rules", "no-draw-teams", "--players", "4", "--seed", str(seed)],
            capsys,
            monkeypatch,
        )
        assert status == 0
        rules = bendolib.rules.get("no-draw-teams")
        state = bendolib.new_game(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not state.is_game_over:
            moves = bendolib.legal_moves(state)
            state = bendolib.apply(state, moves[rng.randrange(len(moves))])
        team = state.sides[state.winner or 0]
        players = " and ".join(str(p) for p in team)
        assert out.splitlines()[-1].endswith(f"winner: team {state.winner} (players {players})"), (
            out.splitlines()[-1]
        )


def test_rules_lists_every_rule_set_with_its_parameters(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(["rules"], capsys, monkeypatch)
    assert status == 0
    for name in bendolib.rules.names():
        assert any(line.startswith(name + " ") for line in out.splitlines()), name
    assert "    target = 100" in out and "    tileset = <tile set 'double-6 curved', 28" in out
    assert "    hand_sizes = [[2, 7], [3, 6], [4, 5]]" in out  # as --param takes it
    _, one, _ = run(["rules", "all-five"], capsys, monkeypatch)
    assert one.startswith("all-five") and "basic " not in one
    status, _, err = run(["rules", "nosuch"], capsys, monkeypatch)
    assert status == 2 and "unknown rule set 'nosuch'" in err


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bendolib", "rules", "basic"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.startswith("basic ")


# -- play ----------------------------------------------------------------------------------

SCRIPT = ["help", "99", "xyz", "5-3@9L", "", "moves", "board"] + ["1"] * 400


def test_scripted_play_session(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A whole match typed on stdin: bad input gets a message and the same prompt."""
    record = tmp_path / "game.json"
    argv = ["play", "--seed", "3", "--bots", "greedy", "--param", "target=30"]
    status, out, _ = run([*argv, "--record", str(record)], capsys, monkeypatch, "\n".join(SCRIPT))
    assert status == 0
    assert out.startswith("basic: 2 players, seed 3; you are player 0\n")
    assert "Type the number of a move, or the move in notation" in out
    assert "no move 99: choose 1 to 1" in out
    assert "cannot read 'xyz': expected a placement" in out
    assert "illegal move '5-3@9L': " in out
    assert "legal moves:\n  1) 5-5*" in out
    prompts = out.count("your move [")
    assert prompts == out.count("you play ") + 7  # seven answers were not moves
    assert "player 1 (greedy) plays " in out
    assert "match over: " in out and "record written to" in out
    saved = records.load(record.read_text(encoding="utf-8"))
    final = records.replay(saved)
    assert final.is_game_over and saved.names == ("player 0 (you)", "player 1 (greedy)")
    assert final.rules == bendolib.rules.get("basic", target=30)


def test_play_moves_by_notation_and_end_of_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(["play", "--seed", "3", "--bots", "random"], capsys, monkeypatch, "5-5*\n")
    assert status == 0
    assert "you play 5-5*" in out
    assert out.rstrip().endswith("game left unfinished")
    status, out, _ = run(["play", "--seed", "3"], capsys, monkeypatch, "quit\n")
    assert status == 0 and "game left unfinished" in out


def test_play_from_a_position_with_the_human_second(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    state = bendolib.new_game(bendolib.rules.get("basic"), 3, 8)
    state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    while state.current_player != 0:  # bots observe from a position's own history on
        state = bendolib.new_game(state.rules, 3, state.seed + 1)
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    text = pt.dumps(state)
    hand = " ".join(str(t) for t in state.hands[1])
    argv = ["play", "--position", text, "--seat", "1", "--bots", "random", "--seed", "0"]
    status, out, _ = run([*argv, "--ask-forced"], capsys, monkeypatch, "")
    assert status == 0
    assert "3 players" in out and f"player 1 (you): {hand}" in out
    assert "player 0 (random) plays " in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--bots", "nosuch"], "unknown bot 'nosuch'"),
        (["play", "--seat", "5"], "--seat must be 0 to 1"),
        (["play", "--players", "4", "--bots", "random", "greedy"], "4 players need 3 bots"),
        (["play", "--rules", "basic", "--param", "colour=3"], "no parameter 'colour'"),
        (["play", "--param", "target"], "a parameter is written key=value"),
        (["play", "--position", "basic players=2"], "missing field"),
    ],
)
def test_play_refuses_bad_options_without_a_traceback(
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, _, err = run(argv, capsys, monkeypatch)
    assert status == 2
    assert err.startswith("bendolib: ") and message in err


# -- simulate ------------------------------------------------------------------------------


def test_simulate_prints_progress_and_a_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "--games", "4", "--bots", "random", "greedy", "--jobs", "1"]
    status, out, err = run(argv, capsys, monkeypatch)
    assert status == 0
    assert "4/4 matches" in err and "\r" not in err  # stderr is not a terminal here
    lines = out.splitlines()
    assert lines[0].startswith("basic, 2 players, 4 matches")
    assert any("random" in line for line in lines[1:]) and any("greedy" in line for line in lines)


def test_simulate_json(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv = [
        "simulate",
        "--rules",
        "classic-block",
        "--games",
        "3",
        "--bots",
        "greedy,random",
        "--jobs",
        "1",
        "--json",
        "--quiet",
        "--seed",
        "5",
    ]
    status, out, err = run(argv, capsys, monkeypatch)
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["matches"] == 3 and data["seed"] == 5 and data["entrants"] == ["greedy", "random"]
    again = run(argv, capsys, monkeypatch)[1]
    assert again == out  # seeded: the same tournament


def test_simulate_needs_one_bot_per_seat(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [
        "simulate",
        "--rules",
        "domino-pairs",
        "--games",
        "2",
        "--bots",
        "random",
        "--jobs",
        "1",
    ]
    status, _, err = run(argv, capsys, monkeypatch)
    assert status == 2 and "domino-pairs is for 4 players" in err


# -- render and replay -----------------------------------------------------------------------


def test_render_writes_an_svg(
    record_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out_file = tmp_path / "board.svg"
    status, out, _ = run(["render", str(record_file), "--svg", str(out_file)], capsys, monkeypatch)
    assert status == 0 and out.startswith(f"wrote {out_file}: ")
    root = ET.fromstring(out_file.read_text(encoding="utf-8"))
    tiles = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "tile"]
    final = records.replay(records.load(record_file.read_text(encoding="utf-8")))
    assert len(tiles) == len(final.board.placements) > 0


def test_render_text_at_a_chosen_move_and_from_a_position(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(
        ["render", str(record_file), "--round", "1", "--move", "2"], capsys, monkeypatch
    )
    assert status == 0 and out.startswith("basic: round 1")
    assert out.count("ends: ") == 1
    state = finished_match()
    status, out, _ = run(["render", "--position", pt.dumps(state)], capsys, monkeypatch)
    assert status == 0 and "match over" in out
    status, _, err = run(
        ["render", str(record_file), "--round", "1", "--move", "999"], capsys, monkeypatch
    )
    assert status == 2 and "round 1 has no move 999" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"format": "bendolib-record", "version": 7}', "record version 7 is not supported"),
        ('{"format": "bendolib-rec', "not valid JSON"),
    ],
)
def test_render_and_replay_refuse_bad_records(
    content: str,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    for command in ("render", "replay"):
        status, _, err = run([command, str(path)], capsys, monkeypatch)
        assert status == 2 and message in err
    status, _, err = run(["replay", str(tmp_path / "missing.json")], capsys, monkeypatch)
    assert status == 2 and "No such file" in err


def test_replay_prints_every_step(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = records.load(record_file.read_text(encoding="utf-8"))
    status, out, _ = run(["replay", str(record_file), "--all"], capsys, monkeypatch)
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "basic, 2 players, seed 4"
    assert lines[1] == f"step 1: round 1 move 1: ann plays {record.rounds[0].moves[0]}"
    deals = len(record.rounds) - 1
    assert len([ln for ln in lines if ln.startswith("step ")]) == record.move_count + deals
    assert lines[-1].startswith("final scores: ann ")


def test_replay_steps_through_on_request(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Enter steps forward, b steps back, a number jumps, bad input is explained."""
    answers = "\n\nb\n3\nzz\ne\n\n"
    status, out, _ = run(["replay", str(record_file), "--step"], capsys, monkeypatch, answers)
    assert status == 0
    shown = re.findall(r"(step \d+|basic, 2 players, seed 4)", out)
    assert shown[:5] == ["basic, 2 players, seed 4", "step 1", "step 2", "step 1", "step 3"]
    assert "cannot read 'zz'" in out
    assert "final scores: ann" in out.rstrip().splitlines()[-1]
    status, out, _ = run(["replay", str(record_file), "--step"], capsys, monkeypatch, "\n")
    assert status == 0 and out.count("[1/") == 1  # end of input: stop quietly
