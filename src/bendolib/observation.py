"""Observations: what one player at the table may know about a state, and nothing more."""

from __future__ import annotations

from typing import Any

import attrs

from bendolib._inference import (
    DRAW_MISSED,
    DREW,
    DREW_AGAIN,
    HIDDEN,
    PASSED,
    DeckLayout,
    Deductions,
    HiddenDeal,
    Lack,
    Slot,
    deck_layout,
    deduce,
    fitting,
    hidden_deal,
    stock_start,
)
from bendolib.engine import apply, deal_from
from bendolib.errors import BendolibError
from bendolib.geometry.board import Board, End
from bendolib.moves import Draw, Place, PlaceInCell
from bendolib.rules.ruleset import RuleSet
from bendolib.state import _VIEWS, GAME_OVER, PLAYING, GameState, RoundResult, Turn
from bendolib.tiles import Tile, indices

__all__ = [
    "DRAW_MISSED",
    "DREW",
    "DREW_AGAIN",
    "HIDDEN",
    "PASSED",
    "DeckLayout",
    "Deductions",
    "HiddenDeal",
    "Lack",
    "NotObservableError",
    "Observation",
    "Slot",
    "Taken",
    "deck_layout",
    "deduce",
    "detached",
    "draw_counts",
    "fitting",
    "hidden_deal",
    "observe",
    "stock_start",
]


class NotObservableError(BendolibError, ValueError):
    """A hand-built state whose history cannot be followed back to its deal or origin."""


@attrs.frozen
class Taken:
    """
    One tile taken from the stock this round: by ``player``, during history entry
    ``turn`` (a draw, or a placement whose effect made ``player`` draw); ``tile`` is
    the tile's index when the observer took it, :data:`HIDDEN` otherwise.
    """

    player: int
    turn: int
    tile: int = HIDDEN


