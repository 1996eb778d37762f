"""
Where the tiles of a hand can go: the placements on a board, in the engine's order
(memoised for the built-in geometries without wild faces), and the fit test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from bendolib._construct import fast_constructor
from bendolib._memo import remember
from bendolib.geometry.bend import joints as bend_joints
from bendolib.geometry.board import Board, End
from bendolib.geometry.chain import chain_fits, chain_placements
from bendolib.moves import OPENING, Place, PlaceMove
from bendolib.rules.ruleset import LIST_BEND, LIST_STRAIGHT, RuleSet
from bendolib.tiles import _NO_FITS, LEFT, RIGHT, STRAIGHT, Tile, TileSet, indices

if TYPE_CHECKING:
    from bendolib.state import GameState

_new_place = fast_constructor(Place)


def _opening_move(state: GameState) -> PlaceMove:
    rules = state.rules
    tile = rules.tileset.tiles[state.opening]
    return _opening(rules, tile, tile.a)[3]


#: Opening boards and moves by (id of the geometry, id of the tile, inward face).  The
#: values hold the geometry and the tile, so those ids are not reused while memoised.
#: (Speed: +4 % / +7 % pure-Python instructions without it, docs/performance.md.)
_OPENINGS: dict[tuple[int, int, int], tuple[object, Tile, Board, PlaceMove]] = {}


def _opening(rules: RuleSet, tile: Tile, inward: int) -> tuple[object, Tile, Board, PlaceMove]:
    """The board with ``tile`` opening the round, and the move that lays it."""
    geometry = rules.geometry
    key = (id(geometry), id(tile), inward)
    found = _OPENINGS.get(key)
    if found is None:
        opening = getattr(geometry, "opening", None)
        move: PlaceMove
        if opening is not None:
            board, move = opening(tile, inward)
        else:  # a chain geometry written before the Geometry protocol had opening
            board = geometry.open([(tile, inward)])
            placed = board.placements[0]
            move = _new_place(
                tile, OPENING, placed.inward, placed.shows, placed.turn, placed.position
            )
        found = remember(_OPENINGS, key, (geometry, tile, board, move))
    return found


def _open_with(rules: RuleSet, tile: Tile) -> PlaceMove:
    return _opening(rules, tile, tile.a)[3]


def placements(state: GameState, mask: int) -> list[PlaceMove]:
    """
    Every placement of a tile of ``mask`` on the board, in a fixed order:
    by end, then tile index, then inward face, named value and turn.  On an empty
    board with no set opening tile, any tile of ``mask`` may open the round.
    """
    rules = state.context.rules
    tileset = rules.tileset
    board = state.board
    if not board.placements:
        tiles = tileset.tiles
        return [_open_with(rules, tiles[i]) for i in indices(mask)]
    listing = rules.listing
    if listing == LIST_STRAIGHT:
        return list(_straight_placements(tileset, board.ends, mask))
    if listing == LIST_BEND:
        return list(_bend_legal(rules, board.ends, mask))
    return _general_placements(rules, board, mask)


def _bend_legal(rules: RuleSet, ends: tuple[End, ...], mask: int) -> tuple[Place, ...]:
    """:func:`_bend_placements` less the uneven closings the rules forbid."""
    if rules.even_closing:
        joints = bend_joints(ends)
        if joints:
            return _bend_closing(rules.tileset, ends, mask, joints)
    return _bend_placements(rules.tileset, ends, mask)


def _even_only(
    places: Sequence[Place], joints: tuple[tuple[int, int, int], ...], ends: Sequence[End]
) -> tuple[Place, ...]:
    """
    ``places`` without the placements that would close the chain unevenly: those whose
    far end meets another open end (a joint ``(end, turn, met)``) showing another number.
    """
    wanted: dict[tuple[int, int], set[int]] = {}
    for e, turn, met in joints:
        wanted.setdefault((e, turn), set()).add(ends[met].value)
    return tuple(p for p in places if wanted.get((p.end, p.turn), {p.shows}) == {p.shows})


#: :func:`_bend_closing`'s filtered listings of one tile at a joint end: by the id of
#: the tile set (the value holds the tile set, so its id is not reused while memoised),
#: then by the key of :func:`_bend_placements` extended by the number a placement
#: turning LEFT must show and the number one turning RIGHT must show (-1: that turn
#: closes nothing; -2: it closes onto two ends showing different numbers).
_CLOSINGS: dict[int, tuple[TileSet, dict[tuple[int, ...], tuple[Place, ...]]]] = {}


def _closings_of(tileset: TileSet) -> dict[tuple[int, ...], tuple[Place, ...]]:
    """The memo of :func:`_bend_closing`'s filtered listings for ``tileset``."""
    held = _CLOSINGS.get(id(tileset))
    if held is None or held[0] is not tileset:
        held = remember(_CLOSINGS, id(tileset), (tileset, {}))
    return held[1]


