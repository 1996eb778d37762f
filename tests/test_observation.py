"""Observations: what one seat may know (issue 5), and that nothing hidden leaks."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import bendolib
from bendolib import engine, position_text, rules
from bendolib.moves import Draw, Place
from bendolib.observation import (
    HIDDEN,
    Observation,
    _replayed_turns,
    stock_start,
)
from bendolib.state import PLAYING, GameState
from random_play import random_play as play


def replayed(state: GameState, deck: tuple[int, ...], seed: int) -> GameState | None:
    """
    The state reached by dealing ``deck`` and playing the round's moves by the same
    seats as in ``state`` (None if a move is illegal or falls to another seat).
    """
    round_start = engine.deal_from(state.rules, state.players, deck, seed, state.round_number)
    original = engine.deal_from(state.rules, state.players, state.deck, 0, state.round_number)
    assert original is not None
    if round_start is None or (round_start.current_player, round_start.opening) != (
        original.current_player,
        original.opening,
    ):
        return None
    current = round_start
    for turn in state.history:
        if current.phase != PLAYING or current.current_player != turn.player:
            return None
        if turn.move not in bendolib.legal_moves(current):
            return None
        current = bendolib.apply(current, turn.move)
    public = ("current_player", "drawn_count", "phase", "stock_pos", "direction")
    if any(getattr(current, f) != getattr(state, f) for f in public):
        return None
    return current


def hidden_variant(state: GameState, observer: int, rng: random.Random) -> GameState:
    """
    A state that differs from ``state`` (a round in play) only in what ``observer``
    cannot see: the tiles of the other seats' hands, of their draws and of the stock
    permuted (and replayed, so it is reachable), or else the stock reordered; another
    seed in both cases.
    """
    size = state.rules.deal.hand_size(state.players)
    start = stock_start(state.rules, state.players)
    taken = state.observation(observer).taken
    hidden = [
        p for s in range(state.players) if s != observer for p in range(s * size, (s + 1) * size)
    ]
    hidden += [start + k for k, t in enumerate(taken) if t.player != observer]
    hidden += list(range(state.stock_pos, len(state.deck)))
    for attempt in range(40):
        deck = list(state.deck)
        if attempt % 2 == 0 and len(hidden) > 1:  # swap two hidden tiles
            i, j = rng.sample(hidden, 2)
            deck[i], deck[j] = deck[j], deck[i]
        else:  # or permute them all
            tiles = [deck[p] for p in hidden]
            rng.shuffle(tiles)
            for p, tile in zip(hidden, tiles, strict=True):
                deck[p] = tile
        variant = replayed(state, tuple(deck), state.seed + 1)
        if variant is not None and variant.hand_masks != state.hand_masks:
            return variant.replace(scores=state.scores, results=state.results)
    deck = list(state.deck)
    stock = deck[state.stock_pos :]
    rng.shuffle(stock)
    deck[state.stock_pos :] = stock
    return state.replace(seed=state.seed + 1, deck=tuple(deck))


@given(
    st.sampled_from(rules.names()),
    st.integers(0, 10_000),
    st.integers(0, 60),
    st.integers(0, 2**32),
)
def test_states_differing_only_in_hidden_tiles_give_equal_observations(
    name: str, seed: int, moves: int, salt: int
) -> None:
    state = play(name, seed, moves)
    assume(state.phase == PLAYING)
    rng = random.Random(salt)
    for observer in range(state.players):
        variant = hidden_variant(state, observer, rng)
        assert variant.observation(observer) == state.observation(observer)


def test_a_changed_hand_changes_its_owners_observation() -> None:
    """The property above could fail: the owner of a changed hand sees the change."""
    state = play("basic", 3, 4)
    seat = 1 - state.current_player
    tile = next(i for i in range(28) if state.hand_masks[seat] >> i & 1)
    stock_tile = state.deck[state.stock_pos]
    hands = list(state.hand_masks)
    hands[seat] = hands[seat] & ~(1 << tile) | (1 << stock_tile)
    variant = attrs.evolve(state, hand_masks=tuple(hands))
    assert variant.observation(seat) != state.observation(seat)
    assert variant.observation(1 - seat) == state.observation(1 - seat)


@given(st.sampled_from(rules.names()), st.integers(0, 10_000), st.integers(0, 80))
def test_observation_holds_exactly_the_public_facts_and_own_hand(
    name: str, seed: int, moves: int
) -> None:
    state = play(name, seed, moves)
    for seat in range(state.players):
        obs = state.observation(seat)
        assert obs.hand == state.hand(seat)
        assert obs.hand_sizes == tuple(len(h) for h in state.hands)
        assert obs.stock_size == state.stock_size
        assert obs.board == state.board and obs.open_ends == state.open_ends
        assert obs.scores == state.scores and obs.results == state.results
        assert obs.history == state.history
        assert obs.current_player == state.current_player
        assert obs.round_number == state.round_number
        assert obs.revealed == (state.hand_masks if state.phase != PLAYING else ())
        assert obs.drawn_mask == (state.drawn if seat == state.current_player else 0)
        start = stock_start(state.rules, state.players)
        assert len(obs.taken) == state.stock_pos - start
        for offset, taken in enumerate(obs.taken):
            tile = state.deck[start + offset]
            if taken.player == seat:
                assert taken.tile == tile
            else:
                assert taken.tile == HIDDEN
        hash(obs)


@given(st.sampled_from(rules.names()), st.integers(0, 10_000), st.integers(0, 80))
def test_who_took_each_stock_tile_and_when_matches_a_replay(
    name: str, seed: int, moves: int
) -> None:
    state = play(name, seed, moves)
    obs = state.observation(0)
    assert [t.turn for t in obs.taken] == _replayed_turns(state, state.history)
    for taken in obs.taken:
        move = state.history[taken.turn].move
        assert isinstance(move, (Draw, Place))


def test_who_took_a_tile_is_public_but_not_which() -> None:
    """Issue 5: the history says who drew, not which tile (seeds/000: a player draws)."""
    state = play("basic", 0, 0)
    rng = random.Random(2)
    while not any(isinstance(t.move, Draw) for t in state.history):
        legal = bendolib.legal_moves(state)
        draws = [m for m in legal if isinstance(m, Draw)]
        state = bendolib.apply(state, draws[0] if draws else rng.choice(legal))
    drawer = next(t.player for t in state.history if isinstance(t.move, Draw))
    other = 1 - drawer
    theirs = [t for t in state.observation(other).taken if t.player == drawer]
    mine = [t for t in state.observation(drawer).taken if t.player == drawer]
    assert theirs and all(t.tile == HIDDEN for t in theirs)
    assert [t.turn for t in theirs] == [t.turn for t in mine]
    assert all(t.tile != HIDDEN for t in mine)
    assert set(state.observation(drawer).own_draws) <= set(
        state.rules.tileset.index(t) for t in state.hand(drawer)
    ) | {state.rules.tileset.index(p.tile) for p in state.board.placements}


def test_hands_are_shown_once_the_round_is_over() -> None:
    """seeds/000: the winner scores the points left in the opponents' hands."""
    state = play("basic", 5, 400)
    while state.phase == PLAYING:
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    obs = state.observation(0)
    assert obs.is_round_over and obs.revealed == state.hand_masks


