"""The policy options added for the classic games and their anchors (issue 4): a fixed
first seat with a free opening, and WinnerTakesPips' out_wins / takes / win_points."""

from __future__ import annotations

import pytest

import bendolib
from bendolib import Place
from bendolib.moves import OPENING
from bendolib.rules import FixedSeat, RoundOutcome, WinnerTakesPips
from bendolib.rules.classic import (
    AS_DOMINOES_PACKAGE,
    AS_OPENSPIEL_BLOCK,
    AS_OPENSPIEL_TEAM,
    CLASSIC_RULESETS,
)
from bendolib.state import GAME_OVER
from bendolib.tiles import STRAIGHT
from positions import position

PAIRS = ((0, 2), (1, 3))
SIX_THREE = [(-1, "6-6", 6, STRAIGHT), (0, "6-3", 6, STRAIGHT)]


def outcome(
    hand_points: tuple[int, ...],
    order: tuple[int, ...] = (),
    sides: tuple[tuple[int, ...], ...] | None = None,
    last_placer: int = 0,
) -> RoundOutcome:
    players = len(hand_points)
    sides = sides if sides is not None else tuple((s,) for s in range(players))
    return RoundOutcome(sides, hand_points, order, not order, last_placer, (0,) * players)


def test_fixed_seat_opens_with_any_tile_of_its_hand() -> None:
    """FixedSeat: seat 0 starts every round and may open with any tile (the anchors'
    convention); the opening tile's faces become the two open ends."""
    rules = bendolib.rules.get("classic-block", start=FixedSeat(0))
    for seed in range(10):
        state = bendolib.new_game(rules, 2, seed)
        assert state.current_player == 0 and state.opening == -1
        moves = bendolib.legal_moves(state)
        assert {m.tile for m in moves if isinstance(m, Place)} == set(state.hand(0))
        assert all(isinstance(m, Place) and m.end == OPENING for m in moves)
        first = moves[-1]
        assert isinstance(first, Place)
        after = bendolib.apply(state, first)
        assert after.board.values == (first.tile.a, first.tile.b)
        assert after.current_player == 1


def test_fixed_seat_must_exist() -> None:
    with pytest.raises(bendolib.RuleSetError):
        FixedSeat(-1)
    with pytest.raises(bendolib.RuleSetError, match=r"at least 4 players; .* allow 2, 3"):
        bendolib.rules.get("classic-block", start=FixedSeat(3))
    rules = bendolib.rules.get("classic-block", start=FixedSeat(3), hand_sizes={4: 5})
    assert bendolib.new_game(rules, 4, 0).current_player == 3


def test_configure_replaces_a_whole_policy_then_its_fields() -> None:
    rules = bendolib.rules.get("domino-pairs")
    changed = rules.configure(round_scoring=WinnerTakesPips(), blocked_winner="lowest_side")
    assert changed.round_scoring == WinnerTakesPips(blocked_winner="lowest_side")
    assert rules.round_scoring == WinnerTakesPips(blocked_winner="lowest_side", tie="locker_loses")


def test_out_wins_false_settles_a_round_like_a_locked_one() -> None:
    """out_wins=False (OpenSpiel's team game): the team with fewer points in hand wins
    even though the other team's player went out."""
    policy = WinnerTakesPips(blocked_winner="lowest_side", tie="nobody", out_wins=False)
    score = policy.score(outcome((0, 5, 20, 4), order=(0,), sides=PAIRS))
    assert score.points == (0, 0, 0, 20)  # credited to the team's lowest hand
    assert score.winners == (3,)
    seed_rule = WinnerTakesPips(blocked_winner="lowest_side", tie="nobody")
    assert seed_rule.score(outcome((0, 5, 20, 4), order=(0,), sides=PAIRS)).points[0] == 9


def test_takes_all_counts_every_hand_on_the_table() -> None:
    """takes="all" (the dominoes package): the winning team scores every point left,
    its partner's and, in a locked game, its own."""
    policy = WinnerTakesPips(blocked_winner="lowest_side", tie="nobody", takes="all")
    assert policy.score(outcome((0, 5, 20, 4), order=(0,), sides=PAIRS)).points[0] == 29
    locked = policy.score(outcome((3, 5, 2, 4), sides=PAIRS))
    assert locked.points == (0, 0, 14, 0)


def test_a_tie_scores_nothing_with_tie_nobody() -> None:
    policy = WinnerTakesPips(blocked_winner="lowest_side", tie="nobody")
    assert policy.score(outcome((3, 5, 6, 4), sides=PAIRS)).points == (0, 0, 0, 0)


def test_win_points_awards_a_fixed_number() -> None:
    policy = WinnerTakesPips(win_points=1)
    assert policy.score(outcome((0, 30, 4), order=(0,))).points == (1, 0, 0)
    assert policy.score(outcome((7, 3, 4))).points == (0, 1, 0)
    with pytest.raises(bendolib.RuleSetError):
        WinnerTakesPips(win_points=-1)
    with pytest.raises(bendolib.RuleSetError):
        WinnerTakesPips(takes="most")  # type: ignore[arg-type]


def test_anchor_rule_sets_differ_from_the_seeds_only_where_documented() -> None:
    """docs/rules/classic-block.md and domino-pairs.md: the anchor configurations."""
    block = bendolib.rules.get("classic-block")
    assert AS_OPENSPIEL_BLOCK.start == FixedSeat(0)
    assert AS_OPENSPIEL_BLOCK.deal.hand_sizes == ((2, 7),)
    assert AS_OPENSPIEL_BLOCK.round_scoring == block.round_scoring
    assert AS_OPENSPIEL_BLOCK.draw == block.draw
    pairs = bendolib.rules.get("domino-pairs")
    assert AS_OPENSPIEL_TEAM.start == FixedSeat(0)
    assert AS_OPENSPIEL_TEAM.round_scoring == WinnerTakesPips(
        blocked_winner="lowest_side", tie="nobody", out_wins=False
    )
    assert AS_DOMINOES_PACKAGE.start == pairs.start
    assert AS_DOMINOES_PACKAGE.round_scoring == WinnerTakesPips(
        blocked_winner="lowest_side", tie="nobody", takes="all"
    )
    for rules in (AS_OPENSPIEL_TEAM, AS_DOMINOES_PACKAGE):
        assert rules.draw == pairs.draw and rules.match == pairs.match


def test_classic_rule_sets_are_registered_on_the_straight_line() -> None:
    names = bendolib.rules.names()
    for rules in CLASSIC_RULESETS:
        assert rules.name in names
        assert bendolib.rules.get(rules.name) is rules
        assert not rules.geometry.uses_bends and not rules.tileset.curved
        assert len(rules.tileset) == 28
        assert rules.description


def test_dominoes_package_scoring_in_a_played_position() -> None:
    """AS_DOMINOES_PACKAGE in play: going out, the team takes every point left (the
    partner's too)."""
    hands = [["3-4"], ["5-5"], ["4-4"], ["1-2"]]
    over = bendolib.apply(
        position(AS_DOMINOES_PACKAGE, hands, steps=SIX_THREE),
        bendolib.parse_move("3-4@0", position(AS_DOMINOES_PACKAGE, hands, steps=SIX_THREE)),
    )
    assert over.side_scores == (10 + 8 + 3, 0)
    assert over.phase != GAME_OVER
