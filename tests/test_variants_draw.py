"""The draw variations of the basic game: Wild Draw, No Draw and No Draw for two teams
(seeds/000 and seeds/002, "Variations"), one test per rule sentence.

Positions are built by hand with ``positions.position``: 6-6 in the centre gives two
free ends showing 6; tiles without a 6 cannot be played there.
"""

from __future__ import annotations

from typing import Any

import pytest

import bendolib
from bendolib import DRAW, PASS, GameState, IllegalMoveError, Place
from bendolib.tiles import LEFT, RIGHT
from positions import places, position, tile
from positions import play_tile as play

BASIC = bendolib.rules.get("basic")
WILD = bendolib.rules.get("wild-draw")
NO_DRAW = bendolib.rules.get("no-draw")
TEAMS = bendolib.rules.get("no-draw-teams")
TS = BASIC.tileset

#: 6-6 alone in the centre: ends 0 and 1 both show 6.
CENTRE = [(-1, "6-6", 6, RIGHT)]


# -- Wild Draw ----------------------------------------------------------------------------


def test_seed000_wild_draw_keeps_drawing_until_a_piece_fits() -> None:
    """seeds/000 Wild Draw: 'when players do not have a playable piece they must continue
    to draw until they get a playable piece'; the turn does not pass in between."""
    state = position(WILD, [["0-1", "2-3"], ["4-6"]], ["0-2", "1-3", "5-6", "0-0"], CENTRE)
    assert bendolib.legal_moves(state) == (DRAW,)
    for drawn in ("0-2", "1-3"):
        state = bendolib.apply(state, DRAW)
        assert state.current_player == 0
        assert tile(TS, drawn) in state.hand(0)
        assert bendolib.legal_moves(state) == (DRAW,), "no fit yet: draw again"
    state = bendolib.apply(state, DRAW)
    assert state.current_player == 0 and state.stock_size == 1
    moves = bendolib.legal_moves(state)
    assert {m.tile for m in moves if isinstance(m, Place)} == {tile(TS, "5-6")}
    # contrast: under the basic rules the turn passes after one drawn piece
    basic = position(BASIC, [["0-1", "2-3"], ["4-6"]], ["0-2", "1-3", "5-6", "0-0"], CENTRE)
    assert bendolib.apply(basic, DRAW).current_player == 1


def test_seed000_wild_draw_the_fitting_drawn_piece_may_be_played() -> None:
    """seeds/000 Wild Draw with 'all other basic rules': 'if the piece they draw can be
    played, they can immediately play it' (or keep it and pass)."""
    state = position(WILD, [["0-1"], ["4-6"]], ["1-3", "5-6"], CENTRE)
    state = bendolib.apply(bendolib.apply(state, DRAW), DRAW)
    assert PASS in bendolib.legal_moves(state), "may keep the drawn piece"
    after = play(state, "5-6")
    assert tile(TS, "5-6") in [p.tile for p in after.board.placements]
    assert after.current_player == 1


def test_seed000_wild_draw_stops_when_the_stock_is_empty() -> None:
    """seeds/000 Wild Draw: '... or until the stock is empty': the turn then passes."""
    state = position(WILD, [["0-1"], ["4-6"]], ["0-2", "1-3"], CENTRE)
    state = bendolib.apply(bendolib.apply(state, DRAW), DRAW)
    assert state.stock_size == 0
    assert state.current_player == 1
    assert len(state.hand(0)) == 3


def test_seed000_wild_draw_voluntary_draw_is_one_piece() -> None:
    """seeds/000 Wild Draw, 'all other basic rules apply': a player with a playable piece
    may still draw one and pass; that is not a stuck player, so no drawing on."""
    state = position(WILD, [["6-1", "0-2"], ["4-6"]], ["0-3", "1-3"], CENTRE)
    assert DRAW in bendolib.legal_moves(state) and places(state)
    after = bendolib.apply(state, DRAW)
    assert after.current_player == 1
    assert after.stock_size == 1


# -- No Draw ------------------------------------------------------------------------------


def test_seed000_no_draw_a_stuck_player_passes_instead_of_drawing() -> None:
    """seeds/000 No Draw: 'When players do not have a matching piece, they pass their
    turn instead of drawing'."""
    state = position(NO_DRAW, [["0-1"], ["4-6"]], ["5-6", "0-0"], CENTRE)
    assert bendolib.legal_moves(state) == (PASS,)
    after = bendolib.apply(state, PASS)
    assert after.current_player == 1
    assert after.stock_size == 2 and after.hand_masks[0] == state.hand_masks[0]


