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

The chain rule sets also have a batched environment, :class:`BendolibVectorEnv`
(``gymnasium.vector.VectorEnv``), that steps its games in the compiled kernel
(:mod:`bendolib.vector`): ``gymnasium.make_vec("bendolib/Basic-v0", num_envs=1024)``
gives it (``vectorization_mode="sync"`` gives Gymnasium's ``SyncVectorEnv`` of
:class:`BendolibGymEnv` instead).  Its autoreset mode is ``SAME_STEP``: a finished
episode's next one starts in the same call, its last observation is in
``info["final_obs"]``.  See docs/vector.md.
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
from bendolib.errors import ArgumentError, IllegalMoveError, RuleSetError
from bendolib.moves import NEXT_ROUND
from bendolib.observation import detached
from bendolib.playouts import MAX_MOVES
from bendolib.rules.ruleset import RuleSet
from bendolib.state import PLAYING, GameState
from bendolib.vector import POLICIES, Opponent, VectorGames

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
    games: the observation's ``layout``, the 2-D planes of the layout), ``max_moves``
    (default :data:`~bendolib.playouts.MAX_MOVES`, 200,000): an episode still going after
    that many moves (every seat's, ``next`` between rounds included) is truncated
    (``truncated=True``; some configured rules never end a match), and ``reset`` raises
    :class:`~bendolib.errors.ArgumentError` if the bots reach it before the agent's first
    decision.  ``reset(seed=...)`` picks the deal and the bots' random generators: the
    same seed and actions give the same episode.
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
        max_moves: int = MAX_MOVES,
    ) -> None:
        if isinstance(max_moves, bool) or not isinstance(max_moves, int):
            raise TypeError(f"max_moves is an int, not {type(max_moves).__name__}")
        if max_moves < 1:
            raise ArgumentError(f"max_moves must be at least 1, not {max_moves}")
        self.max_moves = max_moves
        self._moves = 0
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
                if self.episode == "round" or state.is_game_over or self._cut():
                    break
                state = apply(state, NEXT_ROUND)
                self._moves += 1
                self._start = state.side_scores
                continue
            legal = legal_moves(state)
            player = state.current_player
            if (player == self.seat and not (self.skip_forced and len(legal) == 1)) or self._cut():
                break
            if len(legal) == 1:
                move = legal[0]
            else:
                bot = self._bots[player]
                seen = detached(state.observation(player))  # the bot cannot change the game
                move = bot.choose(seen, legal, self._rngs[player])
            state = apply(state, move)
            self._moves += 1
        self.game_state = state
        return reward

    def _over(self) -> bool:
        state = self.game_state
        assert state is not None
        return state.is_game_over if self.episode == "match" else state.phase != PLAYING

    def _cut(self) -> bool:
        """``max_moves`` moves have been played in this episode."""
        return self._moves >= self.max_moves

    def _truncated(self) -> bool:
        """The episode is cut at ``max_moves`` (and not over)."""
        return self._cut() and not self._over()

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
        playing = state is not None and state.phase == PLAYING and not self._cut()
        if playing and state is not None and state.current_player == self.seat:
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
            self._moves = 0
            self._play_others()
            if not self._over():
                break
        if self._truncated():
            raise ArgumentError(
                f"max_moves={self.max_moves} moves were played before the agent's first "
                "decision: give a larger max_moves"
            )
        return self._observation(), self._info()

    def step(
        self, action: int | np.int64
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then the bots up to its next decision."""
        state = self.game_state
        number = action_number(action)  # one number: an array of several is refused
        if state is None or self._over() or self._truncated():
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
        self._moves += 1
        reward = self._play_others()
        if self.render_mode == "ansi":
            print(self.render())
        return self._observation(), reward, self._over(), self._truncated(), self._info()

    def render(self) -> str | None:
        """The position as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        if self.game_state is None:
            return "(not dealt)"
        from bendolib.text import board_text

        return board_text(self.game_state)


class BendolibVectorEnv(gymnasium.vector.VectorEnv[dict[str, Any], Any, Any]):
    """
    ``num_envs`` games of a chain rule set, one seat each played by the agent, stepped
    together in the compiled kernel (:class:`bendolib.vector.VectorGames`).

    The arguments are :class:`BendolibGymEnv`'s where they apply: ``rules``,
    ``players``, ``opponents`` (a kernel policy, ``"random"``, ``"heaviest"`` or
    ``"greedy"`` (the default), or a NumPy callback ``f(obs, mask, seat) -> actions``),
    ``seat`` (an int), ``episode``, ``skip_forced``, ``max_moves`` (default
    :data:`~bendolib.playouts.MAX_MOVES`; None: no bound: an episode still going after
    that many moves is truncated, as :class:`bendolib.vector.VectorGames` cuts it);
    ``illegal`` is ``"raise"`` only
    (an illegal action raises :class:`~bendolib.errors.IllegalMoveError` naming the
    game).  Observations are ``{"observation": int32 (num_envs, size), "action_mask":
    int8 (num_envs, actions)}``, rewards the agent's (float64), as in the single env;
    ``info["action_mask"]`` repeats the mask.  ``reset(seed=s)`` makes game ``i`` play
    the episodes of ``derive_seed(s, i)`` (an int seed), or of ``s[i]`` (a list of
    seeds): see :mod:`bendolib.vector`.  Autoreset: ``SAME_STEP``.  ``copy`` (True)
    returns copies of the batch's arrays, which the next step overwrites.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 1,
        rules: RuleSet | str = "basic",
        players: int | None = None,
        opponents: str | Opponent = "greedy",
        seat: int = 0,
        episode: Literal["round", "match"] = "round",
        skip_forced: bool = True,
        illegal: Literal["raise"] = "raise",
        render_mode: str | None = None,
        copy: bool = True,
        max_episode_steps: int | None = None,
        max_moves: int | None = MAX_MOVES,
    ) -> None:
        if illegal != "raise":
            raise RuleSetError(f"the vector env raises on an illegal action: illegal={illegal!r}")
        if render_mode is not None:
            raise RuleSetError(f"the vector env does not render: render_mode={render_mode!r}")
        if max_episode_steps is not None:
            raise RuleSetError("the vector env takes no max_episode_steps: give max_moves")
        if isinstance(opponents, str) and opponents not in POLICIES:
            raise RuleSetError(
                f"the vector env's opponents are {POLICIES} or a callback, not {opponents!r:.40}"
            )
        self.games = VectorGames(
            rules,
            num_envs,
            players,
            opponents=opponents,
            seat=seat,
            episode=episode,
            skip_forced=skip_forced,
            max_moves=max_moves,
        )
        self.rules = self.games.rules
        self.players = self.games.players
        self.seat = seat
        self.copy = copy
        self.num_envs = num_envs
        self.render_mode = None
        self.reward_bound = reward_bound(self.rules)
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    -_LIMIT, _LIMIT, (self.games.observation_size,), np.int32
                ),
                "action_mask": spaces.Box(0, 1, (self.games.action_count,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(self.games.action_count)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)

    def _observed(self) -> dict[str, Any]:
        games = self.games
        if self.copy:
            return {"observation": games.obs.copy(), "action_mask": games.action_mask.copy()}
        return {"observation": games.obs, "action_mask": games.action_mask}

    def _infos(self, observed: dict[str, Any]) -> dict[str, Any]:
        infos: dict[str, Any] = {"action_mask": observed["action_mask"]}
        games = self.games
        done = games.terminated | games.truncated
        if done.any():
            final = np.full(self.num_envs, None, dtype=object)
            details = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(done):
                final[i] = {
                    "observation": games.final_obs[i].copy(),
                    "action_mask": np.zeros(games.action_count, dtype=np.int8),
                }
                details[i] = {
                    "scores": games.final_scores[i].copy(),
                    "round_winner": int(games.round_winner[i]),
                    "match_winner": int(games.match_winner[i]),
                }
            infos["final_obs"], infos["_final_obs"] = final, done.copy()
            infos["final_info"], infos["_final_info"] = details, done.copy()
        return infos

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start every game again: from ``seed`` (an int, or one per game) when given."""
        if isinstance(seed, int):
            super().reset(seed=seed)
            self.games.reset(seed=seed)
        elif seed is not None:
            if len(seed) != self.num_envs:
                raise RuleSetError(f"{len(seed)} seeds for {self.num_envs} environments")
            self.games.reset(seeds=np.asarray(seed, dtype=np.uint64))
        else:
            self.games.reset(seed=int(self.np_random.integers(0, 2**63)))
        observed = self._observed()
        return observed, {"action_mask": observed["action_mask"]}

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        """Play one action in every game, then the opponents up to the agent's next turn."""
        games = self.games
        games.step(actions)
        observed = self._observed()
        rewards = games.rewards[:, self.seat].copy()
        return (
            observed,
            rewards,
            games.terminated.copy(),
            games.truncated.copy(),
            self._infos(observed),
        )


def env_id(rules_name: str) -> str:
    """The Gymnasium id of a rule set: ``basic`` -> ``bendolib/Basic-v0``."""
    return "bendolib/" + "".join(part.capitalize() for part in rules_name.split("-")) + "-v0"


def register(rules: str | RuleSet) -> str:
    """
    Register a rule set (by name, or a :class:`RuleSet` not registered with bendolib)
    with Gymnasium; returns its id.  An id registered once stays bound to its first
    rule set.  A chain rule set's id also names :class:`BendolibVectorEnv` as its
    vector entry point (``gymnasium.make_vec``).
    """
    ident = env_id(rules if isinstance(rules, str) else rules.name)
    if ident not in gymnasium.registry:
        given: RuleSet | str = registry.get(rules).name if isinstance(rules, str) else rules
        found = registry.get(given) if isinstance(given, str) else given
        gymnasium.register(
            id=ident,
            entry_point="bendolib.adapters.gymnasium:BendolibGymEnv",
            vector_entry_point=(
                None if on_cells(found) else "bendolib.adapters.gymnasium:BendolibVectorEnv"
            ),
            kwargs={"rules": given},
        )
    return ident


def register_all() -> tuple[str, ...]:
    """Register every rule set known to bendolib; returns the ids."""
    return tuple(register(name) for name in registry.names())


register_all()

__all__ = ["BendolibGymEnv", "BendolibVectorEnv", "env_id", "register", "register_all"]
