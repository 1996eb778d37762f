"""Every sentence of the basic Bendomino rules (seeds/000 and seeds/002), one test each.

Positions are built by hand with ``positions.position``; tile turns follow the
library's default bend table (a|b read from a to b turns left iff (b - a) mod 7 is
1, 2 or 4).
"""

from __future__ import annotations

import attrs
import pytest

import bendolib
from bendolib import DRAW, PASS, IllegalMoveError, Place
from bendolib.blocking import Block
from bendolib.moves import OPENING
from bendolib.rules.starting import HighestDouble, StartDecision
from bendolib.tiles import LEFT, RIGHT, Tile, TileSet
from positions import build_board, mask, places, position, tile

BASIC = bendolib.rules.get("basic")
TS = BASIC.tileset

#: 6-6 in the centre, 6-1 turning left at end 0, 6-3 turning left at end 1: end 0
#: (showing 1) is then a closed position where only a right-turning tile fits.
CLOSED = [(-1, "6-6", 6, RIGHT), (0, "1-6", 6, LEFT), (1, "3-6", 6, LEFT)]


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 6), (4, 5)])
def test_seed000_hand_sizes_and_stock(players: int, size: int) -> None:
    """seeds/000 'Preparation': 2 players take 7, 3 take 6, 4 take 5; the rest is the stock."""
    for seed in range(20):
        state = bendolib.new_game(BASIC, players=players, seed=seed)
        assert [len(h) for h in state.hands] == [size] * players
        assert state.stock_size == 28 - players * size
        assert len(TS) == 28


def test_seed000_highest_double_starts_in_the_centre() -> None:
    """seeds/000: the player with the highest double starts by placing it in the centre;
    that placement is the only legal move of the round's first turn."""
    for seed in range(50):
        state = bendolib.new_game(BASIC, players=3, seed=seed)
        doubles = [(t.a, p) for p, hand in enumerate(state.hands) for t in hand if t.is_double]
        if not doubles:
            continue
        top, holder = max(doubles)
        moves = bendolib.legal_moves(state)
        assert state.current_player == holder
        assert len(moves) == 1
        move = moves[0]
        assert isinstance(move, Place)
        assert move.end == OPENING and move.tile == tile(TS, f"{top}-{top}")
        assert move.position == bendolib.Position(0, 0, 0)


def test_seed000_no_double_highest_tile_starts() -> None:
    """seeds/000: 'If no double was drawn, the highest Bendomino number should be played
    (Example: 6/5)'; ties on the pip total go to the higher top number (library decision)."""
    hands = (mask(TS, ["6-5", "0-1"]), mask(TS, ["5-4", "2-3"]))
    decision = HighestDouble().choose(TS, hands, 1)
    assert decision.player == 0 and TS.tiles[decision.opening] == tile(TS, "5-6")
    tie = (mask(TS, ["4-5", "0-2"]), mask(TS, ["3-6", "0-1"]))
    decision = HighestDouble().choose(TS, tie, 1)
    assert decision.player == 1 and TS.tiles[decision.opening] == tile(TS, "3-6")


def test_seed000_turns_go_clockwise() -> None:
    """seeds/000: 'Taking turns in a clockwise direction': the next seat plays next."""
    state = bendolib.new_game(BASIC, players=4, seed=3)
    for _ in range(12):
        if state.is_round_over:
            break
        before = state.current_player
        move = bendolib.legal_moves(state)[0]
        state = bendolib.apply(state, move)
        if not isinstance(move, type(DRAW)) and not state.is_round_over:
            assert state.current_player == (before + 1) % 4


def test_seed000_match_by_number_to_either_end() -> None:
    """seeds/000: a tile must match the number of an end; either end may be used."""
    state = position(BASIC, [["6-2", "0-1", "5-4"], ["2-2"]], ["3-3"], [(-1, "6-6", 6, RIGHT)])
    moves = places(state)
    assert {m.end for m in moves} == {0, 1}
    assert {str(m.tile) for m in moves} == {str(tile(TS, "2-6"))}
    bad = Place(tile(TS, "0-1"), 0, 0, 1, LEFT, state.board.ends[0].left)
    with pytest.raises(IllegalMoveError, match="shows 6"):
        bendolib.apply(state, bad)


