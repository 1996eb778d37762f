"""
Observations, deductions and sampled states of the triangle games (issue 15, phase 2):
for every seat and player count of Triangle Dominoes (seeds/004) and Triominoes, from a
dealt round and from a position built mid-round.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bendolib
from bendolib import GameState
from bendolib._inference import DREW, deduce, hidden_deal
from bendolib.moves import Draw, PlaceInCell
from bendolib.observation import HIDDEN, stock_start
from bendolib.rules.triangles import TRIANGLE_DOMINOES, TRIANGLE_RULESETS, TRIOMINOES
from bendolib.sampling import sample_state
from bendolib.state import PLAYING

TABLES = [(rules, players) for rules in TRIANGLE_RULESETS for players in rules.player_counts]
IDS = [f"{rules.name}-{players}" for rules, players in TABLES]


def play(rules: bendolib.RuleSet, players: int, seed: int, moves: int) -> GameState:
    """The state after up to ``moves`` random moves of the first round."""
    state = bendolib.new_game(rules, players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_round_over:
            break
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    return state


def built(state: GameState) -> GameState:
    """``state`` as a position built mid-round: its known history starts there."""
    fresh = state.replace(log=None, past=())
    return fresh.replace(origin=fresh)


def check_seat(state: GameState, seat: int, salt: int) -> None:
    """What ``seat`` sees, deduces and samples agrees with ``state``."""
    obs = state.observation(seat)
    # own hand, every hand's size, stock, board, scores (penalties included), history
    assert obs.hand_mask == state.hand_masks[seat]
    assert obs.hand_sizes == tuple(h.bit_count() for h in state.hand_masks)
    assert obs.stock_size == state.stock_size and obs.board == state.board
    assert obs.scores == state.scores and obs.play_points == state.play_points
    assert obs.history == state.history
    # who took each stock tile is public, which tile only to the taker
    first = obs.start.stock_size if obs.start is not None else None
    taken_from = stock_start(state.rules, state.players) if first is None else None
    for offset, taken in enumerate(obs.taken):
        if taken.player != seat:
            assert taken.tile == HIDDEN
        elif taken_from is not None:
            assert taken.tile == state.deck[taken_from + offset]
    # the deductions never contradict the true hands
    found = deduce(obs)
    for other in range(state.players):
        assert state.hand_masks[other] & ~found.possible[other] == 0
    # the sampled state gives the same observation, the observer's hand unchanged
    sampled = sample_state(obs, random.Random(salt))
    assert sampled.observation(seat) == obs
    assert sampled.hand_masks[seat] == state.hand_masks[seat]
    for other in range(state.players):
        if other != seat:
            assert sampled.hand_masks[other] & ~found.possible[other] == 0
    if state.phase == PLAYING and state.current_player == seat:
        assert bendolib.legal_moves(sampled) == bendolib.legal_moves(state)


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=IDS)
@settings(max_examples=4)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 40), salt=st.integers(0, 2**32))
def test_every_seat_observes_deduces_and_samples_a_dealt_round(
    rules: bendolib.RuleSet, players: int, seed: int, moves: int, salt: int
) -> None:
    # the exact count behind the sampler grows with the draws of many hands: keep the
    # rounds of 4 to 6 players short here (the soak runs them longer)
    state = play(rules, players, seed, moves if players <= 3 else moves % 16)
    for seat in range(players):
        check_seat(state, seat, salt)


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=IDS)
@settings(max_examples=3)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 25), later=st.integers(1, 15))
def test_every_seat_observes_deduces_and_samples_a_built_position(
    rules: bendolib.RuleSet, players: int, seed: int, moves: int, later: int
) -> None:
    state = built(play(rules, players, seed, moves if players <= 3 else moves % 10))
    rng = random.Random(seed)
    for _ in range(later if players <= 3 else later % 6):
        if state.is_round_over:
            break
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    for seat in range(players):
        obs = state.observation(seat)
        assert obs.start is not None
        check_seat(state, seat, seed)


@pytest.mark.parametrize("rules", TRIANGLE_RULESETS, ids=lambda r: r.name)
def test_the_true_deal_meets_every_seats_constraints(rules: bendolib.RuleSet) -> None:
    """The sampler's per-tile constraints are necessary: the real deck never breaks them."""
    for seed in range(3):
        players = rules.player_counts[seed % len(rules.player_counts)]
        state = play(rules, players, seed, 30)
        size = rules.deal.hand_size(players)
        deck = list(state.deck)
        for seat in range(players):
            deck[seat * size : (seat + 1) * size] = sorted(deck[seat * size : (seat + 1) * size])
        for seat in range(players):
            deal = hidden_deal(state.observation(seat))
            for position, tile in enumerate(deal.known):
                assert tile in (HIDDEN, deck[position])
            for slot in deal.slots:
                assert all(slot.accepts >> deck[p] & 1 for p in slot.positions)


