"""
The Gymnasium vector env on the batched games (issue 23, point 3): "a
gymnasium.vector.VectorEnv on it (reachable with gymnasium.make_vec("bendolib/Basic-v0",
num_envs=N, ...), the autoreset mode documented, check_env-style checks on its
single-env view)".
"""

from __future__ import annotations

from typing import Any

import pytest

gymnasium: Any = pytest.importorskip("gymnasium", reason="needs the gymnasium extra")
np: Any = pytest.importorskip("numpy")

from bendolib.adapters.gymnasium import BendolibVectorEnv  # noqa: E402
from bendolib.encoding import layout  # noqa: E402
from bendolib.errors import IllegalMoveError, RuleSetError  # noqa: E402
from bendolib.playouts import KERNEL  # noqa: E402
from bendolib.state import PLAYING  # noqa: E402

pytestmark = pytest.mark.skipif(not KERNEL, reason="batched games need the compiled kernel")


def random_legal(mask: Any, rng: Any) -> Any:
    return (rng.random(mask.shape) + mask).argmax(axis=1)


def test_make_vec_gives_the_batched_env_with_same_step_autoreset() -> None:
    env = gymnasium.make_vec("bendolib/Basic-v0", num_envs=6, opponents="heaviest", players=3)
    assert isinstance(env, BendolibVectorEnv) and env.num_envs == 6 and env.players == 3
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    sync = gymnasium.make_vec("bendolib/Basic-v0", num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)
    sync.close()
    # the triangle games have no batched env: make_vec falls back to Gymnasium's own
    tri = gymnasium.make_vec("bendolib/Triominoes-v0", num_envs=1)
    assert isinstance(tri, gymnasium.vector.SyncVectorEnv)
    tri.close()


def test_the_single_env_view_passes_check_env_style_checks() -> None:
    """Every row is in the single spaces, the batch in the batched ones; same seed, same run."""
    env = gymnasium.make_vec("bendolib/AllFive-v0", num_envs=4, players=3)
    twin = gymnasium.make_vec("bendolib/AllFive-v0", num_envs=4, players=3)
    obs, info = env.reset(seed=9)
    obs2, _ = twin.reset(seed=9)
    phase = next(f.offset for f in layout(env.rules, 3) if f.name == "phase")
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(120):
        assert env.observation_space.contains(obs)
        for i in range(env.num_envs):
            row = {"observation": obs["observation"][i], "action_mask": obs["action_mask"][i]}
            assert env.single_observation_space.contains(row)
            assert row["action_mask"].any()
        assert (info["action_mask"] == obs["action_mask"]).all()
        assert all((obs[k] == obs2[k]).all() for k in obs)
        actions = random_legal(obs["action_mask"], rng)
        assert env.action_space.contains(actions)
        obs, rewards, terminated, truncated, info = env.step(actions)
        obs2, rewards2, *_ = twin.step(actions)
        assert rewards.dtype == np.float64 and rewards.shape == (4,)
        assert terminated.dtype == np.bool_ and not truncated.any()
        assert (rewards == rewards2).all()
        assert (np.abs(rewards) <= env.reward_bound).all()
        assert ((rewards == 0) | terminated).all()  # rewards come at the end of a round
        if terminated.any():
            ended += int(terminated.sum())
            assert (info["_final_obs"] == terminated).all()
            for i in np.flatnonzero(terminated):
                assert env.single_observation_space.contains(info["final_obs"][i])
                assert info["final_obs"][i]["observation"][phase] != PLAYING  # the round is over
                assert "scores" in info["final_info"][i]
    assert ended > 0
    env.close()


def test_observations_are_copies_by_default() -> None:
    env = BendolibVectorEnv(2, "basic")
    obs, _ = env.reset(seed=1)
    kept = obs["observation"].copy()
    env.step(obs["action_mask"].argmax(axis=1))
    assert (obs["observation"] == kept).all()


def test_errors_name_what_is_wrong() -> None:
    env = BendolibVectorEnv(3, "basic")
    obs, _ = env.reset(seed=1)
    bad = obs["action_mask"].argmax(axis=1)
    bad[2] = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    with pytest.raises(IllegalMoveError, match="for game 2"):
        env.step(bad)
    with pytest.raises(TypeError, match=r"shape \(3,\)"):
        env.step(np.zeros(4, dtype=np.int64))
    with pytest.raises(RuleSetError, match="illegal"):
        BendolibVectorEnv(2, "basic", illegal="penalty")  # type: ignore[arg-type]
    with pytest.raises(RuleSetError, match="opponents"):
        BendolibVectorEnv(2, "basic", opponents="search")
    with pytest.raises(RuleSetError, match="TriangleGeometry"):
        BendolibVectorEnv(2, "triominoes")


class SingleView(gymnasium.Env):  # type: ignore[misc]
    """One environment of a BendolibVectorEnv seen as a plain Gymnasium env."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

    def __init__(self, rules: str, players: int) -> None:
        self.vector = BendolibVectorEnv(1, rules, players)
        self.observation_space = self.vector.single_observation_space
        self.action_space = self.vector.single_action_space

    @staticmethod
    def _row(obs: dict[str, Any]) -> dict[str, Any]:
        return {key: value[0] for key, value in obs.items()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**62))
        obs, _ = self.vector.reset(seed=seed)
        return self._row(obs), {}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        mask = self.vector.games.action_mask[0]
        if not mask[int(action)]:  # check_env steps with random actions
            action = int(np.flatnonzero(mask)[0])
        obs, reward, terminated, truncated, _ = self.vector.step(np.array([action]))
        return self._row(obs), float(reward[0]), bool(terminated[0]), bool(truncated[0]), {}


@pytest.mark.parametrize(("rules", "players"), [("basic", 2), ("all-five", 3)])
def test_gymnasium_check_env_passes_on_the_single_env_view(rules: str, players: int) -> None:
    """Issue 23 point 3: "check_env-style checks on its single-env view"."""
    import warnings

    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(SingleView(rules, players), skip_render_check=True)
    assert [str(w.message) for w in caught] == []
