"""
The command line with the triangle games (issue 15: "the CLI (play, simulate, render,
replay, rules, demo)" works for both): moves typed in cell notation, the help, forced
moves, records written, replayed and drawn, and the listing of the rule sets.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import bendolib
from bendolib import position_text, records
from bendolib.geometry.triangles import TrianglePlacement
from cli_driver import run

TRIANGLE_GAMES = ("triangle-dominoes", "triominoes")
#: Enough answers of "1" (the first legal move) to finish a short match.
FIRST_MOVES = "1\n" * 600
#: A cell placement as the move listing writes it.
CELL_MOVE = r"\d-\d-\d@-?\d+,-?\d+[ud]"


def _listing(out: str) -> list[str]:
    """The moves of the first ``legal moves:`` listing in ``out``."""
    block = out.split("legal moves:\n", 1)[1].split("\nyour move [", 1)[0]
    return re.findall(r"\d+\) (\S+)", block)


@pytest.mark.parametrize("name", TRIANGLE_GAMES)
def test_a_move_typed_in_cell_notation_is_played(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "--rules", name, "--seed", "4", "--bots", "random"]
    status, out, _ = run(argv, capsys, monkeypatch, "quit\n")
    assert status == 0
    listed = _listing(out)
    assert listed and all(re.fullmatch(CELL_MOVE, m) or m in ("draw", "pass") for m in listed)
    typed = next(m for m in reversed(listed) if m not in ("draw", "pass"))
    status, out, _ = run(argv, capsys, monkeypatch, f"{typed}\nquit\n")
    assert status == 0 and f"you play {typed}\n" in out


def test_wrong_cell_moves_get_a_message_and_the_same_prompt(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "--rules", "triominoes", "--seed", "4", "--bots", "random"]
    typed = "xx\n0-0-0@9,9u\n1-2-3-4\n" + "x" * 50 + "\nquit\n"
    status, out, _ = run(argv, capsys, monkeypatch, typed)
    assert status == 0
    assert "cannot read 'xx': expected a placement like '5-3-3@1,-1d', '5-5-5*'" in out
    assert "illegal move '0-0-0@9,9u'" in out or "cannot read '0-0-0@9,9u'" in out
    assert "illegal move '1-2-3-4': there is no tile 1-2-3-4" in out
    assert "a move is a few characters, like 5-3-3@1,-1d" in out
    assert out.count("your move [") == 5  # asked again after each


@pytest.mark.parametrize("name", TRIANGLE_GAMES)
def test_the_help_explains_cells_open_edges_and_the_picture(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(["play", "--rules", name, "--seed", "3"], capsys, monkeypatch, "help\nq\n")
    assert status == 0
    help_text = out.split("notation, help, quit]: ", 1)[1]
    assert "5-3-3@1,-1d" in help_text and "clockwise" in help_text
    assert "turning left (L)" not in help_text  # the chains' help is not shown
    for reason in "ABC":
        assert re.search(rf"^  {reason}  \w", help_text, flags=re.MULTILINE), reason
    assert "--ask-forced" in help_text


@pytest.mark.parametrize("name", TRIANGLE_GAMES)
def test_a_whole_match_with_forced_moves_played_for_the_human(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "match.json"
    argv = ["play", "--rules", name, "--seed", "6", "--bots", "greedy", "--record", str(record)]
    if name == "triominoes":
        argv += ["--param", "target=60"]
    status, out, _ = run(argv, capsys, monkeypatch, FIRST_MOVES)
    assert status == 0 and "match over" in out
    assert not re.search(r"legal moves:\n  1\) (draw|pass)\nyour move \[1-1,", out)
    for drawn in re.findall(r"you draw (\S+) \(nothing else to do\)", out):
        assert re.fullmatch(r"\d-\d-\d", drawn)
    summaries = re.findall(r"^round \d+ over .*$", out, flags=re.MULTILINE)
    assert summaries and not any("+-" in line for line in summaries)
    saved = records.load(record.read_text(encoding="utf-8"))
    final = records.replay(saved)
    assert final.is_game_over and final.rules.name == name


@pytest.mark.parametrize("name", TRIANGLE_GAMES)
def test_simulate_records_replay_and_render(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "--rules", name, "--games", "2", "--bots", "random", "greedy"]
    argv += ["--jobs", "1", "--quiet", "--json", "--records", str(tmp_path)]
    if name == "triominoes":
        argv += ["--param", "target=80"]
    status, out, _ = run(argv, capsys, monkeypatch)
    assert status == 0
    summary = json.loads(out)
    assert summary["rules"] == name and summary["matches"] == 2
    paths = sorted(tmp_path.glob("match-*.json"))
    assert len(paths) == 2
    path = str(paths[0])
    final = records.replay(records.load(paths[0].read_text(encoding="utf-8")))
    status, out, _ = run(["replay", "--all", "--boards", path], capsys, monkeypatch)
    assert status == 0
    assert re.search(rf"plays {CELL_MOVE}$", out, flags=re.MULTILINE)
    assert out.count("---") > 0  # the layout's map
    status, out, _ = run(["render", path], capsys, monkeypatch)
    assert status == 0 and f"{name}: round {final.round_number}" in out
    status, out, _ = run(["render", path, "--svg", "-"], capsys, monkeypatch)
    assert status == 0
    root = ET.fromstring(out)
    tiles = root.findall(".//{http://www.w3.org/2000/svg}g[@class='tile']")
    assert len(tiles) == len(final.board.placements)
    cells = {str(p.cell) for p in final.board.placements if isinstance(p, TrianglePlacement)}
    assert {t.get("data-cell") for t in tiles} == cells
    edges = root.findall(".//{http://www.w3.org/2000/svg}g[@data-end]")
    assert len(edges) == len(final.board.ends)


def test_play_from_a_triangle_position(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    state = bendolib.new_game(bendolib.rules.get("triominoes"), 2, 9)
    for _ in range(7):
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    text = position_text.dumps(state)
    seat = state.current_player
    argv = ["play", "--position", text, "--seat", str(seat), "--bots", "random"]
    status, out, _ = run(argv, capsys, monkeypatch, "quit\n")
    assert status == 0
    assert _listing(out) == [str(m) for m in bendolib.legal_moves(state)]


def test_rules_and_demo_list_and_play_both_games(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(["rules"], capsys, monkeypatch)
    assert status == 0
    lines = out.splitlines()
    assert any(re.match(r"triangle-dominoes +2/3/4 +Seed 004", line) for line in lines)
    assert any(re.match(r"triominoes +2/3/4/5/6 +Triominoes", line) for line in lines)
    status, out, _ = run(["rules", "triominoes"], capsys, monkeypatch)
    for line in ("    per_draw = 5", "    hexagon_bonus = [50, 60, 70]", "    target = 400"):
        assert line in out
    for name in TRIANGLE_GAMES:
        status, out, _ = run(["demo", "--rules", name, "--seed", "2"], capsys, monkeypatch)
        assert status == 0 and re.search(rf"player \d: {CELL_MOVE}$", out, flags=re.MULTILINE)
        assert re.search(r"winner: player \d", out)
