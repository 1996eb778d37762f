"""Random play through the compiled step paths, move for move against the Python engine."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest

from bendolib import GameState, Move, apply, engine, legal_moves


class Step(NamedTuple):
    """One random move listed both ways (:func:`listed_both_ways`)."""

    fast: tuple[Move, ...]  #: the list of the engine as it stands
    listed: Move  #: the move in that list
    move: Move  #: the same move in the Python engine's list
    slow: tuple[Move, ...]  #: the Python engine's list
    expected: GameState  #: the Python engine's state after the move


def listed_both_ways(
    state: GameState,
    rng: random.Random,
    monkeypatch: pytest.MonkeyPatch,
    pure: Callable[[pytest.MonkeyPatch], None],
) -> Step:
    """
    ``legal_moves(state)`` through the engine as it stands and again with ``pure(patch)``
    switching the compiled paths off (the lists must be equal), a random move of the
    second list and the Python engine's state after it.
    """
    fast = legal_moves(state)
    with monkeypatch.context() as patch:
        pure(patch)
        slow = legal_moves(state)
        move = slow[rng.randrange(len(slow))]
        expected = apply(state, move)
    assert fast == slow
    return Step(fast, fast[slow.index(move)], move, slow, expected)


def assert_same_state(after: GameState, expected: GameState) -> None:
    """``after`` is ``expected``: equal, the same hash and history, a plain GameState."""
    assert after == expected
    assert hash(after) == hash(expected)
    assert after.history == expected.history
    assert type(after) is GameState


def play_against_the_engine(
    state: GameState,
    rng: random.Random,
    monkeypatch: pytest.MonkeyPatch,
    steps: int,
    pure: Callable[[pytest.MonkeyPatch], None],
    step_legal: Callable[[GameState], Any],
    step_apply: Callable[..., Any],
) -> tuple[int, int]:
    """
    Up to ``steps`` random moves from ``state``, each listed and applied both ways
    (:func:`listed_both_ways`, :func:`assert_same_state`).  Returns the moves played and
    how many of them one build's ``step_legal`` and ``step_apply`` both served (not None).
    """
    done = used = applied = 0
    while not state.is_game_over and done < steps:
        used += step_legal(state) is not None
        step = listed_both_ways(state, rng, monkeypatch, pure)
        assert legal_moves(state) is step.fast or legal_moves(state) == step.fast
        applied += step_apply(state, step.listed, state, engine._last_listed[1]) is not None
        after = apply(state, step.listed)
        assert_same_state(after, step.expected)
        state = after
        done += 1
    return done, min(used, applied)