def test_seed000_no_draw_never_draws_even_by_choice() -> None:
    """seeds/000 No Draw (library decision): there is no drawing at all, so the basic
    'draw and pass by choice' is gone too."""
    state = position(NO_DRAW, [["6-1"], ["4-6"]], ["0-0"], CENTRE)
    assert DRAW not in bendolib.legal_moves(state)
    with pytest.raises(IllegalMoveError, match="no drawing"):
        bendolib.apply(state, DRAW)


def test_seed000_no_draw_round_blocked_with_stock_left_out_of_play() -> None:
    """seeds/000 No Draw + basic 'Winning a Round': once no piece can be played by any
    player the round ends, although the stock is not empty; the lowest hand wins the
    opponents' points, and the stock counts for nobody."""
    state = position(NO_DRAW, [["6-1", "0-2"], ["2-3"]], ["1-5"], CENTRE)
    after = play(state, "6-1")
    assert after.is_round_over
    result = after.results[-1]
    assert result.blocked
    assert result.hand_points == (2, 5)
    assert result.points == (5, 0)
    assert after.stock_size == 1


def test_seed000_no_draw_first_out_wins_opponents_points() -> None:
    """seeds/000 No Draw, 'all other basic rules apply': playing all one's pieces wins
    the round and scores the dots left in the opponents' hands."""
    state = position(NO_DRAW, [["6-1"], ["2-3", "4-4"]], ["0-0"], CENTRE)
    after = play(state, "6-1")
    assert after.results[-1].points == (13, 0)
    assert after.results[-1].order == (0,)


# -- No Draw, two teams of two -----------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_seed000_teams_deal_seven_each_and_no_stock(seed: int) -> None:
    """seeds/000 No Draw - 2 Teams: 'each player DRAWS 7 pieces at the start of the game,
    So there is no stock'; partners sit opposite (0+2, 1+3)."""
    state = bendolib.new_game(TEAMS, players=4, seed=seed)
    assert [len(h) for h in state.hands] == [7, 7, 7, 7]
    assert state.stock_size == 0
    assert state.sides == ((0, 2), (1, 3))


def test_seed000_teams_need_four_players() -> None:
    """seeds/000 '2 Teams of 2 players': only four players can play it."""
    assert TEAMS.player_counts == (4,)
    with pytest.raises(bendolib.RuleSetError, match="for 4 players, not 2"):
        bendolib.new_game(TEAMS, players=2)


def test_seed000_teams_players_only_use_their_individual_pieces() -> None:
    """seeds/000 teams: 'Players take turns and only use their individual pieces': a
    stuck player passes although the partner holds a fitting piece."""
    hands = [["0-1", "0-2"], ["2-3", "2-4"], ["6-3", "1-2"], ["4-5", "0-3"]]
    state = position(TEAMS, hands, [], CENTRE)
    assert bendolib.legal_moves(state) == (PASS,)
    state = bendolib.apply(bendolib.apply(state, PASS), PASS)
    assert state.current_player == 2
    assert {m.tile for m in places(state)} == {tile(TS, "6-3")}


def test_seed000_teams_member_going_out_wins_losing_teams_points() -> None:
    """seeds/000 teams: 'A team wins a round when one team member is declared the winner';
    'The winning team scores the dot points from the remaining Bendominoes of the losing
    team' (the partner's own pieces do not count; the points go to the member who won)."""
    hands = [["5-5"], ["1-2"], ["6-0"], ["3-4"]]
    state = position(TEAMS, hands, [], CENTRE, current=2)
    after = play(state, "6-0")
    result = after.results[-1]
    assert result.winners == (2,)
    assert result.points == (0, 0, 3 + 7, 0)
    assert after.side_scores == (10, 0)


def _blocked_teams(hands: list[list[str]], **params: Any) -> GameState:
    """Player 0 lays 6-4 on 6-6 (ends 4 and 6); nobody else holds a 4 or a 6."""
    rules = TEAMS.configure(**params) if params else TEAMS
    return play(position(rules, hands, [], CENTRE), "6-4")


def test_seed000_teams_blocked_round_lowest_member_wins_for_the_team() -> None:
    """seeds/000 teams 'see basic rules': in a blocked round the member with the lowest
    point total is the winner; the team scores the other team's points."""
    after = _blocked_teams([["6-4", "5-5"], ["1-2"], ["2-5"], ["0-3", "1-5"]])
    result = after.results[-1]
    assert result.blocked
    assert result.hand_points == (10, 3, 7, 9)
    assert result.winners == (1,)
    assert result.points == (0, 17, 0, 0)
    assert after.side_scores == (0, 17)


