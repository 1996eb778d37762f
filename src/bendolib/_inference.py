"""
Deductions from the public history: which tiles each hidden hand cannot hold.

A player who passed, who had to draw (or drew and still had the turn, where a draw by
choice ends it), or who kept drawing lacked then every tile that would have fitted the
board; a drawn tile that ended the turn did not fit; a tile placed after drawing was
one of the tiles drawn that turn; the opening tile (or, for the observer who started,
its own deciding tile) was the highest the start policy looks for.  :func:`deduce`
gathers these facts for one observer, and :func:`hidden_deal` turns them into
constraints on the positions of the round's deck, from which :mod:`bendolib.sampling`
draws consistent deals.

The constraints here are necessary conditions, one tile at a time; facts that tie
several tiles together (some tile in a hand fits, the round was not blocked) are left
to the sampler's final check.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

import attrs

from bendolib._memo import remember
from bendolib._placing import placements
from bendolib.geometry.board import Board
from bendolib.geometry.chain import ChainGeometry, as_chain
from bendolib.geometry.triangles import TriangleBoard
from bendolib.moves import OPENING, Draw, Pass, Place, PlaceInCell
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.starting import HighestDouble, HolderOf, StartDecision
from bendolib.rules.triangles import HighestTriple
from bendolib.state import PLAYING, GameState
from bendolib.tiles import indices

if TYPE_CHECKING:
    from bendolib.observation import Observation

#: A tile or seat the observer does not know: ``Taken.tile`` of a tile another player
#: took, ``Slot.seat`` of a deck position outside every known hand.
HIDDEN = -1

#: ``Lack.reason`` values.
PASSED = "passed"
DREW = "drew"
DREW_AGAIN = "drew again"
DRAW_MISSED = "drawn tile did not fit"


@attrs.frozen
class Lack:
    """
    ``player`` held none of ``tiles`` at history entry ``turn`` (``reason``: it
    passed, had to draw, or drew again), or, for :data:`DRAW_MISSED`, none of
    ``tiles`` was among the tiles it drew that turn.
    """

    player: int
    turn: int
    tiles: int
    reason: str


@attrs.frozen
class Deductions:
    """
    What the observer can tell about every hand from the public history.

    ``unseen`` are the tiles the observer has not seen (other hands and stock);
    ``lacks`` every deduction, in history order; ``possible[seat]`` the tiles that
    seat may hold now as far as these deductions go (the observer's own hand exactly).
    """

    player: int
    unseen: int
    lacks: tuple[Lack, ...]
    possible: tuple[int, ...]

    def cannot_hold(self, seat: int) -> int:
        """Unseen tiles that ``seat`` cannot hold now."""
        return self.unseen & ~self.possible[seat]


@attrs.frozen
class Slot:
    """
    Deck positions taken together (a dealt hand, one draw, or the stock): each holds
    one of ``accepts``.  ``seat`` took them (-1 for the stock); ``kind`` is
    ``"hand"``, ``"draw"``, ``"effect"``, ``"stock"``, ``"drawn"`` (the tiles the
    player to move had drawn before a loaded position) or ``"aside"`` (out of play).
    """

    positions: tuple[int, ...]
    accepts: int
    seat: int = HIDDEN
    kind: str = "stock"


@attrs.frozen
class HiddenDeal:
    """
    The round's deck as the observer knows it: ``known[i]`` is the tile at position
    ``i`` or :data:`HIDDEN`; the ``hidden`` tiles fill the
    hidden positions, which the ``slots`` partition (in deal order: the hands, the
    draws, the stock; see :class:`DeckLayout`).
    """

    known: tuple[int, ...]
    hidden: int
    slots: tuple[Slot, ...]


@attrs.frozen
class _Class:
    """Deck positions taken together: a dealt hand, one draw, or the stock."""

    positions: tuple[int, ...]
    seat: int
    turn: int
    kind: str


def deduce(observation: Observation, forced_draws: bool = False) -> Deductions:
    """
    The deductions of ``observation``'s player from the public history.

    ``forced_draws`` also reads every draw at the start of a turn as "could not
    place", even where the rules allow drawing by choice: an opponent model (right
    for players who draw only when stuck), not a consequence of the rules.
    """
    return _analyse(observation, forced_draws)[0]


def hidden_deal(observation: Observation, forced_draws: bool = False) -> HiddenDeal:
    """The deck positions the observer does not know, and which tiles may lie there."""
    return _analyse(observation, forced_draws)[1]


def fitting(observation: Observation, board: Board) -> int:
    """Bitmask of the tiles of the tile set that could be placed on ``board``."""
    return fitting_mask(observation.rules, observation.players, board)


_FITS: dict[int, tuple[RuleSet, dict[tuple[object, ...], int]]] = {}


def fitting_mask(rules: RuleSet, players: int, board: Board) -> int:
    """Bitmask of the tiles of ``rules``' tile set that could be placed on ``board``."""
    if board.is_empty:
        probe = _probe(rules, players, board)
        return _mask(
            rules.tileset.index(m.tile) for m in placements(probe, rules.tileset.full_mask)
        )
    held = _FITS.get(id(rules))
    if held is None or held[0] is not rules:
        if len(_FITS) > 64:
            _FITS.clear()
        held = (rules, {})
        _FITS[id(rules)] = held
    key: tuple[object, ...]
    if isinstance(board, TriangleBoard):
        # what fits a free cell is what fits the numbers its corners must show
        key = ("cells", frozenset(board.patterns))
    elif isinstance(rules.geometry, ChainGeometry):
        key = tuple((end.value, end.free) for end in board.ends)
        joints_of = getattr(rules.geometry, "joints", None)
        if rules.even_closing and joints_of is not None:
            # which placements would close the chain depends on where the ends lie
            key += (joints_of(board),)
    else:
        # a geometry of its own: its ends need not say what fits; the board does
        key = ("board", board)
    cached = held[1].get(key)
    if cached is None:
        probe = _probe(rules, players, board)
        cached = _mask(
            rules.tileset.index(m.tile) for m in placements(probe, rules.tileset.full_mask)
        )
        if len(held[1]) > 20_000:
            held[1].clear()
        held[1][key] = cached
    return cached


