"""sample_state (issue 5): consistent, respects the deductions, uniform where countable."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import bendolib
from bendolib import rules
from bendolib._inference import DRAW_MISSED, DREW, deduce, hidden_deal
from bendolib.observation import HIDDEN, Observation
from bendolib.sampling import Sampler, SamplingError, replay, sample_state, sampler
from bendolib.state import PLAYING, GameState
from bendolib.tiles import TileSet
from random_play import random_play


def play(ruleset: bendolib.RuleSet, players: int, seed: int, moves: int) -> GameState:
    return random_play(ruleset, seed, moves, players)


@given(
    st.sampled_from(rules.names()),
    st.integers(0, 10_000),
    st.integers(0, 90),
    st.integers(0, 2**32),
)
def test_sampled_states_agree_with_everything_the_observer_knows(
    name: str, seed: int, moves: int, salt: int
) -> None:
    ruleset = rules.get(name)
    state = play(ruleset, ruleset.player_counts[seed % len(ruleset.player_counts)], seed, moves)
    observer = salt % state.players
    obs = state.observation(observer)
    sampled = sample_state(obs, random.Random(salt))
    assert sampled.observation(observer) == obs
    seen = obs.hand_mask | obs.placed_mask
    possible = obs.deductions.possible
    for seat in range(state.players):
        if seat != observer:
            assert sampled.hand_masks[seat] & seen == 0
            assert sampled.hand_masks[seat] & ~possible[seat] == 0
    assert sampled.hand_masks[observer] == state.hand_masks[observer]
    assert set(obs.own_draws) <= set(range(len(ruleset.tileset)))
    if state.phase == PLAYING and state.current_player == observer:
        assert bendolib.legal_moves(sampled) == bendolib.legal_moves(state)
    rng = random.Random(salt)
    for _ in range(200):
        if sampled.is_game_over:
            break
        legal = bendolib.legal_moves(sampled)
        sampled = bendolib.apply(sampled, legal[rng.randrange(len(legal))])


def test_the_same_generator_seed_gives_the_same_sample() -> None:
    state = play(rules.get("basic"), 2, 4, 12)
    obs = state.observation(0)
    assert sample_state(obs, random.Random(9)) == sample_state(obs, random.Random(9))


def test_an_impossible_observation_raises() -> None:
    state = play(rules.get("basic"), 2, 4, 6)
    obs = state.observation(0)
    sizes = list(obs.hand_sizes)
    sizes[1] += 1
    with pytest.raises(SamplingError):
        sample_state(attrs.evolve(obs, hand_sizes=tuple(sizes)), random.Random(0), max_attempts=50)


# -- exact frequencies on small sets --------------------------------------------------

SMALL = rules.get("basic").configure("small", tileset=TileSet.double(3), hand_sizes={2: 3, 3: 2})
SMALL_RULES = {
    "small": SMALL,
    "small-forced": SMALL.configure("small-forced", voluntary=False),
    "small-wild": SMALL.configure("small-wild", when_stuck="until_fits", voluntary=False),
    "small-straight": rules.get("classic-draw-one").configure(
        "small-straight", tileset=TileSet.double(3, straight=True), hand_sizes={2: 3, 3: 2}
    ),
}


def consistent_decks(obs: Observation) -> list[tuple[int, ...]]:
    """Every deal (hands sorted) that replays to ``obs``, by brute force."""
    known = hidden_deal(obs).known
    positions = [i for i, t in enumerate(known) if t == HIDDEN]
    tiles = [t for t in range(len(known)) if t not in known]
    size = obs.rules.deal.hand_size(obs.players)
    found = set()
    for perm in itertools.permutations(tiles):
        deck = list(known)
        for position, tile in zip(positions, perm, strict=True):
            deck[position] = tile
        for seat in range(obs.players):
            deck[seat * size : (seat + 1) * size] = sorted(deck[seat * size : (seat + 1) * size])
        found.add(tuple(deck))
    return sorted(d for d in found if replay(obs, d) is not None)


def chi_square_limit(df: int, z: float = 3.0902) -> float:
    """The chi-square quantile at 1 - 0.001 (Wilson-Hilferty approximation)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize(
    ("name", "seed", "players", "moves", "observer"),
    [
        ("small-forced", 0, 2, 6, 0),
        ("small-wild", 7, 2, 6, 1),
        ("small-straight", 23, 3, 4, 2),
        ("small", 11, 3, 8, 0),
    ],
)
def test_samples_are_uniform_over_the_consistent_deals(
    name: str, seed: int, players: int, moves: int, observer: int
) -> None:
    state = play(SMALL_RULES[name], players, seed, moves)
    obs = state.observation(observer)
    assert obs.deductions.lacks, "the case should carry deductions"
    decks = consistent_decks(obs)
    assert len(decks) >= 8
    deal = hidden_deal(obs)
    for deck in decks:
        for slot in deal.slots:
            assert all(slot.accepts >> deck[p] & 1 for p in slot.positions)
    per_deck = 25
    draws = per_deck * len(decks)
    rng = random.Random(seed)
    counts = Counter(sampler(obs).sample(rng).deck for _ in range(draws))
    assert set(counts) == set(decks)
    chi = sum((counts[d] - per_deck) ** 2 / per_deck for d in decks)
    assert chi < chi_square_limit(len(decks) - 1)


