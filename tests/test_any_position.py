"""Any position is a game to continue, observe, sample and search (issue 14, point 1).

A position read with ``position_text.loads`` has no history from the deal.  Its
observation knows what the position says (the seat's hand, every hand's size, the stock
size, the board) plus the moves made since; sampling is uniform over the hidden tiles
consistent with that; the search bot plays from it.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import attrs
import pytest

import bendolib
from bendolib import position_text, rules
from bendolib._inference import deck_layout, hidden_deal
from bendolib.bots.search import SearchBot
from bendolib.observation import HIDDEN, Observation
from bendolib.sampling import SamplingError, _canonical, replay, sample_state, sampler
from bendolib.state import PLAYING, GameState
from bendolib.tiles import TileSet

COMBINATIONS = [(name, n) for name in rules.names() for n in rules.get(name).player_counts]


def _played(state: GameState, rng: random.Random, moves: int) -> GameState:
    for _ in range(moves):
        if state.is_game_over:
            break
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    return state


@pytest.mark.parametrize(("name", "players"), COMBINATIONS)
def test_dumps_loads_a_move_observe_sample_search(name: str, players: int) -> None:
    """The issue's test: dumps -> loads -> a move -> observe every seat -> sample -> search."""
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = _played(bendolib.new_game(rules.get(name), players, seed), rng, 5 + 9 * seed)
        if state.phase != PLAYING:
            continue
        loaded = position_text.loads(position_text.dumps(state))
        assert loaded.origin is not None and loaded == state.replace(log=None, past=None)
        after = _played(loaded, rng, 1 + seed % 3)
        for seat in range(players):
            obs = after.observation(seat)
            assert (obs.start is None) == (after.origin is None)  # None: a new round was dealt
            assert obs.history == after.history
            obs.deductions  # noqa: B018 - computing them must not raise
            world = sample_state(obs, random.Random(seed))
            assert world.observation(seat) == obs
            assert world.hand_masks[seat] == after.hand_masks[seat]
            if seat == after.current_player and after.phase == PLAYING:
                legal = bendolib.legal_moves(after)
                move = SearchBot(worlds=2).choose(obs, legal, random.Random(seed))
                assert move in legal
                assert bendolib.apply(after, move) is not None
        checked += 1
    assert checked, "no position in play was reached"


def test_the_true_state_meets_every_constraint_from_a_loaded_position() -> None:
    """The real hidden tiles always fit the per-position constraints (they are sound)."""
    for name, players in COMBINATIONS:
        for seed in range(3):
            rng = random.Random(seed)
            state = _played(bendolib.new_game(rules.get(name), players, seed), rng, 20)
            if state.phase != PLAYING:
                continue
            after = _played(position_text.loads(position_text.dumps(state)), rng, 6)
            if after.origin is None:
                continue  # a new round was dealt
            origin = after.origin
            for seat in range(players):
                obs = after.observation(seat)
                layout = deck_layout(obs)
                deal = hidden_deal(obs)
                # the origin's tiles as the layout lays them out
                truth = list(deal.known)
                for s, (first, size) in enumerate(layout.hands):
                    hand = sorted(bendolib.tiles.indices(origin.hand_masks[s]))
                    if layout.drawn[1] and s == origin.current_player:
                        drawn = sorted(bendolib.tiles.indices(origin.drawn))
                        hand = [t for t in hand if t not in drawn] + drawn
                    truth[first : first + size] = hand
                truth[layout.stock :] = origin.deck[origin.stock_pos :]
                for slot in deal.slots:
                    for p in slot.positions:
                        assert slot.accepts >> truth[p] & 1, (name, seed, seat, slot.kind)


def _drawn_mid_turn() -> GameState:
    """A small-set position where the player to move has drawn and still holds the tile."""
    small = rules.get("basic").configure("small", tileset=TileSet.double(3), hand_sizes={2: 3})
    for seed in range(200):
        rng = random.Random(seed)
        state = bendolib.new_game(small, 2, seed)
        for _ in range(8):
            if state.phase != PLAYING:
                break
            if state.drawn and state.stock_size >= 1:
                return state
            state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    raise AssertionError("no position with a drawn tile found")