@attrs.frozen(cache_hash=True)
class Observation:
    """
    What seat ``player`` knows: its own hand and draws, and the public state.

    Public: the board, the open ends, the stock size, every hand's size, scores and
    results, the round's history (who placed what, who drew how many tiles and when,
    who passed), the tile a round must open with, and, once the round is over, every
    hand (they are shown for scoring).  Hidden: the other hands, the stock's order and
    the match seed.  Two states that differ only in hidden information give equal
    observations.  Build one with :meth:`GameState.observation`.
    """

    rules: RuleSet
    players: int
    player: int
    round_number: int
    phase: int
    current_player: int
    hand_mask: int
    hand_sizes: tuple[int, ...]
    board: Board
    stock_size: int
    scores: tuple[int, ...]
    play_points: tuple[int, ...]
    results: tuple[RoundResult, ...]
    history: tuple[Turn, ...]
    taken: tuple[Taken, ...]
    opening: int
    drawn_mask: int
    drawn_count: int
    direction: int
    out: tuple[int, ...]
    last_placer: int
    match_winner: int
    revealed: tuple[int, ...] = ()
    start: Observation | None = None

    def __repr__(self) -> str:
        """
        A one-line summary with the observer's hand, e.g. ``<Observation of player 0,
        'basic', 2 players: round 1, move 5, player 1 to move; hand 2-2 3-4L; board 5
        tiles, ends 2 1; hands 2 5; stock 14; scores 0 0>`` (not the tile set).
        """
        if self.phase == GAME_OVER:
            turn = f"match over, winner {self.match_winner}"
        elif self.phase != PLAYING:
            turn = "round over"
        else:
            turn = f"player {self.current_player} to move"
        hand = " ".join(str(tile) for tile in self.hand) or "empty"
        ends = " ".join(str(end.value) for end in self.board.ends) or "none"
        return (
            f"<Observation of player {self.player}, {self.rules.name!r:.40}, "
            f"{self.players} players: round {self.round_number}, move {len(self.history)}, "
            f"{turn}; hand {hand}; board {len(self.board.placements)} tiles, ends {ends}; "
            f"hands {' '.join(map(str, self.hand_sizes))}; stock {self.stock_size}; "
            f"scores {' '.join(map(str, self.scores))}>"
        )

    @property
    def hand(self) -> tuple[Tile, ...]:
        """The observer's tiles, in tile-set order."""
        return self.rules.tileset.tiles_of(self.hand_mask)

    @property
    def open_ends(self) -> tuple[End, ...]:
        """The open ends of the chain, in end order."""
        return self.board.ends

    @property
    def is_my_turn(self) -> bool:
        """True when the observer is to move in a round in play."""
        return self.phase == PLAYING and self.current_player == self.player

    @property
    def is_round_over(self) -> bool:
        """True once the round has ended (and at the end of the match)."""
        return self.phase != PLAYING

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The scoring sides: one seat each, or the teams."""
        return self.rules.match.sides(self.players)

    @property
    def side_scores(self) -> tuple[int, ...]:
        """Match score of each side."""
        return tuple(sum(self.scores[s] for s in side) for side in self.sides)

    @property
    def own_draws(self) -> tuple[int, ...]:
        """Indices of the tiles the observer took from the stock this round, in order."""
        return tuple(t.tile for t in self.taken if t.player == self.player)

    @property
    def table_tiles(self) -> tuple[int, ...]:
        """Indices of the tiles the deal turned up on the table (All Five), in order."""
        tileset = self.rules.tileset
        count = self.rules.deal.table_tiles
        return tuple(tileset.index(p.tile) for p in self.board.placements[:count])

    @property
    def placed_mask(self) -> int:
        """Bitmask of the tiles on the table."""
        return self.rules.tileset.mask_of(p.tile for p in self.board.placements)

    @property
    def unseen_mask(self) -> int:
        """Tiles the observer has not seen: in the other hands or in the stock."""
        seen = self.hand_mask | self.placed_mask
        for hand in self.revealed:
            seen |= hand
        return self.rules.tileset.full_mask & ~seen

    @property
    def deductions(self) -> Deductions:
        """What the public history tells about the other hands (see :func:`deduce`)."""
        return deduce(self)


def observe(state: GameState, player: int) -> Observation:
    """The observation of ``state`` by seat ``player``."""
    if not isinstance(state, GameState):
        raise TypeError(f"observe takes a GameState, not {type(state).__name__}")
    player = state._seat(player)
    origin = state.origin
    history = state.history
    if origin is None:
        return _view(state, player, history, _taken(state, history, player), None)
    start = _view(origin, player, (), (), None)
    return _view(state, player, history, _taken_since(origin, state, history, player), start)


#: The types of a board's tables that a bot could change in place.
_MUTABLE = (dict, list, set, bytearray)
#: The attrs fields of each board class met so far, by class.
_FIELDS: dict[type, tuple[str, ...]] = {}


def _detached_board(board: Board) -> Board:
    """``board``, or an equal board whose tables (dicts, lists) are copies of its own."""
    names = _FIELDS.get(type(board))
    if names is None:
        names = _FIELDS[type(board)] = tuple(f.name for f in attrs.fields(type(board)))
    tables = {name: value for name in names if isinstance(value := getattr(board, name), _MUTABLE)}
    if not tables:
        return board
    copies: dict[str, Any] = {name: value.copy() for name, value in tables.items()}
    return attrs.evolve(board, **copies)


def detached(observation: Observation) -> Observation:
    """
    ``observation``, sharing nothing a bot could change with the game it comes from: an
    equal observation whose boards' tables (the triangle board's ``numbers`` and
    ``filled`` dicts) are copies; the chain games' boards hold none, and their
    observation is returned as it is.  The runner, the command line and the adapters
    hand bots this, so that a bot writing into what it was given cannot change the match.
    """
    if not isinstance(observation, Observation):
        raise TypeError(f"detached takes an Observation, not {type(observation).__name__}")
    board = _detached_board(observation.board)
    start = observation.start
    if start is not None:
        start = detached(start)
    if board is observation.board and start is observation.start:
        return observation
    return attrs.evolve(observation, board=board, start=start)


def _view(
    state: GameState,
    player: int,
    history: tuple[Turn, ...],
    taken: tuple[Taken, ...],
    start: Observation | None,
) -> Observation:
    mine = player == state.current_player
    return Observation(
        rules=state.rules,
        players=state.players,
        player=player,
        round_number=state.round_number,
        phase=state.phase,
        current_player=state.current_player,
        hand_mask=state.hand_masks[player],
        hand_sizes=tuple(h.bit_count() for h in state.hand_masks),
        board=state.board,
        stock_size=state.stock_size,
        scores=state.scores,
        play_points=state.play_points,
        results=state.results,
        history=history,
        taken=taken,
        opening=state.opening,
        drawn_mask=state.drawn if mine else 0,
        drawn_count=state.drawn_count,
        direction=state.direction,
        out=state.out,
        last_placer=state.last_placer,
        match_winner=state.match_winner,
        revealed=state.hand_masks if state.phase != PLAYING else (),
        start=start,
    )


def draw_counts(rules: RuleSet, history: tuple[Turn, ...], stock: int) -> tuple[int, ...]:
    """
    Tiles taken by each history entry's draw (0 for other moves), from a stock of
    ``stock`` tiles at the start of the round, when only draw moves take tiles.
    """
    policy = rules.draw
    counts = []
    left = stock
    in_turn = 0
    previous = -1
    for turn in history:
        if not isinstance(turn.move, Draw):
            counts.append(0)
            in_turn = 0
            previous = -1
            continue
        if turn.player != previous:
            in_turn = 0
        limit = policy.batch
        if policy.max_per_turn is not None:
            limit = min(limit, policy.max_per_turn - in_turn)
        count = max(0, min(limit, left))
        counts.append(count)
        left -= count
        in_turn += count
        previous = turn.player
    return tuple(counts)


def _owners(state: GameState, history: tuple[Turn, ...]) -> dict[int, int]:
    """The seat holding or having placed each tile of this round's hands and draws."""
    owner: dict[int, int] = {}
    for seat, hand in enumerate(state.hand_masks):
        for i in indices(hand):
            owner[i] = seat
    tileset = state.rules.tileset
    for turn in history:
        if isinstance(turn.move, (Place, PlaceInCell)):
            owner[tileset.index(turn.move.tile)] = turn.player
    return owner


