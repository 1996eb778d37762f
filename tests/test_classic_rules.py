"""Every rule sentence of the classic games (seeds/003 and seeds/004), one test each.

Positions are built by hand with ``positions.position`` on the straight line: steps
are (end, tile, inward face, turn) with turn ``STRAIGHT``; tiles that no hand or stock
mentions are out of play.  Games: classic-draw, classic-draw-one and classic-block
(seeds/003), domino-pairs, draw-dominoes and first-out (seeds/004).
"""

from __future__ import annotations

import pytest

import bendolib
from bendolib import DRAW, NEXT_ROUND, PASS, GameState, IllegalMoveError, Place
from bendolib._rng import SplitMix64, derive_seed
from bendolib.moves import OPENING
from bendolib.rules.classic import DOUBLE_NINE, DOUBLE_TWELVE
from bendolib.state import GAME_OVER, ROUND_OVER
from bendolib.tiles import STRAIGHT
from positions import mask, places, position, tile

DRAW_GAME = bendolib.rules.get("classic-draw")
DRAW_ONE = bendolib.rules.get("classic-draw-one")
BLOCK = bendolib.rules.get("classic-block")
PAIRS = bendolib.rules.get("domino-pairs")
DRAW_DOMINOES = bendolib.rules.get("draw-dominoes")
FIRST_OUT = bendolib.rules.get("first-out")
TS = DRAW_GAME.tileset

#: 6-6 opened, then 6-3 at end 0: end 0 shows 3, end 1 shows 6.
SIX_THREE = [(-1, "6-6", 6, STRAIGHT), (0, "6-3", 6, STRAIGHT)]


def placed(state: GameState) -> set[tuple[str, int, int]]:
    """The legal placements as (tile, end, inward face)."""
    return {(str(m.tile), m.end, m.inward) for m in places(state)}


def play(state: GameState, text: str) -> GameState:
    return bendolib.apply(state, bendolib.parse_move(text, state))


def highest_double(state: GameState) -> tuple[int, int]:
    doubles = [(t.a, p) for p, hand in enumerate(state.hands) for t in hand if t.is_double]
    return max(doubles)


# -- seeds/003: the classic draw game --------------------------------------------------


def test_seed003_first_to_100_wins_the_game() -> None:
    """seeds/003 'Object of the game': the first player to score 100 or more points wins."""
    state = position(DRAW_GAME, [["3-4"], ["5-5"]], stock=["0-0"], steps=SIX_THREE, scores=(95, 40))
    over = play(state, "3-4@0")
    assert over.phase == GAME_OVER
    assert over.scores == (105, 40)
    assert over.winner == 0
    below = position(DRAW_GAME, [["3-4"], ["5-5"]], stock=["0-0"], steps=SIX_THREE)
    assert play(below, "3-4@0").phase == ROUND_OVER


def test_seed003_short_game_to_50() -> None:
    """seeds/003: 'If you want a shorter game, play to a total of 50 points'."""
    short = bendolib.rules.get("classic-draw", target=50)
    state = position(short, [["3-4"], ["5-5"]], stock=["0-0"], steps=SIX_THREE, scores=(45, 0))
    over = play(state, "3-4@0")
    assert over.is_game_over and over.scores == (55, 0)


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5)])
def test_seed003_hand_sizes_and_boneyard(players: int, size: int) -> None:
    """seeds/003 'Game preparations': 2 players draw 7, 3 or 4 players draw 5; the
    remaining dominoes are the stock (the boneyard); all 28 are shuffled."""
    for seed in range(10):
        state = bendolib.new_game(DRAW_GAME, players, seed)
        assert [len(h) for h in state.hands] == [size] * players
        assert state.stock_size == 28 - players * size
        assert sorted(state.deck) == list(range(28))


def test_seed003_only_two_to_four_players() -> None:
    """seeds/003: '2 - 4 players'."""
    assert DRAW_GAME.player_counts == (2, 3, 4)
    with pytest.raises(bendolib.RuleSetError):
        bendolib.new_game(DRAW_GAME, 5)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seed003_highest_double_sets_it_on_the_table(players: int) -> None:
    """seeds/003 'How to play': the player with the highest double sets it on the table;
    it is the only legal first move."""
    for seed in range(30):
        state = bendolib.new_game(DRAW_GAME, players, seed)
        top, holder = highest_double(state)
        assert state.current_player == holder
        (move,) = bendolib.legal_moves(state)
        assert isinstance(move, Place) and move.end == OPENING
        assert move.tile == tile(TS, f"{top}-{top}")


