"""The OpenSpiel adapter (issue 5): bendolib rule sets as pyspiel games."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel: Any = pytest.importorskip("pyspiel", reason="needs the openspiel extra")

from bendolib import rules  # noqa: E402
from bendolib.adapters import openspiel as adapter  # noqa: E402
from bendolib.encoding import encode, encoding_size  # noqa: E402


def test_every_rule_set_is_registered() -> None:
    registered = set(pyspiel.registered_names())
    for name in rules.names():
        assert adapter.game_name(name) in registered


@pytest.mark.parametrize(
    ("name", "players"),
    [("basic", 2), ("all-five", 3), ("classic-draw", 4), ("bendo-all-in-actions", 2)],
)
def test_openspiel_random_simulation_checks(name: str, players: int) -> None:
    game = pyspiel.load_game(adapter.game_name(name), {"players": players, "deals": 32})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_played_round_matches_bendolib() -> None:
    game = pyspiel.load_game("bendolib_basic", {"players": 2, "deals": 16})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 16
    state.apply_action(5)
    rng = random.Random(0)
    while not state.is_terminal():
        player = state.current_player()
        tensor = state.observation_tensor(player)
        assert len(tensor) == encoding_size(rules.get("basic"), 2)
        assert list(tensor) == [float(v) for v in encode(state.state.observation(player))]
        info = state.information_state_string(player)
        assert info.startswith(f"p{player}") and "moves" in info
        assert info != state.information_state_string(1 - player)
        state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    scores = state.state.scores  # one round from 0-0: the gains are the scores
    assert returns[0] - returns[1] == pytest.approx(scores[0] - scores[1])


def test_rl_environment_runs_an_episode() -> None:
    rl_environment = pytest.importorskip("open_spiel.python.rl_environment")
    env = rl_environment.Environment("bendolib_no_draw", players=2, deals=8)
    step = env.reset()
    rng = random.Random(1)
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([rng.choice(step.observations["legal_actions"][player])])
    assert sum(step.rewards) == pytest.approx(0.0)
