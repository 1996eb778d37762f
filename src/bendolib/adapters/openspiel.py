"""
OpenSpiel games for the bendolib rule sets (needs ``pip install 'bendolib[openspiel]'``).

Importing this module registers every rule set as a pyspiel game named
``bendolib_<name>`` (dashes become underscores), e.g.
``pyspiel.load_game("bendolib_basic", {"players": 3})``.  One game is one round.  By
default chance nodes deal the whole deck one tile at a time (the hands, the table
tiles, then the stock's order), every remaining tile equally likely, so the game's
prior is a fair shuffle (a deck the start policy refuses is dealt again, at most
:data:`REDEALS` times, then from a seed, so ``max_game_length`` bounds every game);
with the parameter ``deals=k`` a single chance node picks
one of ``k`` deal seeds instead (deal ``s`` is ``new_game(rules, players, s)``).
Returns are zero-sum: each seat's side gain in the round (points scored by play and
by the round) minus the mean gain of all seats.  Actions are the fixed action
numbers of :mod:`bendolib.encoding`; observation tensors are its encoding;
information states (strings and tensors) hold the seat's hand, its draws and the
whole public history; :meth:`BendolibState.resample_from_infostate` deals the hidden
tiles again (:func:`bendolib.sampling.sample_state`), which OpenSpiel's IS-MCTS
needs.  :meth:`BendolibState.undo_action` takes back the last action (a move or a
chance outcome).  :class:`ISMCTSBot` plays bendolib matches with OpenSpiel's IS-MCTS.
Rule sets registered later can be added with :func:`register`.  A bad player count,
deal count or action raises the library's errors (:class:`~bendolib.errors.ArgumentError`,
:class:`~bendolib.errors.IllegalMoveError`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import attrs

from bendolib.adapters import missing_extra

try:
    import numpy as np
    import pyspiel
except ImportError as error:  # say which extra to install
    raise missing_extra(__name__, "openspiel", error) from error

from bendolib import rules as registry
from bendolib._rng import derive_seed
from bendolib.adapters._checks import action_number, player_count
from bendolib.adapters._rewards import reward_bound, round_returns
from bendolib.encoding import (
    action_count,
    action_index,
    describe_action,
    encode,
    history_actions,
    layout,
    move_of,
    on_cells,
)
from bendolib.engine import apply, deal_from, legal_moves, new_game
from bendolib.errors import ArgumentError, IllegalMoveError
from bendolib.geometry.board import Board, Placement
from bendolib.geometry.triangles import TrianglePlacement
from bendolib.moves import OPENING, Draw, Move
from bendolib.observation import Observation
from bendolib.rules.ruleset import RuleSet
from bendolib.sampling import sample_state
from bendolib.state import PLAYING, GameState

#: Default of the parameter ``deals``: 0 deals the deck tile by tile.
DEALS = 0
#: Redeals (a start policy that asks for a new shuffle) dealt tile by tile, counted in
#: ``max_game_length``: when the last of them asks for a new shuffle too, the round is
#: dealt from a seed drawn from that deck (as ``new_game`` deals), so no game is longer.
REDEALS = 4
#: Label of the seed of a deal after :data:`REDEALS` redeals.
_REDEAL_STREAM = 0x5EA1
#: The most deal seeds the parameter ``deals`` may ask for (its chance node lists them).
MAX_DEALS = 1_000_000
_CHANCE = int(pyspiel.PlayerId.CHANCE)
#: Private fields of the encoding, zeroed for public-only observers.
_PRIVATE = ("hand", "drawn", "possible", "own_draws")


def game_name(rules_name: str) -> str:
    """The pyspiel short name of a rule set."""
    return "bendolib_" + rules_name.replace("-", "_")


def play_length(rules: RuleSet, players: int) -> int:
    """A bound on the number of moves (not chance outcomes) in one round."""
    return (2 * len(rules.tileset) + 1) * (players + 1)


def _game_type(rules: RuleSet, name: str | None = None) -> Any:
    counts = rules.player_counts
    return pyspiel.GameType(
        short_name=name or game_name(rules.name),
        long_name=f"bendolib {rules.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": min(counts), "deals": DEALS},
    )


class BendolibGame(pyspiel.Game):  # type: ignore[misc]
    """
    One round of a bendolib rule set as an OpenSpiel game.

    ``pyspiel.load_game`` builds one for a registered rule set; ``BendolibGame(params,
    rules=ruleset)`` builds one for any :class:`RuleSet` (changed parameters included).
    """

    rules_name = "basic"
    #: The rule set of a game registered from a :class:`RuleSet` (else None: by name).
    ruleset: RuleSet | None = None

    def __init__(self, params: dict[str, Any] | None = None, rules: RuleSet | None = None) -> None:
        ruleset = rules if rules is not None else self.ruleset
        if ruleset is None:
            ruleset = registry.get(self.rules_name)
        given = dict(params or {})
        players = player_count(ruleset, given.get("players", min(ruleset.player_counts)))
        deals = given.get("deals", DEALS)
        if isinstance(deals, bool) or not isinstance(deals, int):
            raise TypeError(f"deals is an int, not {type(deals).__name__}")
        if not 0 <= deals <= MAX_DEALS:
            raise ArgumentError(
                f"deals must be 0 (deal tile by tile) or a count of deal seeds up to "
                f"{MAX_DEALS:,}, not {deals}"
            )
        tiles = len(ruleset.tileset)
        bound = reward_bound(ruleset)
        dealing = 1 if deals else tiles * (1 + REDEALS)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(ruleset),
            max_chance_outcomes=deals or tiles,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=dealing + play_length(ruleset, players),
        )
        name = None if rules is None else game_name(self.rules_name)
        super().__init__(_game_type(ruleset, name), info, given)
        self.rules = ruleset
        self.players = players
        self.deals = deals

    def new_initial_state(self) -> BendolibState:
        """The chance node that deals the round."""
        return BendolibState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BendolibObserver:
        """An observer for observation or information-state strings and tensors."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return BendolibObserver(self, kind)