def test_seed003_turn_passes_clockwise_after_the_double() -> None:
    """seeds/003: 'The turn then passes clockwise to the next player.'"""
    for seed in range(10):
        state = bendolib.new_game(DRAW_GAME, 4, seed)
        starter = state.current_player
        after = bendolib.apply(state, bendolib.legal_moves(state)[0])
        assert after.current_player == (starter + 1) % 4


def test_seed003_asking_from_double_six_down_to_double_zero() -> None:
    """seeds/003: 'Does anyone have double 6?' ... 'all the way down to double 0'."""
    start = DRAW_GAME.start
    only_low = (mask(TS, ["0-0", "1-2"]), mask(TS, ["2-2", "3-4"]))
    assert start.choose(TS, only_low, 1).player == 1
    assert TS.tiles[start.choose(TS, only_low, 1).opening] == tile(TS, "2-2")
    blank = (mask(TS, ["0-0", "1-2"]), mask(TS, ["5-6", "3-4"]))
    decision = start.choose(TS, blank, 1)
    assert (decision.player, TS.tiles[decision.opening]) == (0, tile(TS, "0-0"))


def test_seed003_no_double_means_shuffle_and_deal_again() -> None:
    """seeds/003: 'If no-one still has a double domino, players shuffle all the dominoes
    and draw again.'  (A deal with no double is found and shown to be replaced.)"""
    no_double = (mask(TS, ["0-1", "1-2"]), mask(TS, ["2-3", "3-4"]))
    assert DRAW_GAME.start.choose(TS, no_double, 1).redeal
    found = 0
    for seed in range(3000):
        first = SplitMix64(derive_seed(seed, 1, 0)).shuffled(range(28))
        if any(TS.tiles[i].is_double for i in first[:14]):
            continue
        found += 1
        state = bendolib.new_game(DRAW_GAME, 2, seed)
        assert state.deck != first
        assert state.rules.tileset.tiles[state.opening].is_double
    assert found > 0


def test_seed003_play_to_either_end_so_that_the_ends_match() -> None:
    """seeds/003: one domino 'to either end of the domino chain, so that the connected
    domino ends match'; the new end shows the tile's other number."""
    state = position(DRAW_GAME, [["3-5", "6-1", "2-4"], ["0-0"]], stock=["1-1"], steps=SIX_THREE)
    assert placed(state) == {("3-5", 0, 3), ("1-6", 1, 6)}
    after = play(state, "3-5@0")
    assert after.board.values == (5, 6)
    after = play(position(DRAW_GAME, [["6-1"], ["0-0"]], stock=["1-1"], steps=SIX_THREE), "6-1@1")
    assert after.board.values == (3, 1)


def test_seed003_a_double_has_two_open_ends_on_its_long_sides() -> None:
    """seeds/003: 'Double dominoes are always placed crosswise'; with the double on the
    table there are two open ends, both showing its number (crosswise is rendering)."""
    state = position(DRAW_GAME, [["5-4"], ["0-0"]], stock=["1-1"], steps=[(-1, "5-5", 5, 0)])
    assert state.board.values == (5, 5)
    on_three = position(DRAW_GAME, [["3-3"], ["0-0"]], stock=["1-1"], steps=SIX_THREE)
    assert play(on_three, "3-3@0").board.values == (3, 6)


def test_seed003_unable_to_play_draws_until_a_domino_fits_and_plays_it() -> None:
    """seeds/003: 'he/she must draw dominoes from the boneyard until he/she finds a
    suitable domino and plays it on the table'."""
    state = position(
        DRAW_GAME,
        [["1-2", "0-1"], ["4-4"]],
        stock=["2-4", "0-4", "3-5", "1-1"],
        steps=SIX_THREE,
    )
    assert bendolib.legal_moves(state) == (DRAW,)
    state = bendolib.apply(state, DRAW)
    assert state.current_player == 0 and bendolib.legal_moves(state) == (DRAW,)
    state = bendolib.apply(state, DRAW)
    assert bendolib.legal_moves(state) == (DRAW,)
    state = bendolib.apply(state, DRAW)
    assert state.current_player == 0
    assert placed(state) == {("3-5", 0, 3)}
    assert PASS not in bendolib.legal_moves(state) and DRAW not in bendolib.legal_moves(state)
    after = play(state, "3-5@0")
    assert after.current_player == 1


