"""The compiled step paths of the triangle games against the Python engine (issue 24
point 1: "the compiled step API for triangle-dominoes and triominoes ... the Python
engine staying the specification").

tests/test_step_kernel.py compares states by value, which leaves out a triangle board's
derived tables (``numbers``, ``filled``, ``sites``, ``patterns``: ``eq=False``); these
tests compare them too, and check that the compiled paths do the work.
"""

from __future__ import annotations

import os
import random

import attrs
import pytest

import bendolib
from bendolib import GameState, apply, engine, legal_moves, new_game
from bendolib.geometry import triangles as geometry
from bendolib.geometry.triangles import TriangleBoard
from bendolib.limits import MAX_TILES
from bendolib.rules.drawing import DrawPolicy
from bendolib.tiles import TileSet
from large_sets import EVERY_LARGE_TRIANGLE_SET, LARGE_TRIANGLE_SETS, WIDE, on_triangles
from step_compare import assert_same_state, listed_both_ways

pytestmark = pytest.mark.skipif(engine._step_kernel is None, reason="the kernel is not built")

OPTIONS = [
    ("triangle-dominoes", {}),
    ("triominoes", {}),
    ("triominoes", {"finish": "last_one_left"}),
    ("triominoes", {"play_scoring": None, "target": 60}),
    ("triangle-dominoes", {"voluntary": True, "must_play": True}),
    ("triominoes", {"after_voluntary": "pass", "pass_when_empty": 10}),
    ("triominoes", {"when_blocked": "one_each", "per_draw": 2, "max_per_turn": 2}),
    ("triominoes", {"when_stuck": "once", "batch": 2, "max_per_turn": None}),
    ("triominoes", {"blocked": "lowest_collects", "penalties": None}),
]


def _pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "_step_legal", None)
    monkeypatch.setattr(engine, "_step_apply", None)


def _tables(state: GameState) -> tuple[object, ...]:
    board = state.board
    if not isinstance(board, TriangleBoard):
        return (board,)
    return (
        board,
        board.ends,
        dict(board.numbers),
        dict(board.filled),
        board.sites,
        board.patterns,
        state.scores,
        state.context.play_points,
    )


