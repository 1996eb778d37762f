"""Hypothesis properties of the core over random seeded games of basic Bendominoes
(2, 3 and 4 players): conservation, no overlap, legal moves apply, no mutation,
termination and scores as the rules say (seeds/000)."""

from __future__ import annotations

import pickle
import random

from hypothesis import given
from hypothesis import strategies as st

import bendolib
from bendolib import GameState, Place
from bendolib.geometry import lattice
from bendolib.state import RoundResult
from bendolib.testing import invariants

BASIC = bendolib.rules.get("basic")
MOVE_BOUND = 2_000  # far above any basic match


def check_conservation(state: GameState) -> None:
    """Hands + stock + board hold every tile of the set exactly once."""
    problem = invariants.tile_conservation(state)
    assert problem is None, problem


def check_no_overlap(state: GameState) -> None:
    positions = [p.position for p in state.board.placements]
    keys = [(p.q, p.r, p.corner) for p in positions if p is not None]
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            assert not lattice.overlaps(a, b), f"tiles at {a} and {b} overlap"
    assert bin(state.board.occupancy).count("1") == len(keys)


def play(seed: int, players: int, choices: random.Random) -> list[GameState]:
    state = bendolib.new_game(BASIC, players=players, seed=seed)
    states = [state]
    for _ in range(MOVE_BOUND):
        if state.is_game_over:
            return states
        moves = bendolib.legal_moves(state)
        assert moves, "legal_moves is never empty before the game is over"
        state = bendolib.apply(state, choices.choice(moves))
        states.append(state)
    raise AssertionError(f"no end after {MOVE_BOUND} moves")


def round_formula(result: RoundResult, players: int) -> tuple[int, ...]:
    """seeds/000: the winner scores the points left in the opponents' hands."""
    if not result.winners:
        return (0,) * players
    (winner,) = result.winners
    won = sum(result.hand_points) - result.hand_points[winner]
    return tuple(won if s == winner else 0 for s in range(players))


@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]), pick=st.integers(0, 999))
def test_invariants_along_random_games(seed: int, players: int, pick: int) -> None:
    """Tile conservation, no overlap, and scores that change only at a round's end by
    exactly the basic formula; the match always ends."""
    states = play(seed, players, random.Random(pick))
    previous = states[0]
    for state in states[1:]:
        if state.phase == 0 or state.round_number == previous.round_number:
            check_conservation(state)
            check_no_overlap(state)
        if len(state.results) > len(previous.results):
            result = state.results[-1]
            assert result.points == round_formula(result, players)
            delta = tuple(a - b for a, b in zip(state.scores, previous.scores, strict=True))
            assert delta == result.points
            if not result.blocked:
                assert result.hand_points[result.order[0]] == 0
        elif state.round_number == previous.round_number:
            assert state.scores == previous.scores
        previous = state
    final = states[-1]
    assert final.is_game_over and final.winner is not None
    assert max(final.scores) >= BASIC.match.target
    assert final.scores[final.winner] == max(final.scores)


@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]), pick=st.integers(0, 999))
def test_every_legal_move_applies_and_apply_never_mutates(
    seed: int, players: int, pick: int
) -> None:
    """Every legal move of every state reached applies; the input state is unchanged
    (equal to a copy taken before, same hash, same pickle)."""
    rng = random.Random(pick)
    state = bendolib.new_game(BASIC, players=players, seed=seed)
    for _ in range(60):
        if state.is_game_over:
            break
        moves = bendolib.legal_moves(state)
        digest = hash(state)
        dumped = pickle.dumps(state)
        frozen = pickle.loads(dumped)  # (a deep copy, quicker than copy.deepcopy)
        for move in moves:
            after = bendolib.apply(state, move)
            assert after is not state
        assert state == frozen and hash(state) == digest and pickle.dumps(state) == dumped
        state = bendolib.apply(state, rng.choice(moves))


@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]), pick=st.integers(0, 999))
def test_notation_round_trip_and_replay_identical(seed: int, players: int, pick: int) -> None:
    """str(move) parses back to the same move; replaying the same moves from the same seed
    gives identical states."""
    rng = random.Random(pick)
    state = bendolib.new_game(BASIC, players=players, seed=seed)
    played = []
    for _ in range(80):
        if state.is_game_over:
            break
        moves = bendolib.legal_moves(state)
        for move in moves:
            assert bendolib.parse_move(str(move), state) == move
        move = rng.choice(moves)
        played.append(str(move))
        state = bendolib.apply(state, move)
    again = bendolib.new_game(BASIC, players=players, seed=seed)
    for text in played:
        again = bendolib.apply(again, bendolib.parse_move(text, again))
    assert again == state


@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]))
def test_placements_list_their_lattice_position(seed: int, players: int) -> None:
    """A Place names the lattice position the tile then occupies on the board."""
    state = bendolib.new_game(BASIC, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(40):
        if state.is_round_over:
            break
        move = rng.choice(bendolib.legal_moves(state))
        after = bendolib.apply(state, move)
        if isinstance(move, Place):
            assert after.board.placements[-1].position == move.position
        state = after
