"""The rules engine: deal, legal moves and state transitions, for any RuleSet."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from operator import add
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

import attrs

from bendolib import _memo as memo
from bendolib._construct import fast_constructor, fast_evolver
from bendolib._kernel_abi import LARGER_BUILDS, MAX_TILES, load_build, load_kernel
from bendolib._kernel_input import spec_tuple
from bendolib._memo import remember
from bendolib._placing import (
    _bend_at,
    _bend_closing,
    _bend_placements,
    _closings_of,
    _fits,
    _opening,
    _opening_move,
    _straight_at,
    _straight_placements,
    closes_unevenly,
    placements,
)
from bendolib._rng import SplitMix64, derive_seed
from bendolib.errors import ArgumentError, IllegalMoveError, RuleSetError
from bendolib.geometry.bend import joints as bend_joints
from bendolib.geometry.board import Board, End, Placement
from bendolib.geometry.lattice import Position
from bendolib.geometry.triangles import TriangleGeometry
from bendolib.limits import MAX_SEED, clipped, shown
from bendolib.moves import (
    DRAW,
    NEXT_ROUND,
    OPENING,
    PASS,
    Draw,
    Move,
    NextRound,
    Pass,
    Place,
    PlaceInCell,
)
from bendolib.rules import get as registered_rules
from bendolib.rules.match import Match, match_winner, round_sides
from bendolib.rules.ruleset import LIST_BEND, LIST_STRAIGHT, RuleSet
from bendolib.rules.scoring import PlayScoring, RoundOutcome
from bendolib.rules.starting import StartDecision
from bendolib.state import (
    GAME_OVER,
    PLAYING,
    ROUND_OVER,
    GameState,
    Log,
    PastRound,
    RoundContext,
    RoundResult,
)
from bendolib.tiles import LEFT, RIGHT, STRAIGHT, Tile

if TYPE_CHECKING:
    from bendolib.geometry.chain import ChainGeometry

_MAX_REDEALS = 1000
_bit = (1).__lshift__
_EMPTY = Board()


def new_game(rules: RuleSet | str, players: int = 2, seed: int | None = None) -> GameState:
    """
    A new match: the first round dealt from ``seed`` (same seed, same game).

    ``rules`` is a :class:`RuleSet` or a registered rule set's name; ``seed`` an int
    from 0 to 2**64 - 1, or None (the default) for a fresh random one, which the state
    records (``state.seed``) so that the game can be replayed.
    """
    if _deal_quick is not None:  # the latest rule set dealt, checked then: one C call
        dealt = _deal_quick(rules, players, seed)
        if dealt is not None:
            return dealt
    if isinstance(rules, str):
        rules = registered_rules(rules)
    elif not isinstance(rules, RuleSet):
        raise TypeError(f"new_game takes a RuleSet or its name, not {type(rules).__name__}")
    if not isinstance(players, int) or isinstance(players, bool):
        raise TypeError(f"players is an int, not {type(players).__name__}")
    if seed is None:
        seed = secrets.randbits(64)
    elif not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"a seed is an int (or None for a random one), not {type(seed).__name__}")
    elif not 0 <= seed <= MAX_SEED:
        raise ArgumentError(f"a seed is from 0 to 2**64 - 1, not {clipped(str(seed))}")
    if players not in rules.player_counts:
        raise RuleSetError(
            f"{rules.name} is for {', '.join(map(str, rules.player_counts))} players, not {players}"
        )
    if _deal_first is not None:
        spec = _deal_spec(rules, players)
        if spec is not None:  # (dealt by the build that compiled it: _LATEST_DEAL's)
            dealt = _LATEST_DEAL[3].deal(spec, rules, players, seed, _EMPTY)
            if dealt is not None:
                return cast(GameState, dealt)
    zero = (0,) * players
    return _deal(rules, players, seed, 1, zero, ())


#: Compiled rule sets for :func:`new_game`'s compiled deal, by (id of the rule set,
#: players): the rule set (so that its id stays unique while kept), the spec, or None, and
#: the build of the kernel that compiled it.
_DEAL_SPECS: dict[tuple[int, int], tuple[RuleSet, object | None, Any]] = {}
#: The latest of them (rules, players, spec, build): a loop dealing one rule set skips the
#: lookup.
_LATEST_DEAL: list[Any] = [None, 0, None, None]


def _deal_kernel(tiles: int) -> Any:
    """The build of the kernel that deals a tile set of ``tiles`` tiles, or None."""
    if tiles <= MAX_TILES:
        return _step_kernel
    return next((kernel for most, kernel in _LARGER if tiles <= most), None)


def _deal_spec(rules: RuleSet, players: int) -> object | None:
    """
    The kernel's compiled ``rules`` for ``players`` (None: the Python engine deals); the
    build that compiled it (``_LATEST_DEAL[3]``) deals it, and :func:`new_game`'s
    ``_deal_quick`` becomes that build's.
    """
    global _deal_quick
    latest = _LATEST_DEAL
    if latest[0] is rules and latest[1] == players:
        return cast("object | None", latest[2])
    key = (id(rules), players)
    found = _DEAL_SPECS.get(key)
    if found is None or found[0] is not rules:
        spec = None
        kernel = None
        if _step_kernel is not None and type(rules.geometry) is not TriangleGeometry:
            kernel = _deal_kernel(len(rules.tileset))
            try:
                spec = kernel.compile(spec_tuple(rules, players)) if kernel is not None else None
            except Exception:  # any refusal: the Python engine deals (and raises)
                spec = None
        found = (rules, spec, kernel if spec is not None else None)
        remember(_DEAL_SPECS, key, found, limit=256)
    latest[:] = [rules, players, found[1], found[2]]
    if found[2] is not None:
        # (called after new_game's checks of rules and players; a spec: 1 to 8 players)
        found[2].deal_set(rules, players, found[1], _EMPTY)
        if _deal_quick is not None:
            _deal_quick = found[2].deal_quick
    return found[1]


def _deal(
    rules: RuleSet,
    players: int,
    seed: int,
    round_number: int,
    scores: tuple[int, ...],
    results: tuple[RoundResult, ...],
) -> GameState:
    tileset = rules.tileset
    for attempt in range(_MAX_REDEALS):
        if _deal_deck is not None:
            deck = _deal_deck(seed, round_number, attempt, len(tileset))
        else:
            deck = SplitMix64(derive_seed(seed, round_number, attempt)).shuffled(
                range(len(tileset))
            )
        state = _deal_from(rules, players, deck, seed, round_number, scores, results)
        if state is not None:
            return state
    raise RuleSetError(f"{rules.name}: no valid deal in {_MAX_REDEALS} shuffles")


def deal_from(
    rules: RuleSet,
    players: int,
    deck: tuple[int, ...],
    seed: int = 0,
    round_number: int = 1,
    scores: tuple[int, ...] | None = None,
    results: tuple[RoundResult, ...] = (),
) -> GameState | None:
    """
    The round dealt from ``deck`` (tile indices in dealing order: the hands, the
    table tiles, then the stock), or None when the start policy asks for a new deal.
    Raises :class:`RuleSetError` unless ``deck`` lists every tile index once.
    """
    count = len(rules.tileset)
    if len(deck) != count or sorted(deck) != list(range(count)):
        raise RuleSetError(f"a deck lists each of the {count} tile indices once: {shown(deck)}")
    return _deal_from(rules, players, tuple(deck), seed, round_number, scores, results)


def _deal_from(
    rules: RuleSet,
    players: int,
    deck: tuple[int, ...],
    seed: int,
    round_number: int,
    scores: tuple[int, ...] | None,
    results: tuple[RoundResult, ...],
) -> GameState | None:
    """:func:`deal_from` for a deck known to be a permutation of the tile indices."""
    tileset = rules.tileset
    size = rules.deal.hand_size(players)
    hands = None if _deal_hands is None else _deal_hands(deck, players, size)
    if hands is None:
        hands = tuple(
            sum(1 << i for i in deck[seat * size : (seat + 1) * size]) for seat in range(players)
        )
    decision = _start(rules, hands, round_number)
    if decision.redeal:
        return None
    pos = players * size
    table = deck[pos : pos + rules.deal.table_tiles]
    pos += len(table)
    board = _EMPTY
    if table:
        if decision.opening >= 0:
            raise RuleSetError(
                f"{rules.name}: the start policy opens with a tile, but the deal has "
                f"already laid {len(table)} table tiles"
            )
        board = rules.geometry.open([(tileset.tiles[i], tileset.tiles[i].a) for i in table])
    zeros = (0,) * players
    context = _new_context(
        rules,
        players,
        seed,
        round_number,
        deck,
        zeros if scores is None else scores,
        decision.opening,
        1,
        (),
        zeros,
        results,
        PLAYING,
        -1,
        (),
        None,
    )
    return _new_state(hands, board, decision.player, pos, 0, 0, -1, None, context)


def _start(rules: RuleSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
    """
    The start policy's decision; :class:`RuleSetError` unless it asks for a new deal or
    names a seat and, if any, a tile that seat holds.
    """
    decision = rules.start.choose(rules.tileset, hands, round_number)
    if not isinstance(decision, StartDecision):
        raise RuleSetError(
            f"{rules.name}: the start policy returned {decision!r:.80}, not a StartDecision"
        )
    if decision.redeal:
        return decision
    player, opening = decision.player, decision.opening
    if type(player) is not int or not 0 <= player < len(hands):
        raise RuleSetError(
            f"{rules.name}: the start policy chose seat {player!r:.20} "
            f"of {len(hands)} players ({decision!r:.80})"
        )
    if opening != -1 and (type(opening) is not int or not 0 <= opening < len(rules.tileset)):
        raise RuleSetError(
            f"{rules.name}: the start policy named tile index {opening!r:.20}, "
            f"not one of the {len(rules.tileset)} tiles ({decision!r:.80})"
        )
    if opening != -1 and not hands[player] >> opening & 1:
        raise RuleSetError(
            f"{rules.name}: the start policy opens with {rules.tileset.tiles[opening]}, "
            f"which seat {player} does not hold ({decision!r:.80})"
        )
    return decision


# -- legal moves ---------------------------------------------------------------------


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """
    Every legal move of the player to move, in a deterministic order
    (placements first, then draw, then pass).
    """
    global _last_listed
    if _step_legal is not None:
        listed = _step_legal(state)
        if listed is None:
            for larger in _step_legal_larger:
                listed = larger(state)
                if listed is not None:
                    break
        if listed is not None:
            _last_listed = (state, listed)
            return listed
    try:
        context = state.context
        rules = context.rules
    except AttributeError:
        raise TypeError(f"legal_moves takes a GameState, not {type(state).__name__}") from None
    moves: tuple[Move, ...]
    if context.phase != PLAYING:
        moves = (NEXT_ROUND,) if context.phase == ROUND_OVER else ()
    elif context.opening >= 0:
        moves = (_opening_move(state),)
        also = getattr(rules.start, "alternatives", None)
        if also is not None:
            # e.g. Triominoes: the highest triple's holder may open with 0-0-0 instead
            tiles = rules.tileset.tiles
            hand = state.hand_masks[state.current_player]
            for index in also(rules.tileset, hand, context.opening):
                moves += (_opening(rules, tiles[index], tiles[index].a)[3],)
    else:
        hand = state.hand_masks[state.current_player]
        drawn = state.drawn
        if drawn:
            hand &= drawn  # after drawing, only a drawn tile may be placed
        board = state.board
        listing = rules.listing
        places: Sequence[Move]
        if listing == LIST_STRAIGHT and board.placements:
            places = _straight_placements(rules.tileset, board.ends, hand)
        elif listing == LIST_BEND and board.placements:
            ends = board.ends
            # a placement can close the chain only where two ends lead into one cell
            # (the cell of their positions): rare, so that is tested first, in line
            # (speed: +2 % / +1 % instructions without it, docs/performance.md)
            if (
                rules.even_closing
                and (
                    len(ends) != 2
                    or (
                        ends[0].left.q == ends[1].left.q  # type: ignore[union-attr]
                        and ends[0].left.r == ends[1].left.r  # type: ignore[union-attr]
                    )
                )
                and (joints := bend_joints(ends))
            ):
                places = _bend_closing(rules.tileset, ends, hand, joints)
            else:
                places = _bend_placements(rules.tileset, ends, hand)
        else:
            places = placements(state, hand)
        draw = rules.draw
        if drawn:
            if not places:
                moves = (DRAW,)
            elif draw.must_play:
                moves = tuple(places)
            else:
                moves = (*places, PASS)
        elif draw.draws and state.stock_pos < len(context.deck) and (draw.voluntary or not places):
            moves = (*places, DRAW)
        elif places:
            moves = tuple(places)  # the memoised listings are tuples already: no copy
        else:
            moves = (PASS,)
    _last_listed = (state, moves)
    return moves


#: The latest :func:`legal_moves` answer, so that :func:`apply` knows a move it listed
#: by identity.  A cache outside every state, read and written as one tuple.  (Speed:
#: the Python path makes +10 % / +9 % instructions without it; the compiled path needs it.)
_last_listed: tuple[GameState | None, tuple[Move, ...]] = (None, ())


# -- applying moves ------------------------------------------------------------------


def apply(state: GameState, move: Move) -> GameState:
    """
    The state after ``move``; ``state`` is left unchanged.

    Raises :class:`IllegalMoveError` for a move not in ``legal_moves(state)``.
    """
    listed_for, moves = _last_listed
    if _step_apply is not None:
        after = _step_apply(state, move, listed_for, moves)
        if after is None:
            for larger_apply in _step_apply_larger:
                after = larger_apply(state, move, listed_for, moves)
                if after is not None:
                    break
        if after is not None:
            return after
    if type(move) is Place:
        if listed_for is state:
            for legal in moves:
                if legal is move:
                    return _place(state, move)
        try:
            surely = _surely_legal(state, move)
        except (AttributeError, TypeError):  # not a state, or a field of the wrong type
            surely = False
        if not surely:
            _check_legal(state, move)
        return _place(state, move)
    kind = type(move)
    if kind is Draw or kind is Pass:
        # a draw or a pass is legal exactly when legal_moves lists it (last)
        if listed_for is not state:
            moves = legal_moves(state)
        last = moves[-1] if moves else None
        if last is not move and last != move:
            _check_legal(state, move)
        # listed placements (they come first) mean the player could place
        could_place = type(moves[0]) is not Draw
        if state.context.rules.penalties is not None:
            return _penalised(state, move, could_place)
        if kind is Draw:
            return _draw(state, could_place)
        player = state.current_player
        return _end_turn(
            state,
            state.hand_masks,
            state.stock_pos,
            state.drawn,
            state.drawn_count,
            (player, move, state.log),
            state.context,
        )
    if kind is not NextRound:
        # a placement of the geometry's own kind (PlaceInCell; any move with a tile that
        # a user's geometry lists): known when just listed, else checked
        if listed_for is not state or not any(legal is move for legal in moves):
            _check_legal(state, move)
        return _place(state, cast(PlaceInCell, move))
    _check_legal(state, move)
    if isinstance(move, NextRound):
        dealt = _deal(
            state.rules,
            state.players,
            state.seed,
            state.round_number + 1,
            state.scores,
            state.results,
        )
        # (the engine's own values: not checked again)
        return dealt._replaced(past=(*state.past, PastRound(state.history, state.origin)))
    raise AssertionError(f"unhandled legal move {move!r}")  # pragma: no cover


def _draw_or_pass(state: GameState, move: Move, could_place: bool) -> GameState:
    """The state after a legal draw or pass (``could_place``: a placement was listed)."""
    if type(move) is Draw:
        return _draw(state, could_place)
    return _end_turn(
        state,
        state.hand_masks,
        state.stock_pos,
        state.drawn,
        state.drawn_count,
        (state.current_player, move, state.log),
        state.context,
    )


def _penalised(state: GameState, move: Move, could_place: bool) -> GameState:
    """
    A legal draw or pass under a rule set with penalties: the move is worked out once
    to see what it costs, then again from the state with the cost taken off the
    mover's score and play points (so a round it ends is scored with them).
    """
    context = state.context
    rules = context.rules
    assert rules.penalties is not None
    after = _draw_or_pass(state, move, could_place)
    cost = rules.penalties.cost(state, move, after)
    if not cost:
        return after
    player = state.current_player
    charged = _evolve_context(
        context,
        scores=_add(context.scores, player, -cost),
        play_points=_add(context.play_points, player, -cost),
    )
    return _draw_or_pass(_with_context(state, charged), move, could_place)


def _with_context(state: GameState, context: RoundContext) -> GameState:
    """``state`` with another round context."""
    return _new_state(
        state.hand_masks,
        state.board,
        state.current_player,
        state.stock_pos,
        state.drawn,
        state.drawn_count,
        state.last_placer,
        state.log,
        context,
    )


def _check_legal(state: GameState, move: Move) -> None:
    """
    Raise :class:`IllegalMoveError` unless ``move`` is in ``legal_moves(state)``
    (TypeError for what is not a state or a move).
    """
    legal = legal_moves(state)
    check_move_type(move)
    if move not in legal:
        raise IllegalMoveError(move, why_illegal(state, move), legal)


#: The hot path's constructors: fields written once, positionally (speed: +10 % / +13 %
#: pure-Python instructions with the attrs ``__init__`` instead, docs/performance.md).
_new_state = fast_constructor(GameState)
_new_context = fast_constructor(RoundContext)
_new_place = fast_constructor(Place)
_evolve_context = fast_evolver(RoundContext)
_new_outcome = fast_constructor(RoundOutcome)
_new_result = fast_constructor(RoundResult)


def check_move_type(move: object) -> None:
    """Raise TypeError unless ``move`` is a :data:`Move` with fields of the right types."""
    if isinstance(move, Draw | Pass | NextRound):
        return
    if isinstance(move, PlaceInCell):
        if not isinstance(move.tile, Tile):
            raise TypeError(f"PlaceInCell.tile is a Tile, not {type(move.tile).__name__}")
        if not isinstance(move.rotation, int) or isinstance(move.rotation, bool):
            raise TypeError(f"PlaceInCell.rotation is an int, not {type(move.rotation).__name__}")
        return
    if not isinstance(move, Place):
        hint = ": read notation with bendolib.parse_move(text, state)" * isinstance(move, str)
        raise TypeError(
            "a move is a Place, PlaceInCell, Draw, Pass or NextRound, "
            f"not {type(move).__name__}{hint}"
        )
    if not isinstance(move.tile, Tile):
        raise TypeError(f"Place.tile is a Tile, not {type(move.tile).__name__}")
    for name in ("end", "inward", "shows", "turn"):
        value = getattr(move, name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"Place.{name} is an int, not {type(value).__name__}")


def _surely_legal(state: GameState, move: Place) -> bool:
    """
    True when ``move`` is certainly among ``legal_moves(state)``: the checks that
    :func:`placements` makes, for one move, without listing them all.  False means
    "not shown here" (the caller then compares with the full list).

    Speed: applying moves that were not just listed, as a replay does, makes +12 % /
    +23 % instructions without it (docs/performance.md).
    """
    context = state.context
    if context.phase != PLAYING or context.opening >= 0 or not state.board.ends:
        return False
    rules = context.rules
    tile = move.tile
    index = rules.tileset.index_of(tile)
    if index < 0:
        return False
    hand = state.hand_masks[state.current_player]
    if state.drawn:
        hand &= state.drawn
    if not hand >> index & 1:
        return False
    ends = state.board.ends
    if not 0 <= move.end < len(ends):
        return False
    end = ends[move.end]
    inward = move.inward
    if not end.free or (inward != tile.a and inward != tile.b):
        return False
    wild = rules.wild_faces
    if inward != end.value and inward not in wild:
        return False
    outward = tile.b if inward == tile.a else tile.a
    if outward in wild:
        if not 0 <= move.shows <= rules.tileset.top:
            return False
    elif move.shows != outward:
        return False
    if not rules.geometry.uses_bends:
        return move.turn == STRAIGHT and move.position is None
    turn = move.turn
    if turn == LEFT:
        position = end.left
    elif turn == RIGHT:
        position = end.right
    else:
        return False
    turns = rules.tileset.turn_table[2 * index + (inward != tile.a)]
    if not (end.free & turn & turns and move.position == position):
        return False
    return not closes_unevenly(rules, state.board, move.end, turn, move.shows)


def _place(state: GameState, move: Place | PlaceInCell) -> GameState:
    context = state.context
    rules = context.rules
    player = state.current_player
    tile = move.tile
    tileset = rules.tileset
    index = tileset._by_id.get(id(tile))
    bit = 1 << (tileset.index(tile) if index is None else index)
    geometry = rules.geometry
    if type(move) is not Place:
        board = geometry.play(state.board, move)  # the geometry's own kind of placement
    elif move.end == OPENING:
        board = _opening(rules, tile, move.inward)[2]
    else:
        if TYPE_CHECKING:
            assert isinstance(geometry, ChainGeometry)
        board = geometry.place(state.board, move.end, tile, move.inward, move.shows, move.turn)
    hands = list(state.hand_masks)
    hand = hands[player] = hands[player] & ~bit
    hand_masks = tuple(hands)
    log = (player, move, state.log)
    if context.opening >= 0 or rules.play_scoring is not None:
        scores = context.scores
        play_points = context.play_points
        gained = 0
        if rules.play_scoring is not None:
            gained = _play_points(rules, state, move, board)
            if gained:
                scores = _add(scores, player, gained)
                play_points = _add(play_points, player, gained)
        context = _evolve_context(context, scores=scores, play_points=play_points, opening=-1)
        if gained and rules.match.target_check == "at_once":
            winner = _winner_now(rules, scores)
            if winner is not None:
                return _stop_match(hand_masks, board, player, state.stock_pos, log, context, winner)
    stock_pos = state.stock_pos
    if hand and rules.effects is None:
        # the common case: the turn passes, or nobody can move any more (_blocked and
        # _next_seat written in line: +2 % instructions without it, docs/performance.md)
        if stock_pos < len(context.deck) and rules.draw.draws:
            blocked = False
        else:
            # some tile of some hand fits iff some tile of all the hands together fits
            # (the hands are disjoint: their sum is their union)
            blocked = not _fits(rules, board, sum(hand_masks))
        if not blocked:
            players = len(hand_masks)
            seat = (player + context.direction) % players
            if not hand_masks[seat]:
                seat = _next_seat(hand_masks, seat, context.direction)
            return _new_state(hand_masks, board, seat, stock_pos, 0, 0, player, log, context)
        placed = _new_state(hand_masks, board, player, stock_pos, 0, 0, player, log, context)
        return _finish_round(placed, blocked=True)
    if not hand:
        context = _evolve_context(context, out=(*context.out, player))
    placed = _new_state(hand_masks, board, player, stock_pos, 0, 0, player, log, context)
    if rules.effects is not None:
        # (effects are written for chain placements; on cells they see a PlaceInCell)
        placed = rules.effects.after_place(placed, cast(Place, move))
        hand_masks = placed.hand_masks
    if not hand_masks[player]:
        if rules.finish == "first_out":
            return _finish_round(placed, blocked=False)
        if sum(1 for h in hand_masks if h) <= 1:
            return _finish_round(placed, blocked=False)
    return _end_turn(
        placed,
        placed.hand_masks,
        placed.stock_pos,
        placed.drawn,
        placed.drawn_count,
        placed.log,
        placed.context,
    )


def _winner_now(rules: RuleSet, scores: tuple[int, ...]) -> int | None:
    """The side that has won the match with these scores, if any."""
    sides = rules.match.sides(len(scores))
    return rules.match.winner([sum(map(scores.__getitem__, side)) for side in sides])


def _stop_match(
    hands: tuple[int, ...],
    board: Board,
    player: int,
    stock_pos: int,
    log: Log,
    context: RoundContext,
    winner: int,
) -> GameState:
    """
    The match won in play by ``player``'s placement (``Match.target_check="at_once"``):
    the round stops there, its result scores no points and credits the placer.
    """
    out = context.out
    if not hands[player]:
        out = (*out, player)
    result = _new_result(
        context.round_number,
        False,
        out,
        tuple(map(context.rules.tileset.mask_points, hands)),
        (0,) * len(hands),
        (player,),
    )
    context = _evolve_context(
        context,
        out=out,
        results=(*context.results, result),
        phase=GAME_OVER,
        match_winner=winner,
    )
    return _new_state(hands, board, player, stock_pos, 0, 0, player, log, context)


def _play_points(rules: RuleSet, state: GameState, move: Move, board: Board) -> int:
    """
    The points a placement scores in play: from the move and board (``score_move``)
    when the play scoring looks at them, else from the open ends.
    """
    scoring = rules.play_scoring
    by_move = getattr(scoring, "score_move", None)
    if by_move is not None:
        return int(by_move(state, move, board))
    return cast(PlayScoring, scoring).score(board.values)


def _add(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return tuple(v + amount if i == index else v for i, v in enumerate(values))


def _draw(state: GameState, could_place: bool) -> GameState:
    """The state after the player to move draws (``could_place``: a placement was legal)."""
    context = state.context
    rules = context.rules
    draw = rules.draw
    player = state.current_player
    limit = draw.batch
    if draw.max_per_turn is not None:
        limit = min(limit, draw.max_per_turn - state.drawn_count)
    deck = context.deck
    stock_pos = state.stock_pos
    if limit == 1:
        mask = 1 << deck[stock_pos]
        stock_pos += 1
        taken = 1
    else:
        drawn_now = deck[stock_pos : stock_pos + limit]
        mask = sum(map(_bit, drawn_now))  # distinct indices: the sum is the union
        taken = len(drawn_now)
        stock_pos += taken
    hands = list(state.hand_masks)
    held = hands[player]
    hand = hands[player] = held | mask
    hand_masks = tuple(hands)
    drawn_mask = state.drawn | mask
    drawn_count = state.drawn_count + taken
    log = (player, DRAW, state.log)
    board = state.board
    if could_place and not state.drawn and draw.after_voluntary == "pass":
        # a voluntary draw: "draw a Bendomino and pass their turn" (seeds/000)
        return _end_turn(state, hand_masks, stock_pos, drawn_mask, drawn_count, log, context)
    keep = _fits(rules, board, hand & drawn_mask)
    if not keep and draw.when_stuck == "until_fits" and stock_pos < len(deck):
        more = draw.max_per_turn is None or drawn_count < draw.max_per_turn
        keep = more and not _fits(rules, board, hand & ~drawn_mask)
        if keep and draw.when_blocked == "one_each":
            # a fully blocked chain (no tile off the board fits anywhere): one draw
            # each, in turn, until the stock is empty (seeds/000)
            off_board = sum(hand_masks) + sum(map(_bit, deck[stock_pos:]))
            keep = _fits(rules, board, off_board)
    if keep:
        return _new_state(
            hand_masks,
            board,
            player,
            stock_pos,
            drawn_mask,
            drawn_count,
            state.last_placer,
            log,
            context,
        )
    return _end_turn(state, hand_masks, stock_pos, drawn_mask, drawn_count, log, context)


def _blocked(
    rules: RuleSet, board: Board, deck: tuple[int, ...], stock_pos: int, hands: tuple[int, ...]
) -> bool:
    """True when no player still holding tiles can place one and no one can draw."""
    if stock_pos < len(deck) and rules.draw.draws:
        return False
    # some tile of some hand fits iff some tile of all the hands together fits
    # (the hands are disjoint: their sum is their union)
    return not _fits(rules, board, sum(hands))


def _next_seat(hands: tuple[int, ...], seat: int, direction: int) -> int:
    """The next seat in the order of play that still holds tiles."""
    players = len(hands)
    for _ in range(players):
        seat = (seat + direction) % players
        if hands[seat]:
            break
    return seat


def _end_turn(
    state: GameState,
    hands: tuple[int, ...],
    stock_pos: int,
    drawn: int,
    drawn_count: int,
    log: Log,
    context: RoundContext,
) -> GameState:
    """``state`` with these values, then the turn passes on (or the round ends blocked)."""
    board = state.board
    player = state.current_player
    if _blocked(context.rules, board, context.deck, stock_pos, hands):
        ended = _new_state(
            hands, board, player, stock_pos, drawn, drawn_count, state.last_placer, log, context
        )
        return _finish_round(ended, blocked=True)
    seat = _next_seat(hands, player, context.direction)
    return _new_state(hands, board, seat, stock_pos, 0, 0, state.last_placer, log, context)


def _finish_round(state: GameState, blocked: bool) -> GameState:
    context = state.context
    rules = context.rules
    hand_points = tuple(map(rules.tileset.mask_points, state.hand_masks))
    sides = rules.match.sides(context.players)
    outcome = _new_outcome(
        sides, hand_points, context.out, blocked, state.last_placer, context.play_points
    )
    score = rules.round_scoring.score(outcome)
    if len(score.points) != len(context.scores):
        raise RuleSetError(f"{rules.name}: round scoring gave {len(score.points)} scores")
    scores = tuple(map(add, context.scores, score.points))
    result = _new_result(
        context.round_number, blocked, context.out, hand_points, score.points, score.winners
    )
    winner = match_winner(
        rules.match,
        [sum(map(scores.__getitem__, side)) for side in sides],
        round_sides(sides, score.winners),
    )
    context = _evolve_context(
        context,
        scores=scores,
        results=(*context.results, result),
        phase=GAME_OVER if winner is not None else ROUND_OVER,
        match_winner=-1 if winner is None else winner,
    )
    return _new_state(
        state.hand_masks,
        state.board,
        state.current_player,
        state.stock_pos,
        0,
        0,
        state.last_placer,
        state.log,
        context,
    )


# -- explaining illegal moves --------------------------------------------------------


def why_illegal(state: GameState, move: Move) -> str:
    """A short reason why ``move`` is not legal in ``state``."""
    if not isinstance(state, GameState):
        raise TypeError(f"why_illegal takes a GameState, not {type(state).__name__}")
    if state.phase == GAME_OVER:
        return "the game is over"
    if state.phase == ROUND_OVER:
        return "the round is over: the only move is 'next'"
    if isinstance(move, NextRound):
        return "the round is not over"
    player = state.current_player
    hand = state.hand_masks[player]
    if isinstance(move, Draw):
        if not state.rules.draw.draws:
            return f"{state.rules.name} has no drawing"
        if state.stock_pos >= len(state.deck):
            return "the stock is empty"
        if state.opening >= 0:
            return "the round must open with its starting tile"
        if state.drawn:
            return "a drawn tile fits: play it or pass"
        return "a player who can place a tile may not draw in this rule set"
    if isinstance(move, Pass):
        if state.drawn and state.rules.draw.must_play:
            return "a drawn tile that fits must be played"
        return "a player who can place or draw may not pass"
    check_move_type(move)
    if isinstance(move, PlaceInCell):
        return _why_cell_illegal(state, move, hand)
    assert isinstance(move, Place)  # for the type checker: check_move_type made sure
    return _why_place_illegal(state, move, hand)


def _why_cell_illegal(state: GameState, move: PlaceInCell, hand: int) -> str:
    rules = state.rules
    tileset = rules.tileset
    index = tileset.index_of(move.tile)
    if index < 0:
        return f"{move.tile} is not in the tile set"
    if not hand >> index & 1:
        return f"{move.tile} is not in player {state.current_player}'s hand"
    if state.opening >= 0 and index != state.opening:
        return f"the round opens with {tileset.tiles[state.opening]}"
    if state.drawn and not state.drawn >> index & 1:
        return "after drawing, only a drawn tile may be placed"
    why_not = getattr(rules.geometry, "why_not", None)
    if why_not is not None:
        return str(why_not(state.board, move))
    return f"{move} is not a placement the {rules.geometry.name} geometry lists"


def _why_place_illegal(state: GameState, move: Place, hand: int) -> str:
    tileset = state.rules.tileset
    player = state.current_player
    try:
        index = tileset.index(move.tile)
    except LookupError:
        return f"{move.tile} is not in the tile set"
    if not hand >> index & 1:
        return f"{move.tile} is not in player {player}'s hand"
    if state.opening >= 0:
        if index != state.opening:
            return f"the round opens with {tileset.tiles[state.opening]}"
        return "the opening tile is laid in the centre as listed"
    if state.drawn and not state.drawn >> index & 1:
        return "after drawing, only a drawn tile may be placed"
    ends = state.board.ends
    if not 0 <= move.end < len(ends):
        return f"there is no open end {move.end} (ends: 0..{len(ends) - 1})"
    end = ends[move.end]
    if move.inward not in (move.tile.a, move.tile.b):
        return f"{move.tile} has no face {move.inward}"
    if move.inward != end.value and move.inward not in state.rules.wild_faces:
        return f"end {move.end} shows {end.value}, not {move.inward}"
    if state.rules.geometry.connected(state.board, move.end):
        return f"end {move.end} is closed: both ends of the chain meet"
    if not end.free:
        return f"end {move.end} is a dead end"
    if state.rules.geometry.uses_bends:
        if not move.tile.turn_from(move.inward) & move.turn:
            return f"{move.tile} read from {move.inward} does not turn that way"
        if not end.free & move.turn:
            return f"the position turning that way at end {move.end} is occupied"
        if closes_unevenly(state.rules, state.board, move.end, move.turn, move.shows):
            return (
                f"it would close the chain unevenly: its far end, showing {move.shows}, "
                "would meet an open end with another number"
            )
    return "the placement does not match the listed one (turn, position or named value)"


# -- the compiled hot paths ------------------------------------------------------------


def _load_step_kernel(build: str = "_kernel") -> ModuleType | None:
    """
    The compiled kernel's step functions (of the build ``build``: ``"_kernel_wide"``
    plays the tile sets of 65 to 128 tiles, ``"_kernel_huge"`` 129 to 256 and
    ``"_kernel_vast"`` 257 to 1,024, these two the chain games only), set up with this
    engine's classes, memo tables and helpers; None when the kernel (or that build) is not
    built or ``BENDOLIB_PURE_PYTHON`` asks for the pure-Python engine (see
    :mod:`bendolib.playouts`).
    """
    _kernel = load_kernel() if build == "_kernel" else load_build(build)
    if _kernel is None:
        return None
    from bendolib.geometry import bend, straight, triangles, trilattice
    from bendolib.rules.penalties import DrawPenalties
    from bendolib.rules.triangles import TriangleScoring

    def layout(cls: type) -> tuple[type, tuple[str, ...]]:
        return cls, tuple(f.name for f in attrs.fields(cls))

    _kernel.step_setup(
        {
            "GameState": layout(GameState),
            "RoundContext": layout(RoundContext),
            "Board": layout(Board),
            "End": layout(End),
            "Place": layout(Place),
            "Placement": layout(Placement),
            "RoundOutcome": layout(RoundOutcome),
            "RoundResult": layout(RoundResult),
            "Match": Match,
            "bend_joints": bend_joints,
            "bend_closing": _bend_closing,
            "closings_of": _closings_of,
            "Position": layout(Position),
            "memo": memo,
            "DRAW": DRAW,
            "PASS": PASS,
            "Draw": Draw,
            "BendGeometry": bend.BendGeometry,
            "StraightGeometry": straight.StraightGeometry,
            "bend_at": _bend_at,
            "straight_at": _straight_at,
            "remember": remember,
            "fits": _fits,
            "finish_round": _finish_round,
            "bend_steps": bend._STEPS,
            "bend_step": bend._step,
            "bend_slots": bend._SLOTS,
            "bend_slot": bend._slot,
            "bend_ends": bend._ENDS,
            "bend_memo_end": bend._memo_end,
            "bend_placements": bend._PLACEMENTS,
            "straight_placements": straight._PLACEMENTS,
            "straight_open_ends": straight._OPEN_ENDS,
            "new_placement": fast_constructor(Placement),
            "LIST_BEND": LIST_BEND,
            "LIST_STRAIGHT": LIST_STRAIGHT,
            "LEFT": LEFT,
            "RIGHT": RIGHT,
            "STRAIGHT": STRAIGHT,
            "OPENING": OPENING,
            "opening": _opening,
            # the triangle games' paths (_kernel.d/tri_step.c)
            "TriangleBoard": layout(triangles.TriangleBoard),
            "TrianglePlacement": layout(triangles.TrianglePlacement),
            "OpenEdge": layout(triangles.OpenEdge),
            "PlaceInCell": layout(PlaceInCell),
            "Cell": layout(trilattice.Cell),
            "triangle_tables": triangles._tables,
            "TriangleGeometry": triangles.TriangleGeometry,
            "TriangleScoring": TriangleScoring,
            "DrawPenalties": DrawPenalties,
        }
    )
    return _kernel


_step_kernel = _load_step_kernel()
#: The compiled :func:`legal_moves`, :func:`apply` and deal shuffle for the commonest
#: cases (None without the kernel): each gives exactly what the Python code below gives
#: (it is the specification), or None for the cases it leaves to it.
_step_legal: Callable[[GameState], tuple[Move, ...] | None] | None = None
_step_apply: Callable[[GameState, Move, object, tuple[Move, ...]], GameState | None] | None = None
_deal_deck: Callable[[int, int, int, int], tuple[int, ...]] | None = None
_deal_hands: Callable[[tuple[int, ...], int, int], tuple[int, ...] | None] | None = None
#: The compiled first deal of :func:`new_game` (issue 24, point 3: a deal in at most 2 µs).
_deal_first: Callable[[object, RuleSet, int, int, Board], GameState | None] | None = None
_deal_quick: Callable[[object, object, object], GameState | None] | None = None
if _step_kernel is not None:
    _deal_first = _step_kernel.deal
    _deal_quick = _step_kernel.deal_quick
    _step_legal = _step_kernel.step_legal
    _step_apply = _step_kernel.step_apply
    _deal_deck = _step_kernel.deal_deck
    _deal_hands = _step_kernel.deal_hands
#: The step functions of the builds for more than 64 tiles, tried in turn when the 64-bit
#: build's give None: the wide build's, then those of the huge (129 to 256 tiles) and vast
#: (257 to 1,024) builds, each of which declines the sets the smaller builds take.
_step_legal_larger: tuple[Callable[[GameState], tuple[Move, ...] | None], ...] = ()
_step_apply_larger: tuple[
    Callable[[GameState, Move, object, tuple[Move, ...]], GameState | None], ...
] = ()
#: The builds for more than 64 tiles that are built (``LARGER_BUILDS``), set up, by the
#: most tiles each takes: their step functions above, and new_game's first deal of their
#: tile sets (issue 24, point 3, for the larger sets).
_LARGER: tuple[tuple[int, Any], ...] = ()
if _step_kernel is not None:
    _LARGER = tuple(
        (most, kernel)
        for most, name in LARGER_BUILDS
        if (kernel := _load_step_kernel(name)) is not None
    )
    _step_legal_larger = tuple(kernel.step_legal for _, kernel in _LARGER)
    _step_apply_larger = tuple(kernel.step_apply for _, kernel in _LARGER)
