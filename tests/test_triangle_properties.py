"""Hypothesis properties of the triangle rule sets over random seeded games (issue 15):
tile conservation, every legal move applies, every touching corner matches after every
move, no two tiles in a cell, each tile shares an edge, the open edges are the edges
with a free cell across, and scores change only as declared."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import bendolib
from bendolib import GameState
from bendolib.geometry import TriangleBoard, TrianglePlacement
from bendolib.geometry.trilattice import corners, neighbors
from bendolib.moves import Draw, NextRound, Pass, PlaceInCell
from bendolib.rules import TRIANGLE_DOMINOES, TRIOMINOES
from bendolib.testing import invariants

RULES = (TRIANGLE_DOMINOES, TRIOMINOES)
MOVE_BOUND = 400  # moves per example (a Triominoes match can be longer: cut there)


def check_board(board: TriangleBoard) -> None:
    """No two tiles in a cell, one number at each point, an edge shared by each tile
    after the first, and the open edges exactly the edges with a free cell across."""
    placements = [p for p in board.placements if isinstance(p, TrianglePlacement)]
    assert len(placements) == len(board.placements)
    cells = [p.cell.key for p in placements]
    assert len(set(cells)) == len(cells), "two tiles in one cell"
    shown: dict[int, int] = {}
    for k, placement in enumerate(placements):
        assert placement.corners in {
            PlaceInCell(placement.tile, placement.cell, r).corners for r in range(3)
        }, "a tile is turned, never flipped"
        for point, number in zip(corners(cells[k]), placement.corners, strict=True):
            assert shown.setdefault(point, number) == number, "touching corners differ"
        if k:
            assert set(neighbors(cells[k])) & set(cells[:k]), "a tile shares no edge"
    assert dict(board.numbers) == shown
    filled = set(cells)
    expected = {
        (cell, k)
        for cell in cells
        for k, beyond in enumerate(neighbors(cell))
        if beyond not in filled
    }
    assert {(e.cell, e.side) for e in board.edges} == expected
    assert len(board.edges) == len(expected)
    assert set(board.sites) == {e.site for e in board.edges}


def play(rules: bendolib.RuleSet, players: int, seed: int, chooser: int) -> None:
    state = bendolib.new_game(rules, players, seed)
    choices = random.Random(chooser)
    for _ in range(MOVE_BOUND):
        if state.is_game_over:
            return
        problem = invariants.tile_conservation(state)
        assert problem is None, problem
        legal = bendolib.legal_moves(state)
        assert legal and len(set(legal)) == len(legal)
        for move in legal:  # every legal move applies
            after = bendolib.apply(state, move)
            check_step(state, move, after)
        state = bendolib.apply(state, choices.choice(legal))
        if isinstance(state.board, TriangleBoard):
            check_board(state.board)


def check_step(before: GameState, move: bendolib.Move, after: GameState) -> None:
    mover = before.current_player
    if isinstance(move, NextRound):
        assert after.round_number == before.round_number + 1
        return
    if isinstance(move, PlaceInCell):
        assert len(after.board.placements) == len(before.board.placements) + 1
        index = before.rules.tileset.index(move.tile)
        assert before.hand_masks[mover] >> index & 1 and not after.hand_masks[mover] >> index & 1
    else:
        assert isinstance(move, Draw | Pass)
        assert after.board == before.board
    delta = [a - b for a, b in zip(after.scores, before.scores, strict=True)]
    if after.phase == before.phase:  # no round end: only the mover's score moves
        assert all(d == 0 for s, d in enumerate(delta) if s != mover)
        assert after.play_points[mover] - before.play_points[mover] == delta[mover]
        if isinstance(move, Draw | Pass) and before.rules.penalties is None:
            assert delta[mover] == 0


@given(
    st.sampled_from(RULES),
    st.integers(0, 5),
    st.integers(0, 10_000),
    st.integers(0, 10_000),
)
def test_triangle_games_keep_their_invariants(
    rules: bendolib.RuleSet, players_pick: int, seed: int, chooser: int
) -> None:
    players = rules.player_counts[players_pick % len(rules.player_counts)]
    play(rules, players, seed, chooser)
