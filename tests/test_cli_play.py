"""
``bendolib play`` as a player sees it (docs/cli.md): forced moves, the end of each
round, team games, the help, the default player count; and ``render``/``--version``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import bendolib
from bendolib import records
from bendolib.blocking import Block
from cli_driver import Terminal, run, run_process

#: Enough answers of "1" (the first legal move) to finish a short match.
FIRST_MOVES = "1\n" * 600
#: A move listing whose only entry is a draw or a pass, and the prompt after it.
LONE_FORCED = re.compile(r"legal moves:\n  1\) (draw|pass)\nyour move \[1-1,")


def test_a_lone_draw_or_pass_is_played_for_the_human(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16.6: forced moves are not asked by default; --ask-forced asks them."""
    argv = ["play", "--seed", "3", "--bots", "greedy", "--param", "target=30"]
    status, asked, _ = run([*argv, "--ask-forced"], capsys, monkeypatch, FIRST_MOVES)
    assert status == 0 and "match over" in asked
    forced = len(LONE_FORCED.findall(asked))
    assert forced > 0  # this match has forced turns for the human
    status, auto, _ = run(argv, capsys, monkeypatch, FIRST_MOVES)
    assert status == 0 and "match over" in auto
    assert LONE_FORCED.search(auto) is None
    said = re.findall(r"you (draw [^\n]*|pass) \(nothing else to do\)", auto)
    assert len(said) == forced
    assert auto.count("your move [") == asked.count("your move [") - forced
    # the same match: choosing the first move each time, forced or not
    assert auto.splitlines()[-1] == asked.splitlines()[-1]
    drawn = [s.split()[1] for s in said if s.startswith("draw")]
    assert all(re.fullmatch(r"\d-\d[LR]?", tile) for tile in drawn)


def test_each_round_ends_with_its_board_and_every_hand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "--seed", "5", "--bots", "random", "--param", "target=100"]
    status, out, _ = run(argv, capsys, monkeypatch, FIRST_MOVES)
    assert status == 0
    summaries = re.findall(r"^round (\d+) over \(", out, flags=re.MULTILINE)
    assert len(summaries) >= 2
    for number in summaries:
        block = out.split(f"\nround {number} over (")[0].rsplit("\nbasic: round ", 1)[1]
        assert block.startswith(f"{number}, round over") or "match over" in block
        hands = re.findall(r"^player (\d)(?: \(you\))?: (.*)$", block, flags=re.MULTILINE)
        assert [h[0] for h in hands] == ["0", "1"]
        assert not any(h[1].endswith(" tiles") for h in hands)  # every hand shown
        assert "ends: " in block