def test_seed002_open_position_any_matching_tile() -> None:
    """seeds/002 example 1 (open position): the new tile only needs a matching number;
    it can be played either way, so a double has two placements per end."""
    state = position(BASIC, [["6-2", "6-0", "6-5"], ["1-1"]], ["3-3"], [(-1, "6-6", 6, RIGHT)])
    end0 = {(m.inward, m.shows, m.turn) for m in places(state) if m.end == 0}
    # read from 6: 6->2 turns right, 6->0 left, 6->5 right; all fit in an open position
    assert end0 == {(6, 2, RIGHT), (6, 0, LEFT), (6, 5, RIGHT)}
    assert state.board.ends[0].free == LEFT | RIGHT
    double = position(BASIC, [["2-2"], ["1-1"]], ["3-3"], [(-1, "6-2", 6, RIGHT)])
    two_ways = [m for m in places(double) if m.end == double.board.values.index(2)]
    assert {m.turn for m in two_ways} == {LEFT, RIGHT}


def test_seed002_closed_position_needs_the_right_turn() -> None:
    """seeds/002 example 2 (closed position): the new tile must match and turn the proper
    way; a matching tile that turns the wrong way is not legal."""
    state = position(BASIC, [["1-2", "1-4", "1-1"], ["5-5"]], ["3-3"], CLOSED)
    end0 = state.board.ends[0]
    assert end0.value == 1 and end0.free == RIGHT
    legal = [m for m in places(state) if m.end == 0]
    assert {str(m.tile) for m in legal} == {str(tile(TS, "1-4")), "1-1"}
    assert all(m.turn == RIGHT for m in legal)
    wrong = Place(tile(TS, "1-2"), 0, 1, 2, LEFT, end0.left)
    with pytest.raises(IllegalMoveError, match="occupied"):
        bendolib.apply(state, wrong)
    wrong_bend = Place(tile(TS, "1-2"), 0, 1, 2, RIGHT, end0.right)
    with pytest.raises(IllegalMoveError, match="does not turn that way"):
        bendolib.apply(state, wrong_bend)


def test_seed000_connected_evenly() -> None:
    """seeds/000 'Connecting pieces': each tile joins the previous one flush, end to end,
    at the position the lattice gives for its turn."""
    state = position(BASIC, [["6-2"], ["1-1"]], ["3-3"], [(-1, "6-6", 6, RIGHT)])
    for move in places(state):
        end = state.board.ends[move.end]
        assert move.position == (end.left if move.turn == LEFT else end.right)


def test_seed000_no_playable_tile_must_draw() -> None:
    """seeds/000: 'If players do not have a Bendomino that can be played, they must draw
    one piece from the stock.'"""
    state = position(BASIC, [["0-1", "2-3"], ["1-1"]], ["4-4", "5-5"], [(-1, "6-6", 6, RIGHT)])
    assert bendolib.legal_moves(state) == (DRAW,)


def test_seed000_drawn_tile_may_be_played_at_once() -> None:
    """seeds/000: 'If the piece they draw can be played, they can immediately play it.'
    Only the drawn tile may be placed; passing is also allowed."""
    state = position(BASIC, [["0-1", "2-3"], ["1-1"]], ["6-2", "5-5"], [(-1, "6-6", 6, RIGHT)])
    after = bendolib.apply(state, DRAW)
    assert after.current_player == 0
    moves = bendolib.legal_moves(after)
    assert moves[-1] == PASS
    assert {str(m.tile) for m in moves if isinstance(m, Place)} == {str(tile(TS, "2-6"))}


def test_seed000_drawn_tile_that_does_not_fit_ends_the_turn() -> None:
    """seeds/000 (library decision): when the drawn tile cannot be played the turn passes
    to the next player at once (the pass is implied)."""
    state = position(BASIC, [["0-1", "2-3"], ["1-1"]], ["4-4", "5-5"], [(-1, "6-6", 6, RIGHT)])
    after = bendolib.apply(state, DRAW)
    assert after.current_player == 1
    assert after.stock_size == 1
    assert tile(TS, "4-4") in after.hands[0]


def test_seed000_may_draw_and_pass_with_playable_pieces() -> None:
    """seeds/000 'Note on play': players can draw and pass even with playable pieces."""
    state = position(BASIC, [["6-2", "0-1"], ["1-1"]], ["4-4", "5-5"], [(-1, "6-6", 6, RIGHT)])
    moves = bendolib.legal_moves(state)
    assert DRAW in moves and any(isinstance(m, Place) for m in moves)
    drawn = bendolib.apply(state, DRAW)
    assert drawn.current_player == 1  # 4-4 does not fit: the turn passes


def test_seed000_empty_stock_and_no_fit_pass() -> None:
    """Basic rules: with an empty stock and no fitting tile, the only move is to pass."""
    state = position(BASIC, [["0-1", "2-3"], ["6-1"]], [], [(-1, "6-6", 6, RIGHT)])
    assert bendolib.legal_moves(state) == (PASS,)
    after = bendolib.apply(state, PASS)
    assert after.current_player == 1 and not after.is_round_over


