"""Tile conservation with tiles set aside (issue 13): a built position may leave tiles
out of play (``stock=`` in a position text); no move may set one aside."""

from __future__ import annotations

import attrs

import bendolib
from bendolib import position_text
from bendolib.moves import DRAW
from bendolib.testing import check_ruleset, invariants


def test_a_position_that_sets_tiles_aside_conserves_its_tiles() -> None:
    """Regression: ``stock=`` leaves the unlisted tiles aside; that is a valid position."""
    text = "basic players=2 turn=0 hands=1-1/2-2 stock=3-3,4-4 board=6-6*"
    state = position_text.loads(text)
    assert invariants.tile_conservation(state) is None
    assert invariants.first_broken(state) is None
    after = bendolib.apply(state, DRAW)
    assert invariants.tiles_kept(state, DRAW, after) is None
    assert invariants.tile_conservation(after) is None


def test_a_tile_set_aside_by_a_move_is_caught() -> None:
    """A move that drops a tile from a hand breaks conservation, move by move."""
    state = bendolib.new_game(bendolib.rules.get("basic"), 2, 1)
    move = bendolib.legal_moves(state)[0]
    after = bendolib.apply(state, move)
    hand = after.hand_masks[1]
    lost = attrs.evolve(after, hand_masks=(after.hand_masks[0], hand & (hand - 1)))
    problem = invariants.tiles_kept(state, move, lost)
    assert problem is not None and "lost tiles" in problem


def test_check_ruleset_reports_no_violation_for_every_rule_set() -> None:
    """Rule sets changed by issue 13 keep every invariant, conservation included."""
    for name in ("basic", "all-five", "wild-draw"):
        report = check_ruleset(bendolib.rules.get(name), games=1, seed=13)
        assert report.ok, str(report)