class BendolibState(pyspiel.State):  # type: ignore[misc]
    """A round: chance nodes until it is dealt, then a bendolib GameState."""

    def __init__(self, game: BendolibGame) -> None:
        super().__init__(game)
        self._held = _Held(game.rules, game.players, game.deals, None, (), ())
        #: The actions applied to this state, newest first, each with what it held
        #: before (for :meth:`undo_action`); shared by clones (it is immutable).
        self._past: _Step | None = None

    @property
    def state(self) -> GameState | None:
        """The bendolib state of the round (None before the deal)."""
        return self._held.state

    @property
    def rules(self) -> RuleSet:
        """The rule set played."""
        return self._held.rules

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._held.players

    @property
    def deals(self) -> int:
        """The number of deal seeds the chance node chooses from (0: tile by tile)."""
        return self._held.deals

    def current_player(self) -> int:
        """The seat to move, CHANCE before the deal, TERMINAL once the round is over."""
        if self.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.state.phase != PLAYING:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.state is not None and player == self.state.current_player
        return sorted(self._held.moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every deal seed, or every tile not dealt yet, equally likely."""
        if self.deals:
            return _outcomes(self.deals)
        dealt = set(self._held.deck)
        left = [i for i in range(len(self.rules.tileset)) if i not in dealt]
        return [(i, 1.0 / len(left)) for i in left]

    def _apply_action(self, action: int) -> None:
        held = self._held
        number = action if type(action) is int else action_number(action)
        self._held = _advance(held, number)
        player = _CHANCE if held.state is None else held.state.current_player
        self._past = _Step(held, player, number, getattr(self, "_past", None))

    def undo_action(self, player: int, action: int) -> None:
        """
        Take back the last action applied, ``action`` by ``player`` (``CHANCE`` for a
        chance outcome): the state is then equal to what it was before.  Raises
        :class:`~bendolib.errors.ArgumentError` when that is not the last action or
        there is none.  A Python method: C++ code calling ``State::UndoAction`` on
        this game is not served.
        """
        last = getattr(self, "_past", None)
        if last is None:
            raise ArgumentError("no action to undo: no action was applied to this state")
        if (int(player), action_number(action)) != (last.player, last.action):
            raise ArgumentError(
                f"the last action is {last.action} by player {last.player}, "
                f"not {action} by player {player}"
            )
        self._held = last.before
        self._past = last.previous
        if type(self) is not _UndoneState:
            # pyspiel's own record of the history, which Python cannot shorten, is now
            # stale: the methods that read it are answered from ``_past`` instead
            self.__class__ = _UndoneState

    def _steps(self) -> list[_Step]:
        """The actions applied to this state, oldest first."""
        steps = []
        step = getattr(self, "_past", None)
        while step is not None:
            steps.append(step)
            step = step.previous
        return steps[::-1]

    def _rebuilt_clean(self) -> BendolibState:
        """An equal state whose pyspiel history is right: its actions applied again."""
        steps = self._steps()
        fresh = BendolibState(self.get_game())
        fresh._held = steps[0].before if steps else self._held
        for step in steps:
            fresh.apply_action(step.action)
        return fresh

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.deals:
                return f"deal {action}"
            return f"deal {self.rules.tileset.tiles[action]}"
        board = self.state.board if self.state is not None else None
        return describe_action(action, self.rules, board)

    def is_terminal(self) -> bool:
        """True once the round is over."""
        return self.state is not None and self.state.phase != PLAYING

    def returns(self) -> list[float]:
        """Each seat's side gain this round minus the mean gain (0 before the end)."""
        players = self.players
        if self.state is None or not self.is_terminal():
            return [0.0] * players
        return round_returns(self.state, self._held.start)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> BendolibState:
        """
        A state that ``player_id`` cannot tell from this one: the hidden tiles dealt
        again uniformly among the deals consistent with its information state
        (:func:`bendolib.sampling.sample_state`).  When this state was reached from
        the game's initial state and the deck is dealt tile by tile, the new state's
        action history leads to it; otherwise its history begins after the deal.
        ``probability_sampler()`` returns floats in [0, 1) (OpenSpiel's
        ``UniformProbabilitySampler`` or any such callable); it seeds the sampling.
        """
        game = self.get_game()
        if self.state is None:  # nothing is known before the deal
            return game.new_initial_state()  # type: ignore[no-any-return]
        seed = int(probability_sampler() * (1 << 53))
        world = sample_state(self.state.observation(player_id), random.Random(seed))
        return _rebuilt(game, world, self._held.start, bool(self.history()))

    def __str__(self) -> str:
        if self.state is None:
            return "(not dealt)" if self.deals else f"dealing, {len(self._held.deck)} dealt"
        state = self.state
        hands = " | ".join(" ".join(str(t) for t in hand) for hand in state.hands)
        return f"{_table_text(state.board, state.rules)} hands {hands} stock {state.stock_size}"


class _UndoneState(BendolibState):
    """
    A state an action was undone on: pyspiel's record of its history is stale, so
    what reads it is answered from the actions the state keeps (a class of its own,
    so that states never undone pay nothing for it).
    """

    def history(self) -> list[int]:
        """The actions applied so far, chance outcomes included."""
        return [step.action for step in self._steps()]

    def full_history(self) -> list[Any]:
        """The (player, action) pairs applied so far."""
        return list(self._rebuilt_clean().full_history())

    def history_str(self) -> str:
        """The history as text."""
        return str(self._rebuilt_clean().history_str())

    def move_number(self) -> int:
        """The number of actions applied so far."""
        return int(self._rebuilt_clean().move_number())

    def is_initial_state(self) -> bool:
        """True before any action."""
        return bool(self._rebuilt_clean().is_initial_state())

    def clone(self) -> BendolibState:
        """A copy of this state."""
        return self._rebuilt_clean()

    def child(self, action: int) -> BendolibState:
        """A copy of this state with ``action`` applied."""
        copy = self._rebuilt_clean()
        copy.apply_action(action)
        return copy

    def serialize(self) -> str:
        """The state as text (pyspiel's ``deserialize_state`` reads it)."""
        return str(self._rebuilt_clean().serialize())

    def __getstate__(self) -> Any:
        return self._rebuilt_clean().__getstate__()


def _advance(held: _Held, action: int) -> _Held:
    """What a state holds once ``action`` is applied; the library's error for a bad one."""
    rules = held.rules
    if held.state is not None:
        move = held.moves().get(action)
        if move is None:
            legal = tuple(sorted(held.moves()))
            raise IllegalMoveError(action, f"action {action} is not legal here", legal)
        return attrs.evolve(held, state=apply(held.state, move))
    if held.deals:
        if not 0 <= action < held.deals:
            raise ArgumentError(f"the deal is a seed from 0 to {held.deals - 1}, not {action}")
        return _dealt(held, new_game(rules, held.players, action))
    tiles = len(rules.tileset)
    if not 0 <= action < tiles or action in held.deck:
        why = "is dealt already" if 0 <= action < tiles else f"is no tile (0 to {tiles - 1})"
        raise ArgumentError(f"chance outcome {action} {why}: deal a tile not dealt yet")
    deck = (*held.deck, action)
    if len(deck) < tiles:
        return attrs.evolve(held, deck=deck)
    dealt = deal_from(rules, held.players, deck)
    if dealt is None:  # the start policy asks for a new shuffle
        if held.redeals < REDEALS:
            return attrs.evolve(held, deck=(), redeals=held.redeals + 1)
        # the last redeal max_game_length counts: deal from a seed (never another deck)
        dealt = new_game(rules, held.players, derive_seed(_REDEAL_STREAM, *deck))
    return _dealt(held, dealt)


def _dealt(held: _Held, state: GameState) -> _Held:
    return attrs.evolve(held, state=state, start=state.side_scores)


class _Step:
    """An action applied to a state, and what the state held before it (immutable)."""

    __slots__ = ("action", "before", "player", "previous")

    def __init__(self, before: _Held, player: int, action: int, previous: _Step | None) -> None:
        self.before = before
        self.player = player
        self.action = action
        self.previous = previous

    def __deepcopy__(self, memo: dict[int, Any]) -> _Step:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # flat, however many actions: the oldest state and the actions, applied again
        steps: list[_Step] = []
        step: _Step | None = self
        while step is not None:
            steps.append(step)
            step = step.previous
        steps.reverse()
        return (_replayed, (steps[0].before, tuple((s.player, s.action) for s in steps)))


def _replayed(before: _Held, actions: tuple[tuple[int, int], ...]) -> _Step | None:
    """The steps of ``actions`` applied from ``before`` (how a pickled history is read)."""
    step: _Step | None = None
    for player, action in actions:
        step = _Step(before, player, action, step)
        before = _advance(before, action)
    return step


def _rebuilt(
    game: BendolibGame, world: GameState, start: tuple[int, ...], history: bool
) -> BendolibState:
    """
    The state of ``game`` whose round is ``world``; with ``history`` (tile-by-tile
    deals only), reached by applying the deck and the moves as actions, so that its
    action history leads to it.
    """
    rebuilt = BendolibState(game)
    if not history or game.deals:
        # Without a history the state starts after the deal (a sampled world is
        # generally no seed's deal, nor a round of this game when taken from a match).
        rebuilt._held = attrs.evolve(rebuilt._held, state=world, start=start)
        return rebuilt
    for tile in world.deck:
        rebuilt.apply_action(tile)
    rules = game.rules
    for turn in world.history:
        assert rebuilt.state is not None
        rebuilt.apply_action(action_index(turn.move, rules, rebuilt.state.board))
    return rebuilt


@attrs.frozen
class _Held:
    """What a state holds, immutable: copying a state shares it instead of copying it."""

    rules: RuleSet
    players: int
    deals: int
    state: GameState | None
    start: tuple[int, ...]
    deck: tuple[int, ...]
    #: The decks dealt tile by tile that the start policy refused (at most REDEALS).
    redeals: int = 0
    #: The legal moves by action number, listed on first use (a rollout asks for the
    #: actions and then applies one: listing once halves IS-MCTS's time per simulation).
    _moves: dict[int, Move] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    def moves(self) -> dict[int, Move]:
        """The legal moves of the round's state by action number."""
        if not self._moves and self.state is not None and self.state.phase == PLAYING:
            rules = self.rules
            board = self.state.board
            self._moves.update((action_index(m, rules, board), m) for m in legal_moves(self.state))
        return self._moves

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return self


@lru_cache(maxsize=8)
def _outcomes(deals: int) -> list[tuple[int, float]]:
    return [(seed, 1.0 / deals) for seed in range(deals)]


def infostate_fields(rules: RuleSet, players: int) -> tuple[tuple[str, int, int], ...]:
    """
    The information-state tensor's fields as (name, offset, length): the encoding of
    :func:`bendolib.encoding.layout`, then ``own_draws`` (the tiles the observer took
    this round, in order, as tile index + 1; 0 after the last) and ``history`` (each
    move of the round as two numbers, the mover's seat offset + 1 and the action
    number + 1; 0 after the last).
    """
    fields = [(f.name, f.offset, f.length) for f in layout(rules, players)]
    offset = fields[-1][1] + fields[-1][2]
    n = len(rules.tileset)
    fields.append(("own_draws", offset, n))
    fields.append(("history", offset + n, 2 * play_length(rules, players)))
    return tuple(fields)


def _infostate_tail(obs: Observation, rules: RuleSet, size: int) -> list[int]:
    n = len(rules.tileset)
    draws = [i + 1 for i in obs.own_draws][:n]
    out = draws + [0] * (n - len(draws))
    for turn, action in zip(obs.history, history_actions(rules, obs.history), strict=True):
        out.append((turn.player - obs.player) % obs.players + 1)
        out.append(action + 1)
    return out + [0] * (size - len(out))


class BendolibObserver:
    """
    Observation and information-state tensors and strings, per OpenSpiel's PyObserver.

    Without perfect recall the tensor is the bendolib encoding; with it, the encoding
    followed by the observer's draws and the round's moves (:func:`infostate_fields`).
    """

    def __init__(self, game: BendolibGame, iig_obs_type: Any) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        fields = infostate_fields(game.rules, game.players)
        if not self.perfect_recall:
            fields = fields[:-2]
        self.fields = fields
        size = fields[-1][1] + fields[-1][2]
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {
            name: self.tensor[offset : offset + length] for name, offset, length in fields
        }

    def set_from(self, state: BendolibState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s view of ``state``."""
        self.tensor.fill(0)
        if state.state is None:
            return
        obs = state.state.observation(player)
        encoded = encode(obs)
        self.tensor[: len(encoded)] = encoded
        if self.perfect_recall:
            tail = self.tensor.size - len(encoded)
            self.tensor[len(encoded) :] = _infostate_tail(obs, state.rules, tail)
        for name, view in self.dict.items():
            if (name in _PRIVATE and not self.private) or (
                name not in _PRIVATE and not self.public
            ):
                view.fill(0)

    def string_from(self, state: BendolibState, player: int) -> str:
        """``player``'s view of ``state`` as text."""
        if state.state is None:
            return f"p{player} (not dealt)"
        return observation_text(
            state.state.observation(player), self.perfect_recall, self.public, self.private
        )


def observation_text(
    obs: Observation, history: bool, public: bool = True, private: bool = True
) -> str:
    """A compact text of an observation; with ``history``, the whole round so far."""
    parts = [f"p{obs.player}"]
    if private:
        parts.append("hand " + " ".join(str(t) for t in obs.hand))
        if history:
            tiles = obs.rules.tileset.tiles
            parts.append("drew " + " ".join(str(tiles[i]) for i in obs.own_draws))
    if public:
        if history:
            parts.append("moves " + " ".join(f"{t.player}:{t.move}" for t in obs.history))
        else:
            last = obs.history[-1] if obs.history else None
            parts.append(f"last {last.player}:{last.move}" if last else "last -")
        parts.append(_table_text(obs.board, obs.rules))
        parts.append(f"sizes {list(obs.hand_sizes)} stock {obs.stock_size}")
        parts.append(f"to move {obs.current_player}")
    return " | ".join(parts)


def _table_text(board: Board, rules: RuleSet) -> str:
    """The open ends' values, or on a cell geometry the tiles laid and where."""
    if on_cells(rules):
        return "layout " + " ".join(_placed_text(p) for p in board.placements)
    return f"ends {list(board.values)}"


def _placed_text(placed: Placement) -> str:
    if isinstance(placed, TrianglePlacement):
        return f"{'-'.join(map(str, placed.corners))}@{placed.cell}"
    return str(placed.tile)


# -- IS-MCTS as a bendolib bot ----------------------------------------------------------


class ISMCTSBot:
    """
    A bendolib :class:`~bendolib.bots.Bot` that searches with OpenSpiel's Python
    IS-MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) on the round being
    played: ``simulations`` simulations per decision, each from a world resampled from
    the bot's information state, leaves valued by ``rollouts`` random playouts, UCT
    constant ``uct_c`` (returns are points, so it is on the scale of points).  The
    search sees only what the bot's observation holds.  Picklable (the OpenSpiel
    objects are built in each process on first use), deterministic given the ``rng``
    that :meth:`choose` receives.
    """

    name = "ismcts"

    def __init__(self, simulations: int = 100, uct_c: float = 10.0, rollouts: int = 1) -> None:
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self._games: dict[tuple[RuleSet, int], BendolibGame] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"simulations": self.simulations, "uct_c": self.uct_c, "rollouts": self.rollouts}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(**data)  # type: ignore[misc]

    def game(self, rules: RuleSet, players: int) -> BendolibGame:
        """The (cached) OpenSpiel game of ``rules`` for ``players`` seats."""
        key = (rules, players)
        if key not in self._games:
            self._games[key] = BendolibGame({"players": players}, rules=rules)
        return self._games[key]

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """The move of the most visited child of the IS-MCTS root."""
        from open_spiel.python.algorithms import ismcts, mcts

        rules = observation.rules
        game = self.game(rules, observation.players)
        start = tuple(
            sum(observation.scores[s] - observation.play_points[s] for s in side)
            for side in observation.sides
        )
        root = _rebuilt(game, sample_state(observation, rng), start, history=False)
        random_state = np.random.RandomState(rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, random_state)
        bot = ismcts.ISMCTSBot(
            game, evaluator, self.uct_c, self.simulations, random_state=random_state
        )
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random))
        return move_of(int(bot.step(root)), legal_moves, rules, observation.board)


