"""The Gymnasium adapter (issue 16, point 2): one seat against bots, with action masks."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

gymnasium: Any = pytest.importorskip("gymnasium", reason="needs the gymnasium extra")
np: Any = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import bendolib  # noqa: E402
from bendolib import rules  # noqa: E402
from bendolib.adapters import gymnasium as adapter  # noqa: E402
from bendolib.encoding import action_count, action_index, encode, layout_planes  # noqa: E402
from bendolib.errors import IllegalMoveError  # noqa: E402
from bendolib.rules.triangles import TRIANGLE_DOMINOES, TRIOMINOES  # noqa: E402


def test_every_rule_set_has_an_id() -> None:
    assert adapter.env_id("basic") == "bendolib/Basic-v0"
    assert adapter.env_id("bendo-all-in-actions") == "bendolib/BendoAllInActions-v0"
    for name in rules.names():
        assert adapter.env_id(name) in gymnasium.registry
    env = gymnasium.make("bendolib.adapters.gymnasium:bendolib/AllFive-v0", players=3)
    assert env.unwrapped.rules.name == "all-five" and env.unwrapped.players == 3


@pytest.mark.parametrize(
    ("ident", "kwargs"),
    [
        ("bendolib/Basic-v0", {}),
        ("bendolib/AllFive-v0", {"players": 3, "opponents": "random"}),
        ("bendolib/ClassicDraw-v0", {"episode": "match", "seat": "random"}),
        ("bendolib/BendoAllInActions-v0", {"skip_forced": False}),
    ],
)
def test_check_env_passes_without_a_warning(ident: str, kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(ident, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_a_masked_random_agent_plays_whole_episodes() -> None:
    env = gymnasium.make("bendolib/Basic-v0", opponents="greedy")
    rng = np.random.default_rng(1)
    for episode in range(3):
        observation, info = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            mask = observation["action_mask"]
            assert np.array_equal(mask, info["action_mask"]) and mask.sum() >= 1
            state = env.unwrapped.game_state
            assert tuple(observation["observation"]) == encode(state.observation(0))
            assert mask.sum() == len(bendolib.legal_moves(state))
            observation, reward, done, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(mask)))
            )
            total += reward
            assert not truncated
        state = env.unwrapped.game_state
        assert state.is_round_over
        gains = state.scores  # one round from 0-0: the gains are the scores
        assert total == pytest.approx(gains[0] - sum(gains) / 2)
    assert observation["action_mask"].sum() == 0


def test_the_same_seed_and_actions_give_the_same_episode() -> None:
    def episode(seed: int) -> list[Any]:
        env = adapter.BendolibGymEnv("basic", opponents="search", seat="random")
        observation, _ = env.reset(seed=seed)
        seen = [env.seat, observation["observation"].tolist()]
        done = False
        while not done:
            action = int(np.flatnonzero(observation["action_mask"])[0])
            observation, reward, done, _, _ = env.step(action)
            seen += [action, reward]
        return seen

    assert episode(4) == episode(4) and episode(4) != episode(5)


def test_an_illegal_action_is_penalised_or_refused() -> None:
    env = adapter.BendolibGymEnv("basic")
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -env.reward_bound and info["illegal_action"]
    strict = adapter.BendolibGymEnv("basic", illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalMoveError):
        strict.step(illegal)


def test_a_match_episode_rewards_every_round() -> None:
    ruleset = rules.get("basic", target=200)
    env = adapter.BendolibGymEnv(ruleset, opponents=["random"], episode="match")
    observation, _ = env.reset(seed=3)
    total, done, rewards = 0.0, False, 0
    while not done:
        observation, reward, done, _, _ = env.step(
            int(np.flatnonzero(observation["action_mask"])[0])
        )
        total += reward
        rewards += reward != 0
    state = env.game_state
    assert state is not None
    assert state.is_game_over and state.round_number > 1 and rewards > 1
    assert total == pytest.approx((state.scores[0] - state.scores[1]) / 2)


def test_the_constructor_checks_its_arguments() -> None:
    with pytest.raises(bendolib.BendolibError, match="opponents"):
        adapter.BendolibGymEnv("basic", players=3, opponents=["greedy"])
    with pytest.raises(bendolib.BendolibError, match="seat"):
        adapter.BendolibGymEnv("basic", seat=2)
    env = adapter.BendolibGymEnv("all-five", players=3)
    assert env.action_space.n == action_count(rules.get("all-five"))


# -- the triangle games (issue 15) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "ident", "kwargs"),
    [
        (TRIANGLE_DOMINOES, "bendolib/TriangleDominoes-v0", {"players": 3}),
        (TRIOMINOES, "bendolib/Triominoes-v0", {"episode": "match", "seat": "random"}),
    ],
)
def test_the_triangle_games_pass_check_env_under_their_ids(
    ruleset: bendolib.RuleSet, ident: str, kwargs: dict[str, Any]
) -> None:
    # the ids come from the rule sets' names (registered with bendolib or, before
    # that, from the rule set itself)
    assert adapter.register(ruleset) == ident == adapter.env_id(ruleset.name)
    env = gymnasium.make(ident, **kwargs)
    assert env.unwrapped.rules == ruleset
    assert env.action_space.n == action_count(ruleset)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("ruleset", [TRIANGLE_DOMINOES, TRIOMINOES], ids=lambda r: r.name)
def test_a_masked_random_agent_plays_a_whole_triangle_episode(ruleset: bendolib.RuleSet) -> None:
    env = gymnasium.make(adapter.register(ruleset), opponents="greedy", players=2)
    rng = np.random.default_rng(2)
    observation, info = env.reset(seed=4)
    total, done, steps = 0.0, False, 0
    while not done:
        mask = observation["action_mask"]
        state = env.unwrapped.game_state
        assert tuple(observation["observation"]) == encode(state.observation(0))
        legal = bendolib.legal_moves(state)
        assert mask.sum() == len(legal) and np.array_equal(mask, info["action_mask"])
        assert {action_index(m, ruleset, state.board) for m in legal} == set(np.flatnonzero(mask))
        action = int(rng.choice(np.flatnonzero(mask)))
        observation, reward, done, _, info = env.step(action)
        total += reward
        steps += 1
    state = env.unwrapped.game_state
    assert state.is_round_over and steps > 3
    gains = state.scores  # one round from 0-0: the gains are the scores
    assert total == pytest.approx(gains[0] - sum(gains) / 2)


def test_a_triominoes_match_episode_plays_every_round_to_the_target() -> None:
    env = gymnasium.make(adapter.register(TRIOMINOES), episode="match", opponents="random")
    rng = np.random.default_rng(0)
    observation, _ = env.reset(seed=1)
    done, total = False, 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, _, _ = env.step(action)
        total += reward
    state = env.unwrapped.game_state
    assert state.is_game_over and state.round_number > 1
    assert max(state.scores) >= TRIOMINOES.match.target
    assert total == pytest.approx(state.scores[0] - sum(state.scores) / 2)


def test_planes_add_the_triangle_layout_as_a_2d_grid() -> None:
    env = gymnasium.make(adapter.register(TRIANGLE_DOMINOES), planes=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []
    observation, _ = env.reset(seed=3)
    for _ in range(6):
        layout = observation["layout"]
        board = env.unwrapped.game_state.board
        assert layout.shape == (8, 56, 56) and layout.dtype == np.int32
        assert np.array_equal(layout, layout_planes(board, TRIANGLE_DOMINOES))
        assert int(layout[0].sum() + layout[4].sum()) == len(board.placements) > 0
        observation, _, done, _, _ = env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        if done:
            break
    with pytest.raises(bendolib.BendolibError, match="planes"):
        adapter.BendolibGymEnv("basic", planes=True)


class _VandalBot(bendolib.bots.RandomBot):
    """A random opponent that then clears the board tables of the observation it got."""

    name = "vandal"

    def choose(self, observation: Any, legal_moves: Any, rng: Any) -> Any:
        move = super().choose(observation, legal_moves, rng)
        for table in (
            getattr(observation.board, "numbers", None),
            getattr(observation.board, "filled", None),
        ):
            if isinstance(table, dict):
                table.clear()
        return move


def test_an_opponent_writing_into_its_observation_cannot_change_the_game() -> None:
    """The env hands its bots detached observations (issue 26, left-overs):
    a bot that clears the triangle board's tables plays random's game."""
    seen = []
    for opponent in (bendolib.bots.RandomBot(), _VandalBot()):
        env = adapter.BendolibGymEnv(TRIANGLE_DOMINOES, opponents=[opponent])
        observation, info = env.reset(seed=4)
        steps = [observation["observation"].tolist()]
        for _ in range(30):
            action = int(np.flatnonzero(info["action_mask"])[0])
            observation, _, terminated, truncated, info = env.step(action)
            steps.append(observation["observation"].tolist())
            if terminated or truncated:
                break
        seen.append(steps)
    assert seen[0] == seen[1] and len(seen[0]) > 5
