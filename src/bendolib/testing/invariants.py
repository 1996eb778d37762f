"""
The invariants every game of every rule set keeps, as plain check functions.

Each check returns ``None`` when its invariant holds and otherwise a message saying
what broke.  State checks look at one state; transition checks at ``(before, move,
after)``.  :func:`bendolib.testing.check_ruleset` runs them over random games, and the
state machine of :mod:`bendolib.testing.machine` runs them after every step; they can
also be called directly from a user's own tests.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Sequence
from typing import Any, cast

import attrs

from bendolib import position_text, records
from bendolib._rng import SplitMix64, derive_seed
from bendolib._rule_spec import rules_to_spec
from bendolib.engine import apply, deal_from, legal_moves
from bendolib.errors import BendolibError, IllegalMoveError, StateError
from bendolib.geometry import lattice
from bendolib.moves import OPENING, Draw, Move, NextRound, Pass, Place, PlaceInCell
from bendolib.notation import parse_move
from bendolib.observation import Observation
from bendolib.rules.match import match_winner, round_sides
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.scoring import PlayScoring, RoundOutcome, RoundScore
from bendolib.sampling import sample_state
from bendolib.state import GAME_OVER, PLAYING, ROUND_OVER, STATE_FIELDS, GameState, RoundResult
from bendolib.tiles import TileSet

#: The names of the invariants, as they appear in a :class:`~bendolib.testing.Violation`.
TILE_CONSERVATION = "tile conservation"
NO_OVERLAP = "no overlap"
LEGAL_MOVES = "legal moves"
APPLY_PURE = "apply never mutates"
TERMINATION = "termination"
SCORES = "scores as declared"
OBSERVATION = "observation leak-freedom"
SAMPLING = "sampling consistency"
NOTATION = "notation round trip"
RECORD = "record round trip"
POSITION_TEXT = "position text round trip"
ERRORS = "only library errors"
POLICIES = "policies are hashable"
DEALS = "every game deals"
FIELDS = "fields in range"
TURN_ORDER = "turn order"
MOVES = "moves do what they say"
ROUND_POINTS = "round points to the winners"
MATCH_WINNER = "match won at the target"
POINT_TYPES = "points are integers of the declared sign"
REPLAYS = "plays the same every time"


def raised_by_state(exc: BaseException) -> str:
    """
    The invariant an exception raised while playing breaks: a state the engine refused
    to make (:class:`~bendolib.errors.StateError`, a policy wrote a value out of range)
    breaks "points are integers of the declared sign" for the scores and play points and
    "fields in range" for the other fields; anything else "only library errors".
    """
    if isinstance(exc, StateError):
        return POINT_TYPES if exc.field in ("scores", "play_points") else FIELDS
    return ERRORS


def _seq(values: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def _set_aside(state: GameState) -> int:
    """Tiles dealt (before the stock) that are in no hand and not on the board."""
    tileset = state.rules.tileset
    aside = 0
    for i in state.deck[: state.stock_pos]:
        aside |= 1 << i
    for hand in state.hand_masks:
        aside &= ~hand
    for placement in state.board.placements:
        index = tileset.index_of(placement.tile)
        if index >= 0:
            aside &= ~(1 << index)
    return aside


def tile_conservation(state: GameState) -> str | None:
    """
    Every tile of the set is in exactly one place: a hand, the stock, the board, or
    set aside (dealt but in no hand and not on the board, as a built position may
    leave tiles out of play: ``stock=`` in a position text); the tiles drawn this turn
    are in the mover's hand.  That no tile is set aside during play is checked move by
    move (:func:`tiles_kept`).
    """
    tileset = state.rules.tileset
    size = len(tileset)
    if sorted(state.deck) != list(range(size)):
        return f"the deck is not a permutation of the {size} tiles of {tileset.name}"
    if not 0 <= state.stock_pos <= size:
        return f"stock position {state.stock_pos} is outside the deck of {size}"
    seen = 0
    for player, hand in enumerate(state.hand_masks):
        if hand & seen:
            twice = ", ".join(str(t) for t in tileset.tiles_of(hand & seen))
            return f"player {player}'s hand holds tiles held elsewhere: {twice}"
        if hand >> size:
            return f"player {player}'s hand holds tile indices beyond the set"
        seen |= hand
    for i in state.deck[state.stock_pos :]:
        if seen >> i & 1:
            return f"{tileset.tiles[i]} is both in the stock and in a hand"
        seen |= 1 << i
    for placement in state.board.placements:
        try:
            i = tileset.index(placement.tile)
        except LookupError:
            return f"{placement.tile} on the board is not a tile of {tileset.name}"
        if seen >> i & 1:
            return f"{placement.tile} is on the board and in a hand, the stock or twice on board"
        seen |= 1 << i
    # the rest were dealt (the deck is a permutation): set aside
    if state.players and state.drawn & ~state.hand_masks[state.current_player]:
        return "tiles marked as drawn this turn are not in the mover's hand"
    return None


def tiles_kept(before: GameState, move: Move, after: GameState) -> str | None:
    """
    No move sets a tile aside: the tiles in no hand, not in the stock and not on the
    board stay the same during a round, and a newly dealt round sets none aside.
    """
    aside = _set_aside(after)
    if isinstance(move, NextRound):
        if aside:
            lost = ", ".join(str(t) for t in after.rules.tileset.tiles_of(aside))
            return (
                f"the new deal left tiles in no hand, not in the stock and not on the board: {lost}"
            )
        return None
    was = _set_aside(before)
    if aside != was:
        tiles = after.rules.tileset.tiles_of(aside & ~was)
        lost = ", ".join(str(t) for t in tiles)
        return f"{move} lost tiles: in no hand, not in the stock and not on the board: {lost}"
    return None


def _position_key(placement_position: lattice.Position) -> tuple[int, int, int]:
    return (placement_position.q, placement_position.r, placement_position.corner)


def no_overlap(state: GameState) -> str | None:
    """
    On a lattice board no two tiles overlap, each tile laid at an end meets an earlier
    tile flush, and the occupancy mask holds exactly the tiles' positions.
    """
    placed = [p for p in state.board.placements if p.position is not None]
    if not placed:
        return None
    keys = [_position_key(p.position) for p in placed if p.position is not None]
    for n, key in enumerate(keys):
        for m in range(n):
            if lattice.overlaps(keys[m], key):
                return f"{placed[n].tile} at {placed[n].position} overlaps {placed[m].tile}"
    for n, placement in enumerate(placed):
        if placement.end != OPENING and not any(lattice.joins(k, keys[n]) for k in keys[:n]):
            return f"{placement.tile} at {placement.position} does not meet any earlier tile"
    occupancy = 0
    for p in placed:
        assert p.position is not None
        occupancy |= 1 << p.position.key
    if occupancy != state.board.occupancy:
        return "the board's occupancy mask differs from the positions of its tiles"
    return None


def placement_fits(before: GameState, move: Move, after: GameState) -> str | None:
    """
    Incremental :func:`no_overlap` for one move: a new lattice tile overlaps no tile
    already on the board and meets one of them flush.
    """
    old = before.board.placements
    new = after.board.placements
    if len(new) != len(old) + 1 or new[: len(old)] != old or not old:
        return None if len(new) <= len(old) + 1 else no_overlap(after)
    placement = new[-1]
    if placement.position is None:
        return None
    key = _position_key(placement.position)
    joined = False
    for other in old:
        if other.position is None:
            continue
        okey = _position_key(other.position)
        if lattice.overlaps(okey, key):
            return f"{placement.tile} at {placement.position} overlaps {other.tile}"
        joined = joined or lattice.joins(okey, key)
    if placement.end != OPENING and not joined:
        return f"{placement.tile} at {placement.position} does not meet any earlier tile"
    if after.board.occupancy != before.board.occupancy | 1 << placement.position.key:
        return "the occupancy mask was not updated with the new tile's position alone"
    return None


def legal_moves_consistent(state: GameState, legal: Sequence[Move] | None = None) -> str | None:
    """
    Until the match is over there is at least one legal move, and no move is listed
    twice; once it is over there is none.  After a round, ``next`` is the only move.
    """
    moves = legal_moves(state) if legal is None else legal
    if state.is_game_over:
        return None if not moves else f"the match is over but {len(moves)} moves are legal"
    if not moves:
        return "no legal move although the match is not over"
    if len(set(moves)) != len(moves):
        return "legal_moves lists a move twice"
    if state.is_round_over and tuple(moves) != (NextRound(),):
        return "after a round the only legal move must be 'next'"
    return None


def notation_round_trip(state: GameState, legal: Sequence[Move] | None = None) -> str | None:
    """``parse_move(str(m), state) == m`` for every legal move ``m``."""
    moves = legal_moves(state) if legal is None else legal
    for move in moves:
        text = str(move)
        try:
            back = parse_move(text, state)
        except BendolibError as exc:
            return f"parse_move({text!r}) raised {type(exc).__name__}: {exc}"
        if back != move:
            return f"parse_move({text!r}) gave {back!r}, not {move!r}"
    return None


def _minus(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def scores_as_declared(before: GameState, move: Move, after: GameState) -> str | None:
    """
    Scores change only by the mover's play points during a round, and at a round's
    end by exactly the points of the new :class:`~bendolib.RoundResult`, which are
    those the rule set's round scoring declares for that round.  The match is over
    exactly when the match policy names a winner.
    """
    rules = before.rules
    players = before.players
    if len(after.scores) != players:
        return f"{len(after.scores)} scores for {players} players"
    if isinstance(move, NextRound):
        if after.scores != before.scores or after.results != before.results:
            return "dealing the next round changed the scores or the results"
        return None
    if before.phase != PLAYING:
        return None
    play = _minus(after.play_points, before.play_points)
    if rules.play_scoring is None and any(play):
        return f"play points {_seq(play)} without a play-scoring policy"
    if any(v for seat, v in enumerate(play) if seat != before.current_player):
        return f"play points {_seq(play)} went to a player other than the mover"
    score_move = getattr(rules.play_scoring, "score_move", None)
    if score_move is not None and isinstance(move, (Place, PlaceInCell)):
        # a play scoring that values the move itself (the triangles: sums and bonuses)
        declared = int(score_move(before, move, after.board))
        if play[before.current_player] != declared:
            return (
                f"the placement {move} scored {play[before.current_player]} in play; "
                f"the play scoring declares {declared}"
            )
    elif rules.play_scoring is not None and isinstance(move, Place) and any(play):
        declared = cast(PlayScoring, rules.play_scoring).score(after.board.values)
        if play[before.current_player] != declared:
            return (
                f"the placement scored {play[before.current_player]} in play; "
                f"the play scoring declares {declared} for ends {_seq(after.board.values)}"
            )
    if isinstance(move, (Draw, Pass)):
        # a draw or a pass costs what the penalty policy declares (nothing without one)
        cost = 0 if rules.penalties is None else rules.penalties.cost(before, move, after)
        if play[before.current_player] != -cost:
            return (
                f"a {move} changed the mover's play points by {play[before.current_player]}; "
                f"the penalties declare {-cost}"
            )
    delta = _minus(after.scores, before.scores)
    if after.phase == PLAYING:
        if after.results != before.results:
            return "the results changed while the round goes on"
        if delta != play:
            return f"scores changed by {_seq(delta)} during the round (play points {_seq(play)})"
        return None
    if len(after.results) != len(before.results) + 1 or after.results[:-1] != before.results:
        return "a finished round must add exactly one RoundResult"
    result = after.results[-1]
    if len(result.points) != players:
        return f"the round result has {len(result.points)} scores for {players} players"
    if delta != tuple(p + q for p, q in zip(play, result.points, strict=True)):
        return (
            f"scores changed by {_seq(delta)} at the round's end, but the result gives "
            f"{_seq(result.points)} (and play {_seq(play)})"
        )
    if any(not 0 <= seat < players for seat in result.winners):
        return f"round winners {result.winners} are not seats"
    tileset = rules.tileset
    hand_points = tuple(tileset.mask_points(h) for h in after.hand_masks)
    if result.hand_points != hand_points:
        return f"the result records {_seq(result.hand_points)} left in hand, not {hand_points}"
    sides = rules.match.sides(players)
    outcome = RoundOutcome(
        sides, hand_points, after.out, result.blocked, after.last_placer, after.play_points
    )
    expected = rules.round_scoring.score(outcome)
    if any(play) and rules.match.target_check == "at_once":
        # a placement that reaches the target ends the match at once: no round points
        played = tuple(b + p for b, p in zip(before.scores, play, strict=True))
        if rules.match.winner([sum(played[s] for s in side) for side in sides]) is not None:
            expected = RoundScore((0,) * players, (before.current_player,))
    if expected.points != result.points or expected.winners != result.winners:
        return (
            f"the round scored {_seq(result.points)} (winners {result.winners}); the round "
            f"scoring declares {_seq(expected.points)} (winners {expected.winners})"
        )
    side_scores = [sum(after.scores[s] for s in side) for side in sides]
    winner = match_winner(rules.match, side_scores, round_sides(sides, result.winners))
    if after.is_game_over != (winner is not None):
        return f"side scores {_seq(side_scores)}: match over is {after.is_game_over}"
    if winner is not None and after.winner != winner:
        return f"the match policy names side {winner} the winner, the state {after.winner}"
    return None


# -- what the rule set's policies declare -----------------------------------------------


def declared(policy: object, name: str) -> bool:
    """
    True when ``policy`` declares ``name`` (an attribute set to True).

    A declaration states a rule that the checks below would otherwise report.  A
    :class:`~bendolib.rules.FaceEffects` declares what any of its effects declares.
    The declarations read:

    * ``points_to_every_seat`` (round scoring): seats outside the winners' sides may
      score (as for place points);
    * ``negative_points`` (round or play scoring): points may be negative;
    * ``moves_turn`` (effect): the effect changes whose turn is next beyond reversing
      the direction (skips a seat, gives another turn);
    * ``breaks_ties`` (match): a side tied for the top score may win the match;
    * ``negative_costs`` (penalties): a draw or a pass may earn points (a cost below 0);
    * ``negative_bonuses`` (any policy): its ``*_bonus`` fields may be below 0.
    """
    if policy is None:
        return False
    if getattr(policy, name, False) is True:
        return True
    inner = getattr(policy, "by_face", ())
    return isinstance(inner, tuple) and any(
        isinstance(pair, tuple) and len(pair) == 2 and declared(pair[1], name) for pair in inner
    )


#: The RuleSet fields that hold a part of the rules (policies, tile set, geometry).
PARTS = (
    "tileset",
    "geometry",
    "deal",
    "start",
    "draw",
    "round_scoring",
    "play_scoring",
    "match",
    "effects",
    "penalties",
)


#: The parts of a rule set that can break each invariant (the policies to suspect).
_SUSPECTS: dict[str, tuple[str, ...]] = {
    SCORES: ("round_scoring", "play_scoring", "penalties", "match"),
    ROUND_POINTS: ("round_scoring", "play_scoring"),
    POINT_TYPES: ("round_scoring", "play_scoring", "penalties"),
    MATCH_WINNER: ("match",),
    TURN_ORDER: ("effects", "start", "draw"),
    MOVES: ("effects", "draw"),
    TILE_CONSERVATION: ("deal", "effects", "draw"),
    DEALS: ("deal", "start"),
    FIELDS: ("effects", "start", "round_scoring", "match"),
    TERMINATION: ("match", "round_scoring", "draw", "effects", "finish"),
    NO_OVERLAP: ("geometry",),
    LEGAL_MOVES: ("geometry", "draw", "closing", "wild_faces"),
}


def _is_library(value: object) -> bool:
    module = type(value).__module__ or ""
    return module == "bendolib" or module.startswith("bendolib.")


def suspects(rules: RuleSet, invariant: str) -> tuple[str, ...]:
    """
    The policies of ``rules`` that may break ``invariant``, as ``part (Class)``: those
    of the user's own classes first, then those changed from the registered rule set
    ``rules`` was configured from; every user class when the invariant could come from
    any policy.  Empty when nothing of the user's is involved.
    """
    from bendolib.rules import ruleset as _ruleset

    registry = _ruleset._REGISTRY
    base = registry.get(rules.origin) or registry.get(rules.name)
    parts = _SUSPECTS.get(invariant, PARTS + ("finish", "closing", "wild_faces"))
    own, changed = [], []
    for part in parts:
        value = getattr(rules, part, None)
        if value is None and base is not None and getattr(base, part, None) is None:
            continue
        name = type(value).__name__ if value is not None else "None"
        if value is not None and not isinstance(value, str | frozenset) and not _is_library(value):
            own.append(f"{part} ({name}, your class)")
        elif base is not None and getattr(base, part, None) != value:
            shown = repr(value) if isinstance(value, str | frozenset) else name
            changed.append(f"{part} ({shown}, changed from {base.name})")
    return tuple(own + changed)


def _culprit(value: object, test: Callable[[object], object], path: str = "") -> str:
    """The path of the innermost field of ``value`` that fails ``test`` ('' if none is)."""
    if attrs.has(type(value)):
        items: list[tuple[str, object]] = [
            (f"{path}.{f.name}", getattr(value, f.name, None))
            for f in attrs.fields(cast(Any, type(value)))
        ]
    elif isinstance(value, tuple | list):
        items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
    elif hasattr(value, "__dict__"):
        items = [(f"{path}.{k}", v) for k, v in vars(value).items()]
    else:
        return ""
    for where, item in items:
        try:
            test(item)
        except Exception:
            return _culprit(item, test, where) or f"{where} ({type(item).__name__})"
    return ""


def _first_failing(rules: RuleSet, test: Callable[[object], object], what: str) -> str | None:
    for part in PARTS:
        value = getattr(rules, part)
        if value is None:
            continue
        try:
            test(value)
        except Exception as exc:
            where = _culprit(value, test)
            field = f" (field {part}{where})" if where else ""
            kind = type(value).__name__
            return f"policy {part} ({kind}) is not {what}{field}: {type(exc).__name__}: {exc}"
    return None


def policies_hashable(rules: RuleSet) -> str | None:
    """
    Every part of ``rules`` is hashable: states and observations are hashed (sampling,
    caches, sets of states).  The message names the policy and the field.
    """
    return _first_failing(rules, hash, "hashable")


def policies_picklable(rules: RuleSet) -> str | None:
    """
    Every part of ``rules`` can be pickled (tournaments run matches in worker processes;
    a class defined inside a function cannot be).  The message names the policy and field.
    """
    return _first_failing(rules, pickle.dumps, "picklable")


# -- seat-valued fields and the order of play ------------------------------------------


def _distinct_seats(seats: Sequence[int], players: int) -> bool:
    return len(set(seats)) == len(seats) and all(type(s) is int and 0 <= s < players for s in seats)


def _result_in_range(result: RoundResult, players: int) -> str | None:
    if len(result.points) != players or len(result.hand_points) != players:
        return f"round {result.round_number}'s result does not give one value per seat"
    if not _distinct_seats(result.winners, players):
        return f"round {result.round_number}'s winners {result.winners} are not distinct seats"
    if not _distinct_seats(result.order, players):
        return f"round {result.round_number}'s order {result.order} is not distinct seats"
    return None


def fields_in_range(state: GameState) -> str | None:
    """
    Every seat-valued field names a seat (``current_player``, ``last_placer`` or -1,
    ``out``, the results' ``winners`` and ``order``), ``match_winner`` a side once the
    match is over (-1 before), ``direction`` is 1 or -1, per-seat tuples have one value
    per seat, ``opening`` is -1 or a tile of the player to move, and during a round the
    player to move holds tiles.
    """
    players = state.players
    for name in ("hand_masks", "scores", "play_points"):
        if len(getattr(state, name)) != players:
            return f"{name} has {len(getattr(state, name))} values for {players} players"
    player = state.current_player
    if type(player) is not int or not 0 <= player < players:
        return f"current_player={player!r} is not a seat of {players}"
    if state.last_placer != -1 and not 0 <= state.last_placer < players:
        return f"last_placer={state.last_placer!r} is neither -1 nor a seat of {players}"
    if state.direction not in (1, -1):
        return f"direction={state.direction!r} is neither 1 nor -1"
    if not _distinct_seats(state.out, players):
        return f"out={state.out} are not distinct seats of {players}"
    if state.phase not in (PLAYING, ROUND_OVER, GAME_OVER):
        return f"phase={state.phase!r} is not a phase"
    sides = len(state.rules.match.sides(players))
    if state.phase == GAME_OVER:
        if not 0 <= state.match_winner < sides:
            return f"match_winner={state.match_winner!r} is not one of the {sides} sides"
    elif state.match_winner != -1:
        return f"match_winner={state.match_winner!r} before the match is over"
    if state.drawn_count < 0:
        return f"drawn_count={state.drawn_count} is negative"
    for result in state.results:
        problem = _result_in_range(result, players)
        if problem is not None:
            return problem
    if state.phase == PLAYING:
        hand = state.hand_masks[player]
        if not hand:
            return f"player {player} is to move with no tile in hand"
        opening = state.opening
        if opening != -1 and not (0 <= opening < len(state.rules.tileset) and hand >> opening & 1):
            return f"opening={opening!r} is not a tile held by player {player}, who is to move"
    return None


def next_seat(hands: Sequence[int], seat: int, direction: int) -> int:
    """The seat after ``seat`` in ``direction`` that holds tiles (``seat`` if none does)."""
    players = len(hands)
    for step in range(1, players + 1):
        other = (seat + step * direction) % players
        if hands[other]:
            return other
    return seat


def turn_order(before: GameState, move: Move, after: GameState) -> str | None:
    """
    During a round the turn passes to the next seat holding tiles in the direction of
    play (after the move's effect); a draw that lets the drawer play keeps the turn.
    An effect that declares ``moves_turn`` may hand the turn elsewhere.
    """
    if before.phase != PLAYING or after.phase != PLAYING:
        return None
    mover = before.current_player
    if isinstance(move, Draw) and after.drawn:
        if after.current_player != mover:
            return f"player {mover} drew a tile to play but player {after.current_player} moves"
        return None
    if isinstance(move, Place) and declared(after.rules.effects, "moves_turn"):
        return None
    expected = next_seat(after.hand_masks, mover, after.direction)
    if after.current_player != expected:
        return (
            f"after player {mover}'s {move} (direction {after.direction}) player {expected} "
            f"moves next, not player {after.current_player}"
        )
    return None


# -- each move does what it says --------------------------------------------------------


def moves_as_declared(before: GameState, move: Move, after: GameState) -> str | None:
    """
    A placement moves exactly its tile from the mover's hand to the board (an effect
    may change other hands, the stock and the direction, never the placer's hand); a
    draw moves 1 to ``batch`` tiles (within ``max_per_turn``) from the top of the stock
    to the mover's hand and changes nothing else; a pass changes no tile.
    """
    if before.phase != PLAYING or after.round_number != before.round_number:
        return None
    mover = before.current_player
    old, new = before.hand_masks, after.hand_masks
    if after.deck != before.deck:
        return "the deck changed during the round"
    if after.stock_pos < before.stock_pos:
        return f"the stock grew back from {before.stock_size} to {after.stock_size} tiles"
    if isinstance(move, (Place, PlaceInCell)):
        tileset = before.rules.tileset
        bit = 1 << tileset.index(move.tile)
        if new[mover] != old[mover] & ~bit:
            return _hand_change(tileset, mover, old[mover] & ~bit, new[mover], f"placing {move}")
        placed = after.board.placements
        if len(placed) != len(before.board.placements) + 1 or placed[-1].tile != move.tile:
            return f"placing {move} did not add exactly {move.tile} to the board"
        if before.rules.effects is None:
            if after.stock_pos != before.stock_pos:
                return f"placing {move} took tiles from the stock"
            return _others_unchanged(before, after, mover, f"placing {move}")
        return None
    if after.board != before.board:
        return f"a {move} changed the board"
    if isinstance(move, Pass):
        if after.stock_pos != before.stock_pos:
            return "a pass took tiles from the stock"
        return _others_unchanged(before, after, -1, "a pass")
    if isinstance(move, Draw):
        taken = after.stock_pos - before.stock_pos
        draw = before.rules.draw
        most = draw.batch
        if draw.max_per_turn is not None:
            most = min(most, draw.max_per_turn - before.drawn_count)
        if not 1 <= taken <= most:
            return f"a draw took {taken} tiles from the stock (batch {draw.batch}, at most {most})"
        mask = 0
        for i in before.deck[before.stock_pos : after.stock_pos]:
            mask |= 1 << i
        if new[mover] != old[mover] | mask:
            return _hand_change(
                before.rules.tileset, mover, old[mover] | mask, new[mover], "a draw"
            )
        return _others_unchanged(before, after, mover, "a draw")
    return None


def _hand_change(tileset: TileSet, seat: int, expected: int, got: int, what: str) -> str:
    gained = " ".join(str(t) for t in tileset.tiles_of(got & ~expected))
    lost = " ".join(str(t) for t in tileset.tiles_of(expected & ~got))
    change = " and ".join(
        part for part in (gained and f"gained {gained}", lost and f"lost {lost}") if part
    )
    return f"after {what} player {seat}'s hand also {change}"


def _others_unchanged(before: GameState, after: GameState, mover: int, what: str) -> str | None:
    """Every hand but ``mover``'s (every hand for -1) and the stock are as they were."""
    for seat, (a, b) in enumerate(zip(before.hand_masks, after.hand_masks, strict=True)):
        if seat != mover and a != b:
            return _hand_change(before.rules.tileset, seat, a, b, what)
    return None


# -- declared ranges and types of points -----------------------------------------------


def _whole(value: object) -> bool:
    return type(value) is int


def _not_whole(what: str, values: Sequence[object]) -> str | None:
    bad = [v for v in values if not _whole(v)]
    if bad:
        shown = ", ".join(repr(v) for v in values)
        return f"{what} [{shown}] holds {type(bad[0]).__name__} {bad[0]!r}, not an int"
    return None


def bonuses_declared(rules: RuleSet) -> str | None:
    """
    Every ``*_bonus`` field of every policy is an int (or a tuple of ints) of 0 or more
    (unless the policy declares ``negative_bonuses``); checked once per rule set.
    """
    for part in PARTS[2:]:
        policy = getattr(rules, part, None)
        if policy is None or not attrs.has(type(policy)):
            continue
        for field in attrs.fields(cast(Any, type(policy))):
            if field.name != "bonus" and not field.name.endswith("_bonus"):
                continue
            value = getattr(policy, field.name)
            values = value if isinstance(value, tuple) else (value,)
            problem = _not_whole(f"{part}.{field.name}", values)
            if problem is not None:
                return problem
            if not declared(policy, "negative_bonuses") and any(v < 0 for v in values):
                return f"{part}.{field.name}={value!r}: a bonus is 0 or more"
    return None


def points_typed(before: GameState, move: Move, after: GameState) -> str | None:
    """
    Scores, play points and the round results' points are ints; what a draw or a pass
    costs (the penalties policy) is an int of 0 or more (unless it declares
    ``negative_costs``).  A placement's negative play points are left to
    :func:`play_points_not_negative`.
    """
    for name in ("scores", "play_points"):
        problem = _not_whole(name, getattr(after, name))
        if problem is not None:
            return f"after {move}: {problem}"
    if after.results != before.results:
        for result in after.results[len(before.results) :]:
            for name in ("points", "hand_points"):
                problem = _not_whole(f"round {result.round_number}'s {name}", getattr(result, name))
                if problem is not None:
                    return problem
    if before.phase != PLAYING:
        return None
    rules = before.rules
    if isinstance(move, (Draw, Pass)) and rules.penalties is not None:
        cost = rules.penalties.cost(before, move, after)
        if not _whole(cost):
            return f"the penalties declare a cost of {cost!r} for {move}, not an int"
        if cost < 0 and not declared(rules.penalties, "negative_costs"):
            return (
                f"the penalties declare a cost of {cost} for {move}: a penalty is a cost "
                "(0 or more), here the mover gains points"
            )
    return None


# -- what scoring and the match mean ----------------------------------------------------


def play_points_not_negative(before: GameState, move: Move, after: GameState) -> str | None:
    """A placement scores no negative play points (unless the play scoring declares them)."""
    if before.phase != PLAYING or after.round_number != before.round_number:
        return None
    if declared(before.rules.play_scoring, "negative_points"):
        return None
    if not isinstance(move, (Place, PlaceInCell)):
        return None  # a draw's or a pass's penalty: checked by scores_as_declared
    gained = _minus(after.play_points, before.play_points)
    if any(p < 0 for p in gained):
        return f"{move} scored negative play points {_seq(gained)}"
    return None


def round_points_to_winners(rules: RuleSet, players: int, result: RoundResult) -> str | None:
    """
    A round's points are not negative (unless the round scoring declares
    ``negative_points``), points won go only to seats of the winners' sides (unless it
    declares ``points_to_every_seat``; with no winner, nobody scores), and the winners'
    sides score at least as much as every other side.
    """
    scoring = rules.round_scoring
    points = result.points
    if not declared(scoring, "negative_points") and any(p < 0 for p in points):
        return f"round {result.round_number} gave negative points {_seq(points)}"
    sides = rules.match.sides(players)
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    winning = {side_of[s] for s in result.winners if s in side_of}
    if not declared(scoring, "points_to_every_seat"):
        stray = [s for s, p in enumerate(points) if p > 0 and side_of.get(s) not in winning]
        if stray:
            who = f"the winners are {list(result.winners)}" if result.winners else "nobody won"
            return (
                f"round {result.round_number} gave points {_seq(points)}: seat {stray[0]} "
                f"scored {points[stray[0]]} but {who}"
            )
    totals = [sum(points[s] for s in side) for side in sides]
    for side in winning:
        for other, total in enumerate(totals):
            if other not in winning and total > totals[side]:
                return (
                    f"round {result.round_number} gave points {_seq(points)}: the winners' "
                    f"side {side} scored {totals[side]}, less than side {other} ({total})"
                )
    return None


def _round_winner_breaks(state: GameState, winner: int) -> bool:
    """
    True when the match is ``several="round_winner"`` (the published Triominoes rule),
    several sides reached the target and ``winner`` is the only one of them that won
    the last round.
    """
    match = state.rules.match
    target = getattr(match, "target", None)
    if getattr(match, "several", "highest") != "round_winner" or not isinstance(target, int):
        return False
    if not state.results:
        return False
    sides = match.sides(state.players)
    won = round_sides(sides, state.results[-1].winners)
    reached = [i for i, s in enumerate(state.side_scores) if s >= target]
    return len(reached) > 1 and [i for i in reached if i in won] == [winner]


def match_won_at_target(state: GameState) -> str | None:
    """
    A match is won by a side that has reached the match's ``target`` with the top score
    (strictly: a tie for the top is no win unless the match declares ``breaks_ties``),
    or, under ``several="round_winner"``, by the only side past the target that won the
    last round.
    """
    if state.phase != GAME_OVER:
        return None
    match = state.rules.match
    scores = state.side_scores
    winner = state.match_winner
    if not 0 <= winner < len(scores):
        return f"the match is over but its winner {winner} is not a side"
    target = getattr(match, "target", None)
    if isinstance(target, int) and scores[winner] < target:
        return (
            f"side {winner} won with {scores[winner]}, short of the target {target} "
            f"(side scores {_seq(scores)})"
        )
    if _round_winner_breaks(state, winner):
        return None
    ties = declared(match, "breaks_ties")
    for side, score in enumerate(scores):
        if side != winner and (score > scores[winner] or (score == scores[winner] and not ties)):
            return (
                f"side {winner} won with {scores[winner]} but side {side} has {score} "
                f"(side scores {_seq(scores)})"
            )
    return None


def writable(rules: RuleSet) -> bool:
    """
    True when records and position texts can carry ``rules``: it is registered, or
    derived from a registered rule set with bendolib's own policy classes.
    """
    try:
        rules_to_spec(rules)
    except BendolibError:
        return False
    return True


def record_round_trip(state: GameState) -> str | None:
    """
    The record of the match so far reads back as the same record, and replaying it
    gives ``state`` again.
    """
    try:
        text = records.dump(state)
        record = records.load(text)
    except BendolibError as exc:
        return f"the record does not read back: {type(exc).__name__}: {exc}"
    if record != records.record_of(state):
        return "the record read back differs from the one written"
    try:
        again = records.replay(record)
    except BendolibError as exc:
        return f"the record does not replay: {type(exc).__name__}: {exc}"
    if again != state:
        return "replaying the record gives another state"
    return None


def position_text_round_trip(state: GameState) -> str | None:
    """The position text of ``state`` reads back as ``state`` without its history."""
    try:
        text = position_text.dumps(state)
        back = position_text.loads(text)
    except BendolibError as exc:
        return f"the position text does not read back: {type(exc).__name__}: {exc}"
    if back != state.replace(log=None, past=None):
        return f"the position text {text!r} reads back as another state"
    return None


def _differing_fields(a: Observation, b: Observation) -> list[str]:
    return [f.name for f in attrs.fields(type(a)) if getattr(a, f.name) != getattr(b, f.name)]


def _replay_round(state: GameState, deck: tuple[int, ...], seed: int) -> GameState | None:
    """The current round dealt from ``deck`` and replayed with its moves, if they stay legal."""
    start_scores = _minus(state.scores, state.play_points)
    try:
        twin = deal_from(
            state.rules, state.players, deck, seed, state.round_number, start_scores, state.results
        )
        if twin is None:
            return None
        for turn in state.history:
            if twin.current_player != turn.player:
                return None
            twin = apply(twin, turn.move)
    except IllegalMoveError:
        return None
    return twin.replace(past=state.past)


def _hidden_twins(state: GameState, player: int, seed: int) -> list[tuple[int, ...]]:
    """
    Decks that differ from the state's only in tiles hidden from ``player``: the stock
    reshuffled, all hidden tiles reshuffled, and single swaps of two hidden tiles.
    """
    hidden_mask = 0
    for seat, hand in enumerate(state.hand_masks):
        if seat != player:
            hidden_mask |= hand
    for i in state.deck[state.stock_pos :]:
        hidden_mask |= 1 << i
    hidden = [i for i in state.deck if hidden_mask >> i & 1]
    if len(hidden) < 2:
        return []
    rng = SplitMix64(seed)

    def mapped(order: Sequence[int]) -> tuple[int, ...]:
        mapping = dict(zip(hidden, order, strict=True))
        return tuple(mapping.get(i, i) for i in state.deck)

    stock = list(state.deck[state.stock_pos :])
    decks = [state.deck[: state.stock_pos] + rng.shuffled(stock)] if len(stock) > 1 else []
    decks.append(mapped(rng.shuffled(hidden)))
    for _ in range(2):
        a, b = rng.below(len(hidden)), rng.below(len(hidden))
        order = list(hidden)
        order[a], order[b] = order[b], order[a]
        decks.append(mapped(order))
    return decks


#: GameState fields hidden from every player: the deal's order, the seed, and (apart
#: from the observer's own) the hands and the tiles just drawn.  Every other field is
#: public; the observer's hand and draws are known to the observer.
HIDDEN_FIELDS = frozenset({"seed", "deck", "hand_masks", "drawn"})


def _known_to(state: GameState, player: int) -> tuple[object, ...]:
    """Everything ``player`` may know of ``state``: its public fields and own tiles."""
    public = tuple(getattr(state, name) for name in STATE_FIELDS if name not in HIDDEN_FIELDS)
    own = state.hand_masks[player]
    drawn = state.drawn if state.current_player == player else 0
    sizes = tuple(h.bit_count() for h in state.hand_masks)
    return public, own, drawn, sizes


def round_replays(state: GameState) -> str | None:
    """
    The round in play, dealt again from its own deck (``deal_from``) and replayed with
    its moves, reaches ``state`` again: the deal and the policies depend on the deck and
    the moves only (not on the global random, a cache kept between games, the clock).
    The observation checks replay rounds with other decks, and need this to hold.
    """
    if state.phase != PLAYING:
        return None
    try:
        twin = _replay_round(state, state.deck, state.seed)
    except BendolibError as exc:
        return f"the round does not replay from its deal: {type(exc).__name__}: {exc}"
    if twin is None:
        return "the round's moves are not legal when it is dealt again from its own deck"
    if twin != state:
        fields = [n for n in STATE_FIELDS if getattr(twin, n) != getattr(state, n)]
        return (
            "the round dealt again from its own deck and replayed with its moves reaches "
            f"another state (its {', '.join(fields)} differ): the deal or a policy depends "
            "on more than the deck and the moves (the global random, a stale cache)"
        )
    return None


def observation_leak_free(state: GameState, player: int, seed: int = 0) -> str | None:
    """
    ``state.observation(player)`` reveals nothing hidden from ``player``: two states that
    differ only in :data:`HIDDEN_FIELDS` (the other hands, the stock's order, the seed)
    give equal observations.  The other states are found by dealing the hidden tiles
    otherwise and replaying the round's moves, keeping those that agree with ``state``
    in everything ``player`` may know; ``seed`` picks which.  Once a round is over every
    hand is shown, so only rounds in play are compared.
    """
    seen = state.observation(player)
    if state.observation(player) != seen:
        return f"two observations of one state by player {player} differ"
    if state.phase != PLAYING:
        return None
    known = _known_to(state, player)
    other_seed = derive_seed(state.seed, seed)
    for deck in _hidden_twins(state, player, seed):
        if deck == state.deck:
            continue
        twin = _replay_round(state, deck, other_seed)
        if twin is None or _known_to(twin, player) != known:
            continue
        other = twin.observation(player)
        if other != seen:
            fields = ", ".join(_differing_fields(seen, other))
            return (
                f"player {player}'s observation depends on hidden information: its "
                f"{fields} differ(s) between two states that differ only in hidden tiles"
            )
    return None


def sampling_consistent(state: GameState, player: int, seed: int = 0) -> str | None:
    """
    :func:`bendolib.sampling.sample_state` turns ``player``'s observation into a full
    state that ``player`` would observe exactly the same way (``seed`` seeds its draw).
    """
    seen = state.observation(player)
    try:
        sampled = sample_state(seen, random.Random(seed))
    except BendolibError as exc:
        return f"no state sampled for player {player}'s observation: {type(exc).__name__}: {exc}"
    again = sampled.observation(player)
    if again != seen:
        fields = ", ".join(_differing_fields(seen, again))
        return f"a state sampled from player {player}'s observation is observed otherwise: {fields}"
    return None


#: The single-state checks, by invariant name, in the order they are made (the fields
#: first: the other checks index hands by seat).
STATE_CHECKS: tuple[tuple[str, Callable[[GameState], str | None]], ...] = (
    (FIELDS, fields_in_range),
    (TILE_CONSERVATION, tile_conservation),
    (NO_OVERLAP, no_overlap),
    (LEGAL_MOVES, legal_moves_consistent),
    (MATCH_WINNER, match_won_at_target),
)


def round_points(before: GameState, move: Move, after: GameState) -> str | None:
    """:func:`play_points_not_negative`, and :func:`round_points_to_winners` at a round's end."""
    problem = play_points_not_negative(before, move, after)
    if problem is None and before.phase == PLAYING and after.phase != PLAYING and after.results:
        problem = round_points_to_winners(after.rules, after.players, after.results[-1])
    return problem


#: The checks of one move ``(before, move, after)``, by invariant name, in the order
#: they are made.
TRANSITION_CHECKS: tuple[tuple[str, Callable[[GameState, Move, GameState], str | None]], ...] = (
    (MOVES, moves_as_declared),
    (TILE_CONSERVATION, tiles_kept),
    (TURN_ORDER, turn_order),
    (NO_OVERLAP, placement_fits),
    (POINT_TYPES, points_typed),
    (SCORES, scores_as_declared),
    (ROUND_POINTS, round_points),
)


def first_broken(state: GameState) -> tuple[str, str] | None:
    """The first broken single-state invariant as ``(name, message)``, or None."""
    for name, check in STATE_CHECKS:
        problem = check(state)
        if problem is not None:
            return name, problem
    return None


def first_broken_move(before: GameState, move: Move, after: GameState) -> tuple[str, str] | None:
    """The first broken invariant of one move (the fields of ``after`` first), or None."""
    problem = fields_in_range(after)
    if problem is not None:
        return FIELDS, problem
    for name, check in TRANSITION_CHECKS:
        problem = check(before, move, after)
        if problem is not None:
            return name, problem
    return None


#: The fewest rounds the match bound allows (a match without a target, or a small one).
MIN_ROUNDS = 200

#: Rounds a match may go on after a side first holds the top score alone at or above the
#: target (a match that asks more than reaching the target: a lead, a last round).
ROUNDS_AFTER_TARGET = 50


def round_limit(rules: RuleSet, players: int) -> int:
    """
    The most rounds a match of ``rules`` may last: ``2 * sides * target`` (at least
    :data:`MIN_ROUNDS`).  With whole, non-negative round points each round that scores
    raises the sum of the side scores by one or more, so some side reaches the target
    within ``sides * target`` scoring rounds; the factor 2 leaves as many rounds that
    score nothing.
    """
    target = getattr(rules.match, "target", None)
    if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
        return MIN_ROUNDS
    try:
        sides = len(rules.match.sides(players))
    except Exception:
        sides = players
    return max(MIN_ROUNDS, 2 * sides * target)


class Termination:
    """
    The termination bounds of one match, fed every move.

    No more passes in a row than players, a round of at most ``(2 * tiles + 2) *
    (players + 1)`` moves, a match of at most ``max_rounds`` rounds (by default
    :func:`round_limit`, computed from the rules), and, without ``max_rounds``, at most
    :data:`ROUNDS_AFTER_TARGET` rounds after a side first held the top score alone at or
    above the match's target.  Bookkeeping, not a value: it counts as it goes.
    """

    def __init__(
        self,
        players: int,
        tiles: int,
        max_rounds: int | None = None,
        rules: RuleSet | None = None,
    ) -> None:
        self.players = players
        self.tiles = tiles
        self.given = max_rounds
        if max_rounds is None:
            max_rounds = MIN_ROUNDS if rules is None else round_limit(rules, players)
        self.max_rounds = max_rounds
        self.target = None if rules is None else getattr(rules.match, "target", None)
        self.round_moves = 0
        self.passes = 0
        self.rounds = 0
        self.moves = 0
        self.reached: int | None = None

    @property
    def round_bound(self) -> int:
        """The most moves a round may last."""
        return (2 * self.tiles + 2) * (self.players + 1)

    def _at_target(self, after: GameState) -> bool:
        target = self.target
        if self.given is not None or not isinstance(target, int) or isinstance(target, bool):
            return False
        scores = after.side_scores
        top = max(scores)
        return top >= target and scores.count(top) == 1

    def after(self, before: GameState, move: Move, after: GameState) -> str | None:
        """Count ``move``; a message when a bound is broken."""
        self.moves += 1
        if isinstance(move, NextRound):
            self.round_moves = self.passes = 0
        else:
            self.round_moves += 1
            self.passes = self.passes + 1 if isinstance(move, Pass) else 0
        if before.phase == PLAYING and after.phase != PLAYING:
            self.rounds += 1
            if self.reached is None and after.phase != GAME_OVER and self._at_target(after):
                self.reached = self.rounds
        if self.passes > self.players:
            return f"{self.passes} passes in a row and the round goes on"
        if self.round_moves > self.round_bound:
            return f"the round lasts more than {self.round_bound} moves"
        if self.rounds > self.max_rounds:
            return (
                f"the match lasts more than {self.max_rounds} rounds ({self.moves} moves; "
                f"side scores {_seq(after.side_scores)})"
            )
        if self.reached is not None and self.rounds - self.reached > ROUNDS_AFTER_TARGET:
            return (
                f"side scores {_seq(after.side_scores)}: a side held the top score alone at "
                f"or above the target {self.target} after round {self.reached}, and the "
                f"match went on for {ROUNDS_AFTER_TARGET} more rounds ({self.moves} moves)"
            )
        return None
