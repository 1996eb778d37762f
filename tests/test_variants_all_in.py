"""Bendo All In, its team play and the Caribbean style (seeds/001), one test per rule
sentence, and the decisions where the seed is silent (docs/rules/bendo-all-in*.md).

Positions are built by hand with ``positions.position``: 6-6 in the centre gives two
free ends showing 6.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import bendolib
from bendolib import DRAW, NEXT_ROUND, PASS, GameState
from bendolib.rules.bendomino import ACTION_SET
from bendolib.tiles import ARROW, PLUS, RIGHT, STAR
from positions import places, position, tile
from positions import play_tile as play

ALL_IN = bendolib.rules.get("bendo-all-in")
TEAMS = bendolib.rules.get("bendo-all-in-teams")
CARIBBEAN = bendolib.rules.get("bendo-all-in-caribbean")
ACTIONS = bendolib.rules.get("bendo-all-in-actions")
TS = ALL_IN.tileset

CENTRE = [(-1, "6-6", 6, RIGHT)]


def play_all(state: GameState, texts: Sequence[str]) -> GameState:
    for text in texts:
        state = play(state, text)
    return state


def at_centre(rules: bendolib.RuleSet, hands: list[list[str]], **fields: Any) -> GameState:
    return position(rules, hands, [], CENTRE, **fields)


# -- Bendo All In --------------------------------------------------------------------------


def test_seed001_all_in_plays_like_wild_draw() -> None:
    """seeds/001: 'Plays like Wild Draw Variation': a player without a playable piece
    keeps drawing until one fits."""
    state = position(ALL_IN, [["0-1"], ["4-6"], ["4-5"]], ["0-2", "1-3", "5-6"], CENTRE)
    state = bendolib.apply(bendolib.apply(state, DRAW), DRAW)
    assert state.current_player == 0
    assert bendolib.legal_moves(state) == (DRAW,)
    state = bendolib.apply(state, DRAW)
    assert {m.tile for m in places(state)} == {tile(TS, "5-6")}


def test_seed001_all_in_round_goes_on_after_the_first_player_is_out() -> None:
    """seeds/001: 'the game does not end when one of the player plays all his or her
    tiles'; a player who is out no longer takes turns."""
    hands = [["6-0"], ["6-1", "2-2"], ["0-3", "4-4"]]
    state = position(ALL_IN, hands, ["5-5", "5-6"], CENTRE)
    state = play(state, "6-0")
    assert not state.is_round_over
    assert state.out == (0,) and state.current_player == 1
    state = play_all(state, ["6-1", "0-3"])
    assert state.current_player == 1, "seat 0 is out and is skipped"


@pytest.mark.parametrize(
    ("hands", "out", "points"),
    [
        ([["6-0"], ["6-1"], ["0-3"], ["1-3", "5-5"]], ["6-0", "6-1", "0-3"], (40, 20, 10, 0)),
        ([["6-0"], ["6-1"], ["1-3", "5-5"]], ["6-0", "6-1"], (40, 20, 0)),
        ([["6-0"], ["1-3", "5-5"]], ["6-0"], (40, 0)),
    ],
    ids=["4 players", "3 players", "2 players"],
)
def test_seed001_all_in_finishing_order_scores(
    hands: list[list[str]], out: list[str], points: tuple[int, ...]
) -> None:
    """seeds/001 Scoring: 4 players 40/20/10/0, 3 players 40/20/0, 2 players 40/0; the
    round goes on 'until just one player is left with tiles in his or her hands'."""
    state = play_all(at_centre(ALL_IN, hands), out[:-1])
    assert not state.is_round_over
    state = play(state, out[-1])
    assert state.is_round_over
    result = state.results[-1]
    assert not result.blocked
    assert result.order == tuple(range(len(out)))
    assert result.points == points
    assert result.winners == (0,)


def test_seed001_all_in_blocked_round_fewest_points_first() -> None:
    """seeds/001 NOTE: 'If the game is blocked ... the winning order is defined by the
    number of points left in each hand: The player with the less points will be first
    and the player with the most points will be last' (after those already out)."""
    hands = [["6-0"], ["4-5"], ["1-2"], ["2-3"]]
    state = play(at_centre(ALL_IN, hands), "6-0")
    result = state.results[-1]
    assert result.blocked
    assert result.hand_points == (0, 9, 3, 5)
    assert result.points == (40, 0, 20, 10)