def test_team_games_name_their_teams(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16.6: no undefined "side 1"; the only player count is the default."""
    argv = ["play", "--rules", "no-draw-teams", "--seed", "3", "--param", "target=20"]
    status, out, _ = run(argv, capsys, monkeypatch, FIRST_MOVES)
    assert status == 0
    assert out.startswith(
        "no-draw-teams: 4 players, seed 3; you are player 0, with player 2 (greedy)\n"
    )
    assert "side " not in out
    assert "team 1 (players 1 and 3)" in out
    final = re.findall(
        r"scores: team 0 \(players 0 and 2\) (\d+), team 1 \(players 1 and 3\) (\d+)$",
        out,
        flags=re.MULTILINE,
    )
    assert final
    last = out.strip().splitlines()[-1]
    winner = 0 if int(final[-1][0]) > int(final[-1][1]) else 1
    members = "0 and 2" if winner == 0 else "1 and 3"
    assert last == f"match over: team {winner} (players {members}) wins"


def test_players_default_to_the_only_count_of_a_rule_set(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(["play", "--rules", "domino-pairs", "--seed", "1"], capsys, monkeypatch)
    assert status == 0 and out.startswith("domino-pairs: 4 players, seed 1; you are player 0")
    argv = ["play", "--bots", "random", "greedy", "--seed", "1"]
    status, out, _ = run(argv, capsys, monkeypatch)
    assert status == 0 and "basic: 3 players" in out  # several counts: one per bot and you


def test_help_explains_turns_blocked_ends_and_the_picture(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(["play", "--seed", "3"], capsys, monkeypatch, "help\nquit\n")
    assert status == 0
    help_text = out.split("your move [1-1, notation, help, quit]: ")[1]
    assert "turning left (L) or right (R)" in help_text
    assert "3-5L turns left read from 3 to 5" in help_text
    for block in Block:
        assert re.search(rf"^  {block.value}  \w", help_text, flags=re.MULTILINE), block
    assert "<n> marks open end n" in help_text and "#n a blocked end n" in help_text
    assert "--ask-forced" in help_text


def test_play_on_a_terminal(tmp_path: Path) -> None:
    """The prompt on a real terminal: a move, odd input, then Ctrl-D saves and stops."""
    record = tmp_path / "game.json"
    terminal = Terminal(["play", "--seed", "3", "--record", str(record)])
    terminal.expect(r"your move \[1-1, notation, help, quit\]: ")
    terminal.type("1\n")
    terminal.expect(r"you play 5-5\*")
    terminal.expect(r"your move \[1-\d+, notation, help, quit\]: ")
    terminal.type("\u00b2\n")
    terminal.expect("cannot read '\u00b2'")
    terminal.type("\x04")  # Ctrl-D: the end of input
    assert terminal.wait() == 0
    screen = terminal.text
    assert "Traceback" not in screen
    assert "game left unfinished" in screen and "record written to" in screen
    saved = records.load(record.read_text(encoding="utf-8"))
    assert saved.rounds[0].moves[0] == "5-5*"


# -- render, --version ----------------------------------------------------------------------


def test_version() -> None:
    done = run_process(["--version"])
    assert done.returncode == 0
    assert done.stdout.decode() == f"bendolib {bendolib.__version__}\n"


def _record(tmp_path: Path) -> Path:
    import random

    state = bendolib.new_game(bendolib.rules.get("basic", target=100), 2, 4)
    rng = random.Random(4)
    while not state.is_game_over:
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    path = tmp_path / "match.json"
    path.write_text(records.dump(state, names=["ann", "bob"]), encoding="utf-8")
    return path


def test_render_svg_to_standard_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _record(tmp_path)
    status, out, _ = run(["render", str(path), "--svg", "-"], capsys, monkeypatch)
    assert status == 0
    root = ET.fromstring(out)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert not (tmp_path / "-").exists()


def test_render_move_zero_is_the_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16.11: --move 0 and the error message agree (0 is the deal)."""
    path = _record(tmp_path)
    record = records.load(path.read_text(encoding="utf-8"))
    last = len(record.rounds[1].moves)
    status, out, _ = run(["render", str(path), "--round", "2", "--move", "0"], capsys, monkeypatch)
    assert status == 0 and "(empty board)" in out and "round 2" in out
    status, out, _ = run(
        ["render", str(path), "--round", "2", "--move", str(last)], capsys, monkeypatch
    )
    assert status == 0 and "(empty board)" not in out
    status, _, err = run(
        ["render", str(path), "--round", "2", "--move", str(last + 1)], capsys, monkeypatch
    )
    assert status == 2
    assert err == f"bendolib: round 2 has no move {last + 1} (choose 0 to {last}; 0 is the deal)\n"
    status, _, err = run(["render", str(path), "--round", "9"], capsys, monkeypatch)
    assert status == 2 and f"(its rounds are 1 to {len(record.rounds)})" in err


def test_a_match_won_at_the_target_during_play_is_announced(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """seeds/000 All Five: "The first player to reach 200 points wins the game": the
    round ends at that placement, nobody went out (the adversarial suite found an
    IndexError in the round's summary)."""
    argv = ["play", "--rules", "all-five", "--players", "3", "--bots", "random"]
    argv += ["--seed", "4873", "--param", "target=20"]
    status, out, err = run(argv, capsys, monkeypatch, "draw\n" * 40 + "quit\n")
    assert status == 0, err
    assert re.search(r"^round 1 over \(player \d \(random\) reached the target\)", out, re.M)


def test_a_bot_writing_into_its_observation_cannot_change_the_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play`` hands its bots detached observations (issue 26, left-overs):
    a bot that clears the triangle board's tables plays random's game."""
    argv = ["play", "--rules", "triangle-dominoes", "--seed", "3", "--bots"]
    status, plain, _ = run([*argv, "random"], capsys, monkeypatch, FIRST_MOVES)
    assert status == 0 and "match over" in plain
    status, vandal, _ = run([*argv, "test_tournament:VandalBot"], capsys, monkeypatch, FIRST_MOVES)
    assert status == 0
    assert vandal.replace("test_tournament:VandalBot", "random") == plain