def _consistent_decks(obs: Observation) -> list[tuple[int, ...]]:
    """Every layout of the hidden tiles that replays to ``obs``, by brute force."""
    known = hidden_deal(obs).known
    positions = [i for i, t in enumerate(known) if t == HIDDEN]
    tiles = [t for t in range(len(known)) if t not in known]
    found = set()
    for perm in itertools.permutations(tiles):
        deck = list(known)
        for position, tile in zip(positions, perm, strict=True):
            deck[position] = tile
        found.add(_canonical(obs, deck))
    return sorted(d for d in found if replay(obs, d) is not None)


@pytest.mark.parametrize("observer", [0, 1])
def test_sampling_from_a_loaded_position_is_uniform(observer: int) -> None:
    """
    From a position where the player to move had drawn (its drawn tiles are a hidden
    part of its hand for the other seat), every consistent layout of the hidden tiles is
    sampled equally often (chi-square at 0.1%).
    """
    loaded = position_text.loads(position_text.dumps(_drawn_mid_turn()))
    obs = loaded.observation(observer)
    decks = _consistent_decks(obs)
    assert len(decks) >= 4
    per_deck = 40
    rng = random.Random(observer)
    counts = Counter(sampler(obs).sample(rng).deck for _ in range(per_deck * len(decks)))
    assert set(counts) == set(decks)
    chi = sum((counts[d] - per_deck) ** 2 / per_deck for d in decks)
    df = len(decks) - 1
    limit = df * (1 - 2 / (9 * df) + 3.0902 * math.sqrt(2 / (9 * df))) ** 3
    assert chi < limit


def test_the_mover_keeps_playing_a_drawn_tile_in_sampled_worlds() -> None:
    """The tiles drawn before the position stay 'drawn' in a sampled world: the only
    placements offered are of those tiles, as in the real position."""
    state = _drawn_mid_turn()
    loaded = position_text.loads(position_text.dumps(state))
    other = 1 - loaded.current_player
    for seed in range(20):
        world = sample_state(loaded.observation(other), random.Random(seed))
        assert world.drawn and world.drawn_count == loaded.drawn_count
        assert world.drawn & world.hand_masks[world.current_player] == world.drawn


def test_an_impossible_loaded_observation_raises_sampling_error() -> None:
    loaded = position_text.loads(position_text.dumps(_drawn_mid_turn()))
    after = bendolib.apply(loaded, bendolib.legal_moves(loaded)[0])
    obs = after.observation(0)
    sizes = list(obs.hand_sizes)
    sizes[1] += 1
    forged = attrs.evolve(obs, hand_sizes=tuple(sizes))
    with pytest.raises(SamplingError):
        sample_state(forged, random.Random(0), max_attempts=30)


def test_hidden_tiles_of_a_loaded_position_do_not_show() -> None:
    """Two loaded positions that differ only in a tile swapped between another hand and
    the stock give the observer equal observations, before and after its move."""
    for seed in range(30):
        rng = random.Random(seed)
        state = _played(bendolib.new_game(rules.get("basic"), 2, seed), rng, 6)
        if state.phase != PLAYING or not state.stock_size:
            continue
        loaded = position_text.loads(position_text.dumps(state))
        me = loaded.current_player
        other = 1 - me
        theirs = next(iter(bendolib.tiles.indices(loaded.hand_masks[other])))
        stock_at = len(loaded.deck) - 1
        stocked = loaded.deck[stock_at]
        deck = [stocked if t == theirs else theirs if t == stocked else t for t in loaded.deck]
        hands = list(loaded.hand_masks)
        hands[other] = hands[other] & ~(1 << theirs) | 1 << stocked
        twin = loaded.replace(deck=tuple(deck), hand_masks=tuple(hands))
        twin = twin.replace(origin=twin.replace(origin=None))
        assert twin.observation(me) == loaded.observation(me)
        placements = [m for m in bendolib.legal_moves(loaded) if isinstance(m, bendolib.Place)]
        if placements and placements[0] in bendolib.legal_moves(twin):
            a = bendolib.apply(loaded, placements[0]).observation(me)
            b = bendolib.apply(twin, placements[0]).observation(me)
            assert a == b
        return
    raise AssertionError("no position found")