def test_seed000_both_ends_blocked_players_draw_until_stock_empty() -> None:
    """seeds/000 'Note on blocked positions': if both ends are blocked, each player draws
    until the stock is empty; then the round ends blocked."""
    closed = [(-1, "6-6", 6, RIGHT), (0, "1-6", 6, LEFT), (1, "5-6", 6, RIGHT)]
    state = position(BASIC, [["0-1", "2-3"], ["4-4", "0-0"]], ["5-5", "2-2", "3-3"], closed)
    assert all(not s.playable for s in bendolib.classify_ends(state))
    drawers = []
    while not state.is_round_over:
        assert bendolib.legal_moves(state) == (DRAW,)
        drawers.append(state.current_player)
        state = bendolib.apply(state, DRAW)
    assert drawers == [0, 1, 0]
    result = state.last_result
    assert result is not None and result.blocked and state.stock_size == 0


def test_seed000_round_ends_when_a_hand_is_empty_winner_scores_opponents_pips() -> None:
    """seeds/000: the round ends when a player has no tiles left; the winner scores the dots
    of all opponents' remaining tiles."""
    state = position(BASIC, [["6-2"], ["1-1", "3-4"], ["0-5"]], ["5-5"], [(-1, "6-6", 6, RIGHT)])
    move = next(m for m in places(state) if m.end == 0)
    after = bendolib.apply(state, move)
    assert after.is_round_over
    assert after.scores == (2 + 7 + 5, 0, 0)
    assert after.last_result is not None and after.last_result.winners == (0,)


def test_seed000_blocked_round_lowest_total_wins() -> None:
    """seeds/000 'Winning a round': when nobody can play, the lowest point total wins and
    scores the opponents' dots."""
    state = position(BASIC, [["6-1", "0-2"], ["0-1", "4-5"]], [], [(-1, "6-6", 6, RIGHT)])
    state = attrs.evolve(state, board=build_board(BASIC, CLOSED_DEAD))
    state = bendolib.apply(state, PASS)
    assert state.is_round_over
    result = state.last_result
    assert result is not None and result.blocked
    # hands: player 0 has 7 + 2 = 9, player 1 has 1 + 9 = 10: player 0 wins 10
    assert result.hand_points == (9, 10)
    assert state.scores == (10, 0)


#: A board on which both ends are closed (three tiles around one corner point).
CLOSED_DEAD = [(-1, "6-6", 6, RIGHT), (0, "1-6", 6, LEFT), (1, "5-6", 6, RIGHT)]


def test_seed000_blocked_tie_nobody_scores_by_default() -> None:
    """Blocked round, tie for the lowest total: nobody scores (library decision, a
    parameter of WinnerTakesPips)."""
    state = position(BASIC, [["0-3", "0-2"], ["0-1", "0-4"]], [], CLOSED_DEAD)
    state = bendolib.apply(state, PASS)
    assert state.is_round_over and state.scores == (0, 0)
    assert state.last_result is not None and state.last_result.winners == ()


def test_seed000_match_to_100_target_is_a_parameter() -> None:
    """seeds/000 'Winning the game': the first player to 100 points wins; the target is a
    parameter."""
    assert BASIC.match.target == 100
    short = bendolib.rules.get("basic", target=10)
    assert short.match.target == 10
    state = bendolib.new_game(short, players=2, seed=5)
    while not state.is_game_over:
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    assert max(state.scores) >= 10 and state.winner == state.scores.index(max(state.scores))


def test_seed000_rounds_follow_from_the_match_seed() -> None:
    """seeds/000 'played in rounds': the next round is dealt afresh from the match seed,
    identically every time."""

    def to_round_two(seed: int) -> bendolib.GameState:
        state = bendolib.new_game(BASIC, players=2, seed=seed)
        while not state.is_round_over:
            state = bendolib.apply(state, bendolib.legal_moves(state)[0])
        return bendolib.apply(state, bendolib.legal_moves(state)[0])

    a, b = to_round_two(11), to_round_two(11)
    assert (
        a == b
        and a.round_number == 2
        and a.hand_masks != bendolib.new_game(BASIC, players=2, seed=11).hand_masks
    )