def test_seed003_drawn_dominoes_stay_in_the_hand() -> None:
    """seeds/003: 'He/she must add the drawn dominoes to his/her hand and not return them
    to the boneyard.'"""
    state = position(
        DRAW_GAME, [["1-2"], ["4-4"]], stock=["2-4", "0-4", "3-5", "1-1"], steps=SIX_THREE
    )
    for _ in range(3):
        state = bendolib.apply(state, DRAW)
    state = play(state, "3-5@0")
    assert {str(t) for t in state.hand(0)} == {"1-2", "2-4", "0-4"}
    assert [str(t) for t in state.stock] == ["1-1"]


def test_seed003_empty_boneyard_means_pass() -> None:
    """seeds/003: 'If there are no dominoes left in the boneyard, he/she must pass a turn.'"""
    state = position(DRAW_GAME, [["1-2"], ["6-4", "0-0"]], steps=SIX_THREE)
    assert bendolib.legal_moves(state) == (PASS,)
    after = bendolib.apply(state, PASS)
    assert after.current_player == 1 and not after.is_round_over


def test_seed003_drawing_the_last_tile_without_a_fit_passes_the_turn() -> None:
    """seeds/003: the boneyard runs out while drawing and nothing fits: the turn passes."""
    state = position(DRAW_GAME, [["1-2"], ["6-4", "0-0"]], stock=["1-1"], steps=SIX_THREE)
    after = bendolib.apply(state, DRAW)
    assert after.current_player == 1
    assert tile(TS, "1-1") in after.hand(0) and after.stock_size == 0


def test_seed003_a_player_who_can_play_must_play() -> None:
    """seeds/003: 'On his/her turn the player plays one domino'; drawing and passing are
    only for a player unable to play (library decision: no voluntary draw or pass)."""
    state = position(DRAW_GAME, [["3-4"], ["0-0"]], stock=["1-1"], steps=SIX_THREE)
    assert bendolib.legal_moves(state) == tuple(places(state))
    for move in (DRAW, PASS):
        with pytest.raises(IllegalMoveError):
            bendolib.apply(state, move)


def test_seed003_going_out_scores_all_other_hands() -> None:
    """seeds/003 'The end': the player who plays the last domino scores the pips on the
    unplayed dominoes of all other players."""
    state = position(DRAW_GAME, [["3-4"], ["1-2", "0-0"], ["5-5"]], stock=["0-1"], steps=SIX_THREE)
    over = play(state, "3-4@0")
    result = over.last_result
    assert result is not None and not result.blocked
    assert result.order == (0,)
    assert result.points == (3 + 0 + 10, 0, 0)
    assert over.scores == (13, 0, 0)


def test_seed003_all_passing_lowest_hand_scores_the_others() -> None:
    """seeds/003: when all players have passed in a row, the player with the fewest pips
    scores the pips of all other players.  The round ends as soon as no one can play
    (they would all pass)."""
    state = position(DRAW_GAME, [["3-5", "0-2"], ["4-4"], ["0-1", "1-1"]], steps=SIX_THREE)
    over = play(state, "3-5@0")
    result = over.last_result
    assert result is not None and result.blocked
    assert result.hand_points == (2, 8, 3)
    assert result.points == (8 + 3, 0, 0)


def test_seed003_blocked_tie_for_lowest_scores_nothing() -> None:
    """seeds/003 is silent on a tie for the fewest pips: nobody scores (decision)."""
    state = position(DRAW_GAME, [["3-5", "0-2"], ["1-1"], ["4-4"]], steps=SIX_THREE)
    result = play(state, "3-5@0").last_result
    assert result is not None and result.blocked
    assert result.points == (0, 0, 0) and result.winners == ()


def test_seed003_play_again_until_someone_reaches_100() -> None:
    """seeds/003: 'Play again until someone reaches 100 points': the next round is dealt,
    scores carry over, and the highest double starts it again (decision)."""
    state = position(DRAW_GAME, [["3-4"], ["5-5"]], stock=["0-0"], steps=SIX_THREE)
    over = play(state, "3-4@0")
    assert bendolib.legal_moves(over) == (NEXT_ROUND,)
    nxt = bendolib.apply(over, NEXT_ROUND)
    assert nxt.round_number == 2 and nxt.scores == (10, 0)
    assert [len(h) for h in nxt.hands] == [7, 7]
    top, holder = highest_double(nxt)
    assert nxt.current_player == holder
    assert nxt.rules.tileset.tiles[nxt.opening] == tile(TS, f"{top}-{top}")


