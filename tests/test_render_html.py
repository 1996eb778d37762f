"""
Watching a match: ``bendolib render --html RECORD`` (issue 26 point 4).

The page is one self-contained HTML file stepping through the match move by move (the
SVG board of each position, hands shown or hidden, scores, the move list, keyboard
navigation), for every geometry; a headless Chromium opens it, steps forward and back
and reads what is drawn (skipped when no chromium is installed).
"""

from __future__ import annotations

import io
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import bendolib
from bendolib import records
from bendolib.cli import main
from bendolib.records import GameRecord
from bendolib.render_html import frames_of, to_html
from bendolib.state import GameState
from browser import Browser

GEOMETRIES = {"bend": "basic", "straight": "classic-draw", "triangle": "triangle-dominoes"}


def played(name: str, moves: int, seed: int = 3) -> GameState:
    """A match of ``name`` after ``moves`` moves (or its end), random moves."""
    state = bendolib.new_game(bendolib.rules.get(name), 2, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_game_over:
            break
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    return state


def record_of(name: str, moves: int) -> tuple[GameRecord, GameState]:
    state = played(name, moves)
    return records.record_of(state, ("ann", "bob")), state


@pytest.mark.parametrize("geometry", sorted(GEOMETRIES))
def test_one_frame_per_position_with_its_board(geometry: str) -> None:
    """Issue 26.4: the SVG board of each position, the scores and the move list."""
    record, final = record_of(GEOMETRIES[geometry], 30)
    frames = frames_of(to_html(record))
    positions = [records.initial_state(record)] + [s.state for s in records.steps(record)]
    assert len(frames) == len(positions)
    for frame, state in zip(frames, positions, strict=True):
        assert frame["svg"].count('class="tile"') == len(state.board.placements)
        assert [v for _, v in frame["scores"]] == list(state.side_scores)
    assert frames[0]["label"] == "round 1 dealt"
    assert frames[-1]["label"].startswith("round ")
    assert [h[0] for h in frames[-1]["hands"]] == ["ann", "bob"]
    assert frames[-1]["hands"][0][1].split() == [str(t) for t in final.hands[0]]


def test_hidden_hands_are_not_in_the_file() -> None:
    """Issue 26.4: hands shown or hidden; hidden, only their sizes are written."""
    record, final = record_of("basic", 12)
    frames = frames_of(to_html(record, hands="hidden"))
    assert [h[1] for h in frames[-1]["hands"]] == [f"{len(h)} tiles" for h in final.hands]
    with pytest.raises(ValueError, match="hands is one of"):
        to_html(record, hands="some")
    with pytest.raises(TypeError, match="GameRecord"):
        to_html("basic")  # type: ignore[arg-type]


def test_the_command_writes_one_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26.4: ``bendolib render --html RECORD`` writes one self-contained file."""
    record, _ = record_of("basic", 20)
    source = tmp_path / "match.json"
    source.write_text(record.to_json())
    target = tmp_path / "match.html"
    assert main(["render", str(source), "--html", str(target), "--hands", "hidden"]) == 0
    out = capsys.readouterr().out
    assert f"wrote {target}: 1 rounds, 20 moves" in out
    page = target.read_text()
    assert page.startswith("<!DOCTYPE html>")
    code = re.sub(r'(<script id="frames"[^>]*>)[^<]*', r"\1", page)  # the page less its data
    assert not re.search(r"(src|href|url)\b", code)  # nothing to fetch: self-contained
    assert len(frames_of(page)) == 21
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["render", "--position", "x", "--html", str(target)]) != 0
    assert "--html draws a RECORD" in capsys.readouterr().err


needs_browser = pytest.mark.skipif(
    Browser.find() is None,
    reason="no chromium on PATH (Debian: apt-get install chromium)",
)


def drawn(page: Browser) -> dict[str, Any]:
    value = page.run(
        """({
        step: Number(document.body.dataset.step),
        label: document.getElementById("label").textContent,
        tiles: Array.from(document.querySelectorAll("#board svg g.tile"),
                          (g) => g.dataset.tile),
        width: document.querySelector("#board svg").getBoundingClientRect().width,
        title: document.querySelector("#board svg title").textContent,
        hands: Array.from(document.querySelectorAll("#hands tr"), (r) => r.textContent),
        current: document.querySelector("#moves li.current").textContent,
        })"""
    )
    assert isinstance(value, dict)
    return value


@needs_browser
@pytest.mark.parametrize("geometry", sorted(GEOMETRIES))
def test_a_browser_steps_through_the_match(geometry: str, tmp_path: Path) -> None:
    """Issue 26.4: opened in headless Chromium, → and ← step, and the board follows."""
    record, _ = record_of(GEOMETRIES[geometry], 8)
    positions = [records.initial_state(record)] + [s.state for s in records.steps(record)]
    steps = list(records.steps(record))
    path = tmp_path / "match.html"
    path.write_text(to_html(record))
    with Browser(path.as_uri()) as page:
        page.wait("document.body.dataset.step === '0'")
        seen = drawn(page)
        assert seen["label"] == "round 1 dealt" == seen["current"]
        assert seen["width"] > 0
        assert len(seen["tiles"]) == len(positions[0].board.placements)
        for expected in (1, 2, 3, 2):
            page.key("ArrowRight" if expected > seen["step"] else "ArrowLeft")
            seen = drawn(page)
            assert seen["step"] == expected
            state = positions[expected]
            assert seen["tiles"] == [str(p.tile) for p in state.board.placements]
            assert seen["label"].endswith(f"plays {steps[expected - 1].text}")
            assert seen["current"] == seen["label"]
            assert seen["hands"][0].startswith("ann")
        page.key("End")
        assert drawn(page)["step"] == len(positions) - 1
        page.key("Home")
        assert drawn(page)["step"] == 0
