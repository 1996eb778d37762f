"""
bendolib.testing on the triangle games (issue 15, phase 2): the strategies take the
triangle rule sets, check_ruleset holds every invariant over them, and the invariants
catch a triangle placement or a penalty that does not do what it declares.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bendolib
from bendolib import GameState
from bendolib.moves import DRAW, PlaceInCell
from bendolib.rules.triangles import TRIANGLE_RULESETS, TRIOMINOES, TriominoesRoundScoring
from bendolib.testing import ALL_INVARIANTS, check_ruleset, invariants
from bendolib.testing import strategies as tst

# the text formats of the triangles (notation, records, position text) come in their
# own part of issue 15; the other invariants all apply
FORMATS = {invariants.NOTATION, invariants.RECORD, invariants.POSITION_TEXT}
CHECKED = [name for name in ALL_INVARIANTS if name not in FORMATS]


@pytest.mark.parametrize("rules", TRIANGLE_RULESETS, ids=lambda r: r.name)
def test_check_ruleset_holds_every_invariant(rules: bendolib.RuleSet) -> None:
    """Tile conservation, legal moves apply, no overlap, scores as declared (sums,
    hexagon and bridge bonuses, draw and pass penalties), leak-free observations,
    consistent samples: one game per player count."""
    report = check_ruleset(
        rules, games=len(rules.player_counts), seed=3, invariants=CHECKED, max_moves=60
    )
    assert report.violation is None, str(report)


@settings(max_examples=10)
@given(tst.rulesets(TRIANGLE_RULESETS, configured=True), st.data())
def test_the_strategies_take_the_triangle_rule_sets(
    rules: bendolib.RuleSet, data: st.DataObject
) -> None:
    state = data.draw(tst.game_states(rules, max_moves=60, allow_game_over=False))
    assert data.draw(tst.legal_moves(state)) in bendolib.legal_moves(state)
    assert data.draw(tst.illegal_moves(state)) not in bendolib.legal_moves(state)
    obs = data.draw(tst.observations(rules, max_moves=30))
    assert obs.rules is rules


def placing(rules: bendolib.RuleSet) -> tuple[GameState, PlaceInCell, GameState]:
    """A state after the opening, a legal placement and the state it gives."""
    state = bendolib.new_game(rules, 2, 4)
    rng = random.Random(4)
    while True:
        legal = bendolib.legal_moves(state)
        cells = [m for m in legal if isinstance(m, PlaceInCell)]
        if cells and state.board.placements:
            move = cells[0]
            return state, move, bendolib.apply(state, move)
        state = bendolib.apply(state, rng.choice(legal))


def test_a_placement_scored_without_its_declared_points_is_caught() -> None:
    before, move, after = placing(TRIOMINOES)
    seat = before.current_player
    assert invariants.scores_as_declared(before, move, after) is None
    scores = list(after.scores)
    play = list(after.play_points)
    scores[seat] -= 1
    play[seat] -= 1
    wrong = after.replace(scores=tuple(scores), play_points=tuple(play))
    found = invariants.scores_as_declared(before, move, wrong)
    assert found is not None and "declares" in found


def test_a_placement_that_keeps_its_tile_in_hand_is_caught() -> None:
    before, move, after = placing(TRIOMINOES)
    seat = before.current_player
    hands = list(after.hand_masks)
    hands[seat] |= 1 << TRIOMINOES.tileset.index(move.tile)
    found = invariants.moves_as_declared(before, move, after.replace(hand_masks=tuple(hands)))
    assert found is not None


def test_a_draw_without_its_penalty_is_caught() -> None:
    """Triominoes: each tile drawn costs 5 points (docs/rules/triominoes.md)."""
    state = bendolib.new_game(TRIOMINOES, 2, 8)
    rng = random.Random(8)
    while DRAW not in bendolib.legal_moves(state):
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    after = bendolib.apply(state, DRAW)
    assert invariants.scores_as_declared(state, DRAW, after) is None
    unpenalised = after.replace(scores=state.scores, play_points=state.play_points)
    found = invariants.scores_as_declared(state, DRAW, unpenalised)
    assert found is not None and "penalties" in found


def test_long_rounds_spread_the_costly_checks() -> None:
    """
    The kit's runtime per rule set stays under 10 s (issue 25): Triominoes' rounds (about
    80 moves) spread the default spacings 3 times, a 30-move round's rule set keeps them,
    and a rule set with a policy of the user's own is not played beforehand (scale 1).
    """
    from bendolib.testing.checker import _plan, round_scale

    triominoes = bendolib.rules.get("triominoes")
    assert round_scale(triominoes) == 3
    assert round_scale(bendolib.rules.get("basic")) == 1
    plan = _plan(triominoes, None, {"sampling consistency": 1}, None)
    assert plan.spacing["position text round trip"] == 3
    assert plan.spacing["sampling consistency"] == 1

    @attrs.frozen
    class OwnScoring(TriominoesRoundScoring):
        pass

    assert round_scale(triominoes.configure("own", round_scoring=OwnScoring())) == 1