def test_seed003_variation_draw_one_plays_it_if_it_fits() -> None:
    """seeds/003 'Variation': a player unable to play draws one domino; if it is suitable
    it is played, after which the turn passes."""
    state = position(DRAW_ONE, [["1-2"], ["4-4"]], stock=["3-5", "1-1"], steps=SIX_THREE)
    assert bendolib.legal_moves(state) == (DRAW,)
    drawn = bendolib.apply(state, DRAW)
    assert placed(drawn) == {("3-5", 0, 3)}
    assert PASS not in bendolib.legal_moves(drawn)
    assert play(drawn, "3-5@0").current_player == 1


def test_seed003_variation_draw_one_keeps_it_if_it_does_not_fit() -> None:
    """seeds/003 'Variation': 'If it is not suitable, the player adds it to his/her hand
    and the turn passes to the next player.'"""
    state = position(DRAW_ONE, [["1-2"], ["4-6"]], stock=["1-1", "3-5"], steps=SIX_THREE)
    after = bendolib.apply(state, DRAW)
    assert after.current_player == 1
    assert tile(TS, "1-1") in after.hand(0)
    assert after.stock_size == 1


def test_seed003_block_variant_never_draws_and_passes_when_stuck() -> None:
    """classic-block (issue 4, seeds/003 without the boneyard): no drawing; a player
    unable to play passes even when tiles are left out of play."""
    state = position(BLOCK, [["1-2"], ["6-4", "0-0"]], stock=["3-5"], steps=SIX_THREE)
    assert bendolib.legal_moves(state) == (PASS,)
    with pytest.raises(IllegalMoveError, match="no drawing"):
        bendolib.apply(state, DRAW)
    assert bendolib.apply(state, PASS).current_player == 1
    game = bendolib.new_game(BLOCK, 2, 5)
    while not game.is_round_over:
        assert DRAW not in bendolib.legal_moves(game)
        game = bendolib.apply(game, bendolib.legal_moves(game)[0])
    assert game.stock_size == 14


# -- seeds/004: domino by pairs --------------------------------------------------------


def test_seed004_pairs_four_players_in_two_teams_on_alternate_seats() -> None:
    """seeds/004: 'game has four players, divided in two teams, sitting on alternate
    positions'."""
    state = bendolib.new_game(PAIRS, 4, 1)
    assert state.sides == ((0, 2), (1, 3))
    assert PAIRS.player_counts == (4,)
    for players in (2, 3):
        with pytest.raises(bendolib.RuleSetError):
            bendolib.new_game(PAIRS, players)


def test_seed004_pairs_28_bones_worth_their_two_values() -> None:
    """seeds/004: '28 bones with sides ranging from 0 to 6'; 'the bone 0-0 is worth 0
    points, the bone 3-4 is worth 7 points, the bone 6-6 is worth 12 points'."""
    assert len(TS) == 28
    assert {t.a for t in TS.tiles} | {t.b for t in TS.tiles} == set(range(7))
    for text, points in (("0-0", 0), ("3-4", 7), ("6-6", 12)):
        assert tile(TS, text).points == points


def test_seed004_pairs_each_player_gets_seven_bones() -> None:
    """seeds/004: 'The bones are shuffled on the table, and each player gets 7 bones'."""
    for seed in range(10):
        state = bendolib.new_game(PAIRS, 4, seed)
        assert [len(h) for h in state.hands] == [7, 7, 7, 7]
        assert state.stock_size == 0


def test_seed004_pairs_the_double_six_holder_starts_with_it() -> None:
    """seeds/004: 'The player who starts the game is the one who gets the bone 6-6. He
    starts the game by putting this bone on the table.'  Every round (decision)."""
    for seed in range(20):
        state = bendolib.new_game(PAIRS, 4, seed)
        holder = next(p for p, h in enumerate(state.hands) if tile(TS, "6-6") in h)
        assert state.current_player == holder
        (move,) = bendolib.legal_moves(state)
        assert isinstance(move, Place) and str(move) == "6-6*"


def test_seed004_pairs_play_proceeds_clockwise() -> None:
    """seeds/004: 'From there on, the play proceeds clockwise.'  'When a player matches a
    bone, the following player must play.'"""
    state = bendolib.new_game(PAIRS, 4, 3)
    for _ in range(8):
        before = state.current_player
        moves = bendolib.legal_moves(state)
        state = bendolib.apply(state, moves[0])
        assert state.current_player == (before + 1) % 4


