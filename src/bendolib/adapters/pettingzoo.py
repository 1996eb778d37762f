"""
A PettingZoo AEC environment for any bendolib rule set (needs
``pip install 'bendolib[pettingzoo]'``).

``env(rules="basic", players=2)`` plays one round per episode.  Agents are
``player_0`` ... in seat order.  Each observation is a dict with ``observation`` (the
fixed-size encoding of :mod:`bendolib.encoding`, int32) and ``action_mask`` (int8, the
legal actions of the agent to move; all zeros for the others).  Actions are the fixed
action numbers of :func:`bendolib.encoding.action_index`.  At the end of the round each
agent is rewarded its side's gain in the round minus the mean gain (zero-sum).
``reset(seed=...)`` picks the deal: the same seed gives the same episode.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from bendolib.adapters import missing_extra

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as error:  # say which extra to install
    raise missing_extra(__name__, "pettingzoo", error) from error

from bendolib import rules as registry
from bendolib.encoding import action_count, action_index, encode, encoding_size
from bendolib.engine import apply, legal_moves, new_game
from bendolib.moves import Move
from bendolib.rules.ruleset import RuleSet
from bendolib.state import PLAYING, GameState

#: Bound on the absolute value of any encoded field.
_LIMIT = 1 << 20


class BendolibEnv(AECEnv):  # type: ignore[misc]
    """One round of a bendolib rule set as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "bendolib_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, rules: RuleSet | str = "basic", players: int = 2, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.rules = registry.get(rules) if isinstance(rules, str) else rules
        if players not in self.rules.player_counts:
            raise ValueError(f"{self.rules.name} is for {self.rules.player_counts} players")
        self.players = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        size = encoding_size(self.rules, players)
        count = action_count(self.rules)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-_LIMIT, _LIMIT, (size,), np.int32),
                    "action_mask": spaces.Box(0, 1, (count,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self._rng = random.Random()
        self.state: GameState | None = None
        self._start: tuple[int, ...] = ()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``."""
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _legal(self) -> tuple[Move, ...]:
        assert self.state is not None
        return legal_moves(self.state) if self.state.phase == PLAYING else ()

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s encoded observation and its action mask."""
        assert self.state is not None
        seat = self._seat(agent)
        encoded = np.asarray(encode(self.state.observation(seat)), dtype=np.int32)
        mask = np.zeros(action_count(self.rules), dtype=np.int8)
        if self.state.phase == PLAYING and self.state.current_player == seat:
            for move in self._legal():
                mask[action_index(move, self.rules)] = 1
        return {"observation": encoded, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round (from ``seed`` when given)."""
        if seed is not None:
            self._rng = random.Random(seed)
        deal = self._rng.getrandbits(64)
        self.state = new_game(self.rules, self.players, deal)
        self._start = self.state.side_scores
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None and action is not None
        move = next((m for m in self._legal() if action_index(m, self.rules) == action), None)
        if move is None:
            raise ValueError(f"action {action} is not legal for {agent}")
        self._cumulative_rewards[agent] = 0.0
        self.state = apply(self.state, move)
        if self.state.phase != PLAYING:
            self.rewards = dict(zip(self.possible_agents, self._returns(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def _returns(self) -> list[float]:
        assert self.state is not None
        state = self.state
        gains = [a - b for a, b in zip(state.side_scores, self._start, strict=True)]
        side_of = {seat: i for i, side in enumerate(state.sides) for seat in side}
        per_seat = [float(gains[side_of[seat]]) for seat in range(self.players)]
        mean = sum(per_seat) / self.players
        return [g - mean for g in per_seat]

    def render(self) -> str:
        """The position as text."""
        if self.state is None:
            return "(not dealt)"
        from bendolib.text import board_text

        return board_text(self.state)

    def close(self) -> None:
        """Nothing to release."""


def env(
    rules: RuleSet | str = "basic", players: int = 2, render_mode: str | None = None
) -> BendolibEnv:
    """A new environment for ``rules`` with ``players`` seats."""
    return BendolibEnv(rules, players, render_mode)