def _taken(state: GameState, history: tuple[Turn, ...], player: int) -> tuple[Taken, ...]:
    """Who took each tile drawn from the stock this round, and when."""
    start = stock_start(state.rules, state.players)
    turns: list[int] = []
    if state.rules.effects is None:
        counts = draw_counts(state.rules, history, len(state.deck) - start)
        for index, count in enumerate(counts):
            turns.extend([index] * count)
    if len(turns) != state.stock_pos - start:
        turns = _replayed_turns(state, history)
    return _tiles_taken(state, history, player, start, turns)


def _taken_since(
    origin: GameState, state: GameState, history: tuple[Turn, ...], player: int
) -> tuple[Taken, ...]:
    """:func:`_taken` for a round whose history starts at ``origin`` (not a deal)."""
    return _tiles_taken(state, history, player, origin.stock_pos, _turns_from(origin, history))


def _tiles_taken(
    state: GameState, history: tuple[Turn, ...], player: int, start: int, turns: list[int]
) -> tuple[Taken, ...]:
    """The :class:`Taken` entries of the deck positions from ``start`` on, taken in ``turns``."""
    if len(turns) != state.stock_pos - start:
        raise NotObservableError(
            "this state's history does not explain its stock: build positions with "
            "position_text.loads (or give GameState.create an origin)"
        )
    owner = _owners(state, history)
    out = []
    for position, turn in zip(range(start, state.stock_pos), turns, strict=True):
        tile = state.deck[position]
        seat = owner.get(tile, HIDDEN)
        out.append(Taken(seat, turn, tile if seat == player else HIDDEN))
    return tuple(out)


def _replayed_turns(state: GameState, history: tuple[Turn, ...]) -> list[int]:
    """The history entry that took each stock tile, found by replaying the round."""
    try:
        replay = deal_from(state.rules, state.players, state.deck, state.seed, state.round_number)
    except BendolibError:
        replay = None
    if replay is None:
        raise NotObservableError(
            "this state's deck is not a deal its history starts from: build positions "
            "with position_text.loads (or give GameState.create an origin)"
        )
    return _turns_from(replay, history)


def _turns_from(first: GameState, history: tuple[Turn, ...]) -> list[int]:
    """The history entry that took each stock tile, replaying ``history`` from ``first``."""
    turns: list[int] = []
    state = first
    try:
        for index, turn in enumerate(history):
            before = state.stock_pos
            state = apply(state, turn.move)
            turns.extend([index] * (state.stock_pos - before))
    except BendolibError as exc:
        raise NotObservableError(f"this state's history does not replay: {exc}") from None
    return turns


_VIEWS.observe = observe