def test_seed004_pairs_matching_needs_a_number_in_common() -> None:
    """seeds/004 'To Match bones': a bone placed next to another must have a number in
    common with the extremity ('2-5 goes with 5-6')."""
    steps = [(-1, "6-6", 6, STRAIGHT), (0, "6-5", 6, STRAIGHT)]
    state = position(PAIRS, [["2-5", "1-3"], ["0-0"], ["1-1"], ["2-2"]], steps=steps)
    assert placed(state) == {("2-5", 0, 5)}


def test_seed004_pairs_must_match_one_bone_at_a_time() -> None:
    """seeds/004: 'Each player must try to match some of his bones with the one that are
    on the game's extremities, one bone at a time' (no pass while a bone matches)."""
    state = position(PAIRS, [["3-4", "6-1"], ["0-0"], ["1-1"], ["2-2"]], steps=SIX_THREE)
    assert PASS not in bendolib.legal_moves(state)
    after = play(state, "3-4@0")
    assert len(after.hand(0)) == 1 and after.current_player == 1


def test_seed004_pairs_pass_without_a_matching_bone() -> None:
    """seeds/004: 'If the player doesn't have any bones to match with the extremities, he
    passes his turn.'"""
    state = position(PAIRS, [["1-2"], ["6-0"], ["1-1"], ["2-2"]], steps=SIX_THREE)
    assert bendolib.legal_moves(state) == (PASS,)
    assert bendolib.apply(state, PASS).current_player == 1


def test_seed004_pairs_going_out_wins_the_losing_teams_pips() -> None:
    """seeds/004: 'After a player has emptied their hand, thereby winning the game for
    their team, the score consists of the total pip count of the losing teams' hands.'"""
    state = position(PAIRS, [["3-4"], ["5-5"], ["4-4"], ["1-2"]], steps=SIX_THREE)
    over = play(state, "3-4@0")
    result = over.last_result
    assert result is not None and not result.blocked
    assert result.points == (10 + 3, 0, 0, 0)
    assert over.side_scores == (13, 0)


def test_seed004_pairs_locked_game_fewer_points_takes_the_opponents_points() -> None:
    """seeds/004: 'In blocking games, all the points scored by each team are counted. The
    team that has fewer points is the winner, and takes all points from their opponent.'"""
    hands = [["3-5", "0-1"], ["2-2"], ["0-2"], ["1-4", "0-4"]]
    over = play(position(PAIRS, hands, steps=SIX_THREE), "3-5@0")
    result = over.last_result
    assert result is not None and result.blocked
    assert result.hand_points == (1, 4, 2, 9)
    assert over.side_scores == (4 + 9, 0)
    assert result.winners == (0,)


def test_seed004_pairs_locked_tie_the_team_that_blocked_loses() -> None:
    """seeds/004: 'If the score is tied, the team that blocked the game, lose, and the
    winning team takes all points from their opponent.'"""
    hands = [["3-5", "0-4"], ["2-2"], ["0-2"], ["1-1"]]
    over = play(position(PAIRS, hands, steps=SIX_THREE), "3-5@0")
    result = over.last_result
    assert result is not None and result.blocked
    assert result.hand_points == (4, 4, 2, 2)
    assert over.side_scores == (0, 4 + 2)
    assert result.winners == (3,)


def test_seed004_pairs_first_team_to_100() -> None:
    """seeds/004: 'The winning team have their points accumulated, and the game ends when a
    team reaches 100 points.'"""
    hands = [["3-4"], ["5-5"], ["4-4"], ["1-2"]]
    state = position(PAIRS, hands, steps=SIX_THREE, scores=(50, 30, 40, 60))
    over = play(state, "3-4@0")
    assert over.side_scores == (103, 90)
    assert over.is_game_over and over.winner == 0 and over.winning_players == (0, 2)


# -- seeds/004: Draw Dominoes ----------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_seed004_draw_dominoes_five_tiles_each_for_three_or_four(players: int) -> None:
    """seeds/004 'Draw Dominoes is a game for 2, 3 or 4 players' ... 'If you are using 3
    or 4 players, take just 5 dominoes each'; 'Leave the rest of the dominoes on the
    table.'"""
    state = bendolib.new_game(DRAW_DOMINOES, players, 4)
    assert [len(h) for h in state.hands] == [5] * players
    assert state.stock_size == 28 - 5 * players
    assert DRAW_DOMINOES.player_counts == (2, 3, 4)