@pytest.mark.parametrize(
    ("steps", "stock", "reason"),
    [
        (CLOSED_DEAD, [], Block.ENDS_CONNECTED),
    ],
)
def test_seed000_blocked_reason_d_ends_connect(
    steps: list[tuple[int, str, int, int]], stock: list[str], reason: Block
) -> None:
    """seeds/000 blocked position D: both ends connect (three tiles round one point)."""
    state = position(BASIC, [["0-1"], ["0-2"]], stock, steps)
    assert [s.blocked for s in bendolib.classify_ends(state)] == [reason, reason]


def test_seed000_blocked_reason_a_no_matching_number() -> None:
    """seeds/000 blocked position A: no tile with the end's number is left off the board
    (a three-tile double-1 set makes it easy to use every 0 and every 1)."""
    small = TileSet("double-1", (Tile(0, 0), Tile(0, 1, RIGHT), Tile(1, 1)))
    rules = BASIC.configure(tileset=small, hand_sizes={2: 1})
    steps = [(-1, "1-1", 1, RIGHT), (0, "0-1", 1, LEFT), (0, "0-0", 0, RIGHT)]
    state = position(rules, [[], []], [], steps)
    assert [s.blocked for s in bendolib.classify_ends(state)] == [
        Block.NO_MATCHING_NUMBER,
        Block.NO_MATCHING_NUMBER,
    ]


def test_seed000_blocked_reason_b_no_matching_piece_fits() -> None:
    """seeds/000 blocked position B: a tile with the end's number is left, but it turns the
    wrong way for the only free position (a custom five-tile set without 1-1)."""
    custom = TileSet(
        "custom",
        (Tile(2, 2), Tile(1, 2, RIGHT), Tile(0, 2, RIGHT), Tile(0, 1, RIGHT), Tile(0, 0)),
    )
    rules = BASIC.configure(tileset=custom, hand_sizes={2: 1})
    steps = [(-1, "2-2", 2, RIGHT), (0, "1-2", 2, LEFT), (1, "0-2", 2, LEFT)]
    state = position(rules, [["0-1"], ["0-0"]], [], steps)
    end0 = state.board.ends[0]
    assert end0.value == 1 and end0.free == RIGHT
    assert tile(custom, "0-1").turn_from(1) == LEFT
    assert bendolib.classify_ends(state)[0].blocked == Block.NO_FITTING_TILE
    assert bendolib.classify_ends(state)[1].playable  # 0-1 and 0-0 match the 0


#: A chain that doubles back on itself until end 1 is trapped (found by search).
DEAD_END = [
    (-1, "6-6", 6, RIGHT), (0, "5-6", 6, RIGHT), (0, "0-5", 5, LEFT), (0, "0-2", 0, LEFT),
    (0, "1-2", 2, RIGHT), (1, "2-6", 6, RIGHT), (0, "1-5", 1, LEFT), (0, "4-5", 5, RIGHT),
    (1, "2-4", 2, LEFT), (0, "4-4", 4, LEFT), (1, "4-6", 4, LEFT), (0, "1-4", 4, LEFT),
    (0, "1-6", 1, RIGHT), (0, "3-6", 6, LEFT), (0, "3-3", 3, RIGHT),
]  # fmt: skip


def test_seed000_blocked_reason_c_dead_end() -> None:
    """seeds/000 blocked position C: an end trapped in a dead end (both positions beyond
    it are taken or overlapped), while the two ends do not meet."""
    state = position(BASIC, [["0-0"], ["2-2"]], [], DEAD_END)
    statuses = bendolib.classify_ends(state)
    assert statuses[1].blocked == Block.DEAD_END
    assert statuses[0].playable
    assert state.board.ends[1].free == 0


# -- issue 13: the rules texts read literally ------------------------------------------

#: 6-6 in the centre and 6-1 turning left at end 0: ends 0 (showing 1) and 1 (showing
#: 6) lead into the same cell, so a tile turning left at end 0, or right at end 1,
#: would close the ring of three tiles.
RING = [(-1, "6-6", 6, RIGHT), (0, "1-6", 6, LEFT)]