def test_all_in_decision_blocked_ties_share_their_places() -> None:
    """Decision (seeds/001 silent): players left with equal points in a blocked round
    share the points of the places they hold (average, rounded down); ``tie="seat"``
    ranks the lower seat first instead."""
    hands = [["6-0"], ["4-5"], ["1-4"], ["2-3"]]
    state = play(at_centre(ALL_IN, hands), "6-0")
    assert state.results[-1].hand_points == (0, 9, 5, 5)
    assert state.results[-1].points == (40, 0, 15, 15)
    by_seat = play(at_centre(ALL_IN.configure(tie="seat"), hands), "6-0")
    assert by_seat.results[-1].points == (40, 0, 20, 10)
    nobody_out = play(at_centre(ALL_IN, [["6-4", "1-2"], ["0-3"]]), "6-4")
    assert nobody_out.results[-1].points == (20, 20)
    assert nobody_out.results[-1].winners == (0, 1)


def test_seed001_all_in_hand_points_count_actions_and_stars() -> None:
    """seeds/001: 'Numbers count for face value; Arrow and Plus Actions count for 10
    points each; Wild stars count for 20 points each' (they order a blocked round)."""
    points = {t: t.points for t in ACTION_SET.tiles if t.a < 0}
    assert points == {
        tile(ACTION_SET, "A-2"): 12,
        tile(ACTION_SET, "A-5"): 15,
        tile(ACTION_SET, "P-1"): 11,
        tile(ACTION_SET, "P-4"): 14,
        tile(ACTION_SET, "W-3"): 23,
        tile(ACTION_SET, "W-6"): 26,
    }
    assert (ARROW, PLUS, STAR) == (-1, -2, -3)
    state = play(at_centre(ACTIONS, [["6-0"], ["A-2"], ["5-5"], ["1-2"]]), "6-0")
    result = state.results[-1]
    assert result.blocked and result.hand_points == (0, 12, 10, 3)
    assert result.points == (40, 0, 10, 20)


def test_seed001_all_in_players_advance_by_the_points_won() -> None:
    """seeds/001: 'Players advance their marker according to the number of points they
    won': round points add to the match scores."""
    hands = [["6-0"], ["6-1"], ["1-3", "5-5"]]
    state = play_all(at_centre(ALL_IN, hands, scores=(50, 30, 5)), ["6-0", "6-1"])
    assert state.scores == (90, 50, 5)
    assert not state.is_game_over
    assert bendolib.legal_moves(state) == (NEXT_ROUND,)


def test_seed001_all_in_first_to_100_wins() -> None:
    """seeds/001 Winning the Game: 'First player to reach at least 100 points wins'."""
    hands = [["6-0"], ["6-1"], ["1-3", "5-5"]]
    state = play_all(at_centre(ALL_IN, hands, scores=(60, 30, 95)), ["6-0", "6-1"])
    assert state.scores == (100, 50, 95)
    assert state.is_game_over and state.winner == 0


def test_seed001_all_in_several_reach_100_highest_wins() -> None:
    """seeds/001: 'If more than one player reach 100 points during the same round, the
    player with the highest final score wins the game.'"""
    hands = [["6-0"], ["6-1"], ["1-3", "5-5"]]
    state = play_all(at_centre(ALL_IN, hands, scores=(60, 95, 0)), ["6-0", "6-1"])
    assert state.scores == (100, 115, 0)
    assert state.winner == 1


def test_all_in_decision_tie_for_highest_plays_another_round() -> None:
    """Decision (seeds/001 silent): equal highest final scores at or above 100 decide
    nothing; another round is dealt."""
    hands = [["6-0"], ["6-1"], ["1-3", "5-5"]]
    state = play_all(at_centre(ALL_IN, hands, scores=(80, 100, 0)), ["6-0", "6-1"])
    assert state.scores == (120, 120, 0)
    assert state.is_round_over and not state.is_game_over
    assert bendolib.apply(state, NEXT_ROUND).round_number == 2


# -- Team play -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_seed001_teams_five_each_partners_opposite(seed: int) -> None:
    """seeds/001 Team Play: 'Each player takes 5 dominoes. Opposite players are
    partners.'"""
    state = bendolib.new_game(TEAMS, players=4, seed=seed)
    assert [len(h) for h in state.hands] == [5, 5, 5, 5]
    assert state.stock_size == 28 - 20
    assert state.sides == ((0, 2), (1, 3))
    assert TEAMS.player_counts == (4,)