def test_seed004_draw_dominoes_six_tiles_as_a_parameter() -> None:
    """seeds/004: 'Each player then picks 6 dominoes each' (hand_sizes parameter)."""
    six = bendolib.rules.get("draw-dominoes", hand_sizes={2: 6, 3: 6, 4: 6})
    state = bendolib.new_game(six, 4, 0)
    assert [len(h) for h in state.hands] == [6] * 4


def test_seed004_draw_dominoes_highest_double_goes_first() -> None:
    """seeds/004: 'usually the player with the highest double goes first by placing that
    domino on the table' (no double dealt: shuffle and deal again, as seeds/003)."""
    for seed in range(30):
        state = bendolib.new_game(DRAW_DOMINOES, 3, seed)
        top, holder = highest_double(state)
        assert state.current_player == holder
        assert [str(m) for m in bendolib.legal_moves(state)] == [f"{top}-{top}*"]


def test_seed004_draw_dominoes_next_player_connects_to_six_six() -> None:
    """seeds/004: 'if the first player played 6-6, the next player must play a domino
    that has 6 on one end.'"""
    steps = [(-1, "6-6", 6, STRAIGHT)]
    state = position(DRAW_DOMINOES, [["6-2", "3-4", "1-6"], ["0-0"]], ["5-5"], steps)
    assert {t for t, _, _ in placed(state)} == {"2-6", "1-6"}


def test_seed004_draw_dominoes_keep_drawing_until_one_can_be_played() -> None:
    """seeds/004: 'If they player doesn't have a suitable domino to play, they keep
    "drawing" dominoes from the selection of unused dominoes until they find one they can
    play.'"""
    state = position(DRAW_DOMINOES, [["1-2"], ["4-4"]], ["0-0", "2-2", "6-1"], SIX_THREE)
    state = bendolib.apply(bendolib.apply(state, DRAW), DRAW)
    assert bendolib.legal_moves(state) == (DRAW,)
    state = bendolib.apply(state, DRAW)
    assert placed(state) == {("1-6", 1, 6)}


def test_seed004_draw_dominoes_pass_when_nothing_is_left_to_draw() -> None:
    """seeds/004: 'If there are no more unused dominoes left to draw from, and the player
    still can't play, they can just pass their turn and the next player goes.'"""
    state = position(DRAW_DOMINOES, [["1-2"], ["3-4"]], steps=SIX_THREE)
    assert bendolib.legal_moves(state) == (PASS,)
    assert bendolib.apply(state, PASS).current_player == 1


def test_seed004_draw_dominoes_going_out_collects_the_others_points() -> None:
    """seeds/004: 'Each player adds up the dots on all of their remaining dominoes. The
    player who used up all their dominoes collects those points.'"""
    state = position(DRAW_DOMINOES, [["3-4"], ["5-5"], ["1-2", "0-4"]], ["0-0"], SIX_THREE)
    result = play(state, "3-4@0").last_result
    assert result is not None and result.points == (10 + 3 + 4, 0, 0)


def test_seed004_draw_dominoes_blocked_fewest_points_collects_minus_their_own() -> None:
    """seeds/004: 'If the game ended "blocked" and no player used all their dominoes, the
    player with the fewest points remaining wins that round and collects the points (minus
    any points they have remaining.)'  Decision: the others' total minus the winner's own."""
    state = position(DRAW_DOMINOES, [["3-5", "0-2"], ["4-4"], ["0-1", "1-1"]], steps=SIX_THREE)
    result = play(state, "3-5@0").last_result
    assert result is not None and result.blocked
    assert result.hand_points == (2, 8, 3)
    assert result.points == (8 + 3 - 2, 0, 0)


def test_seed004_draw_dominoes_blocked_tie_for_fewest_scores_nothing() -> None:
    """seeds/004 is silent on a tie for the fewest points: nobody scores (decision)."""
    state = position(DRAW_DOMINOES, [["3-5", "0-2"], ["1-1"]], steps=SIX_THREE)
    result = play(state, "3-5@0").last_result
    assert result is not None and result.blocked and result.points == (0, 0)


def test_seed004_draw_dominoes_play_to_a_chosen_score() -> None:
    """seeds/004: 'You can play until any player reaches a predetermined score, for
    example, 100 or 200 points.'"""
    assert DRAW_DOMINOES.match.target == 100
    to_200 = bendolib.rules.get("draw-dominoes", target=200)
    state = position(to_200, [["3-4"], ["5-5"]], ["0-0"], SIX_THREE, scores=(150, 0))
    assert play(state, "3-4@0").phase == ROUND_OVER
    state = position(to_200, [["3-4"], ["5-5"]], ["0-0"], SIX_THREE, scores=(190, 0))
    assert play(state, "3-4@0").is_game_over


