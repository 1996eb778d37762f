"""GameState: an immutable snapshot of a match, with derived queries and no rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias, TypeGuard

import attrs

from bendolib.errors import ArgumentError, StateError
from bendolib.geometry.board import Board, End
from bendolib.limits import MAX_ROUND, MAX_SEED, shown
from bendolib.moves import Move
from bendolib.rules.ruleset import RuleSet
from bendolib.tiles import Tile, indices

if TYPE_CHECKING:
    from bendolib.observation import Observation


class _Views:
    """
    The views of a state that higher layers define, called by :class:`GameState`'s
    methods: ``observe`` (``state.observation(p)``), installed by
    :mod:`bendolib.observation`; ``text`` (``str(state)``), by :mod:`bendolib.text`;
    ``svg`` (Jupyter's ``_repr_svg_``), by :mod:`bendolib.render_svg`.  Each module
    installs its function when it is imported, and importing any part of bendolib
    imports the package, which imports all three, so no program sees one missing.
    A hook rather than an import, so that this module stays below them in the layers
    (docs/architecture.md, "Layers").
    """

    observe: Callable[[GameState, int], Observation]
    text: Callable[[GameState], str]
    svg: Callable[[GameState], str]


_VIEWS = _Views()

#: Phases of a state.
PLAYING = 0
ROUND_OVER = 1
GAME_OVER = 2


@attrs.frozen
class RoundResult:
    """
    How a round ended: ``blocked`` or someone went out; ``order`` the seats that
    went out, in order; ``hand_points`` left in each hand; ``points`` won by each seat;
    ``winners`` the seats credited with the win (empty when nobody won).
    """

    round_number: int
    blocked: bool
    order: tuple[int, ...]
    hand_points: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]


@attrs.frozen
class Turn:
    """One entry of the public history: ``player`` made ``move``."""

    player: int
    move: Move


#: The round's history as a cons list, newest first: ``(player, move, older)`` or None.
#: New states share the older cells.
Log: TypeAlias = "tuple[int, Move, Log] | None"


@attrs.frozen
class PastRound:
    """
    A finished round of the match: its moves, oldest first, and ``origin``, the
    position they were played from when that was not a deal (a loaded position).
    """

    turns: tuple[Turn, ...]
    origin: GameState | None = attrs.field(default=None, eq=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle: the values by name (as attrs writes them)."""
        return _slots(self)

    def __setstate__(self, state: Any) -> None:
        """Unpickle (an older version's ``origin`` missing: None)."""
        _set_slots(self, state, {"origin": None})


@attrs.frozen
class RoundContext:
    """
    The parts of a :class:`GameState` that change at most a few times a round (the
    rules, the deal, the match scores...): one value shared by the states of a round,
    so that a move builds only the small per-move part.  Read them through the
    state's attributes of the same names.
    """

    rules: RuleSet
    players: int
    seed: int
    round_number: int
    deck: tuple[int, ...]
    scores: tuple[int, ...]
    opening: int
    direction: int
    out: tuple[int, ...]
    play_points: tuple[int, ...]
    results: tuple[RoundResult, ...]
    phase: int
    match_winner: int
    past: tuple[PastRound, ...] = attrs.field(repr=False)
    origin: GameState | None = attrs.field(default=None, eq=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle: the values by name (as attrs writes them)."""
        return _slots(self)

    def __setstate__(self, state: Any) -> None:
        """
        Unpickle: a value an older version did not write takes its default (``past``
        none, ``origin`` None); one without a default is an :class:`ArgumentError`.
        """
        _set_slots(self, state, {"past": (), "origin": None})


def _slots(obj: Any) -> dict[str, Any]:
    """The values of an attrs instance by name (what is pickled)."""
    return {f.name: getattr(obj, f.name) for f in attrs.fields(type(obj))}


def _set_slots(obj: Any, state: Any, defaults: dict[str, Any]) -> None:
    """Write the pickled ``state`` (a dict of values by name) into ``obj``'s slots."""
    names = [f.name for f in attrs.fields(type(obj))]
    if type(state) is tuple and len(state) == 2 and isinstance(state[1], dict):
        state = {**(state[0] or {}), **state[1]}  # object's own pickling of slots
    if not isinstance(state, dict):
        raise ArgumentError(f"a pickled {type(obj).__name__} holds {shown(state)}")
    for name in names:
        if name in state:
            value = state[name]
        elif name in defaults:
            value = defaults[name]
        else:
            raise ArgumentError(f"a pickled {type(obj).__name__} has no {name}")
        object.__setattr__(obj, name, value)


#: The names :meth:`GameState.create` and :meth:`GameState.replace` accept: every
#: value of a state, per-move or in its :class:`RoundContext`.
STATE_FIELDS = (
    "rules",
    "players",
    "seed",
    "round_number",
    "deck",
    "stock_pos",
    "hand_masks",
    "board",
    "current_player",
    "scores",
    "opening",
    "drawn",
    "drawn_count",
    "direction",
    "out",
    "play_points",
    "results",
    "phase",
    "last_placer",
    "match_winner",
    "log",
    "past",
    "origin",
)
_CONTEXT_FIELDS = frozenset(f.name for f in attrs.fields(RoundContext))
_OWN_FIELDS = frozenset(STATE_FIELDS) - _CONTEXT_FIELDS


@attrs.frozen
class GameState:
    """
    A match in progress: the current round's deal, board and turn, and the match
    scores.  Create one with :func:`bendolib.new_game` (or :meth:`create`); change it
    only with :func:`bendolib.apply`, which returns a new state.

    Hands are kept as bitmasks of tile indices (``hand_masks``); ``deck`` is the
    round's shuffled tile order, of which ``deck[stock_pos:]`` is still in the stock.
    The values that change at most a few times a round live in one shared
    :class:`RoundContext` (``context``) and read as attributes of the state too
    (``state.rules``, ``state.scores``...); :data:`STATE_FIELDS` lists them all.
    """

    hand_masks: tuple[int, ...]
    board: Board
    current_player: int
    stock_pos: int
    drawn: int
    drawn_count: int
    last_placer: int
    log: Log = attrs.field(repr=False, eq=lambda log: _flat(log))
    context: RoundContext

    @classmethod
    def create(
        cls,
        *,
        rules: RuleSet,
        players: int,
        seed: int,
        round_number: int,
        deck: tuple[int, ...],
        stock_pos: int,
        hand_masks: tuple[int, ...],
        board: Board,
        current_player: int,
        scores: tuple[int, ...],
        opening: int = -1,
        drawn: int = 0,
        drawn_count: int = 0,
        direction: int = 1,
        out: tuple[int, ...] = (),
        play_points: tuple[int, ...] = (),
        results: tuple[RoundResult, ...] = (),
        phase: int = PLAYING,
        last_placer: int = -1,
        match_winner: int = -1,
        log: Log = None,
        past: tuple[PastRound, ...] | None = (),
        origin: GameState | None = None,
    ) -> GameState:
        """
        A state from all its values (see :data:`STATE_FIELDS`).  ``past=None`` means
        no finished round, like ``()``.  The rules of play are not checked, but every
        value is, as :func:`check_state` does (TypeError, :class:`ArgumentError`).
        """
        state = cls._unchecked(
            rules=rules,
            players=players,
            seed=seed,
            round_number=round_number,
            deck=deck,
            stock_pos=stock_pos,
            hand_masks=hand_masks,
            board=board,
            current_player=current_player,
            scores=scores,
            opening=opening,
            drawn=drawn,
            drawn_count=drawn_count,
            direction=direction,
            out=out,
            play_points=play_points,
            results=results,
            phase=phase,
            last_placer=last_placer,
            match_winner=match_winner,
            log=log,
            past=past,
            origin=origin,
        )
        check_state(state)
        return state

    @classmethod
    def _unchecked(
        cls,
        *,
        rules: RuleSet,
        players: int,
        seed: int,
        round_number: int,
        deck: tuple[int, ...],
        stock_pos: int,
        hand_masks: tuple[int, ...],
        board: Board,
        current_player: int,
        scores: tuple[int, ...],
        opening: int = -1,
        drawn: int = 0,
        drawn_count: int = 0,
        direction: int = 1,
        out: tuple[int, ...] = (),
        play_points: tuple[int, ...] = (),
        results: tuple[RoundResult, ...] = (),
        phase: int = PLAYING,
        last_placer: int = -1,
        match_winner: int = -1,
        log: Log = None,
        past: tuple[PastRound, ...] | None = (),
        origin: GameState | None = None,
    ) -> GameState:
        """:meth:`create` without the checks (a reader that checks in its own words)."""
        context = RoundContext(
            rules,
            players,
            seed,
            round_number,
            deck,
            scores,
            opening,
            direction,
            out,
            play_points,
            results,
            phase,
            match_winner,
            () if past is None else past,
            origin,
        )
        return cls(
            hand_masks,
            board,
            current_player,
            stock_pos,
            drawn,
            drawn_count,
            last_placer,
            log,
            context,
        )

    def replace(self, **changes: Any) -> GameState:
        """
        A copy with some values replaced, by the names of :data:`STATE_FIELDS`
        (like ``attrs.evolve``, which only knows the per-move ones).  The rules of play
        are not checked, but the values are, as :func:`check_state` does.
        """
        state = self._replaced(**changes)
        check_state(state)
        return state

    def _replaced(self, **changes: Any) -> GameState:
        """:meth:`replace` without the checks."""
        unknown = changes.keys() - _OWN_FIELDS - _CONTEXT_FIELDS
        if unknown:
            raise TypeError(f"GameState has no field {', '.join(sorted(unknown))}")
        context = self.context
        moved = {k: v for k, v in changes.items() if k in _CONTEXT_FIELDS}
        if "past" in moved and moved["past"] is None:
            moved["past"] = ()
        if moved:
            context = attrs.evolve(context, **moved)
        own = {k: v for k, v in changes.items() if k in _OWN_FIELDS}
        return attrs.evolve(self, context=context, **own)

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        return self.context.rules

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.context.players

    @property
    def seed(self) -> int:
        """The match's seed (hidden information: it fixes every deal)."""
        return self.context.seed

    @property
    def round_number(self) -> int:
        """The round being played, from 1."""
        return self.context.round_number

    @property
    def deck(self) -> tuple[int, ...]:
        """The round's shuffled tile indices (hands, table tiles, then the stock)."""
        return self.context.deck

    @property
    def scores(self) -> tuple[int, ...]:
        """Match score of each seat."""
        return self.context.scores

    @property
    def opening(self) -> int:
        """Index of the tile that must open the round, or -1."""
        return self.context.opening

    @property
    def direction(self) -> int:
        """Order of play: 1 or -1."""
        return self.context.direction

    @property
    def out(self) -> tuple[int, ...]:
        """The seats that went out this round, in order."""
        return self.context.out

    @property
    def play_points(self) -> tuple[int, ...]:
        """Points each seat scored during play this round."""
        return self.context.play_points

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """The finished rounds' results, oldest first."""
        return self.context.results

    @property
    def phase(self) -> int:
        """PLAYING, ROUND_OVER or GAME_OVER."""
        return self.context.phase

    @property
    def match_winner(self) -> int:
        """The winning side once the match is over, else -1."""
        return self.context.match_winner

    @property
    def past(self) -> tuple[PastRound, ...]:
        """The finished rounds of this state's line, oldest first (a flat tuple)."""
        return self.context.past

    @property
    def origin(self) -> GameState | None:
        """
        The position this round's history starts from when it is not the deal (a
        state read from position text is its own origin), else None.
        """
        return self.context.origin

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Each player's tiles, in tile-set order."""
        tiles = self.rules.tileset.tiles
        return tuple(tuple(tiles[i] for i in indices(h)) for h in self.hand_masks)

    @property
    def stock(self) -> tuple[Tile, ...]:
        """The stock, in drawing order (hidden information)."""
        tiles = self.rules.tileset.tiles
        return tuple(tiles[i] for i in self.deck[self.stock_pos :])

    @property
    def stock_mask(self) -> int:
        """Bitmask of the tiles in the stock."""
        mask = 0
        for i in self.deck[self.stock_pos :]:
            mask |= 1 << i
        return mask

    @property
    def stock_size(self) -> int:
        """Number of tiles left in the stock."""
        return len(self.deck) - self.stock_pos

    @property
    def open_ends(self) -> tuple[End, ...]:
        """The open ends of the chain, in end order."""
        return self.board.ends

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The scoring sides: one seat each, or the teams."""
        return self.rules.match.sides(self.players)

    @property
    def side_scores(self) -> tuple[int, ...]:
        """Match score of each side (a team's is the sum of its members')."""
        return tuple(sum(self.scores[s] for s in side) for side in self.sides)

    @property
    def is_round_over(self) -> bool:
        """True when the current round has ended (and at the end of the match)."""
        return self.context.phase != PLAYING

    @property
    def is_game_over(self) -> bool:
        """True when the match has been won."""
        return self.phase == GAME_OVER

    @property
    def winner(self) -> int | None:
        """The winning side (a seat, or a team index in team games), once the match is over."""
        return self.match_winner if self.phase == GAME_OVER else None

    @property
    def winning_players(self) -> tuple[int, ...]:
        """The seats of the winning side, once the match is over."""
        if self.phase != GAME_OVER:
            return ()
        return self.sides[self.match_winner]

    @property
    def last_result(self) -> RoundResult | None:
        """The result of the latest finished round."""
        return self.results[-1] if self.results else None

    @property
    def history(self) -> tuple[Turn, ...]:
        """The moves of the current round, oldest first."""
        return _turns(self.log)

    @property
    def match_history(self) -> tuple[tuple[Turn, ...], ...]:
        """The moves of every round played in this state's line, oldest round first."""
        return (*(r.turns for r in self.past), _turns(self.log))

    def hand(self, player: int) -> tuple[Tile, ...]:
        """The tiles of one player."""
        return self.rules.tileset.tiles_of(self.hand_masks[self._seat(player)])

    def hand_points(self, player: int) -> int:
        """Points in one player's hand."""
        return self.rules.tileset.mask_points(self.hand_masks[self._seat(player)])

    def observation(self, player: int) -> Observation:
        """What seat ``player`` may know of this state (see :mod:`bendolib.observation`)."""
        return _VIEWS.observe(self, player)

    def _seat(self, player: object) -> int:
        """``player`` if it is one of this state's seats (TypeError, ArgumentError otherwise)."""
        if not isinstance(player, int) or isinstance(player, bool):
            raise TypeError(f"a seat is an int, not {type(player).__name__}")
        if not 0 <= player < self.context.players:
            players = self.context.players
            raise ArgumentError(f"no seat {player} among {players} players (0..{players - 1})")
        return player

    def __str__(self) -> str:
        """A plain-text picture of the position (see :func:`bendolib.text.state_text`)."""
        return _VIEWS.text(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """
        Pickle (and ``copy.deepcopy``) with the round's history as a flat tuple, so
        that no round is too long to copy.
        """
        fields = (self.hand_masks, self.board, self.current_player, self.stock_pos, self.drawn)
        rest = (self.drawn_count, self.last_placer, _flat(self.log), self.context)
        return (_unpickled, fields + rest)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's plain-text display: the text picture."""
        printer.text(str(self))

    def __repr__(self) -> str:
        """
        A one-line summary, e.g. ``<GameState 'basic', 2 players, seed 7: round 1,
        move 5, player 1 to move; board 5 tiles, ends 2 1; hands 4 5; stock 14;
        scores 0 0>`` (``str`` gives the picture, ``position_text.dumps`` the whole
        position).
        """
        if self.phase == GAME_OVER:
            turn = f"match over, winner {self.match_winner}"
        elif self.phase == ROUND_OVER:
            turn = "round over"
        else:
            turn = f"player {self.current_player} to move"
        values = [str(end.value) for end in self.board.ends]
        # a triangle layout has dozens of open edges: the first eight and the count
        ends = " ".join(values if len(values) <= 8 else [*values[:8], f"... ({len(values)})"])
        ends = ends or "none"
        hands = " ".join(str(mask.bit_count()) for mask in self.hand_masks)
        return (
            f"<GameState {self.rules.name!r:.40}, {self.players} players, seed {self.seed}: "
            f"round {self.round_number}, move {len(self.history)}, {turn}; "
            f"board {len(self.board.placements)} tiles, ends {ends}; hands {hands}; "
            f"stock {self.stock_size}; scores {' '.join(map(str, self.scores))}>"
        )

    def _repr_svg_(self) -> str:
        """Jupyter's rich display: the SVG picture of the board."""
        return _VIEWS.svg(self)


def _flat(log: Log) -> tuple[tuple[int, Move], ...]:
    """
    The moves of a cons list as a flat tuple of ``(player, move)``, newest first: how
    states compare, hash and pickle their history, so that no round is too long for
    Python's recursion limit.
    """
    moves = []
    while log is not None:
        moves.append(log[:2])
        log = log[2]
    return tuple(moves)


def _unpickled(
    hand_masks: tuple[int, ...],
    board: Board,
    current_player: int,
    stock_pos: int,
    drawn: int,
    drawn_count: int,
    last_placer: int,
    moves: tuple[tuple[int, Move], ...],
    context: RoundContext,
) -> GameState:
    """The state :meth:`GameState.__reduce__` wrote, its history a cons list again."""
    log: Log = None
    for player, move in reversed(moves):  # oldest first
        log = (player, move, log)
    state = GameState(
        hand_masks, board, current_player, stock_pos, drawn, drawn_count, last_placer, log, context
    )
    check_state(state)
    return state


def _int(value: object) -> bool:
    return type(value) is int


def _ints(value: object, count: int | None = None) -> TypeGuard[tuple[int, ...]]:
    """True for a tuple of ints (of ``count`` of them, when given)."""
    return (
        type(value) is tuple
        and (count is None or len(value) == count)
        and all(type(v) is int for v in value)
    )


def _seats(value: object, players: int) -> bool:
    """True for a tuple of distinct seats."""
    return _ints(value) and len(set(value)) == len(value) and all(0 <= s < players for s in value)


def check_state(state: GameState) -> None:
    """
    Raise unless every value of ``state`` is of its type (TypeError) and within its
    range (:class:`ArgumentError`): the seats, the tile indices and masks within the
    tile set, the hands and the stock sharing no tile, the stock position within the
    deck, the direction 1 or -1, the phase, the match's winner a side exactly when the
    match is over, the seed and round number within
    :mod:`bendolib.limits`.  What the engine and the compiled kernel take for granted;
    the rules of play (who may hold what after which moves) are not checked.

    :meth:`GameState.create`, :meth:`GameState.replace` and unpickling call it; the
    engine's own moves make states that pass it.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"check_state takes a GameState, not {type(state).__name__}")
    try:
        context = state.context
        for name in _CONTEXT_NAMES:
            getattr(context, name)
        for name in _OWN_FIELDS:
            getattr(state, name)
    except AttributeError as exc:
        raise ArgumentError(f"a GameState without all its values: {exc}") from None
    if not isinstance(context, RoundContext):
        raise TypeError(f"GameState.context is a RoundContext, not {type(context).__name__}")
    rules = context.rules
    if not isinstance(rules, RuleSet):
        raise TypeError(f"GameState.rules is a RuleSet, not {type(rules).__name__}")
    players = context.players
    if not _int(players):
        raise TypeError(f"GameState.players is an int, not {type(players).__name__}")
    if players < 1:
        raise ArgumentError(f"a game has at least 1 player, not {shown(players)}")
    count = len(rules.tileset)
    full = (1 << count) - 1

    def bad(name: str, wanted: str) -> StateError:
        value = getattr(context, name, None) if name in _CONTEXT_NAMES else getattr(state, name)
        return StateError(f"GameState.{name} is {wanted}, not {shown(value)}", name)

    for name in ("seed", "round_number", "opening", "direction", "phase", "match_winner"):
        if not _int(getattr(context, name)):
            raise TypeError(
                f"GameState.{name} is an int, not {type(getattr(context, name)).__name__}"
            )
    for name in ("current_player", "stock_pos", "drawn", "drawn_count", "last_placer"):
        if not _int(getattr(state, name)):
            raise TypeError(
                f"GameState.{name} is an int, not {type(getattr(state, name)).__name__}"
            )
    if not 0 <= context.seed <= MAX_SEED:
        raise bad("seed", "from 0 to 2**64 - 1")
    if not 1 <= context.round_number <= MAX_ROUND:
        raise bad("round_number", "from 1 to 2**62")
    deck = context.deck
    if not _ints(deck) or len(deck) > count:
        raise bad("deck", f"a tuple of at most {count} tile indices")
    if len(set(deck)) != len(deck) or any(not 0 <= i < count for i in deck):
        raise bad("deck", f"tile indices from 0 to {count - 1}, each at most once")
    if not 0 <= state.stock_pos <= len(deck):
        raise bad("stock_pos", f"a position in the deck of {len(deck)} tiles (0 to {len(deck)})")
    hands = state.hand_masks
    if not _ints(hands, players):
        raise bad("hand_masks", f"a tuple of {players} ints (one mask a seat)")
    held = 0
    for i in deck[state.stock_pos :]:
        held |= 1 << i
    for seat, hand in enumerate(hands):
        if hand < 0 or hand > full:
            raise StateError(
                f"GameState.hand_masks[{seat}] holds tiles beyond the {count} of the tile set: "
                f"{shown(hand)}",
                "hand_masks",
            )
        if hand & held:
            raise StateError(
                f"GameState.hand_masks[{seat}] holds a tile of another hand or of the stock",
                "hand_masks",
            )
        held |= hand
    if not isinstance(state.board, Board):
        raise TypeError(f"GameState.board is a Board, not {type(state.board).__name__}")
    if not 0 <= state.current_player < players:
        raise bad("current_player", f"a seat from 0 to {players - 1}")
    if not -1 <= state.last_placer < players:
        raise bad("last_placer", f"a seat from 0 to {players - 1}, or -1")
    if not _ints(context.scores, players):
        raise bad("scores", f"a tuple of {players} ints")
    if not _ints(context.play_points, players) and context.play_points != ():
        raise bad("play_points", f"a tuple of {players} ints (or empty: none yet)")
    if not -1 <= context.opening < count:
        raise bad("opening", f"a tile index from 0 to {count - 1}, or -1")
    if not 0 <= state.drawn <= full:
        raise bad("drawn", f"a mask of the {count} tiles")
    limit = getattr(rules.draw, "max_per_turn", None)
    most = count if limit is None else min(count, limit)
    if not 0 <= state.drawn_count <= most:
        raise bad("drawn_count", f"from 0 to {most}")
    if context.direction not in (1, -1):
        raise bad("direction", "1 or -1")
    if not _seats(context.out, players):
        raise bad("out", f"a tuple of distinct seats from 0 to {players - 1}")
    if context.phase not in (PLAYING, ROUND_OVER, GAME_OVER):
        raise bad("phase", "0, 1 or 2 (PLAYING, ROUND_OVER, GAME_OVER)")
    sides = len(rules.match.sides(players))
    if not -1 <= context.match_winner < sides:
        raise bad("match_winner", f"a side from 0 to {sides - 1}, or -1")
    if (context.match_winner >= 0) != (context.phase == GAME_OVER):
        raise bad("match_winner", "a side once the match is over (phase 2), else -1")
    results = context.results
    if type(results) is not tuple or not all(type(r) is RoundResult for r in results):
        raise bad("results", "a tuple of RoundResults")
    for result in results:
        if not (
            _seats(result.order, players)
            and _seats(result.winners, players)
            and _ints(result.hand_points, players)
            and _ints(result.points, players)
            and _int(result.round_number)
        ):
            raise StateError(
                f"GameState.results holds a round result not for {players} players: "
                f"{shown(result)}",
                "results",
            )
    past = context.past
    if type(past) is not tuple or not all(isinstance(p, PastRound) for p in past):
        raise bad("past", "a tuple of PastRounds")
    if context.origin is not None and not isinstance(context.origin, GameState):
        raise TypeError(
            f"GameState.origin is a GameState or None, not {type(context.origin).__name__}"
        )
    log = state.log
    if log is not None and (type(log) is not tuple or len(log) != 3):
        raise bad("log", "None or a (player, move, older) cell")


_CONTEXT_NAMES = frozenset(f.name for f in attrs.fields(RoundContext))


def _turns(log: Log) -> tuple[Turn, ...]:
    """The turns of a cons list, oldest first."""
    turns: list[Turn] = []
    while log is not None:
        player, move, log = log
        turns.append(Turn(player, move))
    turns.reverse()
    return tuple(turns)
