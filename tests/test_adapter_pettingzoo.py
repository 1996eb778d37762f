"""The PettingZoo adapter (issues 5 and 16): an AEC environment with action masks."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pettingzoo_test: Any = pytest.importorskip("pettingzoo.test", reason="needs the pettingzoo extra")
np: Any = pytest.importorskip("numpy")

from pettingzoo.utils import wrappers  # noqa: E402

from bendolib.adapters.pettingzoo import BendolibEnv, env, raw_env  # noqa: E402
from bendolib.encoding import action_count, action_index, encode  # noqa: E402
from bendolib.engine import legal_moves  # noqa: E402
from bendolib.errors import IllegalMoveError  # noqa: E402
from bendolib.rules import RuleSet, get  # noqa: E402
from bendolib.rules.triangles import TRIANGLE_DOMINOES, TRIOMINOES  # noqa: E402

#: What ``api_test`` says of every dict observation but those of PettingZoo's own classic
#: games (it knows them by name, ``env_obs_dicts`` and ``env_obs_space`` in
#: pettingzoo/test/api_test.py): bendolib's observations are dicts as theirs are.
DICT_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


@pytest.mark.parametrize(("name", "players"), [("basic", 2), ("all-five", 3), ("domino-pairs", 4)])
def test_pettingzoo_api_test_passes_without_a_warning(name: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(env(name, players), num_cycles=300)
    assert {str(w.message) for w in caught} <= DICT_WARNINGS


def test_env_is_wrapped_as_pettingzoos_own_games() -> None:
    e = env("basic", 2)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(e.unwrapped, BendolibEnv) and isinstance(raw_env(), BendolibEnv)
    with pytest.raises(Exception, match="reset"):  # the order is enforced
        e.step(0)


def test_seeded_resets_repeat_the_episode() -> None:
    pettingzoo_test.seed_test(lambda: env("wild-draw", 2), num_cycles=100)


def test_observations_are_numpy_encodings_and_masks_mark_exactly_the_legal_moves() -> None:
    """
    Issue 23 point 3: the observation is ``{"observation", "action_mask"}`` as in
    PettingZoo's classic games (the mask was in ``info`` only before).
    """
    e = env("basic", 2)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        state = e.unwrapped.game_state
        assert set(observation) == {"observation", "action_mask"}
        encoded = observation["observation"]
        assert isinstance(encoded, np.ndarray) and encoded.dtype == np.int32
        assert tuple(encoded) == encode(state.observation(e.possible_agents.index(agent)))
        mask = info["action_mask"]
        assert (observation["action_mask"] == mask).all()
        assert e.observation_space(agent).contains(observation)
        assert mask.shape == (action_count(get("basic")),) and mask.dtype == np.int8
        if terminated or truncated:
            e.step(None)
            continue
        others = [a for a in e.agents if a != agent]
        assert all(e.infos[a]["action_mask"].sum() == 0 for a in others)
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert sum(total.values()) == pytest.approx(0.0)
    assert e.unwrapped.game_state is not None and e.unwrapped.game_state.is_round_over


def test_an_illegal_action_is_refused() -> None:
    e = env("basic", 2)
    e.reset(seed=1)
    mask = e.infos[e.agent_selection]["action_mask"]
    with pytest.raises(IllegalMoveError, match="not legal"):
        e.step(int(np.flatnonzero(mask == 0)[0]))


def test_with_an_illegal_reward_an_illegal_action_ends_the_episode() -> None:
    e = env("basic", 2, illegal_reward=-100.0)
    e.reset(seed=1)
    offender = e.agent_selection
    mask = e.infos[offender]["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values()) and e.rewards[offender] == -100.0


# -- the triangle games (issue 15) ---------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "players"), [(TRIANGLE_DOMINOES, 2), (TRIOMINOES, 3)])
def test_pettingzoo_api_test_passes_on_the_triangle_games(ruleset: RuleSet, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(env(ruleset, players), num_cycles=200)
    assert {str(w.message) for w in caught} <= DICT_WARNINGS


def test_a_triangle_round_masks_exactly_the_legal_moves_on_their_board() -> None:
    e = env(TRIOMINOES, 2)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        state = e.unwrapped.game_state
        seat = e.possible_agents.index(agent)
        assert tuple(observation["observation"]) == encode(state.observation(seat))
        legal = legal_moves(state)
        numbers = {action_index(m, TRIOMINOES, state.board) for m in legal}
        assert numbers == set(np.flatnonzero(info["action_mask"]))
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert sum(total.values()) == pytest.approx(0.0)
    assert e.unwrapped.game_state.is_round_over
