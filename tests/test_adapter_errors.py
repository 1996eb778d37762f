"""
The Gymnasium and PettingZoo adapters answer bad input with the library's errors
(issue 22, "Adapters": "PettingZoo raise[s] plain ValueError for bad player counts; ...
the Gymnasium env's step(np.array([0, 1])) raises NumPy's ValueError. Each gets the
library's error naming the problem").  The OpenSpiel adapter's are in
tests/test_adapter_openspiel_undo.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from bendolib import ArgumentError, IllegalMoveError
from bendolib.adapters._checks import action_number


def test_an_action_is_one_integer() -> None:
    np = pytest.importorskip("numpy")
    assert [action_number(a) for a in (3, np.int64(4), np.uint8(5), np.array(6))] == [3, 4, 5, 6]
    for array in (np.array([0, 1]), np.array([2]), np.zeros((2, 2), int)):
        with pytest.raises(ArgumentError, match="an action is one number, not an array of shape"):
            action_number(array)
    for other in (1.0, "3", None, True, np.float32(2.0), np.bool_(True), np.array(1.5)):
        with pytest.raises(TypeError, match="an action is an int"):
            action_number(other)


def _gym_env() -> Any:
    pytest.importorskip("gymnasium")
    from bendolib.adapters.gymnasium import BendolibGymEnv

    env = BendolibGymEnv("basic", illegal="raise")
    env.reset(seed=1)
    return env


def test_gymnasium_step_with_an_array_of_actions_names_the_problem() -> None:
    np = pytest.importorskip("numpy")
    env = _gym_env()
    with pytest.raises(ArgumentError, match=r"one number, not an array of shape \(2,\)"):
        env.step(np.array([0, 1]))
    legal = int(np.flatnonzero(env.action_masks())[0])
    _, _, _, _, info = env.step(np.array(legal))  # a 0-dimensional array is one number
    assert "illegal_action" not in info


def test_gymnasium_step_with_a_non_integer_is_a_type_error() -> None:
    env = _gym_env()
    with pytest.raises(TypeError, match="an action is an int, not str"):
        env.step("3")
    with pytest.raises(IllegalMoveError, match="action 99999 is not legal here"):
        env.step(99999)


def test_pettingzoo_bad_player_counts_are_the_librarys_error() -> None:
    pytest.importorskip("pettingzoo")
    from bendolib.adapters.pettingzoo import env, raw_env

    for players in (1, 5):
        with pytest.raises(ArgumentError, match=f"basic is for 2, 3, 4 players, not {players}"):
            raw_env("basic", players)
        with pytest.raises(ArgumentError, match="players"):
            env("basic", players)
    with pytest.raises(TypeError, match="players is an int, not str"):
        raw_env("basic", "2")  # type: ignore[arg-type]


def test_pettingzoo_step_with_an_array_names_the_problem() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from bendolib.adapters.pettingzoo import raw_env

    game = raw_env("basic", 2)
    game.reset(seed=3)
    with pytest.raises(ArgumentError, match=r"not an array of shape \(2,\)"):
        game.step(np.array([0, 1]))
    agent = game.agent_selection
    legal = int(np.flatnonzero(game.infos[agent]["action_mask"])[0])
    game.step(np.int64(legal))
    assert game.agent_selection != agent or game.terminations[agent]