def test_seed000_connected_evenly_a_closing_tile_must_match_the_end_it_meets() -> None:
    """seeds/000 and 002 'Connecting pieces': 'Each Bendomino must be connected evenly';
    'D- Both ends connect (rare)'. A placement whose far end would meet the other open
    end is legal only if the number it shows there is that end's number: 1-2 turning
    left at end 0 would show 2 against the 6 of end 1, 5-6 turning right at end 1
    would show 5 against the 1 of end 0; neither fits."""
    state = position(BASIC, [["1-2", "5-6", "1-4"], ["0-0"]], ["3-3"], RING)
    assert bendolib.rules.get("basic").closing == "even"
    listed = {(str(m.tile), m.end) for m in places(state)}
    assert listed == {(str(tile(TS, "1-4")), 0)}
    loose = state.replace(rules=BASIC.configure(closing="any"))
    assert {(str(m.tile), m.end) for m in places(loose)} == {
        (str(tile(TS, "1-2")), 0),
        (str(tile(TS, "5-6")), 1),
        (str(tile(TS, "1-4")), 0),
    }
    uneven = next(m for m in places(loose) if m.tile == tile(TS, "1-2"))
    with pytest.raises(IllegalMoveError, match="close the chain unevenly"):
        bendolib.apply(state, uneven)
    assert bendolib.classify_ends(state.replace(hand_masks=(0, 0))) is not None


def test_seed000_connected_evenly_a_matching_tile_closes_the_ring() -> None:
    """seeds/000: 'D- Both ends connect (rare)': in a set with both bends of each tile,
    the other bend of 1-2 closes the ring 1-1, 1-2, 2-1 evenly (2 meets 2 and 1 meets
    1); then both ends are blocked for reason D."""
    both = TileSet.double(6, both_bends=True)
    rules = BASIC.configure(tileset=both)
    ring = [(-1, "1-1", 1, RIGHT), (0, "1-2L", 1, LEFT)]
    state = position(rules, [["1-2R", "2-3L"], ["0-0"]], ["3-3"], ring)
    closing = [m for m in places(state) if m.end == 0 and m.turn == LEFT]
    assert [(str(m.tile), m.shows) for m in closing] == [("1-2R", 1)]
    closed = bendolib.apply(state, closing[0])
    reasons = [s.blocked for s in bendolib.classify_ends(closed)]
    assert reasons == [Block.ENDS_CONNECTED, Block.ENDS_CONNECTED]


def test_seed000_reason_d_is_rare_in_random_play() -> None:
    """seeds/000: 'D- Both ends connect (rare)'. With even closing, random play ends few
    basic rounds with reason D (about 2% measured by bench/rule_stats.py; 38% when any
    tile could close the ring)."""
    import random

    rng = random.Random(13)
    ended_d = 0
    rounds = 150
    for seed in range(rounds):
        state = bendolib.new_game(BASIC, 2, seed)
        while not state.is_round_over:
            moves = bendolib.legal_moves(state)
            state = bendolib.apply(state, moves[rng.randrange(len(moves))])
        ends = bendolib.classify_ends(state)
        ended_d += any(s.blocked == Block.ENDS_CONNECTED for s in ends)
    assert ended_d / rounds < 0.1


def test_seed000_a_voluntary_draw_is_draw_and_pass() -> None:
    """seeds/000 'Note on play': 'Players can decide to draw a Bendomino and pass their
    turn even if they have playable pieces.' The turn ends with the draw, even when the
    drawn tile (4-6) fits; only a player who could not play 'can immediately play it'."""
    state = position(BASIC, [["6-2", "0-1"], ["1-1"]], ["4-6", "5-5"], [(-1, "6-6", 6, RIGHT)])
    after = bendolib.apply(state, DRAW)
    assert after.current_player == 1 and tile(TS, "4-6") in after.hands[0]
    assert BASIC.draw.after_voluntary == "pass"
    fishing = state.replace(rules=BASIC.configure(after_voluntary="play"))
    after = bendolib.apply(fishing, DRAW)
    assert after.current_player == 0
    moves = bendolib.legal_moves(after)
    assert moves[-1] == PASS and {m.tile for m in moves if isinstance(m, Place)} == {
        tile(TS, "4-6")
    }


def test_seed000_no_double_with_both_bends_of_the_highest_tile_split_deals_again() -> None:
    """seeds/000: 'If no double was drawn, the highest Bendomino number should be played
    (Example: 6/5)'. With both bends of 6-5 in two hands nobody holds *the* highest:
    deal again (seed 003's rule when nobody can lead); split='lowest_seat' lets the
    lower seat start. Both in one hand: that player starts with the first listed copy."""
    both = TileSet.double(6, both_bends=True)
    left, right = both.index(both.parse_tile("5-6L")), both.index(both.parse_tile("5-6R"))
    low = both.mask_of([both.parse_tile("0-1L")])
    split = (1 << left | low, 1 << right)
    assert HighestDouble().choose(both, split, 1).redeal
    assert HighestDouble(split="lowest_seat").choose(both, split, 1) == StartDecision(0, left)
    held = (low, 1 << left | 1 << right)
    assert HighestDouble().choose(both, held, 1) == StartDecision(1, left)