def test_observation_is_an_immutable_hashable_value() -> None:
    state = play("all-five", 2, 10)
    obs = state.observation(1)
    assert isinstance(obs, Observation)
    assert obs == state.observation(1) and hash(obs) == hash(state.observation(1))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        obs.player = 0  # type: ignore[misc]
    assert not hasattr(obs, "seed") and not hasattr(obs, "deck")


def test_no_seat_beyond_the_table() -> None:
    state = play("basic", 1, 0, players=2)
    with pytest.raises(ValueError, match="no seat 2"):
        state.observation(2)


def test_observation_of_a_position_loaded_mid_round() -> None:
    """A state read back from position text starts its known history there: its
    observation's ``start`` is what the seat saw at that position, ``taken`` lists only
    the draws made since, and nobody else's drawn tile is shown."""
    state = bendolib.new_game(rules.get("basic"), players=2, seed=3)
    rng = random.Random(3)
    while state.stock_size > 10 and not state.is_round_over:
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    assert state.stock_size <= 10
    loaded = position_text.loads(position_text.dumps(state))
    assert loaded.history == ()
    for seat in range(2):
        obs = loaded.observation(seat)
        assert obs.taken == ()
        assert obs.start is not None and obs.start.hand_mask == state.hand_masks[seat]
        assert obs.start.stock_size == state.stock_size and obs.start.history == ()
    later = loaded
    while later.stock_pos == loaded.stock_pos and not later.is_round_over:
        later = bendolib.apply(later, bendolib.legal_moves(later)[-1])
    for seat in range(2):
        obs = later.observation(seat)
        assert len(obs.taken) == later.stock_pos - loaded.stock_pos
        assert all(t.tile == HIDDEN for t in obs.taken if t.player != seat)
