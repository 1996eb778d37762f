"""
The invariants every game of every rule set keeps, as plain check functions.

Each check returns ``None`` when its invariant holds and otherwise a message saying
what broke.  State checks look at one state; transition checks at ``(before, move,
after)``.  :func:`bendolib.testing.check_ruleset` runs them over random games, and the
state machine of :mod:`bendolib.testing.machine` runs them after every step; they can
also be called directly from a user's own tests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

import attrs

from bendolib import position_text, records
from bendolib.engine import apply, deal_from, legal_moves
from bendolib.errors import BendolibError, IllegalMoveError
from bendolib.geometry import lattice
from bendolib.moves import OPENING, Move, NextRound, Place
from bendolib.notation import parse_move
from bendolib.observation import Observation
from bendolib.rng import SplitMix64, derive_seed
from bendolib.rule_spec import rules_to_spec
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.scoring import PlayScoring, RoundOutcome, RoundScore
from bendolib.sampling import sample_state
from bendolib.state import PLAYING, STATE_FIELDS, GameState

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
    if rules.play_scoring is not None and isinstance(move, Place) and any(play):
        declared = cast(PlayScoring, rules.play_scoring).score(after.board.values)
        if play[before.current_player] != declared:
            return (
                f"the placement scored {play[before.current_player]} in play; "
                f"the play scoring declares {declared} for ends {_seq(after.board.values)}"
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
    winner = rules.match.winner(side_scores)
    if after.is_game_over != (winner is not None):
        return f"side scores {_seq(side_scores)}: match over is {after.is_game_over}"
    if winner is not None and after.winner != winner:
        return f"the match policy names side {winner} the winner, the state {after.winner}"
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


#: The single-state checks, by invariant name.
STATE_CHECKS = (
    (TILE_CONSERVATION, tile_conservation),
    (NO_OVERLAP, no_overlap),
    (LEGAL_MOVES, legal_moves_consistent),
)


def first_broken(state: GameState) -> tuple[str, str] | None:
    """The first broken single-state invariant as ``(name, message)``, or None."""
    for name, check in STATE_CHECKS:
        problem = check(state)
        if problem is not None:
            return name, problem
    return None