def _probe(rules: RuleSet, players: int, board: Board) -> GameState:
    """A state with ``board`` and empty hands, to ask the engine what fits."""
    return GameState.create(
        rules=rules,
        players=players,
        seed=0,
        round_number=1,
        deck=(),
        stock_pos=0,
        hand_masks=(0,) * players,
        board=board,
        current_player=0,
        scores=(0,) * players,
    )


def stock_start(rules: RuleSet, players: int) -> int:
    """Deck position of the first stock tile: after the hands and the table tiles."""
    return players * rules.deal.hand_size(players) + rules.deal.table_tiles


def _mask(tiles: Iterable[int]) -> int:
    mask = 0
    for i in tiles:
        mask |= 1 << i
    return mask


@attrs.frozen
class DeckLayout:
    """
    Where the tiles lie in the deck of a round as the sampler deals it.

    ``hands[seat]`` is the ``(first position, count)`` of that seat's tiles where the
    known history starts (the deal, or a loaded position: see
    :attr:`Observation.start`); ``drawn`` the ``(first, count)`` inside the
    player-to-move's block of the tiles it had drawn that turn (count 0 when none or
    when it is the observer); the tiles on the board then (``table_tiles``) follow
    from position ``table``, then ``aside`` (``(first, count)``: tiles out of play),
    then the stock from position ``stock``.
    """

    hands: tuple[tuple[int, int], ...]
    drawn: tuple[int, int]
    table: int
    table_tiles: tuple[int, ...]
    aside: tuple[int, int]
    stock: int


def deck_layout(observation: Observation) -> DeckLayout:
    """The :class:`DeckLayout` of ``observation``'s round (see there)."""
    obs = observation
    rules = obs.rules
    start = obs.start
    if start is None:
        size = rules.deal.hand_size(obs.players)
        hands = tuple((seat * size, size) for seat in range(obs.players))
        table = obs.players * size
        tiles = obs.table_tiles
        first = stock_start(rules, obs.players)
        return DeckLayout(hands, (0, 0), table, tiles, (first, 0), first)
    blocks = []
    at = 0
    for size in start.hand_sizes:
        blocks.append((at, size))
        at += size
    drawn = (0, 0)
    mover = start.current_player
    if start.drawn_count and mover != obs.player and start.phase == PLAYING:
        first, size = blocks[mover]
        count = min(start.drawn_count, size)
        drawn = (first + size - count, count)
    tileset = rules.tileset
    tiles = tuple(tileset.index(p.tile) for p in start.board.placements)
    stock = len(tileset) - start.stock_size
    aside = (at + len(tiles), stock - at - len(tiles))
    return DeckLayout(tuple(blocks), drawn, at, tiles, aside, stock)


