"""Deductions from the public history (issue 5): passes, forced draws, missed draws."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import bendolib
from bendolib import engine, rules
from bendolib._inference import DRAW_MISSED, DREW, DREW_AGAIN, PASSED, deduce, fitting
from bendolib.moves import Draw, Pass
from bendolib.observation import stock_start
from bendolib.state import GameState
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
    """seeds/000: players can decide to draw and pass even if they have playable pieces."""
    for seed in range(40):
        state = play("basic", seed, 60)
        for lack in deduce(state.observation(0)).lacks:
            assert lack.reason in (PASSED, DRAW_MISSED)


def test_drawing_again_in_wild_draw_means_the_whole_hand_did_not_fit() -> None:
    """seeds/000 Wild Draw: players without a playable piece draw until one fits."""
    state, index = _first("wild-draw", 2, Draw, DREW_AGAIN)
    before = round_states(state)[index]
    lack = next(x for x in deduce(state.observation(0)).lacks if x.turn == index)
    assert before.hand_masks[lack.player] & lack.tiles == 0
    assert lack.tiles