def hidden_part(obs: Observation, deck: tuple[int, ...]) -> tuple[object, ...]:
    """What a deal leaves hidden now: the hands and the stock's order."""
    state = replay(obs, deck)
    assert state is not None
    return (state.hand_masks, state.deck[state.stock_pos :])


def test_a_sampler_uniform_over_states_instead_of_deals_would_fail() -> None:
    """
    The frequency check can fail: several deals (a tile dealt, or drawn later) lead to
    the same hidden hands, so drawing the hidden hands uniformly is visibly biased.
    """
    state = play(SMALL_RULES["small-forced"], 2, 9, 6)
    obs = state.observation(0)
    decks = consistent_decks(obs)
    by_state = Counter(hidden_part(obs, d) for d in decks)
    assert len(set(by_state.values())) > 1
    weights = [1 / by_state[hidden_part(obs, d)] for d in decks]
    per_deck = 25
    rng = random.Random(0)
    counts = Counter(rng.choices(decks, weights, k=per_deck * len(decks)))
    chi = sum((counts[d] - per_deck) ** 2 / per_deck for d in decks)
    assert chi > chi_square_limit(len(decks) - 1)


@given(st.sampled_from(rules.names()), st.integers(0, 10_000), st.integers(0, 120))
def test_the_true_deal_always_meets_the_constraints(name: str, seed: int, moves: int) -> None:
    """The sampler's constraints are necessary: the real deck never violates them."""
    ruleset = rules.get(name)
    state = play(ruleset, ruleset.player_counts[seed % len(ruleset.player_counts)], seed, moves)
    size = ruleset.deal.hand_size(state.players)
    deck = list(state.deck)
    for seat in range(state.players):
        deck[seat * size : (seat + 1) * size] = sorted(deck[seat * size : (seat + 1) * size])
    for observer in range(state.players):
        deal = hidden_deal(state.observation(observer))
        for position, tile in enumerate(deal.known):
            assert tile in (HIDDEN, deck[position])
        for slot in deal.slots:
            assert all(slot.accepts >> deck[p] & 1 for p in slot.positions)
        assert sampler(state.observation(observer)).count() > 0


def _draw_by_choice() -> GameState:
    """A basic round where seat 1 drew at the start of a turn although it could place."""
    for seed in range(200):
        state = bendolib.new_game(rules.get("basic"), 2, seed)
        rng = random.Random(seed)
        while state.phase == PLAYING:
            legal = bendolib.legal_moves(state)
            could_place = any(isinstance(m, bendolib.Place) for m in legal)
            if state.current_player == 1 and bendolib.DRAW in legal and could_place:
                return bendolib.apply(state, bendolib.DRAW)
            state = bendolib.apply(state, legal[rng.randrange(len(legal))])
    raise AssertionError("no draw by choice met")


def test_the_forced_draws_model_reads_a_draw_as_stuck_and_falls_back() -> None:
    """seeds/000: drawing by choice is allowed, so only the opponent model assumes it."""
    state = _draw_by_choice()
    obs = state.observation(0)
    index = len(state.history) - 1
    assert not [x for x in deduce(obs).lacks if x.turn == index and x.reason == DREW]
    model = [x for x in deduce(obs, forced_draws=True).lacks if x.turn == index]
    # the draw ended the turn (seeds/000 "draw ... and pass"): the model reads it as a
    # stuck draw whose tile did not fit
    assert [x.reason for x in model] == [DREW, DRAW_MISSED]
    before = state.hand_masks[1] & ~state.drawn
    assert before & model[0].tiles, "seat 1 could place: the model is wrong here"
    sampled = sample_state(obs, random.Random(3), forced_draws=True)
    assert sampled.observation(0) == obs


