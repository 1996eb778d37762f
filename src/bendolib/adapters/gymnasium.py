"""
A single-agent Gymnasium environment for any bendolib rule set (needs
``pip install 'bendolib[gymnasium]'``).

The agent plays one seat; the other seats are played by bendolib bots
(:class:`~bendolib.bots.Bot`, ``"greedy"`` by default).  An episode is one round
(``episode="round"``) or a whole match (``episode="match"``).  Observations are a dict:
``observation``, the fixed-size encoding of :mod:`bendolib.encoding` (int32), and
``action_mask`` (int8, the legal actions); the mask is also in ``info["action_mask"]``
and :meth:`BendolibGymEnv.action_masks` (what ``sb3_contrib``'s ``MaskablePPO``
asks for); on the triangle games, ``planes=True`` adds ``layout``, the layout as a 2-D
grid (:func:`bendolib.encoding.layout_planes`).  Actions are the fixed action numbers of
:func:`bendolib.encoding.action_index`.  The reward is the agent's side gain in a
round minus the mean gain of the seats (given when the round ends).  An action that
is not legal ends the episode with reward ``-reward_bound`` (``illegal="penalty"``) or
raises :class:`~bendolib.errors.IllegalMoveError` (``illegal="raise"``).

Importing this module registers one environment per rule set, ``bendolib/<Name>-v0``
with the name in CamelCase (``bendolib/Basic-v0``, ``bendolib/AllFive-v0``,
``bendolib/Triominoes-v0``...)::

    import gymnasium
    import bendolib.adapters.gymnasium

    env = gymnasium.make("bendolib/Basic-v0", opponents="search")
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from bendolib.adapters import missing_extra

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as error:  # say which extra to install
    raise missing_extra(__name__, "gymnasium", error) from error

from bendolib import bots as bot_registry
from bendolib import rules as registry
from bendolib._rng import derive_seed
from bendolib.adapters._checks import action_number
from bendolib.adapters._rewards import reward_bound, round_returns
from bendolib.bots.bot import Bot
from bendolib.encoding import (
    action_count,
    action_index,
    encode,
    encoding_size,
    layout_planes,
    on_cells,
    planes_shape,
)
from bendolib.engine import apply, legal_moves, new_game
from bendolib.errors import IllegalMoveError, RuleSetError
from bendolib.moves import NEXT_ROUND
from bendolib.rules.ruleset import RuleSet
from bendolib.state import PLAYING, GameState

#: Bound on the absolute value of any encoded field.
_LIMIT = 1 << 20


class BendolibGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """
    One seat of a bendolib game against bots, as a Gymnasium environment.

    ``rules`` (a rule set or its name), ``players`` (default: the fewest the rule set
    allows), ``opponents`` (one bot or name for every other seat, or one per other
    seat in seat order), ``seat`` (the agent's seat, or ``"random"`` for a new one
    every episode), ``episode`` (``"round"`` or ``"match"``), ``skip_forced`` (play
    the agent's only legal move for it, as tournaments do: default True), ``illegal``
    (``"penalty"`` or ``"raise"``), ``render_mode`` (``"ansi"``), ``planes`` (triangle
    games: the observation's ``layout``, the 2-D planes of the layout).  ``reset(seed=...)``
    picks the deal and the bots' random generators: the same seed and actions give the
    same episode.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        rules: RuleSet | str = "basic",
        players: int | None = None,
        opponents: Bot | str | Sequence[Bot | str] = "greedy",
        seat: int | Literal["random"] = 0,
        episode: Literal["round", "match"] = "round",
        skip_forced: bool = True,
        illegal: Literal["penalty", "raise"] = "penalty",
        render_mode: str | None = None,
        planes: bool = False,
    ) -> None:
        self.rules = registry.get(rules) if isinstance(rules, str) else rules
        if planes and not on_cells(self.rules):
            raise RuleSetError(f"planes=True draws a layout of cells: {self.rules.name} has none")
        self.planes = planes
        self.players = min(self.rules.player_counts) if players is None else players
        if self.players not in self.rules.player_counts:
            raise RuleSetError(
                f"{self.rules.name} is for {self.rules.player_counts} players, not {players}"
            )
        others = self.players - 1
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            opponents = [opponents] * others
        if len(opponents) != others:
            raise RuleSetError(f"{self.players} players need {others} opponents")
        self.opponents = tuple(bot_registry.get(b) if isinstance(b, str) else b for b in opponents)
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise RuleSetError(f"seat must be 0 to {self.players - 1} or 'random': {seat!r}")
        if episode not in ("round", "match") or illegal not in ("penalty", "raise"):
            raise RuleSetError(f"episode or illegal not understood: {episode!r}, {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise RuleSetError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.seat_choice = seat
        self.episode = episode
        self.skip_forced = skip_forced
        self.illegal = illegal
        self.render_mode = render_mode
        self.reward_bound = reward_bound(self.rules)
        count = action_count(self.rules)
        observed: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(
                -_LIMIT, _LIMIT, (encoding_size(self.rules, self.players),), np.int32
            ),
            "action_mask": spaces.Box(0, 1, (count,), np.int8),
        }
        if planes:
            top = max(self.rules.tileset.top, 1)
            observed["layout"] = spaces.Box(-1, top, planes_shape(self.rules), np.int32)
        self.observation_space = spaces.Dict(observed)
        self.action_space: spaces.Discrete = spaces.Discrete(count)
        self.reward_range = (-self.reward_bound, self.reward_bound)
        self.game_state: GameState | None = None
        self.seat = 0 if seat == "random" else seat
        self._bots: dict[int, Bot] = {}
        self._rngs: dict[int, random.Random] = {}
        self._start: tuple[int, ...] = ()

    # -- the game -----------------------------------------------------------------------

    def _play_others(self) -> float:
        """Play until the agent has a decision or the episode ends; the reward earned."""
        assert self.game_state is not None
        reward = 0.0
        state = self.game_state
        while True:
            if state.phase != PLAYING:
                reward += round_returns(state, self._start)[self.seat]
                if self.episode == "round" or state.is_game_over:
                    break
                state = apply(state, NEXT_ROUND)
                self._start = state.side_scores
                continue
            legal = legal_moves(state)
            player = state.current_player
            if player == self.seat and not (self.skip_forced and len(legal) == 1):
                break
            if len(legal) == 1:
                move = legal[0]
            else:
                bot = self._bots[player]
                move = bot.choose(state.observation(player), legal, self._rngs[player])
            state = apply(state, move)
        self.game_state = state
        return reward

    def _over(self) -> bool:
        state = self.game_state
        assert state is not None
        return state.is_game_over if self.episode == "match" else state.phase != PLAYING

    def _observation(self) -> dict[str, Any]:
        assert self.game_state is not None
        encoded = np.asarray(encode(self.game_state.observation(self.seat)), dtype=np.int32)
        observed = {"observation": encoded, "action_mask": self.action_masks()}
        if self.planes:
            observed["layout"] = layout_planes(self.game_state.board, self.rules)
        return observed

    def action_masks(self) -> Any:
        """1 (int8) for each legal action of the agent (all 0 once the episode is over)."""
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        state = self.game_state
        if state is not None and state.phase == PLAYING and state.current_player == self.seat:
            for move in legal_moves(state):
                mask[action_index(move, self.rules, state.board)] = 1
        return mask

    def _info(self, **extra: Any) -> dict[str, Any]:
        assert self.game_state is not None
        return {"action_mask": self.action_masks(), "seat": self.seat, **extra}

    # -- the Gymnasium API ---------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new game (from ``seed`` when given) and play up to the agent's turn."""
        super().reset(seed=seed)
        base = int(self.np_random.integers(0, 2**63))
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(0, self.players))
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = dict(zip(others, self.opponents, strict=True))
        self._rngs = {s: random.Random(derive_seed(base, 1, s)) for s in others}
        for attempt in range(100):  # a round that ends before the agent's first decision
            self.game_state = new_game(self.rules, self.players, derive_seed(base, 0, attempt))
            self._start = self.game_state.side_scores
            self._play_others()
            if not self._over():
                break
        return self._observation(), self._info()

    def step(
        self, action: int | np.int64
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then the bots up to its next decision."""
        state = self.game_state
        number = action_number(action)  # one number: an array of several is refused
        if state is None or self._over():
            raise IllegalMoveError(number, "the episode is over: call reset()")
        legal = legal_moves(state)
        board = state.board
        move = next((m for m in legal if action_index(m, self.rules, board) == number), None)
        if move is None:
            if self.illegal == "raise":
                raise IllegalMoveError(number, f"action {number} is not legal here", legal)
            observation = self._observation()
            return observation, -self.reward_bound, True, False, self._info(illegal_action=True)
        self.game_state = apply(state, move)
        reward = self._play_others()
        if self.render_mode == "ansi":
            print(self.render())
        return self._observation(), reward, self._over(), False, self._info()

    def render(self) -> str | None:
        """The position as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        if self.game_state is None:
            return "(not dealt)"
        from bendolib.text import board_text

        return board_text(self.game_state)


def env_id(rules_name: str) -> str:
    """The Gymnasium id of a rule set: ``basic`` -> ``bendolib/Basic-v0``."""
    return "bendolib/" + "".join(part.capitalize() for part in rules_name.split("-")) + "-v0"


def register(rules: str | RuleSet) -> str:
    """
    Register a rule set (by name, or a :class:`RuleSet` not registered with bendolib)
    with Gymnasium; returns its id.  An id registered once stays bound to its first
    rule set.
    """
    ident = env_id(rules if isinstance(rules, str) else rules.name)
    if ident not in gymnasium.registry:
        given: RuleSet | str = registry.get(rules).name if isinstance(rules, str) else rules
        gymnasium.register(
            id=ident,
            entry_point="bendolib.adapters.gymnasium:BendolibGymEnv",
            kwargs={"rules": given},
        )
    return ident


def register_all() -> tuple[str, ...]:
    """Register every rule set known to bendolib; returns the ids."""
    return tuple(register(name) for name in registry.names())


register_all()

__all__ = ["BendolibGymEnv", "env_id", "register", "register_all"]