_REGISTERED: set[str] = set()


def register(rules: str | RuleSet) -> str:
    """
    Register a rule set (by name, or a :class:`RuleSet` not registered with bendolib)
    as a pyspiel game named ``bendolib_<name>``; returns the game's name.  A name
    registered once stays bound to its first rule set.
    """
    rules_name = rules if isinstance(rules, str) else rules.name
    name = game_name(rules_name)
    if name in _REGISTERED:
        return name
    ruleset = registry.get(rules) if isinstance(rules, str) else rules
    held = None if isinstance(rules, str) else ruleset
    cls = type(
        f"BendolibGame_{name}", (BendolibGame,), {"rules_name": ruleset.name, "ruleset": held}
    )
    pyspiel.register_game(_game_type(ruleset), cls)
    _REGISTERED.add(name)
    return name


def register_all() -> tuple[str, ...]:
    """Register every rule set known to bendolib; returns the game names."""
    return tuple(register(name) for name in registry.names())


register_all()

__all__ = [
    "DEALS",
    "OPENING",
    "REDEALS",
    "BendolibGame",
    "BendolibObserver",
    "BendolibState",
    "Draw",
    "ISMCTSBot",
    "game_name",
    "infostate_fields",
    "observation_text",
    "play_length",
    "register",
    "register_all",
]