def _bend_closing(
    tileset: TileSet,
    ends: tuple[End, ...],
    mask: int,
    joints: tuple[tuple[int, int, int], ...],
) -> tuple[Place, ...]:
    """
    :func:`_bend_placements` less the uneven closings, on a board where some placement
    would close the chain (``joints``): the same listing and memo, except that at a
    joint end each tile's placements are memoised already filtered.
    """
    # one end can close two ways (onto one end turning LEFT, onto another turning
    # RIGHT: issue 21 point 2); each turn's joint is checked
    rule = _needs(joints, ends)
    out: tuple[Place, ...] = ()
    fits = tileset._fit_masks
    memo = tileset._memo
    closings = _closings_of(tileset)
    for e, end in enumerate(ends):
        free = end.free
        value = end.value
        cand = mask & fits.get(value, _NO_FITS)[free] if free else 0
        if not cand:
            continue
        need = rule.get(e)
        while cand:
            low = cand & -cand
            cand ^= low
            # the key of _bend_placements (the same memo)
            key = (end.cell, end.side, e, free, value, low)
            if need is None:  # not a joint end: the plain memoised listing
                found = memo.get(key)
                if found is None:
                    found = remember(memo, key, _bend_at(tileset, end, e, low))
                out += found
                continue
            joint_key = (*key, *need)
            found = closings.get(joint_key)
            if found is None:
                kept = tuple(
                    p
                    for p in _bend_at(tileset, end, e, low)
                    if need[p.turn - LEFT] in (-1, p.shows)
                )
                found = remember(closings, joint_key, kept)
            out += found
    return out


def _needs(
    joints: tuple[tuple[int, int, int], ...], ends: Sequence[End]
) -> dict[int, tuple[int, int]]:
    """
    For each joint end, the number a placement turning LEFT must show there and the
    number one turning RIGHT must show (-1: no closing that way; -2: closings onto two
    ends of different numbers, so none is even).
    """
    rule: dict[int, list[int]] = {}
    for e, turn, met in joints:
        need = rule.setdefault(e, [-1, -1])
        value = ends[met].value
        slot = turn - LEFT
        need[slot] = value if need[slot] in (-1, value) else -2
    return {e: (left, right) for e, (left, right) in rule.items()}


def closes_unevenly(rules: RuleSet, board: Board, end: int, turn: int, shows: int) -> bool:
    """
    True when placing at ``end`` turning ``turn`` and showing ``shows`` would meet
    another open end that shows another number, and the rules want an even closing.
    """
    if not rules.even_closing:
        return False
    joints: tuple[tuple[int, int, int], ...] = rules.geometry.joints(board)  # type: ignore[attr-defined]
    # every joint of this end and turn must match (never stop at the first)
    return any(e == end and t == turn and board.ends[met].value != shows for e, t, met in joints)


def _bend_placements(tileset: TileSet, ends: tuple[End, ...], mask: int) -> tuple[Place, ...]:
    """:func:`placements` on a curved board of the built-in geometry with no wild face."""
    out: tuple[Place, ...] = ()
    fits = tileset._fit_masks
    memo = tileset._memo
    for e, end in enumerate(ends):
        free = end.free
        if not free:
            continue
        value = end.value
        cand = mask & fits.get(value, _NO_FITS)[free]
        # the placements of each tile at this end, memoised by (end slot, end number,
        # free turns, value, tile bit): the listing of a hand is a few lookups (speed:
        # +18 % / +32 % pure-Python instructions without the memo, docs/performance.md)
        while cand:
            low = cand & -cand
            cand ^= low
            key = (end.cell, end.side, e, free, value, low)
            found = memo.get(key)
            if found is None:
                found = remember(memo, key, _bend_at(tileset, end, e, low))
            out += found
    return out


