"""The PettingZoo adapter (issue 5): an AEC environment with action masks."""

from __future__ import annotations

from typing import Any

import pytest

pettingzoo_test: Any = pytest.importorskip("pettingzoo.test", reason="needs the pettingzoo extra")
np: Any = pytest.importorskip("numpy")

from bendolib.adapters.pettingzoo import env  # noqa: E402
from bendolib.encoding import action_count  # noqa: E402
from bendolib.rules import get  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(("name", "players"), [("basic", 2), ("all-five", 3), ("domino-pairs", 4)])
def test_pettingzoo_api_test(name: str, players: int) -> None:
    pettingzoo_test.api_test(env(name, players), num_cycles=300)


def test_seeded_resets_repeat_the_episode() -> None:
    pettingzoo_test.seed_test(lambda: env("wild-draw", 2), num_cycles=100)


def test_masks_mark_exactly_the_legal_moves_and_rewards_sum_to_zero() -> None:
    e = env("basic", 2)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        mask = observation["action_mask"]
        assert mask.shape == (action_count(get("basic")),)
        if terminated or truncated:
            e.step(None)
            continue
        others = [a for a in e.agents if a != agent]
        assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert sum(total.values()) == pytest.approx(0.0)
    assert e.state is not None and e.state.is_round_over


def test_an_illegal_action_is_refused() -> None:
    e = env("basic", 2)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal"):
        e.step(int(np.flatnonzero(mask == 0)[0]))
