"""The fixed-size numeric encoding and the action numbering (issue 5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bendolib
from bendolib import rules
from bendolib.encoding import (
    action_count,
    action_index,
    action_mask,
    describe_action,
    encode,
    encode_array,
    encoding_size,
    layout,
    max_ends,
    move_of,
)
from bendolib.moves import Place
from bendolib.state import GameState
from random_play import random_play as play


def field(values: tuple[int, ...], name: str, state: GameState) -> tuple[int, ...]:
    for f in layout(state.rules, state.players):
        if f.name == name:
            return values[f.offset : f.offset + f.length]
    raise KeyError(name)


@pytest.mark.parametrize("name", rules.names())
def test_layout_tiles_the_vector_without_gaps(name: str) -> None:
    ruleset = rules.get(name)
    for players in ruleset.player_counts:
        offset = 0
        for f in layout(ruleset, players):
            assert f.offset == offset and f.length > 0 and f.description
            offset += f.length
        assert offset == encoding_size(ruleset, players)


@given(st.sampled_from(rules.names()), st.integers(0, 10_000), st.integers(0, 120))
def test_every_observation_encodes_to_the_same_length(name: str, seed: int, moves: int) -> None:
    state = play(name, seed, moves)
    n = len(state.rules.tileset)
    for seat in range(state.players):
        obs = state.observation(seat)
        values = encode(obs)
        assert len(values) == encoding_size(state.rules, state.players)
        assert all(type(v) is int for v in values)
        hand = field(values, "hand", state)
        assert [i for i in range(n) if hand[i]] == [
            state.rules.tileset.index(t) for t in state.hand(seat)
        ]
        sizes = field(values, "hand_sizes", state)
        assert sizes[0] == len(state.hand(seat))
        assert sizes[1 % state.players] == len(state.hand((seat + 1) % state.players))
        assert field(values, "stock_size", state) == (state.stock_size,)
        ends = field(values, "ends", state)
        assert sum(ends[0::4]) == len(state.board.ends)
        assert [ends[4 * k + 1] for k in range(len(state.board.ends))] == list(state.board.values)
        cur = field(values, "current_player", state)[0]
        assert (seat + cur) % state.players == state.current_player


@given(st.sampled_from(rules.names()), st.integers(0, 10_000), st.integers(0, 120))
def test_action_numbers_are_distinct_in_range_and_invertible(
    name: str, seed: int, moves: int
) -> None:
    state = play(name, seed, moves)
    legal = bendolib.legal_moves(state)
    numbers = [action_index(m, state.rules) for m in legal]
    assert len(set(numbers)) == len(legal)
    assert all(0 <= k < action_count(state.rules) for k in numbers)
    mask = action_mask(legal, state.rules)
    assert sum(mask) == len(legal)
    for move, k in zip(legal, numbers, strict=True):
        assert mask[k] == 1
        assert move_of(k, legal, state.rules) == move


def test_action_space_sizes() -> None:
    basic = rules.get("basic")
    assert max_ends(basic) == 2
    # 28 openings, 28 tiles x 2 ends x 2 sides x 2 turns, draw, pass, next
    assert action_count(basic) == 28 + 28 * 2 * 2 * 2 + 3
    five = rules.get("all-five")
    assert max_ends(five) == 4


def test_an_illegal_action_number_is_refused() -> None:
    state = play("basic", 0, 3)
    legal = bendolib.legal_moves(state)
    used = {action_index(m, state.rules) for m in legal}
    free = next(k for k in range(action_count(state.rules)) if k not in used)
    with pytest.raises(ValueError, match="not legal"):
        move_of(free, legal, state.rules)


def test_the_placement_number_reads_tile_end_side_and_turn() -> None:
    state = play("basic", 3, 6)
    placement = next(m for m in bendolib.legal_moves(state) if isinstance(m, Place))
    n = len(state.rules.tileset)
    k = action_index(placement, state.rules) - n
    turn, rest = k % 2, k // 2
    side, rest = rest % 2, rest // 2
    end, tile = rest % max_ends(state.rules), rest // max_ends(state.rules)
    assert state.rules.tileset.tiles[tile] == placement.tile
    assert end == placement.end
    assert side == (0 if placement.inward == placement.tile.a else 1)
    assert turn == (0 if placement.turn == bendolib.LEFT else 1)


def test_numpy_array_matches_the_tuple() -> None:
    np = pytest.importorskip("numpy")
    obs = play("all-five", 1, 8).observation(0)
    array = encode_array(obs)
    assert array.dtype == np.int32 and tuple(int(v) for v in array) == encode(obs)


@pytest.mark.parametrize("name", ["basic", "all-five", "classic-draw", "bendo-all-in-actions"])
def test_every_action_has_a_distinct_name(name: str) -> None:
    ruleset = rules.get(name)
    names = [describe_action(k, ruleset) for k in range(action_count(ruleset))]
    assert len(set(names)) == len(names)
    assert names[-3:] == ["draw", "pass", "next"]
    state = play(name, 4, 5)
    for move in bendolib.legal_moves(state):
        if isinstance(move, Place):
            assert str(move.tile) in describe_action(action_index(move, ruleset), ruleset)
    with pytest.raises(ValueError, match="outside"):
        describe_action(action_count(ruleset), ruleset)
