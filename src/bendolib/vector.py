"""
Batched games for learning code: N independent games stepped with one call in the
compiled kernel (needs NumPy: ``pip install 'bendolib[gymnasium]'`` or ``[selfplay]``).

:class:`VectorGames` holds ``num_games`` games of one chain rule set and player
count.  :meth:`VectorGames.step` takes one action per game (an int array of the fixed
action space of :mod:`bendolib.encoding`) and returns NumPy arrays: the observation of
the seat to move (exactly :func:`bendolib.encoding.encode` of its
:class:`~bendolib.observation.Observation`, deductions included), the legal-action mask
(exactly :func:`bendolib.encoding.action_mask`), the seat to move, the rewards per seat
(each seat's side gain in the round minus the mean, as the adapters give), and whether
each game's episode ended (``terminated``) or was cut at ``max_moves``
(``truncated``).

Every seat is played by the caller (self-play, the default), or the caller plays
``seat`` and the kernel plays the others (``opponents="random"``, ``"heaviest"`` or
``"greedy"``, the kernel's playout policies), or a NumPy-vectorised callback does
(``opponents=f``: ``f(obs, mask, seat)`` gets the rows of the games where an opponent
is to move and returns their actions).

Autoreset: a finished episode is replaced in the same call by the next one of that
game's seed stream ("same-step" autoreset): the arrays then show the new episode's
first decision; ``final_obs`` (the finished episode's last observation, of the agent's
seat or of the seat that moved last), ``final_scores``, ``round_winner`` and
``match_winner`` hold its outcome, in the rows where ``terminated | truncated``.
Episode ``k`` of game ``g`` is ``new_game(rules, players, derive_seed(seeds[g], k))``
(``deal_seed`` holds the current one), so any game can be replayed alone, and game
``g`` plays the same whatever the number of games; ``seeds[g]`` defaults to
``derive_seed(seed, g)``.  An episode that ends before the caller's first decision
(possible with ``skip_forced``) is dealt again from the next seed, unseen.  The
kernel's ``"random"`` opponents draw from ``SplitMix64(derive_seed(seeds[g], k, 1))``.

The arrays returned are the batch's own buffers, overwritten by the next call: copy
what you keep.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple

try:
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ModuleNotFoundError(
        "bendolib.vector needs NumPy: pip install 'bendolib[gymnasium]' "
        "(or 'bendolib[selfplay]', or numpy)",
        name="numpy",
    ) from error

from bendolib import rules as registry
from bendolib._kernel_tri_input import is_triangle_rules
from bendolib._rng import derive_seed
from bendolib.encoding import action_count, encoding_size
from bendolib.errors import ArgumentError, IllegalMoveError, RuleSetError
from bendolib.playouts import _compiled_in, _kernel
from bendolib.rules.ruleset import RuleSet

#: The kernel policies that can play the opponents.
POLICIES = ("random", "heaviest", "greedy")

#: The callback type of ``opponents``: (obs, mask, seat) of the waiting games -> actions.
Opponent = Callable[[Any, Any, Any], Any]


class Step(NamedTuple):
    """What a call returns: arrays with one row per game (the batch's own buffers)."""

    obs: Any
    action_mask: Any
    seat: Any
    rewards: Any
    terminated: Any
    truncated: Any


def unsupported_reason(rules: RuleSet, players: int) -> str | None:
    """Why ``rules`` with ``players`` cannot be batched, or None when it can."""
    if _kernel is None:
        return "the compiled kernel is not loaded"
    if not hasattr(_kernel, "batch_new"):
        return "the compiled kernel is a build without batched games (rebuild it)"
    if is_triangle_rules(rules):
        # the kernel plays the triangle games' playouts, but batches the chain games only
        geometry = type(rules.geometry).__name__
        return f"batched games play the chain rule sets; this one lays triangles on a {geometry}"
    spec, reason, kernel = _compiled_in(rules, players)
    if spec is not None and not hasattr(kernel, "batch_new"):
        # (the huge and vast builds, beyond 128 tiles, have no batched games)
        return f"batched games take at most 128 tiles (this set plays in {kernel.__name__})"
    return None if spec is not None else reason


class VectorGames:
    """
    ``num_games`` games of ``rules`` (a rule set or its name) with ``players`` seats
    (default: the fewest the rule set allows), stepped together in the kernel.

    ``opponents``: None (self-play: the caller plays every seat), a kernel policy name
    (``"random"``, ``"heaviest"``, ``"greedy"``) or a callback; then the caller plays
    ``seat``.  ``episode``: ``"round"`` or ``"match"`` (the next round is dealt
    automatically).  ``skip_forced``: the core plays a decision that has one legal
    move.  ``max_moves``: an episode is truncated after that many moves.
    """

    def __init__(
        self,
        rules: RuleSet | str,
        num_games: int,
        players: int | None = None,
        *,
        seed: int = 0,
        seeds: Any = None,
        opponents: str | Opponent | None = None,
        seat: int = 0,
        episode: Literal["round", "match"] = "round",
        skip_forced: bool = False,
        max_moves: int | None = None,
    ) -> None:
        if isinstance(rules, str):
            rules = registry.get(rules)
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules is a RuleSet or its name, not {type(rules).__name__}")
        self.rules = rules
        self.players = min(rules.player_counts) if players is None else players
        if not isinstance(self.players, int) or isinstance(self.players, bool):
            raise TypeError(f"players is an int, not {type(self.players).__name__}")
        if self.players not in rules.player_counts:
            raise RuleSetError(
                f"{rules.name} is for {rules.player_counts} players, not {self.players}"
            )
        if not isinstance(num_games, int) or isinstance(num_games, bool):
            raise TypeError(f"num_games is an int, not {type(num_games).__name__}")
        if not 1 <= num_games <= 1 << 26:
            raise ArgumentError(f"num_games is from 1 to 2**26, not {num_games}")
        if episode not in ("round", "match"):
            raise ArgumentError(f"episode is 'round' or 'match', not {episode!r:.40}")
        if max_moves is not None and not (isinstance(max_moves, int) and 0 < max_moves < 2**31):
            raise ArgumentError(f"max_moves is a positive int or None, not {max_moves!r:.40}")
        self.callback: Opponent | None = None
        policy = -1
        agent = -1
        if opponents is not None:
            if isinstance(opponents, str):
                if opponents not in POLICIES:
                    raise ArgumentError(
                        f"opponents is one of {POLICIES} or a callback, not {opponents!r:.40}"
                    )
                policy = POLICIES.index(opponents)
            elif callable(opponents):
                self.callback = opponents
            else:
                raise TypeError(
                    f"opponents is a policy name or a callable, not {type(opponents).__name__}"
                )
            if not isinstance(seat, int) or not 0 <= seat < self.players:
                raise ArgumentError(f"seat is from 0 to {self.players - 1}, not {seat!r:.40}")
            agent = seat
        self.seat_played = agent
        reason = unsupported_reason(rules, self.players)
        if reason is not None:
            raise RuleSetError(
                f"bendolib.vector cannot batch {rules.name} with {self.players} players: {reason}"
            )
        spec, _, kernel = _compiled_in(rules, self.players)
        assert kernel is not None
        #: The build of the kernel that plays these games (``_kernel_wide`` beyond 64 tiles).
        self._kernel: Any = kernel
        self.num_games = num_games
        self._batch = kernel.batch_new(
            spec,
            num_games,
            agent,
            policy,
            episode == "match",
            bool(skip_forced),
            max_moves or 0,
        )
        size, actions, per_game = kernel.batch_info(self._batch)
        assert size == encoding_size(rules, self.players)
        assert actions == action_count(rules)
        self.observation_size = size
        self.action_count = actions
        n, p = num_games, self.players
        self.obs = np.zeros((n, size), dtype=np.int32)
        self.action_mask = np.zeros((n, actions), dtype=np.int8)
        self.seat = np.zeros(n, dtype=np.int32)
        self.rewards = np.zeros((n, p), dtype=np.float64)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.final_obs = np.zeros((n, size), dtype=np.int32)
        self.final_scores = np.zeros((n, p), dtype=np.int64)
        self.round_winner = np.full(n, -1, dtype=np.int32)
        self.match_winner = np.full(n, -1, dtype=np.int32)
        self.deal_seed = np.zeros(n, dtype=np.uint64)
        self._core_bytes = per_game
        kernel.batch_bind(
            self._batch,
            (
                self.obs,
                self.action_mask,
                self.seat,
                self.rewards,
                self.terminated.view(np.int8),
                self.truncated.view(np.int8),
                self.final_obs,
                self.final_scores,
                self.round_winner,
                self.match_winner,
                self.deal_seed,
            ),
        )
        self.seeds = np.zeros(n, dtype=np.uint64)
        #: Moves of each game's round so far, as of the last :meth:`core_actions`.
        self.round_moves = np.zeros(n, dtype=np.int32)
        self.reset(seed=seed, seeds=seeds)

    @property
    def bytes_per_game(self) -> int:
        """Bytes the batch holds per game: the core's state and the output rows."""
        arrays = (
            self.obs,
            self.action_mask,
            self.seat,
            self.rewards,
            self.terminated,
            self.truncated,
            self.final_obs,
            self.final_scores,
            self.round_winner,
            self.match_winner,
            self.deal_seed,
            self.seeds,
        )
        return int(self._core_bytes + sum(a.nbytes for a in arrays) // self.num_games)

    @staticmethod
    def _core(function: Callable[..., Any], *args: Any) -> Any:
        """Call the kernel; an event it does not play becomes a library error."""
        try:
            return function(*args)
        except _kernel.UnsupportedError as exc:  # type: ignore[union-attr]
            raise RuleSetError(
                f"the batched games met what the kernel does not play: {exc}"
            ) from None
        except RuntimeError as exc:  # the batch is being stepped in another thread
            raise ArgumentError(str(exc).removeprefix("kernel: ")) from None

    def _result(self) -> Step:
        return Step(
            self.obs, self.action_mask, self.seat, self.rewards, self.terminated, self.truncated
        )

    def reset(self, seed: int | None = None, seeds: Any = None) -> Step:
        """Start every game's seed stream again (from ``seeds``, or ``seed``'s)."""
        if seeds is not None:
            given = np.asarray(seeds)
            if given.shape != (self.num_games,) or given.dtype.kind not in "iu":
                raise TypeError(
                    f"seeds must be an integer array of shape ({self.num_games},), "
                    f"not {given.dtype} {given.shape}"
                )
            if given.dtype.kind == "i" and (given < 0).any():
                raise ArgumentError("seeds are from 0 to 2**64 - 1")
            self.seeds[:] = given.astype(np.uint64)
        else:
            base = 0 if seed is None else seed
            if not isinstance(base, int) or isinstance(base, bool) or not 0 <= base < 2**64:
                raise ArgumentError(f"a seed is an int from 0 to 2**64 - 1, not {base!r:.40}")
            self.seeds[:] = [derive_seed(base, g) for g in range(self.num_games)]
        self._core(self._kernel.batch_reset, self._batch, self.seeds.view(np.int64))
        if self.callback is not None:
            self._callback_moves()
            self.rewards[:] = 0.0
            self.terminated[:] = False
            self.truncated[:] = False
        return self._result()

    def _actions(self, actions: Any) -> Any:
        if not isinstance(actions, np.ndarray):
            actions = np.asarray(actions)
        if actions.shape != (self.num_games,) or actions.dtype.kind not in "iu":
            raise TypeError(
                f"actions must be an integer array of shape ({self.num_games},), "
                f"not {actions.dtype} {actions.shape}"
            )
        if actions.dtype != np.int64 or not actions.flags.c_contiguous:
            if actions.dtype.kind == "u" and actions.size and actions.max() >= 2**63:
                raise IllegalMoveError(int(actions.max()), "an action out of range")
            actions = np.ascontiguousarray(actions, dtype=np.int64)
        return actions

    def _illegal(self, found: tuple[int, int], who: str) -> IllegalMoveError:
        game, action = found
        if not 0 <= action < self.action_count:
            why = f"out of range 0..{self.action_count - 1}"
        else:
            why = "not legal there"
        return IllegalMoveError(
            action, f"{who} action {action} for game {game} (seat {self.seat[game]}) is {why}"
        )

    def _active(self, active: Any) -> Any:
        """``active`` as the kernel reads it (a byte per game), or None for every game."""
        if active is None:
            return None
        on = active if isinstance(active, np.ndarray) else np.asarray(active)
        if on.shape != (self.num_games,) or on.dtype != np.bool_:
            raise TypeError(
                f"active must be a bool array of shape ({self.num_games},), "
                f"not {on.dtype} {on.shape}"
            )
        return np.ascontiguousarray(on).view(np.int8)

    def step(self, actions: Any, active: Any = None) -> Step:
        """
        Play ``actions[g]`` in every game ``g`` (an action its mask allows), then the
        core's moves, up to each game's next decision by the caller.  ``active`` (a bool
        array, one per game) plays only the games it marks: the others stand still (their
        ``actions[g]`` is not read) and their rows are left as they are.
        """
        actions = self._actions(actions)
        found = self._core(
            self._kernel.batch_step, self._batch, actions, self._active(active), False
        )
        if found is not None:
            raise self._illegal(found, "the")
        if self.callback is not None:
            self._callback_moves()
        return self._result()

    def core_actions(self, policies: str | Any = "greedy", active: Any = None) -> Any:
        """
        The action the kernel's policy chooses at each game's current decision (an
        int64 array, not played): ``policies`` names one policy of :data:`POLICIES` for
        every seat, or is an integer array (num_games, players) of indices into it.
        ``"random"`` draws from the game's own stream (that of the core's random
        opponents).  Also sets :attr:`round_moves`, each round's moves so far.
        ``active`` (a bool array, one per game) asks only the games it marks: the others
        get action 0 and keep their ``round_moves`` (and their random streams).
        """
        n, p = self.num_games, self.players
        if isinstance(policies, str):
            if policies not in POLICIES:
                raise ArgumentError(f"a policy is one of {POLICIES}, not {policies!r:.40}")
            codes = np.full((n, p), POLICIES.index(policies), dtype=np.int8)
        else:
            given = policies if isinstance(policies, np.ndarray) else np.asarray(policies)
            if given.shape != (n, p) or given.dtype.kind not in "iu":
                raise TypeError(
                    f"policies must be a name or an integer array of shape ({n}, {p}), "
                    f"not {given.dtype} {given.shape}"
                )
            codes = given
            if given.dtype != np.int8 or not given.flags.c_contiguous:
                if given.min() < 0 or given.max() >= len(POLICIES):
                    raise ArgumentError(f"policies are indices into {POLICIES}")
                codes = np.ascontiguousarray(given, dtype=np.int8)
        actions = np.zeros(n, dtype=np.int64)
        on = () if active is None else (self._active(active),)  # (a kernel of before active)
        try:  # (the kernel checks the range of int8 codes: a loop calls this at every step)
            self._core(
                self._kernel.batch_policy, self._batch, codes, actions, self.round_moves, *on
            )
        except ValueError:
            raise ArgumentError(f"policies are indices into {POLICIES}") from None
        return actions

    def _callback_moves(self) -> None:
        """Ask the callback for the opponents' moves until the agent is to move everywhere."""
        assert self.callback is not None
        full = np.zeros(self.num_games, dtype=np.int64)
        for _ in range(1_000_000):
            waiting = self.seat != self.seat_played
            if not waiting.any():
                return
            index = np.flatnonzero(waiting)
            chosen = np.asarray(
                self.callback(self.obs[index], self.action_mask[index], self.seat[index])
            )
            if chosen.shape != index.shape or chosen.dtype.kind not in "iu":
                raise TypeError(
                    f"the opponents callback must return an integer array of shape "
                    f"{index.shape}, not {chosen.dtype} {chosen.shape}"
                )
            full[:] = 0
            full[index] = chosen
            found = self._core(
                self._kernel.batch_step,
                self._batch,
                full,
                waiting.view(np.int8),
                True,
            )
            if found is not None:
                raise self._illegal(found, "the opponents callback's")
        raise RuntimeError("the opponents callback never let the agent move")  # pragma: no cover


__all__ = ["POLICIES", "Step", "VectorGames", "unsupported_reason"]