@pytest.mark.parametrize(
    ("name", "seed", "players", "moves", "observer"),
    [("small-forced", 0, 2, 6, 0), ("small", 11, 3, 8, 0)],
)
def test_the_markov_chain_fallback_is_consistent_and_close_to_uniform(
    name: str, seed: int, players: int, moves: int, observer: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where exact counting is too costly a swap chain proposes the deals instead."""
    monkeypatch.setattr("bendolib.sampling.BUDGET", 0)
    state = play(SMALL_RULES[name], players, seed, moves)
    obs = state.observation(observer)
    chain = Sampler(obs)
    assert not chain.exact
    decks = consistent_decks(obs)
    per_deck = 25
    rng = random.Random(seed)
    counts = Counter(chain.sample(rng).deck for _ in range(per_deck * len(decks)))
    assert set(counts) == set(decks)
    chi = sum((counts[d] - per_deck) ** 2 / per_deck for d in decks)
    assert chi < chi_square_limit(len(decks) - 1)


def test_a_free_opening_says_nothing_about_the_other_hands() -> None:
    """
    Regression (issue 18): with ``opens=False`` the holder of the highest double starts
    but opens with any tile, so its deciding double is not known and no tile can be
    ruled out of the other hands from the start alone.  ``check_ruleset`` stopped at
    this game with "no deal meets the deductions of this observation".
    """
    from bendolib.testing import check_game

    free = rules.get("draw-dominoes", opens=False)
    report = check_game(free, players=4, seed=14038607207048404726)
    assert report.violation is None, report


@given(st.integers(0, 10_000), st.integers(0, 60))
def test_the_true_deal_meets_the_constraints_with_a_free_opening(seed: int, moves: int) -> None:
    free = rules.get("draw-dominoes", opens=False)
    state = play(free, 2 + seed % 3, seed, moves)
    size = free.deal.hand_size(state.players)
    deck = list(state.deck)
    for seat in range(state.players):
        deck[seat * size : (seat + 1) * size] = sorted(deck[seat * size : (seat + 1) * size])
    for observer in range(state.players):
        for slot in hidden_deal(state.observation(observer)).slots:
            assert all(slot.accepts >> deck[p] & 1 for p in slot.positions)


def test_a_stuck_draw_and_the_starters_own_hand_are_deduced() -> None:
    """
    Regression (issue 14, long adversarial profile): in this All Five round the exact
    sampler's decks were nearly all rejected by the replay (11 accepted in 32,925
    attempts), so ``sample_state`` raised ``SamplingError``.  The deductions missed two
    facts: a draw after which the same player moved again was not the voluntary "draw
    a Bendomino and pass their turn" (seeds/000), so that player held no fitting tile;
    and the observer who began ("The player with the highest double begins", seeds/000
    All Five) knows no other hand held a higher double.
    """
    from bendolib.testing import replay_choices

    choices = [6, 4, 3, 2, 0, 1, 3, 0, 0, 0, 0, 1, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0]
    choices += [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 3, 9, 1]
    choices += [0, 2, 3, 2, 2, 2, 0, 2, 0, 2, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1]
    state = replay_choices(rules.get("all-five"), players=3, seed=4917, choices=choices)
    assert (state.round_number, len(state.history)) == (2, 24)
    obs = state.observation(1)
    rng = random.Random(14)
    for _ in range(5):
        world = sample_state(obs, rng, max_attempts=2_000)
        assert world.observation(1) == obs


@given(st.integers(0, 6), st.lists(st.integers(0, 4), max_size=6), st.integers(1, 5))
def test_the_packed_splits_are_the_splits_in_their_order(
    n: int, room: list[int], width: int
) -> None:
    """The counting's packed splits (kit runtime, issue 25) list what ``_splits`` lists."""
    from bendolib.sampling import _multinomial, _packed_splits, _split_count, _splits

    width = max(width, 3)
    shifts = [k * width for k in range(len(room))]
    slots = tuple(range(len(room)))
    expected = [
        (sum(a << at for a, at in zip(split, shifts, strict=True)), _multinomial(n, split))
        for split in _splits(n, slots, tuple(room))
    ]
    assert _packed_splits(n, shifts, room) == expected
    assert _split_count(n, room) == len(expected)


def test_a_triominoes_count_is_the_count_of_every_split() -> None:
    """The packed count equals a direct count over ``_splits`` (Triominoes, 3 players)."""
    from bendolib.sampling import _minus, _multinomial, _splits

    state = play(rules.get("triominoes"), 3, 3, 40)
    found = Sampler(state.observation(state.current_player))
    assert found.exact
    types = found._types

    @functools.cache
    def count(j: int, caps: tuple[int, ...]) -> int:
        if j == len(types):
            return 0 if any(caps) else 1
        tiles, slots = types[j]
        return sum(
            _multinomial(len(tiles), split) * count(j + 1, _minus(caps, slots, split))
            for split in _splits(len(tiles), slots, caps)
        )

    assert found.count() == count(0, found._caps) > 1
