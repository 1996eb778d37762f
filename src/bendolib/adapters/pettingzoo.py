"""
A PettingZoo AEC environment for any bendolib rule set (needs
``pip install 'bendolib[pettingzoo]'``).

``env(rules="basic", players=2)`` plays one round per episode, wrapped as PettingZoo's
own classic games are (``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``;
``raw_env`` is the bare environment).  Agents are ``player_0`` ... in seat order.
Each observation is a dict, as in PettingZoo's classic games: ``observation``, the
fixed-size encoding of :mod:`bendolib.encoding` (int32), and ``action_mask`` (int8),
the legal actions of the agent to move (all zeros for the others); the mask is also in
``infos[agent]["action_mask"]``.  Actions are the fixed action numbers of
:func:`bendolib.encoding.action_index`.  At the end of the round each agent is
rewarded its side's gain in the round minus the mean gain (zero-sum).
``reset(seed=...)`` picks the deal: the same seed gives the same episode.  An illegal
action raises :class:`~bendolib.errors.IllegalMoveError`, or, with
``illegal_reward=r``, ends the episode with reward ``r`` for the offender
(PettingZoo's ``TerminateIllegalWrapper``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from bendolib.adapters import missing_extra

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # say which extra to install
    raise missing_extra(__name__, "pettingzoo", error) from error

from bendolib import rules as registry
from bendolib.adapters._checks import action_number, player_count
from bendolib.adapters._rewards import round_returns
from bendolib.encoding import action_count, action_index, encode, encoding_size
from bendolib.engine import apply, legal_moves, new_game
from bendolib.errors import IllegalMoveError
from bendolib.moves import Move
from bendolib.rules.ruleset import RuleSet
from bendolib.state import PLAYING, GameState

#: Bound on the absolute value of any encoded field.
_LIMIT = 1 << 20


class BendolibEnv(AECEnv):  # type: ignore[misc]
    """One round of a bendolib rule set as a PettingZoo AEC environment (unwrapped)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "bendolib_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self, rules: RuleSet | str = "basic", players: int = 2, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.rules = registry.get(rules) if isinstance(rules, str) else rules
        self.players = player_count(self.rules, players)
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
        self.game_state: GameState | None = None
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
        assert self.game_state is not None
        return legal_moves(self.game_state) if self.game_state.phase == PLAYING else ()

    def observe(self, agent: str) -> Any:
        """``agent``'s encoded observation (int32 array) and action mask, as a dict."""
        assert self.game_state is not None
        seat = self._seat(agent)
        encoded = np.asarray(encode(self.game_state.observation(seat)), dtype=np.int32)
        return {"observation": encoded, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> Any:
        """1 (int8) for each legal action of ``agent``: none unless it is to move."""
        assert self.game_state is not None
        mask = np.zeros(action_count(self.rules), dtype=np.int8)
        state = self.game_state
        if state.phase == PLAYING and state.current_player == self._seat(agent):
            for move in self._legal():
                mask[action_index(move, self.rules, state.board)] = 1
        return mask

    def _update_masks(self) -> None:
        for agent in self.agents:
            self.infos[agent]["action_mask"] = self.action_mask(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round (from ``seed`` when given)."""
        if seed is not None:
            self._rng = random.Random(seed)
        deal = self._rng.getrandbits(64)
        self.game_state = new_game(self.rules, self.players, deal)
        self._start = self.game_state.side_scores
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player]
        self._update_masks()

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game_state is not None
        number = action_number(action)
        legal = self._legal()
        board = self.game_state.board
        move = next((m for m in legal if action_index(m, self.rules, board) == number), None)
        if move is None:
            raise IllegalMoveError(number, f"action {number} is not legal for {agent}", legal)
        self._cumulative_rewards[agent] = 0.0
        self.game_state = apply(self.game_state, move)
        if self.game_state.phase != PLAYING:
            returns = round_returns(self.game_state, self._start)
            self.rewards = dict(zip(self.possible_agents, returns, strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.game_state.current_player]
        self._update_masks()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str:
        """The position as text."""
        if self.game_state is None:
            return "(not dealt)"
        from bendolib.text import board_text

        return board_text(self.game_state)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    rules: RuleSet | str = "basic", players: int = 2, render_mode: str | None = None
) -> BendolibEnv:
    """A new environment for ``rules`` with ``players`` seats, without wrappers."""
    return BendolibEnv(rules, players, render_mode)


def env(
    rules: RuleSet | str = "basic",
    players: int = 2,
    render_mode: str | None = None,
    illegal_reward: float | None = None,
) -> Any:
    """
    A new environment for ``rules`` with ``players`` seats, wrapped as PettingZoo's
    classic games are; with ``illegal_reward``, an illegal action ends the episode.
    """
    wrapped: Any = raw_env(rules, players, render_mode)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


__all__ = ["BendolibEnv", "env", "raw_env"]