def test_seed000_teams_partners_tied_lowest_win_for_their_team() -> None:
    """Decision (seeds/000 silent): partners tied for the lowest total win for their
    team, credited to the lower seat; a tie across the teams scores nothing."""
    after = _blocked_teams([["6-4", "5-5"], ["1-2"], ["2-5"], ["0-3"]])
    assert after.results[-1].hand_points == (10, 3, 7, 3)
    assert after.results[-1].points == (0, 17, 0, 0)
    across = _blocked_teams([["6-4", "5-5"], ["1-2"], ["0-3"], ["2-5"]])
    assert across.results[-1].points == (0, 0, 0, 0)
    assert across.results[-1].winners == ()


def test_seed000_teams_tie_rule_is_a_parameter() -> None:
    """The tie rule can be changed: with ``tie="locker_loses"`` the team that laid the
    last piece loses a tie across the teams."""
    after = _blocked_teams([["6-4", "5-5"], ["1-2"], ["0-3"], ["2-5"]], tie="locker_loses")
    assert after.results[-1].winners == (1,)
    assert after.results[-1].points == (0, 10 + 3, 0, 0)


def test_seed000_teams_match_to_100_per_team() -> None:
    """seeds/000 teams (issue 3: 'match to 100 per team'): the team whose members' scores
    add up to 100 wins the match; the state names the team and its seats."""
    hands = [["5-5"], ["1-2"], ["6-0"], ["3-4"]]
    state = position(TEAMS, hands, [], CENTRE, current=2, scores=(60, 0, 30, 0))
    after = play(state, "6-0")
    assert after.side_scores == (100, 0)
    assert after.is_game_over
    assert after.winner == 0
    assert after.winning_players == (0, 2)


#: A chain whose two ends met (a ring closed as closing="any" allows): no tile off the
#: board fits anywhere, both ends are blocked (reason D).
RING = [(-1, "6-6", 6, RIGHT), (0, "1-6", 6, LEFT), (1, "5-6", 6, RIGHT)]


@pytest.mark.parametrize("name", ["wild-draw", "bendo-all-in"])
def test_seed000_wild_draw_blocked_chain_each_player_draws_one_in_turn(name: str) -> None:
    """seeds/000 Wild Draw '(All other basic rules apply)' and the basic 'Note on blocked
    positions': 'If both ends of the Bendomino chain are blocked, each player draws a
    Bendomino until the stock is empty.' 'Draw until playable' cannot apply when nothing
    is playable: the players draw one tile each, in turn (Bendo All In 'plays like Wild
    Draw')."""
    rules = bendolib.rules.get(name)
    state = position(rules, [["0-1", "2-3"], ["4-4", "0-0"]], ["5-5", "2-2", "3-3"], RING)
    assert all(not s.playable for s in bendolib.classify_ends(state))
    drawers = []
    while not state.is_round_over:
        assert bendolib.legal_moves(state) == (DRAW,)
        drawers.append(state.current_player)
        state = bendolib.apply(state, DRAW)
    assert drawers == [0, 1, 0]
    assert [len(h) for h in state.hands] == [4, 3]
    result = state.last_result
    assert result is not None and result.blocked and state.stock_size == 0


def test_wild_draw_blocked_chain_as_stuck_kept_as_parameter() -> None:
    """The former behaviour, kept as ``when_blocked="as_stuck"``: the stuck player keeps
    drawing ('until they get a playable piece or until the stock is empty')."""
    rules = WILD.configure(when_blocked="as_stuck")
    state = position(rules, [["0-1", "2-3"], ["4-4", "0-0"]], ["5-5", "2-2", "3-3"], RING)
    drawers = []
    while not state.is_round_over:
        drawers.append(state.current_player)
        state = bendolib.apply(state, DRAW)
    assert drawers == [0, 0, 0] and [len(h) for h in state.hands] == [5, 2]


def test_seed000_wild_draw_a_stuck_player_still_draws_until_a_tile_fits() -> None:
    """seeds/000 Wild Draw: 'when players do not have a playable piece they must continue
    to draw until they get a playable piece' -- while some tile off the board fits."""
    state = position(WILD, [["0-1", "2-3"], ["1-1"]], ["4-4", "5-5", "6-2", "3-3"], CENTRE)
    for _ in range(3):
        assert state.current_player == 0
        state = bendolib.apply(state, DRAW)
    assert state.current_player == 0 and tile(TS, "6-2") in state.hands[0]
    assert state.stock_size == 1


def test_seed000_wild_draw_voluntary_draw_is_draw_and_pass() -> None:
    """seeds/000 'Note on play' (Wild Draw: 'All other basic rules apply'): a player who
    can place and draws by choice takes one tile and the turn ends."""
    state = position(WILD, [["6-2", "0-1"], ["1-1"]], ["4-4", "6-4"], CENTRE)
    after = bendolib.apply(state, DRAW)
    assert after.current_player == 1 and after.stock_size == 1