@lru_cache(maxsize=64)
def _analyse(obs: Observation, forced_draws: bool) -> tuple[Deductions, HiddenDeal]:
    rules = obs.rules
    tileset = rules.tileset
    players = obs.players
    me = obs.player
    total = len(tileset)
    layout = deck_layout(obs)
    start = layout.stock
    stock_pos = total - obs.stock_size

    placed: dict[int, tuple[int, int]] = {}
    for index, turn in enumerate(obs.history):
        if isinstance(turn.move, (Place, PlaceInCell)):
            placed[tileset.index(turn.move.tile)] = (turn.player, index)
    own_taken = _mask(t.tile for t in obs.taken if t.player == me)
    own_placed = _mask(i for i, (seat, _) in placed.items() if seat == me)
    if obs.start is None:
        own_block = (obs.hand_mask | own_placed) & ~own_taken
    else:
        own_block = obs.start.hand_mask
    table = layout.table_tiles

    known = [HIDDEN] * total
    own_first = layout.hands[me][0]
    for offset, tile in enumerate(sorted(indices(own_block))):
        known[own_first + offset] = tile
    for offset, tile in enumerate(table):
        known[layout.table + offset] = tile
    for offset, taken in enumerate(obs.taken):
        if taken.player == me:
            known[start + offset] = taken.tile
    hidden = tileset.full_mask & ~(own_block | own_taken | _mask(table))

    classes: list[_Class] = []
    drawn_first, drawn_count = layout.drawn
    for seat, (first, size) in enumerate(layout.hands):
        if seat == me:
            continue
        block = range(first, first + size)
        kept = tuple(p for p in block if not drawn_first <= p < drawn_first + drawn_count)
        if kept:
            classes.append(_Class(kept, seat, -1, "hand"))
        if len(kept) < size:
            classes.append(_Class(tuple(p for p in block if p not in kept), seat, -1, "drawn"))
    if layout.aside[1]:
        first, size = layout.aside
        classes.append(_Class(tuple(range(first, first + size)), HIDDEN, -1, "aside"))
    group: list[int] = []
    for offset, taken in enumerate(obs.taken):
        if taken.player == me:
            continue
        prev = obs.taken[group[0] - start] if group else None
        if prev is not None and (prev.player, prev.turn) != (taken.player, taken.turn):
            classes.append(_draw_class(obs, group, start))
            group = []
        group.append(start + offset)
    if group:
        classes.append(_draw_class(obs, group, start))
    if stock_pos < total:
        classes.append(_Class(tuple(range(stock_pos, total)), HIDDEN, -1, "stock"))

    accept = [hidden] * len(classes)
    out_of_hands = [c for c, cls in enumerate(classes) if cls.kind in ("stock", "aside")]

    def slots_before(seat: int, index: int) -> list[int]:
        return [c for c, cls in enumerate(classes) if cls.seat == seat and cls.turn < index]

    def keep_only(tile_mask: int, allowed: Iterable[int]) -> None:
        allowed_set = set(allowed)
        for c in range(len(classes)):
            if c not in allowed_set:
                accept[c] &= ~tile_mask

    lacks, placements, misses, positives, board_ok = _walk(obs, classes, forced_draws)
    for lack in lacks:
        if lack.player != me and lack.reason != DRAW_MISSED:
            for c in slots_before(lack.player, lack.turn):
                accept[c] &= ~lack.tiles
    for player, index, tile, draws in placements:
        if player != me:
            allowed = draws if draws is not None else slots_before(player, index)
            keep_only(1 << tile, allowed)
    if board_ok:
        for draws, fits in misses:
            for c in draws:
                accept[c] &= ~fits
        for draws, fits in positives:
            # some tile drawn that turn fits: the one draw not already ruled out
            # (e.g. by drawing again after it) if there is only one
            open_draws = [c for c in draws if accept[c] & fits]
            if sum(len(classes[c].positions) for c in open_draws) == 1:
                accept[open_draws[0]] &= fits
    if obs.opening >= 0 and obs.phase == PLAYING and obs.current_player != me:
        # the tile the round must open with is in the hand of the player to move
        keep_only(1 << obs.opening, slots_before(obs.current_player, len(obs.history)))
    if obs.revealed:
        shown = 0
        for seat, hand in enumerate(obs.revealed):
            if seat != me:
                keep_only(hand, [c for c, cls in enumerate(classes) if cls.seat == seat])
                shown |= hand
        unplaced = hidden & ~_mask(placed) & ~shown
        keep_only(unplaced, out_of_hands)
    if obs.start is None:
        excluded = _start_exclusions(obs, own_block)
        for c, cls in enumerate(classes):
            if cls.kind == "hand":
                accept[c] &= ~excluded.get(cls.seat, 0)

    unseen = obs.unseen_mask
    possible = []
    for seat in range(players):
        if seat == me:
            possible.append(obs.hand_mask)
        elif obs.revealed:
            possible.append(obs.revealed[seat])
        else:
            reach = 0
            for c, cls in enumerate(classes):
                if cls.seat == seat:
                    reach |= accept[c]
            possible.append(reach & unseen)
    deductions = Deductions(me, unseen, tuple(lacks), tuple(possible))

    slots = tuple(
        Slot(cls.positions, accept[c], cls.seat, cls.kind) for c, cls in enumerate(classes)
    )
    return deductions, HiddenDeal(tuple(known), hidden, slots)