def _bend_at(tileset: TileSet, end: End, e: int, cand: int) -> tuple[Place, ...]:
    """The placements of the tiles of ``cand`` (all carrying the end's value) at ``end``."""
    out = []
    value = end.value
    free = end.free
    for i in indices(cand):
        tile = tileset.tiles[i]
        flipped = tile.a != value
        allowed = free & tileset.turn_table[2 * i + flipped]
        shows = tile.a if flipped else tile.b
        if allowed & LEFT:
            out.append(_new_place(tile, e, value, shows, LEFT, end.left))
        if allowed & RIGHT:
            out.append(_new_place(tile, e, value, shows, RIGHT, end.right))
    return tuple(out)


def _straight_placements(tileset: TileSet, ends: tuple[End, ...], mask: int) -> tuple[Place, ...]:
    """:func:`placements` on a straight board with no wild face."""
    out: tuple[Place, ...] = ()
    faces = tileset._face_mask
    memo = tileset._memo
    for e, end in enumerate(ends):
        if not end.free:
            continue
        value = end.value
        cand = mask & faces.get(value, 0)
        if not cand:
            continue
        # the placements of the tiles ``cand`` at end ``e`` showing ``value``, memoised
        key = (cand, e, value)
        found = memo.get(key)
        if found is None:
            found = remember(memo, key, _straight_at(tileset, e, value, cand))
        out += found
    return out


def _straight_at(tileset: TileSet, e: int, value: int, cand: int) -> tuple[Place, ...]:
    """The placements of the tiles of ``cand`` (all carrying ``value``) at straight end ``e``."""
    out = []
    for i in indices(cand):
        tile = tileset.tiles[i]
        shows = tile.b if tile.a == value else tile.a
        out.append(_new_place(tile, e, value, shows, STRAIGHT, None))
    return tuple(out)


def _general_placements(rules: RuleSet, board: Board, mask: int) -> list[PlaceMove]:
    """
    :func:`placements` on a non-empty board with wild faces, or of a geometry other
    than the built-in straight line and bend lattice: the geometry lists them
    (:meth:`~bendolib.geometry.base.Geometry.placements`; a chain geometry without
    that method, written before it existed, through the chain rules), and under even
    closing a placement that would close the chain unevenly is left out.
    """
    geometry = rules.geometry
    own = getattr(geometry, "placements", None)
    out: list[PlaceMove]
    if own is None:
        out = list(chain_placements(geometry, board, rules.tileset, mask, rules.wild_faces))
    else:
        out = list(own(board, rules.tileset, mask, rules.wild_faces))
    joints_of = getattr(geometry, "joints", None)
    if out and rules.even_closing and joints_of is not None:
        joints = joints_of(board)
        if joints:
            # a geometry with joints is a chain geometry: its placements are Places
            return list(_even_only(cast("list[Place]", out), joints, board.ends))
    return out


def can_place(state: GameState, mask: int) -> bool:
    """True if some tile of ``mask`` can be placed on the board."""
    return _fits(state.rules, state.board, mask)


def _fits(rules: RuleSet, board: Board, mask: int) -> bool:
    """True if some tile of ``mask`` can be placed on ``board`` under ``rules``."""
    if not mask:
        return False
    if not board.placements:
        return True
    tileset = rules.tileset
    listing = rules.listing
    if listing == LIST_STRAIGHT:
        faces = tileset._face_mask
        for end in board.ends:  # noqa: SIM110 - a plain loop is faster than any()
            if end.free and mask & faces.get(end.value, 0):
                return True
        return False
    if listing == LIST_BEND:
        ends = board.ends
        if rules.even_closing:
            # as in legal_moves: two ends into one cell first, the joints only then
            a, b = ends[0].left, ends[-1].left
            same_cell = a is not None and b is not None and a.q == b.q and a.r == b.r
            if (len(ends) != 2 or same_cell) and bend_joints(ends):
                return bool(_bend_legal(rules, ends, mask))
        fits = tileset._fit_masks
        for end in ends:
            free = end.free
            if free and mask & fits.get(end.value, _NO_FITS)[free]:
                return True
        return False
    joints_of = getattr(rules.geometry, "joints", None)
    if rules.even_closing and joints_of is not None and joints_of(board):
        return bool(_general_placements(rules, board, mask))
    geometry = rules.geometry
    own = getattr(geometry, "fits", None)
    if own is None:  # a chain geometry written before the Geometry protocol had fits
        return chain_fits(geometry, board, tileset, mask, rules.wild_faces)
    return bool(own(board, tileset, mask, rules.wild_faces))
