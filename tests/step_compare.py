"""Random play through the compiled step paths, move for move against the Python engine."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bendolib import GameState, apply, engine, legal_moves


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
    Up to ``steps`` random moves from ``state``: each listed and applied through the
    engine as it stands and again with ``pure(patch)`` switching the compiled paths off,
    the lists, states, hashes and histories equal.  Returns the moves played and how many
    of them one build's ``step_legal`` and ``step_apply`` both served (not None).
    """
    done = used = applied = 0
    while not state.is_game_over and done < steps:
        used += step_legal(state) is not None
        fast = legal_moves(state)
        with monkeypatch.context() as patch:
            pure(patch)
            slow = legal_moves(state)
            move = slow[rng.randrange(len(slow))]
            expected = apply(state, move)
        assert fast == slow
        assert legal_moves(state) is fast or legal_moves(state) == fast
        listed = fast[slow.index(move)]
        applied += step_apply(state, listed, state, engine._last_listed[1]) is not None
        after = apply(state, listed)
        assert after == expected
        assert hash(after) == hash(expected)
        assert after.history == expected.history
        assert type(after) is GameState
        state = after
        done += 1
    return done, min(used, applied)