def _draw_class(obs: Observation, positions: list[int], start: int) -> _Class:
    taken = obs.taken[positions[0] - start]
    move = obs.history[taken.turn].move if 0 <= taken.turn < len(obs.history) else None
    kind = "draw" if isinstance(move, Draw) else "effect"
    return _Class(tuple(positions), taken.player, taken.turn, kind)


_Walk = tuple[
    list[Lack],
    list[tuple[int, int, int, list[int] | None]],
    list[tuple[list[int], int]],
    list[tuple[list[int], int]],
    bool,
]


def _walk(obs: Observation, classes: list[_Class], forced_draws: bool) -> _Walk:
    """
    Replay the round's public history on the board: the lacks, each placement with
    the draws it must come from, the draws that missed and the draws that fitted.
    """
    rules = obs.rules
    tileset = rules.tileset
    geometry = rules.geometry
    history = obs.history
    draws_at: dict[int, list[int]] = {}
    for c, cls in enumerate(classes):
        if cls.kind == "draw":
            draws_at.setdefault(cls.turn, []).append(c)
    start = obs.start
    turn_player = -1
    turn_draws: list[int] = []
    drew = False
    if start is None:
        table = obs.board.placements[: rules.deal.table_tiles]
        board = geometry.open([(p.tile, p.tile.a) for p in table]) if table else Board()
    else:
        board = start.board
        if start.drawn_count:
            # the player to move had drawn before the position: its turn goes on
            turn_player, drew = start.current_player, True
            turn_draws = [c for c, cls in enumerate(classes) if cls.kind == "drawn"]
    on_board = _mask(tileset.index(p.tile) for p in board.placements)
    lacks: list[Lack] = []
    placements: list[tuple[int, int, int, list[int] | None]] = []
    misses: list[tuple[list[int], int]] = []
    positives: list[tuple[list[int], int]] = []
    for index, turn in enumerate(history):
        player, move = turn.player, turn.move
        if player != turn_player:
            turn_player, turn_draws, drew = player, [], False
        if isinstance(move, Draw):
            fits = fitting(obs, board) & ~on_board
            # a first draw may be voluntary; under "draw and pass" it then ends the
            # turn whatever the drawn tile is, so the turn's end tells nothing of it
            may_pass = (
                not drew
                and not forced_draws
                and rules.draw.voluntary
                and rules.draw.after_voluntary == "pass"
            )
            if drew:
                lacks.append(Lack(player, index, fits, DREW_AGAIN))
            elif forced_draws or not rules.draw.voluntary:
                lacks.append(Lack(player, index, fits, DREW))
            drew = True
            turn_draws = turn_draws + draws_at.get(index, [])
            following = history[index + 1] if index + 1 < len(history) else None
            if following is not None:
                ended = following.player != player
            else:
                ended = obs.phase != PLAYING or obs.current_player != player or obs.drawn_count == 0
            if may_pass and not ended:
                # a voluntary draw would have ended the turn ("draw a Bendomino and
                # pass their turn", seeds/000): one that did not was made when stuck
                lacks.append(Lack(player, index, fits, DREW))
            if ended:
                if not may_pass:
                    misses.append((turn_draws, fits))
                    lacks.append(Lack(player, index, fits, DRAW_MISSED))
            elif following is None and rules.draw.when_stuck != "until_fits":
                positives.append((turn_draws, fits))
        elif isinstance(move, Place):
            tile = tileset.index(move.tile)
            placements.append((player, index, tile, turn_draws if drew else None))
            if move.end == OPENING:
                board = geometry.open([(move.tile, move.inward)])
            else:
                board = as_chain(geometry).place(
                    board, move.end, move.tile, move.inward, move.shows, move.turn
                )
            on_board |= 1 << tile
            turn_player = -1
        elif isinstance(move, PlaceInCell):
            tile = tileset.index(move.tile)
            placements.append((player, index, tile, turn_draws if drew else None))
            board = geometry.play(board, move)
            on_board |= 1 << tile
            turn_player = -1
        elif isinstance(move, Pass):
            fits = fitting(obs, board) & ~on_board
            if drew:
                positives.append((turn_draws, fits))
            else:
                lacks.append(Lack(player, index, fits, PASSED))
            turn_player = -1
    board_ok = board.ends == obs.board.ends and len(board.placements) == len(obs.board.placements)
    if not board_ok:
        lacks = []
        misses = []
        positives = []
    return lacks, placements, misses, positives, board_ok


