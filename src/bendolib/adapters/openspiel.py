"""
OpenSpiel games for the bendolib rule sets (needs ``pip install 'bendolib[openspiel]'``).

Importing this module registers every rule set as a pyspiel game named
``bendolib_<name>`` (dashes become underscores), e.g.
``pyspiel.load_game("bendolib_basic", {"players": 3})``.  One game is one round: a
chance node picks the deal (one of ``deals`` seeds, uniformly), then the seats play
until the round ends.  Returns are zero-sum: each seat's side gain in the round (points
scored by play and by the round) minus the mean gain of all seats.  Actions are the
fixed action numbers of :mod:`bendolib.encoding`; observation tensors are its
encoding; information-state strings list the seat's hand, its draws and the whole
public history.  Rule sets registered later can be added with :func:`register`.
"""

from __future__ import annotations

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
from bendolib.encoding import action_count, action_index, describe_action, encode, layout
from bendolib.engine import apply, legal_moves, new_game
from bendolib.moves import OPENING, Draw, Move
from bendolib.observation import Observation
from bendolib.rules.ruleset import RuleSet
from bendolib.state import PLAYING, GameState

#: Default number of distinct deals the chance node chooses from (parameter ``deals``).
DEALS = 1 << 12
#: Private fields of the encoding, zeroed for public-only observers.
_PRIVATE = ("hand", "drawn", "possible")


def game_name(rules_name: str) -> str:
    """The pyspiel short name of a rule set."""
    return "bendolib_" + rules_name.replace("-", "_")


def _bound(rules: RuleSet) -> float:
    """A bound on any seat's return in one round."""
    tileset = rules.tileset
    pips = tileset.mask_points(tileset.full_mask)
    top = max(1, tileset.top)
    per_play = 2 * max(1, rules.deal.table_tiles) * top
    return float(2 * (pips + len(tileset) * per_play + 100))


def _game_type(rules: RuleSet) -> Any:
    counts = rules.player_counts
    return pyspiel.GameType(
        short_name=game_name(rules.name),
        long_name=f"bendolib {rules.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": min(counts), "deals": DEALS},
    )


class BendolibGame(pyspiel.Game):  # type: ignore[misc]
    """One round of a bendolib rule set as an OpenSpiel game."""

    rules_name = "basic"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        ruleset = registry.get(self.rules_name)
        given = dict(params or {})
        players = int(given.get("players", min(ruleset.player_counts)))
        if players not in ruleset.player_counts:
            raise ValueError(f"{ruleset.name} is for {ruleset.player_counts} players")
        deals = int(given.get("deals", DEALS))
        tiles = len(ruleset.tileset)
        bound = _bound(ruleset)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(ruleset),
            max_chance_outcomes=deals,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=1 + (2 * tiles + 1) * (players + 1),
        )
        super().__init__(_game_type(ruleset), info, given)
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
    """A round: None until the chance node has dealt, then a bendolib GameState."""

    def __init__(self, game: BendolibGame) -> None:
        super().__init__(game)
        self._held = _Held(game.rules, game.players, game.deals, None, ())

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
        """The number of deals the chance node chooses from."""
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
        rules = self.rules
        return sorted(action_index(m, rules) for m in legal_moves(self.state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every deal seed, equally likely."""
        deals = self.deals
        return _outcomes(deals)

    def _move(self, action: int) -> Move:
        assert self.state is not None
        rules = self.rules
        for move in legal_moves(self.state):
            if action_index(move, rules) == action:
                return move
        raise ValueError(f"action {action} is not legal")

    def _apply_action(self, action: int) -> None:
        if self.state is None:
            dealt = new_game(self.rules, self.players, int(action))
            self._held = attrs.evolve(self._held, state=dealt, start=dealt.side_scores)
            return
        self._held = attrs.evolve(self._held, state=apply(self.state, self._move(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return describe_action(action, self.rules)

    def is_terminal(self) -> bool:
        """True once the round is over."""
        return self.state is not None and self.state.phase != PLAYING

    def returns(self) -> list[float]:
        """Each seat's side gain this round minus the mean gain (0 before the end)."""
        players = self.players
        if self.state is None or not self.is_terminal():
            return [0.0] * players
        state = self.state
        sides = state.sides
        gains = [a - b for a, b in zip(state.side_scores, self._held.start, strict=True)]
        per_seat = [float(gains[_side(sides, seat)]) for seat in range(players)]
        mean = sum(per_seat) / players
        return [g - mean for g in per_seat]

    def __str__(self) -> str:
        if self.state is None:
            return "(not dealt)"
        state = self.state
        hands = " | ".join(" ".join(str(t) for t in hand) for hand in state.hands)
        return f"ends {list(state.board.values)} hands {hands} stock {state.stock_size}"


@attrs.frozen
class _Held:
    """What a state holds, immutable: copying a state shares it instead of copying it."""

    rules: RuleSet
    players: int
    deals: int
    state: GameState | None
    start: tuple[int, ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return self


@lru_cache(maxsize=8)
def _outcomes(deals: int) -> list[tuple[int, float]]:
    return [(seed, 1.0 / deals) for seed in range(deals)]


def _side(sides: tuple[tuple[int, ...], ...], seat: int) -> int:
    return next(i for i, side in enumerate(sides) if seat in side)


class BendolibObserver:
    """Observation tensors (the bendolib encoding) and strings, per OpenSpiel's PyObserver."""

    def __init__(self, game: BendolibGame, iig_obs_type: Any) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        fields = layout(game.rules, game.players)
        size = 0 if self.perfect_recall else fields[-1].offset + fields[-1].length
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        if size:
            for f in fields:
                self.dict[f.name] = self.tensor[f.offset : f.offset + f.length]

    def set_from(self, state: BendolibState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s view of ``state``."""
        if not self.tensor.size:
            return
        self.tensor.fill(0)
        if state.state is None:
            return
        self.tensor[:] = encode(state.state.observation(player))
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
        parts.append(f"ends {list(obs.board.values)}")
        parts.append(f"sizes {list(obs.hand_sizes)} stock {obs.stock_size}")
        parts.append(f"to move {obs.current_player}")
    return " | ".join(parts)


_REGISTERED: set[str] = set()


def register(rules_name: str) -> str:
    """Register the rule set ``rules_name`` as a pyspiel game; returns the game's name."""
    name = game_name(rules_name)
    if name in _REGISTERED:
        return name
    ruleset = registry.get(rules_name)
    cls = type(f"BendolibGame_{name}", (BendolibGame,), {"rules_name": ruleset.name})
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
    "BendolibGame",
    "BendolibObserver",
    "BendolibState",
    "Draw",
    "game_name",
    "observation_text",
    "register",
    "register_all",
]