@pytest.mark.parametrize(("tileset", "count"), [(DOUBLE_NINE, 55), (DOUBLE_TWELVE, 91)])
def test_seed004_draw_dominoes_with_larger_sets(tileset: bendolib.TileSet, count: int) -> None:
    """seeds/004: 'you can play the game with larger domino sets too' (double-9,
    double-12; hand sizes as a parameter)."""
    rules = bendolib.rules.get("draw-dominoes", tileset=tileset, hand_sizes={2: 9, 3: 8, 4: 7})
    assert len(tileset) == count == (tileset.top + 1) * (tileset.top + 2) // 2
    state = bendolib.new_game(rules, 4, 2)
    assert [len(h) for h in state.hands] == [7] * 4
    assert state.stock_size == count - 28
    top, _ = highest_double(state)
    assert str(bendolib.legal_moves(state)[0]) == f"{top}-{top}*"


# -- seeds/004: house rules ------------------------------------------------------------


def test_seed004_house_rule_maximum_drawn_per_turn() -> None:
    """seeds/004: 'Set a maximum number of dominoes that can be drawn on any one turn.'"""
    rules = bendolib.rules.get("draw-dominoes", max_per_turn=2)
    state = position(rules, [["1-2"], ["4-6"]], ["0-0", "2-2", "6-1"], SIX_THREE)
    state = bendolib.apply(state, DRAW)
    assert state.current_player == 0
    state = bendolib.apply(state, DRAW)
    assert state.current_player == 1
    assert {str(t) for t in state.hand(0)} == {"1-2", "0-0", "2-2"}


@pytest.mark.parametrize("batch", [2, 3])
def test_seed004_house_rule_draw_several_at_once_then_play_or_pass(batch: int) -> None:
    """seeds/004: 'Require that more than one domino is draw at one time. For example, the
    player must draw 2 or 3 dominoes, then either play (if possible) or pass'."""
    rules = bendolib.rules.get("draw-dominoes", batch=batch, when_stuck="once")
    stock = ["0-0", "2-2", "1-1", "3-5"]
    state = position(rules, [["1-2"], ["4-6"]], stock, SIX_THREE)
    after = bendolib.apply(state, DRAW)
    assert after.stock_size == 4 - batch
    assert len(after.hand(0)) == 1 + batch
    assert after.current_player == 1  # nothing drawn fits: the turn passes
    fits = position(rules, [["1-2"], ["4-6"]], ["0-0", "3-5", "1-1"], SIX_THREE)
    drawn = bendolib.apply(fits, DRAW)
    assert placed(drawn) == {("3-5", 0, 3)}


def test_seed004_house_rule_blanks_played_as_any_value() -> None:
    """seeds/004: 'Let blank dominoes be played as any value, decided by the player who
    uses it (similar to a blank letter in Scrabble)'."""
    rules = bendolib.rules.get("draw-dominoes", wild_faces={0})
    state = position(rules, [["0-5"], ["4-4"]], ["1-1"], SIX_THREE)
    assert placed(state) == {("0-5", 0, 0), ("0-5", 1, 0)}
    moves = [m for m in places(state) if m.end == 0]
    assert [m.shows for m in moves] == [5]
    blank_out = position(rules, [["0-3"], ["4-4"]], ["1-1"], SIX_THREE)
    named = sorted(m.shows for m in places(blank_out) if m.inward == 3)
    assert named == list(range(7))
    after = play(blank_out, "3-0=4@0")
    assert after.board.values == (4, 6)
    assert tile(TS, "0-0").points == 0


def test_seed004_house_rule_an_opening_double_blank_shows_blanks() -> None:
    """Decision for seeds/004's wild blanks: nobody names the values of an opening 0-0,
    so its ends show 0 and only a tile with a blank can follow."""
    rules = bendolib.rules.get("draw-dominoes", wild_faces={0})
    state = position(rules, [["3-5", "0-4"], ["1-1"]], ["2-2"], [(-1, "0-0", 0, STRAIGHT)])
    assert state.board.values == (0, 0)
    assert {t for t, _, _ in placed(state)} == {"0-4"}


# -- seeds/004: the simple game ---------------------------------------------------------


