"""The compiled step paths of the triangle games against the Python engine (issue 24
point 1: "the compiled step API for triangle-dominoes and triominoes ... the Python
engine staying the specification").

tests/test_step_kernel.py compares states by value, which leaves out a triangle board's
derived tables (``numbers``, ``filled``, ``sites``, ``patterns``: ``eq=False``); these
tests compare them too, and check that the compiled paths do the work.
"""

from __future__ import annotations

import random

import pytest

import bendolib
from bendolib import GameState, apply, engine, legal_moves, new_game
from bendolib.geometry.triangles import TriangleBoard
from bendolib.moves import PlaceInCell

pytestmark = pytest.mark.skipif(engine._step_kernel is None, reason="the kernel is not built")

OPTIONS = [
    ("triangle-dominoes", {}),
    ("triominoes", {}),
    ("triominoes", {"finish": "last_one_left"}),
    ("triominoes", {"play_scoring": None, "target": 60}),
    ("triangle-dominoes", {"voluntary": True, "must_play": True}),
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
                fast = legal_moves(state)
                with monkeypatch.context() as patch:
                    _pure(patch)
                    slow = legal_moves(state)
                    move = slow[rng.randrange(len(slow))]
                    expected = apply(state, move)
                assert fast == slow
                after = apply(state, fast[slow.index(move)])
                assert after == expected and hash(after) == hash(expected)
                assert _tables(after) == _tables(expected)
                assert after.history == expected.history
                state = after
                steps += 1


def test_the_compiled_paths_do_the_work() -> None:
    """On a triangle board with tiles, step_legal lists and step_apply lays (not None)."""
    assert engine._step_legal is not None and engine._step_apply is not None
    for name in ("triangle-dominoes", "triominoes"):
        state = new_game(bendolib.rules.get(name), 2, seed=5)
        laid = listed = 0
        for _ in range(30):
            if state.is_round_over:
                break
            legal = legal_moves(state)
            if state.board.placements and engine._step_legal(state) is not None:
                listed += 1
            move = next((m for m in legal if isinstance(m, PlaceInCell)), legal[-1])
            if isinstance(move, PlaceInCell) and state.board.placements:
                laid += engine._step_apply(state, move, state, legal) is not None
            state = apply(state, move)
        assert listed > 10 and laid > 5, (name, listed, laid)
