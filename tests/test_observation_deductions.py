"""Deductions from the public history (issue 5): passes, forced draws, missed draws."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import bendolib
from bendolib import engine, rules
from bendolib._inference import DRAW_MISSED, DREW, DREW_AGAIN, PASSED, deduce, fitting, hidden_deal
from bendolib.moves import Draw, Pass
from bendolib.observation import stock_start
from bendolib.state import GameState
from bendolib.tiles import indices
from random_play import random_play


def play(name: str, seed: int, moves: int) -> GameState:
    """A state within the first round, after up to ``moves`` random moves."""
    return random_play(name, seed, moves, stop="round")


def round_states(state: GameState) -> list[GameState]:
    """The state before each move of the current round (replayed from its deck)."""
    current = engine.deal_from(
        state.rules, state.players, state.deck, state.seed, state.round_number
    )
    assert current is not None
    out = []
    for turn in state.history:
        out.append(current)
        current = bendolib.apply(current, turn.move)
    return out


@given(st.sampled_from(rules.names()), st.integers(0, 10_000), st.integers(0, 120))
def test_deductions_never_contradict_the_true_hands(name: str, seed: int, moves: int) -> None:
    state = play(name, seed, moves)
    before = round_states(state)
    for observer in range(state.players):
        found = deduce(state.observation(observer))
        for seat in range(state.players):
            assert state.hand_masks[seat] & ~found.possible[seat] == 0
            assert found.cannot_hold(seat) & state.hand_masks[seat] == 0
        for lack in found.lacks:
            then = before[lack.turn]
            if lack.reason == DRAW_MISSED:
                start = stock_start(state.rules, state.players)
                drawn = {
                    state.deck[start + k]
                    for k, t in enumerate(state.observation(lack.player).taken)
                    if t.player == lack.player
                    and t.turn <= lack.turn
                    and t.turn >= _turn_start(state, lack.turn)
                }
                assert not any(lack.tiles >> tile & 1 for tile in drawn)
            else:
                assert then.hand_masks[lack.player] & lack.tiles == 0


def _turn_start(state: GameState, index: int) -> int:
    """Index of the first entry of the turn that history entry ``index`` belongs to."""
    history = state.history
    player = history[index].player
    while (
        index > 0
        and history[index - 1].player == player
        and isinstance(history[index - 1].move, Draw)
    ):
        index -= 1
    return index


def _first(name: str, players: int, want: type, reason: str) -> tuple[GameState, int]:
    """A round where someone other than seat 0 made a ``want`` move deduced as ``reason``."""
    ruleset = rules.get(name)
    for seed in range(500):
        state = bendolib.new_game(ruleset, players, seed)
        rng = random.Random(seed)
        while not state.is_round_over:
            legal = bendolib.legal_moves(state)
            state = bendolib.apply(state, legal[rng.randrange(len(legal))])
            last = state.history[-1]
            if isinstance(last.move, want) and last.player != 0:
                lacks = deduce(state.observation(0)).lacks
                if any(x.reason == reason and x.turn == len(state.history) - 1 for x in lacks):
                    return state, len(state.history) - 1
    raise AssertionError("no such round")


def test_a_player_who_passed_lacked_every_tile_that_fitted() -> None:
    """seeds/000 No Draw: a player without a matching piece passes."""
    state, index = _first("no-draw", 2, Pass, PASSED)
    obs = state.observation(0)
    lack = next(x for x in deduce(obs).lacks if x.turn == index)
    before = round_states(state)[index]
    on_board = obs.rules.tileset.mask_of(p.tile for p in before.board.placements)
    assert lack.tiles == fitting(obs, before.board) & ~on_board
    assert lack.tiles and lack.player == state.history[index].player
    assert deduce(obs).cannot_hold(lack.player) & lack.tiles == lack.tiles & obs.unseen_mask


def test_a_forced_draw_is_a_deduction_where_drawing_is_not_voluntary() -> None:
    """seeds/003: a player unable to play must draw; drawing says it could not play."""
    state, index = _first("classic-draw", 2, Draw, DREW)
    assert state.history[index].player != 0


def test_drawing_by_choice_says_nothing_in_the_basic_rules() -> None:
    """seeds/000: players can decide to draw and pass even if they have playable pieces
    (only a draw after which the same player went on tells something: see below)."""
    for seed in range(40):
        state = play("basic", seed, 60)
        history = state.history
        for lack in deduce(state.observation(0)).lacks:
            assert lack.reason in (PASSED, DRAW_MISSED, DREW)
            if lack.reason == DREW:
                following = history[lack.turn + 1] if lack.turn + 1 < len(history) else None
                if following is None:
                    assert state.current_player == lack.player and state.drawn_count
                else:
                    assert following.player == lack.player


def test_a_draw_that_did_not_end_the_turn_was_forced() -> None:
    """
    seeds/000: "Players can decide to draw a Bendomino and pass their turn even if they
    have playable pieces" -- a draw by choice ends the turn, so a draw after which the
    same player moves again was the forced one: "If players do not have a Bendomino that
    can be played, they must draw one piece from the stock."  The player held no tile
    that fitted before that draw.
    """
    state, index = _first("basic", 2, Draw, DREW)
    obs = state.observation(0)
    found = deduce(obs)
    lack = next(x for x in found.lacks if x.turn == index and x.reason == DREW)
    before = round_states(state)[index]
    on_board = obs.rules.tileset.mask_of(p.tile for p in before.board.placements)
    assert lack.tiles == fitting(obs, before.board) & ~on_board
    assert lack.tiles and lack.player == state.history[index].player
    assert before.hand_masks[lack.player] & lack.tiles == 0
    # the dealt hand cannot hold them (the drawn tile may: it fitted, the turn went on)
    dealt = [s for s in hidden_deal(obs).slots if s.seat == lack.player and s.kind == "hand"]
    assert dealt and all(slot.accepts & lack.tiles == 0 for slot in dealt)


def test_the_observer_who_started_knows_no_one_held_a_higher_double() -> None:
    """
    seeds/000 All Five: "The player with the highest double begins" (and opens with any
    tile, ``opens=False``): the player who began knows its own highest double, so no
    other hand was dealt a higher one.
    """
    ruleset = rules.get("all-five")
    doubles = ruleset.tileset.doubles_mask
    checked = 0
    for seed in range(40):
        state = bendolib.new_game(ruleset, 3, seed)
        starter = state.current_player
        mine = state.hand_masks[starter] & doubles
        if not mine:
            continue
        tiles = ruleset.tileset.tiles
        best = max(indices(mine), key=lambda i: tiles[i].a)
        higher = ruleset.tileset.mask_of(
            tiles[i] for i in indices(doubles) if tiles[i].a > tiles[best].a
        )
        found = deduce(state.observation(starter))
        for seat in range(state.players):
            if seat != starter:
                assert found.possible[seat] & higher == 0
                assert state.hand_masks[seat] & higher == 0
        checked += 1 if higher else 0
    assert checked


def test_drawing_again_in_wild_draw_means_the_whole_hand_did_not_fit() -> None:
    """seeds/000 Wild Draw: players without a playable piece draw until one fits."""
    state, index = _first("wild-draw", 2, Draw, DREW_AGAIN)
    before = round_states(state)[index]
    lack = next(x for x in deduce(state.observation(0)).lacks if x.turn == index)
    assert before.hand_masks[lack.player] & lack.tiles == 0
    assert lack.tiles


def test_after_drawing_until_one_fits_the_last_drawn_tile_fitted() -> None:
    """
    seeds/000 Wild Draw: players "must continue to draw until they get a playable piece
    or until the stock is empty".  A player who drew again lacked every fitting tile,
    the earlier drawn ones included; one who then passed (a drawn tile fitted) drew a
    fitting tile last.
    """
    found = 0
    for seed in range(300):
        state = random_play("wild-draw", seed, 40, 4, stop="round")
        history = state.history
        for index in range(2, len(history)):
            player = history[index].player
            if player == 0 or not isinstance(history[index].move, Pass):
                continue
            if any(
                history[i].player != player or not isinstance(history[i].move, Draw)
                for i in (index - 1, index - 2)
            ):
                continue
            obs = state.observation(0)
            before = round_states(state)[index]
            on_board = obs.rules.tileset.mask_of(p.tile for p in before.board.placements)
            fits = fitting(obs, before.board) & ~on_board
            start = stock_start(obs.rules, obs.players)
            last = next(start + k for k, t in enumerate(obs.taken) if t.turn == index - 1)
            slot = next(s for s in hidden_deal(obs).slots if last in s.positions)
            assert slot.positions == (last,)
            assert slot.accepts & ~fits == 0
            assert fits >> state.deck[last] & 1
            found += 1
            break
        if found >= 3:
            break
    assert found