def test_seed004_first_out_the_first_to_empty_the_hand_wins() -> None:
    """seeds/004: 'Object: Be the first player to get rid of all your dominoes.'"""
    state = position(FIRST_OUT, [["3-4"], ["5-5"], ["0-1"]], ["0-0"], SIX_THREE)
    over = play(state, "3-4@0")
    assert over.is_game_over and over.winner == 0
    assert over.scores == (1, 0, 0)
    assert FIRST_OUT.player_counts == (2, 3, 4)


def test_seed004_first_out_blocked_round_goes_to_the_fewest_pips() -> None:
    """seeds/004: 'The game ends ... when the game is blocked and none of the players can
    make a play': the fewest points remaining wins (decision, as Draw Dominoes)."""
    state = position(FIRST_OUT, [["3-5", "0-2"], ["4-4"], ["0-1", "1-1"]], steps=SIX_THREE)
    over = play(state, "3-5@0")
    assert over.is_game_over and over.winner == 0 and over.scores == (1, 0, 0)


def test_seed004_first_out_blocked_tie_plays_another_round() -> None:
    """Decision: a blocked round tied for the fewest points has no winner; a new round
    is dealt."""
    state = position(FIRST_OUT, [["3-5", "0-2"], ["1-1"]], steps=SIX_THREE)
    over = play(state, "3-5@0")
    assert over.phase == ROUND_OVER and over.scores == (0, 0)
    assert bendolib.apply(over, NEXT_ROUND).round_number == 2


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5)])
def test_seed004_draw_dominoes_two_players_take_seven(players: int, size: int) -> None:
    """seeds/004 Draw Dominoes: 'If you are using 3 or 4 players, take just 5 dominoes
    each' -- so two players take more: 7, as seeds/003 ('If there are 2 players, each
    player draws 7 dominoes') and the common published rules deal them."""
    rules = bendolib.rules.get("draw-dominoes")
    state = bendolib.new_game(rules, players, 1)
    assert [len(h) for h in state.hands] == [size] * players
    assert rules.configure(hand_sizes={2: 5, 3: 5, 4: 5}).deal.hand_size(2) == 5


# -- issue 21 point 1: a stuck player draws until a tile fits, also on a blocked line ----

#: Every tile carrying 6 is on the line and both ends show 6: no tile off the board fits.
BLOCKED_LINE = [
    (-1, "6-6", 6, STRAIGHT),
    (1, "6-1", 6, STRAIGHT),
    (1, "1-2", 1, STRAIGHT),
    (1, "2-6", 2, STRAIGHT),
    (1, "6-3", 6, STRAIGHT),
    (1, "3-4", 3, STRAIGHT),
    (1, "4-6", 4, STRAIGHT),
    (0, "6-0", 6, STRAIGHT),
    (0, "0-5", 0, STRAIGHT),
    (0, "5-6", 5, STRAIGHT),
]


def _drawers(rules: bendolib.RuleSet) -> tuple[list[int], list[int]]:
    """Who draws on the blocked line until the round ends, and the hand sizes then."""
    state = position(rules, [["0-1", "2-3"], ["4-4", "0-0"]], ["5-5", "2-2", "3-3"], BLOCKED_LINE)
    assert [e.value for e in state.board.ends] == [6, 6]
    drawers = []
    while not state.is_round_over:
        assert bendolib.legal_moves(state) == (DRAW,)
        drawers.append(state.current_player)
        state = bendolib.apply(state, DRAW)
    result = state.last_result
    assert result is not None and result.blocked
    return drawers, [len(h) for h in state.hands]


@pytest.mark.parametrize("name", ["classic-draw", "draw-dominoes", "first-out"])
def test_seed003_004_a_stuck_player_takes_the_boneyard_on_a_blocked_line(name: str) -> None:
    """seeds/003: "If a player is unable to play a domino, he/she must draw dominoes from
    the boneyard until he/she finds a suitable domino"; seeds/004 (Draw Dominoes, First
    Out): "they keep drawing ... until they find one they can play".  On a line no tile
    can extend, the stuck player draws the whole boneyard, then the round ends blocked
    (issue 21 point 1; seeds/000's one-each drain is the Bendomino sets')."""
    rules = bendolib.rules.get(name)
    assert rules.draw.when_blocked == "as_stuck"
    assert _drawers(rules) == ([0, 0, 0], [5, 2])


def test_classic_draw_one_each_on_a_blocked_line_kept_as_parameter() -> None:
    """``when_blocked="one_each"`` (the former default): the players draw one tile each."""
    assert _drawers(DRAW_GAME.configure(when_blocked="one_each")) == ([0, 1, 0], [4, 3])