def opened(rules: bendolib.RuleSet, triple: bool) -> GameState:
    """A 2-player round just opened with a triple (``triple``) or with another tile."""
    for seed in range(500):
        state = play(rules, 2, seed, 1)
        first = state.history[0].move
        assert isinstance(first, PlaceInCell)
        if first.tile.is_double == triple:
            return state
    raise AssertionError("no such deal")


@pytest.mark.parametrize("rules", TRIANGLE_RULESETS, ids=lambda r: r.name)
def test_the_opening_triple_tells_no_one_else_holds_a_higher_one(rules: bendolib.RuleSet) -> None:
    """seeds/004: "The player who has a card with three matching numbers takes the first";
    the highest triple opens (docs/rules), so no other hand holds a higher triple."""
    state = opened(rules, triple=True)
    opener = state.history[0].player
    laid = state.history[0].move
    assert isinstance(laid, PlaceInCell)
    tileset = rules.tileset
    higher = {
        tileset.index(t) for t in tileset.tiles if t.is_double and t.points > laid.tile.points
    }
    seat = 1 - opener
    cannot = deduce(state.observation(seat)).cannot_hold(opener)
    unseen_higher = {i for i in higher if not state.hand_masks[seat] >> i & 1}
    assert all(cannot >> i & 1 for i in unseen_higher)
    held = state.hand_masks[seat]
    lower = [
        i
        for i, t in enumerate(tileset.tiles)
        if t.is_double and t.points < laid.tile.points and not held >> i & 1
    ]
    assert not any(cannot >> i & 1 for i in lower), "a lower triple says nothing"


def test_an_opening_without_a_triple_tells_no_hand_holds_one() -> None:
    """Triangle Dominoes: with no triple dealt the holder of the highest pair opens, so
    after such an opening no hidden hand can hold any triple (or a higher pair)."""
    state = opened(TRIANGLE_DOMINOES, triple=False)
    opener = state.history[0].player
    seat = 1 - opener
    cannot = deduce(state.observation(seat)).cannot_hold(opener)
    triples = TRIANGLE_DOMINOES.tileset.doubles_mask
    assert triples & ~state.hand_masks[seat] & ~cannot == 0


def test_a_forced_draw_in_triangle_dominoes_is_a_deduction() -> None:
    """seeds/004 (published version): a player who cannot lay draws one tile; the draw
    says the player held no tile that fitted."""
    for seed in range(200):
        state = bendolib.new_game(TRIANGLE_DOMINOES, 2, seed)
        rng = random.Random(seed)
        while not state.is_round_over:
            state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
            last = state.history[-1]
            if isinstance(last.move, Draw) and last.player == 1:
                lacks = deduce(state.observation(0)).lacks
                drew = [x for x in lacks if x.reason == DREW and x.turn == len(state.history) - 1]
                assert drew and drew[0].tiles
                return
    raise AssertionError("no draw met")


def test_triominoes_penalties_are_public() -> None:
    """A draw costs the drawer points (docs/rules/triominoes.md): every seat sees it."""
    for seed in range(100):
        state = bendolib.new_game(TRIOMINOES, 3, seed)
        rng = random.Random(seed)
        while not state.is_round_over:
            before = state.scores
            drawer = state.current_player
            legal = bendolib.legal_moves(state)
            move = bendolib.DRAW if bendolib.DRAW in legal else rng.choice(legal)
            state = bendolib.apply(state, move)
            if move == bendolib.DRAW and state.scores[drawer] < before[drawer]:
                for seat in range(3):
                    assert state.observation(seat).scores == state.scores
                return
    raise AssertionError("no penalty met")