@pytest.mark.parametrize(("name", "params"), OPTIONS, ids=lambda v: str(v)[:40])
def test_same_listings_states_and_tables(
    name: str, params: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = bendolib.rules.get(name).configure(f"{name}-step", **params)
    for players in sorted({rules.player_counts[0], rules.player_counts[-1]}):
        rng = random.Random(f"{name}/{players}")
        for seed in range(3):
            state = new_game(rules, players, seed)
            steps = 0
            while not state.is_game_over and steps < 150:
                step = listed_both_ways(state, rng, monkeypatch, _pure)
                after = apply(state, step.listed)
                assert_same_state(after, step.expected)
                assert _tables(after) == _tables(step.expected)
                state = after
                steps += 1


@pytest.mark.parametrize(("top", "mirrors"), LARGE_TRIANGLE_SETS)
@pytest.mark.parametrize("name", ["triangle-dominoes", "triominoes"])
def test_larger_triangle_sets_step_as_the_engine(
    name: str, top: int, mirrors: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sets of more than 64 triangles (issue 24 point 2: "no 64-tile ceiling"), every
    player count: the wide build's step paths list and apply as the Python engine, and
    do the work."""
    rules = on_triangles(name, top, mirrors)
    assert WIDE is not None
    for players in rules.player_counts:
        rng = random.Random(f"{name}/{top}/{players}")
        state = new_game(rules, players, players)
        compiled = 0
        for _ in range(40):
            if state.is_round_over:
                break
            step = listed_both_ways(state, rng, monkeypatch, _pure)
            if state.board.placements:
                compiled += WIDE.step_legal(state) is not None
                compiled += WIDE.step_apply(state, step.move, state, step.slow) is not None
            after = apply(state, step.listed)
            assert_same_state(after, step.expected)
            assert _tables(after) == _tables(step.expected)
            state = after
        assert compiled > 10, (rules.name, players)


@pytest.mark.skipif(not os.environ.get("BENDOLIB_LONG"), reason="long profile: BENDOLIB_LONG=1")
@pytest.mark.parametrize(("top", "mirrors"), EVERY_LARGE_TRIANGLE_SET[:4])
@pytest.mark.parametrize("name", ["triangle-dominoes", "triominoes"])
def test_every_wide_triangle_set_long(
    name: str, top: int, mirrors: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wide build's step paths on every triangle set of 65 to 128 tiles (76, 84, 119,
    120), every player count, three whole matches (at most 400 moves) each."""
    rules = on_triangles(name, top, mirrors)
    for players in rules.player_counts:
        for seed in range(3):
            rng = random.Random(f"{name}/{top}/{players}/{seed}")
            state = new_game(rules, players, seed)
            for _ in range(400):
                if state.is_game_over:
                    break
                step = listed_both_ways(state, rng, monkeypatch, _pure)
                after = apply(state, step.listed)
                assert_same_state(after, step.expected)
                assert _tables(after) == _tables(step.expected)
                state = after


def test_the_compiled_paths_key_the_moves_as_the_geometry() -> None:
    """The moves the compiled listing builds go into the geometry's memo table under the
    geometry's own key, ``(cell key * MAX_TILES + tile index) * 4 + rotation`` (a key of
    its own would offer one move for another)."""
    tileset = TileSet.triangles(5, mirrors=True)
    rules = bendolib.rules.get("triominoes").configure("triominoes-keys", tileset=tileset)
    moves = geometry._tables(tileset)[2]
    state = new_game(rules, 2, seed=5)
    for step in range(20):
        if state.is_round_over:
            break
        legal = legal_moves(state)
        state = apply(state, legal[step % len(legal)])
    assert len(moves) > 20
    for key, move in moves.items():
        assert key == (move.cell.key * MAX_TILES + tileset.index(move.tile)) * 4 + move.rotation


def test_the_compiled_paths_do_the_work() -> None:
    """On a triangle board with tiles, step_legal lists and step_apply lays, draws and
    passes (never None)."""
    assert engine._step_legal is not None and engine._step_apply is not None
    for name in ("triangle-dominoes", "triominoes"):
        rng = random.Random(name)
        done: dict[str, int] = {}
        for seed in range(4):
            state = new_game(bendolib.rules.get(name), 2, seed=seed)
            while not state.is_round_over:
                legal = legal_moves(state)
                move = legal[rng.randrange(len(legal))]
                if state.board.placements:
                    assert engine._step_legal(state) is not None
                    assert engine._step_apply(state, move, state, legal) is not None
                    done[type(move).__name__] = done.get(type(move).__name__, 0) + 1
                state = apply(state, move)
        assert set(done) == {"PlaceInCell", "Draw", "Pass"}, (name, done)


@attrs.frozen
class _DrawMore(DrawPolicy):
    """A draw policy that gained a parameter: the compiled paths do not know it."""

    extra: int = 0


def test_a_part_with_an_unknown_parameter_is_left_to_python() -> None:
    rules = bendolib.rules.get("triominoes")
    draw = rules.draw
    mine = rules.configure(
        "triominoes-more",
        draw=_DrawMore(
            when_stuck=draw.when_stuck,
            voluntary=draw.voluntary,
            must_play=draw.must_play,
            max_per_turn=draw.max_per_turn,
            after_voluntary=draw.after_voluntary,
            when_blocked=draw.when_blocked,
        ),
    )
    state = new_game(mine, 2, seed=3)
    state = apply(state, legal_moves(state)[0])
    assert state.board.placements
    assert engine._step_legal is not None and engine._step_legal(state) is None
    legal = legal_moves(state)
    assert engine._step_apply is not None
    assert engine._step_apply(state, legal[0], state, legal) is None