def _start_exclusions(obs: Observation, own_block: int) -> dict[int, int]:
    """
    Tiles that no other seat can have been dealt, given how the round started: for
    the start policies that pick the holder of the highest tile of some kind
    (:class:`HighestDouble`, :class:`HolderOf`, the triangles' :class:`HighestTriple`),
    any tile that would have outranked the known one.  Other policies are left to the
    sampler's final check.
    """
    policy = obs.rules.start
    if type(policy) not in (HighestDouble, HolderOf, HighestTriple):
        return {}
    tileset = obs.rules.tileset
    history = obs.history
    starter = history[0].player if history else obs.current_player
    opening = obs.opening
    first = history[0].move if history else None
    if isinstance(first, Place) and first.end == OPENING:
        opening = tileset.index(first.tile)
    elif isinstance(first, PlaceInCell) and not obs.rules.deal.table_tiles:
        opening = tileset.index(first.tile)  # a round of cells opens on an empty board
    zero_instead = getattr(policy, "zero_instead", False)
    if (
        opening >= 0
        and first is not None
        and zero_instead
        and not any(tileset.tiles[opening].faces)
    ):
        # 0-0-0 may open instead of the highest triple: the deciding tile is unknown
        return {}
    key = (id(obs.rules), obs.players, obs.player, own_block, starter, opening, obs.round_number)
    found = _EXCLUSIONS.get(key)
    if found is not None and found[0] is obs.rules:
        return dict(found[1])
    out = _excluded(obs, own_block, starter, opening)
    remember(_EXCLUSIONS, key, (obs.rules, out), limit=256)
    return dict(out)


#: :func:`_start_exclusions`' answers by what they depend on (the rule set, kept so that
#: its id stays its own): a seat asks the same question at each of its decisions in a
#: round, and each answer asks the start policy once a hidden tile and seat (0.4 ms
#: with the double-six set, 4 players).
_EXCLUSIONS: dict[tuple[int, ...], tuple[RuleSet, dict[int, int]]] = {}


def _excluded(obs: Observation, own_block: int, starter: int, opening: int) -> dict[int, int]:
    """:func:`_start_exclusions` once the round's start is known: the probes."""
    policy = obs.rules.start
    tileset = obs.rules.tileset
    base = [0] * obs.players
    base[obs.player] = own_block
    if opening >= 0:
        base[starter] |= 1 << opening
    decision = policy.choose(tileset, tuple(base), obs.round_number)
    if not _matches(decision, starter, opening, obs.player):
        return {}
    out: dict[int, int] = {}
    hidden = tileset.full_mask & ~own_block
    if opening >= 0:
        hidden &= ~(1 << opening)
    for seat in range(obs.players):
        if seat == obs.player:
            continue
        for tile in indices(hidden):
            hands = list(base)
            hands[seat] |= 1 << tile
            probe = policy.choose(tileset, tuple(hands), obs.round_number)
            if probe != decision:
                out[seat] = out.get(seat, 0) | 1 << tile
    return out


def _matches(decision: StartDecision, starter: int, opening: int, observer: int) -> bool:
    # The deciding tile must be known.  It is when the observer started: its own hand
    # decides, whatever the opening.  Otherwise only a policy that names the opening
    # tile tells which tiles the others lack: with a free opening (``opens=False``)
    # the starter's deciding tile is not known, and "no other seat outranks it" ties
    # several tiles together (left to the sampler).
    if decision.redeal or decision.player != starter:
        return False
    if starter == observer:
        return True
    return opening >= 0 and decision.opening == opening