def test_seed001_teams_places_score_30_20_10_0_for_the_team() -> None:
    """seeds/001 Team Play: 'the first player to get rid of all his or her pieces scores
    30 points for his or her team, the second 20 points and the third 10 points. The last
    player scores 0 points. The scores are kept by team' (credited to the member, the
    team's score being the sum)."""
    hands = [["6-0"], ["6-1"], ["0-3"], ["1-3", "5-5"]]
    state = play_all(at_centre(TEAMS, hands), ["6-0", "6-1", "0-3"])
    assert state.results[-1].points == (30, 20, 10, 0)
    assert state.side_scores == (40, 20)


def test_all_in_teams_decision_round_goes_on_after_a_team_is_out() -> None:
    """Decision (seeds/001 'The game plays the same'): the round goes on until one player
    is left, even when both partners of a team are out."""
    hands = [["6-0"], ["6-1", "4-4"], ["0-3"], ["1-3", "5-5"]]
    state = play_all(position(TEAMS, hands, ["5-6"], CENTRE), ["6-0", "6-1", "0-3"])
    assert state.out == (0, 2)
    assert not state.is_round_over
    assert state.current_player == 3
    state = play(state, "1-3")
    assert state.current_player == 1


def test_seed001_teams_first_team_to_100_wins() -> None:
    """seeds/001 Team Play: 'The first team to reach 100 points wins the game.'"""
    hands = [["6-0"], ["6-1"], ["0-3"], ["1-3", "5-5"]]
    state = at_centre(TEAMS, hands, scores=(40, 10, 20, 70))
    state = play_all(state, ["6-0", "6-1", "0-3"])
    assert state.side_scores == (100, 100)
    assert not state.is_game_over, "equal teams: another round"
    state = at_centre(TEAMS, hands, scores=(40, 10, 21, 70))
    state = play_all(state, ["6-0", "6-1", "0-3"])
    assert state.is_game_over and state.winner == 0 and state.winning_players == (0, 2)


# -- Caribbean style -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_seed001_caribbean_seven_each_no_stock(seed: int) -> None:
    """seeds/001: 'if played Caribbean Style, each the 4 players takes 7 dominoes so
    there is no stock'."""
    state = bendolib.new_game(CARIBBEAN, players=4, seed=seed)
    assert [len(h) for h in state.hands] == [7, 7, 7, 7]
    assert state.stock_size == 0


def test_seed001_caribbean_stuck_player_passes() -> None:
    """seeds/001 Caribbean: with no stock, a player who cannot play passes."""
    hands = [["0-1"], ["6-1"], ["2-3"], ["4-5"]]
    state = at_centre(CARIBBEAN, hands)
    assert bendolib.legal_moves(state) == (PASS,)
    assert bendolib.apply(state, PASS).current_player == 1


def test_seed001_caribbean_all_other_rules_apply() -> None:
    """seeds/001 Caribbean: 'All other rules apply': team places 30/20/10/0 and team
    scores as in Team Play."""
    hands = [["6-0"], ["6-1"], ["0-3"], ["1-3", "5-5"]]
    state = play_all(at_centre(CARIBBEAN, hands), ["6-0", "6-1", "0-3"])
    assert state.results[-1].points == (30, 20, 10, 0)
    assert state.side_scores == (40, 20)


def test_bendo_all_in_decision_shared_places_are_rounded_down() -> None:
    """seeds/001 'NOTE: If the game is blocked ... the player with the less points will be
    first' (ties are not covered): tied players share the points of their places, rounded
    down, so a tie never scores more than its places: four tied of 40/20/10/0 score 17
    each (68 of 70); rounding='up' gives 18 each."""
    from bendolib.rules.scoring import FinishingOrder, RoundOutcome

    sides = ((0,), (1,), (2,), (3,))
    outcome = RoundOutcome(sides, (9, 9, 9, 9), (), True, 0, (0, 0, 0, 0))
    assert ALL_IN.round_scoring.score(outcome).points == (17, 17, 17, 17)
    assert ALL_IN.configure(rounding="up").round_scoring.score(outcome).points == (18,) * 4
    pair = RoundOutcome(sides, (3, 9, 9, 12), (), True, 0, (0, 0, 0, 0))
    assert FinishingOrder({4: (40, 20, 10, 0)}, tie="share").score(pair).points == (
        40,
        15,
        15,
        0,
    )
