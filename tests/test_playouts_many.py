"""``playouts_many``: playouts from many states in one call (issue 24, point 3).

Its results must equal one :func:`bendolib.playouts.playouts` call per state (seed
``seed + j`` for state ``j``) and the Python engine's :func:`reference_playouts`, the
specification, whether or not the compiled kernel plays the rule set.
"""

from __future__ import annotations

import random

import pytest

from bendolib import GameState, apply, legal_moves, new_game
from bendolib.playouts import (
    KERNEL,
    PlayoutError,
    _kernel_huge,
    _kernel_vast,
    _kernel_wide,
    kernel_reason,
    playouts,
    playouts_many,
    reference_playouts,
)


def leaves(names: list[tuple[str, int]], per: int) -> list[GameState]:
    """Positions of several rule sets, a few random moves into different deals."""
    rng = random.Random(5)
    found = []
    for name, players in names:
        for seed in range(per):
            state = new_game(name, players, seed=seed)
            for _ in range(rng.randrange(4)):
                if state.is_round_over:
                    break
                legal = legal_moves(state)
                state = apply(state, legal[rng.randrange(len(legal))])
            found.append(state)
    rng.shuffle(found)  # the rule sets interleaved: each call looks its rule set up again
    return found


MIXED = [("basic", 2), ("basic", 4), ("all-five", 3), ("classic-block", 2)]


@pytest.mark.parametrize("policy", ["random", "heaviest", "greedy"])
def test_many_equals_one_call_per_state(policy: str) -> None:
    # issue 24 point 3: "an API to run playouts from many states in one call"; its results
    # are those of one call per state
    states = leaves(MIXED, 6)
    many = playouts_many(states, 3, policy=policy, seed=40)
    assert len(many) == len(states)
    for j, state in enumerate(states):
        assert many[j] == playouts(state, 3, policy=policy, seed=40 + j)


def test_many_equals_the_specification() -> None:
    # the Python engine is the specification: same moves, same outcomes
    states = leaves(MIXED, 3)
    many = playouts_many(states, 2, seed=7, until="match")
    for j, state in enumerate(states):
        assert many[j] == reference_playouts(state, 2, seed=7 + j, until="match")


def test_many_plays_rule_sets_the_kernel_does_not() -> None:
    # the triangle games run on the Python engine, through the same call
    states = leaves([("triangle-dominoes", 2), ("basic", 2)], 2)
    many = playouts_many(states, 1, seed=3)
    assert many == tuple(playouts(s, 1, seed=3 + j) for j, s in enumerate(states))


def test_many_mixes_the_two_builds_of_the_kernel() -> None:
    """
    Issue 24 point 2: states of a 28-tile set, of double-12 (the wide build), of
    double-15 (the huge build) and of double-22 (the vast build) in one call, each played
    by its own build: the engine's
    outcomes, no fallback.
    """
    from large_sets import on_double

    states = [
        new_game(on_double("basic", 12), 2, seed=1),
        *leaves([("basic", 2)], 1),
        new_game(on_double("classic-draw", 12), 3, seed=2),
        new_game(on_double("all-five", 15), 2, seed=3),
        new_game(on_double("classic-draw", 22), 2, seed=4),
    ]
    if KERNEL and None not in (_kernel_wide, _kernel_huge, _kernel_vast):
        assert all(kernel_reason(state.rules, state.players) is None for state in states)
    many = playouts_many(states, 2, seed=11)
    for j, state in enumerate(states):
        assert many[j] == reference_playouts(state, 2, seed=11 + j)


def test_many_of_no_state_is_empty() -> None:
    assert playouts_many([], 5) == ()


def test_many_checks_its_arguments() -> None:
    state = new_game("basic", 2, seed=1)
    with pytest.raises(TypeError, match="sequence of GameState"):
        playouts_many(state, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="GameState"):
        playouts_many([state, "state"], 1)  # type: ignore[list-item]
    with pytest.raises(PlayoutError, match="negative"):
        playouts_many([state], -1)
    with pytest.raises(PlayoutError, match="unknown policy"):
        playouts_many([state], 1, policy="best")


def test_many_in_one_c_call_leaves_the_rest_to_the_per_state_path() -> None:
    """
    Issue 24 point 3: ``playouts_many`` plays the states the quick path takes in one C
    call and leaves holes for the others (another rule set, a position the kernel
    leaves to the engine); every item is still ``playouts``'s answer,
    for a list, a tuple or another sequence of states.
    """
    import collections

    base = leaves([("basic", 2)], 4)
    others = leaves([("classic-block", 2), ("all-five", 3)], 2)
    states = [base[0], others[0], *base[1:], others[1], *others[2:]]
    want = tuple(playouts(s, 2, seed=7 + j) for j, s in enumerate(states))
    playouts(base[0], 1)  # the quick path serves Basic
    for sequence in (states, tuple(states), collections.deque(states)):
        assert playouts_many(sequence, 2, seed=7) == want
        playouts(others[0], 1)  # the quick path serves another rule set
