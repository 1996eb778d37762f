"""The curved-tile geometry: Bendominoes on the hexagonal cell lattice."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from bendolib._construct import fast_constructor
from bendolib._memo import remember
from bendolib.geometry import lattice
from bendolib.geometry.board import Board, End, Placement
from bendolib.geometry.chain import ChainGeometry
from bendolib.geometry.lattice import COLLISION_MASKS, Position
from bendolib.moves import OPENING
from bendolib.tiles import LEFT, RIGHT, Tile

#: Corners used by the opening tiles: one tile at corner 0 of the centre cell, or
#: two tiles back to back at opposite corners 0 and 3 (All Five).
_OPENING_CORNERS = (0, 3, 2, 5, 4, 1)


#: Per end slot ``cell * 6 + side``: the cell beyond it, its left and right positions,
#: and the corners (as bit masks) that would collide with each.  Immutable lattice
#: facts, filled on first use.
_SLOTS: dict[int, tuple[int, Position, Position, int, int]] = {}
_new_end = fast_constructor(End)
_new_placement = fast_constructor(Placement)
_new_board = fast_constructor(Board)


def _slot(cell: int, side: int) -> tuple[int, Position, Position, int, int]:
    key = cell * 6 + side
    found = _SLOTS.get(key)
    if found is None:
        target = lattice.neighbor(cell, side)
        q, r = lattice.cell_coords(target)
        left, right = (side + 3) % 6, (side + 4) % 6
        found = (
            target,
            Position(q, r, left),
            Position(q, r, right),
            COLLISION_MASKS[left],
            COLLISION_MASKS[right],
        )
        _SLOTS[key] = found
    return found


#: Per end slot and turn (``2 * slot + (turn is RIGHT)``): the new tile's cell (where
#: the new end starts), its occupancy bit and position; the new end's side and slot, the
#: shift of the cell beyond it, and that cell's left and right positions and collision
#: masks.
_Step = tuple[int, int, Position, int, int, int, Position, Position, int, int]
_STEPS: dict[int, _Step] = {}


def _step(cell: int, side: int, turn: int) -> _Step:
    target, left, right, _, _ = _slot(cell, side)
    if turn == LEFT:
        corner, exit_side, position = (side + 3) % 6, (side + 2) % 6, left
    else:
        corner, exit_side, position = (side + 4) % 6, (side + 4) % 6, right
    beyond, beyond_left, beyond_right, left_hits, right_hits = _slot(target, exit_side)
    step = (
        target,
        target * 6 + corner,
        position,
        exit_side,
        target * 6 + exit_side,
        beyond * 6,
        beyond_left,
        beyond_right,
        left_hits,
        right_hits,
    )
    _STEPS[2 * (cell * 6 + side) + (turn == RIGHT)] = step
    return step


#: Ends and placements already built, by a packed key (immutable values, shared by
#: every board; bounded memo tables, see :mod:`bendolib._memo`).
_ENDS: dict[int, End] = {}
_PLACEMENTS: dict[tuple[int, int, int, int, int], Placement] = {}


def _end(value: int, occupancy: int, cell: int, side: int) -> End:
    slot = cell * 6 + side
    target, left, right, left_hits, right_hits = _SLOTS.get(slot) or _slot(cell, side)
    used = (occupancy >> (target * 6)) & 0b111111
    free = (0 if used & left_hits else LEFT) | (0 if used & right_hits else RIGHT)
    return _memo_end(value, free, cell, side, slot, left, right)


def _memo_end(
    value: int,
    free: int,
    cell: int,
    side: int,
    slot: int,
    left: Position | None,
    right: Position | None,
) -> End:
    """The end ``End(value, free, cell, side, left, right)``, shared when seen before."""
    if not -8 <= value < 56:
        return _new_end(value, free, cell, side, left, right)
    key = (slot * 4 + free) * 64 + value + 8
    end = _ENDS.get(key)
    if end is None:
        end = remember(_ENDS, key, _new_end(value, free, cell, side, left, right))
    return end


def _position(cell: int, corner: int) -> Position:
    q, r = lattice.cell_coords(cell)
    return Position(q, r, corner)


def _tile_orientation(tile: Tile, first: int) -> tuple[int, int]:
    """Faces (at side corner-1, at side corner) so that the tile reads right-turning."""
    second = tile.other(first)
    if tile.is_double or tile.turn_from(first) & RIGHT:
        return first, second
    return second, first


@attrs.frozen
class BendGeometry(ChainGeometry):
    """Curved tiles on the hexagonal lattice: fit, collision, dead ends, closed loops."""

    name: str = "bend"
    uses_bends: bool = True

    def open(self, tiles: Sequence[tuple[Tile, int]]) -> Board:
        """Opening tiles in the centre cell: one at corner 0, a second back to back."""
        if not 1 <= len(tiles) <= 2:
            raise ValueError("a curved opening has one or two tiles (a third would overlap)")
        occupancy = 0
        placements = []
        sides: list[tuple[int, int]] = []
        for n, (tile, first) in enumerate(tiles):
            corner = _OPENING_CORNERS[n]
            before, after = lattice.sides_of(corner)
            a, b = _tile_orientation(tile, first)
            occupancy |= 1 << corner
            placements.append(Placement(tile, a, b, RIGHT, _position(0, corner), OPENING))
            sides += [(a, before), (b, after)]
        ends = tuple(_end(value, occupancy, 0, side) for value, side in sides)
        return Board(tuple(placements), ends, occupancy)

    def opening_position(self, tile: Tile, first: int) -> tuple[int, Position | None]:
        """A single opening tile lies at corner 0 of the centre cell."""
        return RIGHT, _position(0, 0)

    def place(
        self, board: Board, end: int, tile: Tile, inward: int, shows: int, turn: int
    ) -> Board:
        """Place a tile at an open end; recompute which positions stay free."""
        ends = list(board.ends)
        old = ends[end]
        slot = old.cell * 6 + old.side
        if turn == LEFT:
            step = _STEPS.get(2 * slot) or _step(old.cell, old.side, LEFT)
        elif turn == RIGHT:
            step = _STEPS.get(2 * slot + 1) or _step(old.cell, old.side, RIGHT)
        else:
            raise ValueError(f"a curved tile turns LEFT or RIGHT, not {turn!r}")
        target, at, position, side, exit_slot, beyond, left, right, left_hits, right_hits = step
        occupancy = board.occupancy | (1 << at)
        # the new end, leaving the new tile's cell: which positions beyond it are free
        used = (occupancy >> beyond) & 0b111111
        free = (0 if used & left_hits else LEFT) | (0 if used & right_hits else RIGHT)
        ends[end] = _memo_end(shows, free, target, side, exit_slot, left, right)
        used = (occupancy >> (target * 6)) & 0b111111
        for i, other in enumerate(ends):
            # only an end leading into the new tile's cell can lose a free position
            if i == end or not other.free:
                continue
            other_slot = other.cell * 6 + other.side
            into = _SLOTS.get(other_slot) or _slot(other.cell, other.side)
            if into[0] == target:
                free = (0 if used & into[3] else LEFT) | (0 if used & into[4] else RIGHT)
                if free != other.free:
                    ends[i] = _memo_end(
                        other.value,
                        free,
                        other.cell,
                        other.side,
                        other_slot,
                        other.left,
                        other.right,
                    )
        # the position follows from the end's slot and the turn
        key = (id(tile), inward, shows, 2 * slot + (turn == RIGHT), end)
        placement = _PLACEMENTS.get(key)
        if placement is None:
            # the placement holds ``tile``, so its id is not reused while it is memoised
            placement = remember(
                _PLACEMENTS, key, _new_placement(tile, inward, shows, turn, position, end)
            )
        return _new_board(board.placements + (placement,), tuple(ends), occupancy)

    def connected(self, board: Board, end: int) -> bool:
        """True when the end faces another open end across the same side."""
        e = board.ends[end]
        target = lattice.neighbor(e.cell, e.side)
        back = (e.side + 3) % 6
        return any(o.cell == target and o.side == back for o in board.ends)

    def joints(self, board: Board) -> tuple[tuple[int, int, int], ...]:
        """The placements that would close the chain: see :func:`joints`."""
        return joints(board.ends)


BEND = BendGeometry()


def joints(ends: Sequence[End]) -> tuple[tuple[int, int, int], ...]:
    """
    The placements whose far end would meet another open end of the chain: one
    ``(end, turn, met)`` for each end ``end`` and turn ``turn`` that closes the chain
    onto end ``met`` (both ends connect, seeds' reason D).  Empty when no two ends
    lead into the same cell, as on almost every board.

    Two ends lead into one cell H from two of its sides; a tile laid from one of them
    at the corner between those sides leaves H through the other end's side: turning
    LEFT when the other side is the next one clockwise (side + 5), RIGHT when it is
    side + 1.
    """
    count = len(ends)
    if count == 2:
        # the common case, written out
        a, b = ends
        la, lb = a.left, b.left
        if la is None or lb is None or la.q != lb.q or la.r != lb.r:
            return ()
        step = (b.side - a.side) % 6
        if step == 5:
            return ((0, LEFT, 1), (1, RIGHT, 0))
        if step == 1:
            return ((0, RIGHT, 1), (1, LEFT, 0))
        return ()
    found: list[tuple[int, int, int]] = []
    for i in range(count):
        a = ends[i]
        if a.left is None:
            continue
        for j in range(i + 1, count):
            b = ends[j]
            if b.left is None or a.left.q != b.left.q or a.left.r != b.left.r:
                continue
            step = (b.side - a.side) % 6
            if step == 5:
                found += [(i, LEFT, j), (j, RIGHT, i)]
            elif step == 1:
                found += [(i, RIGHT, j), (j, LEFT, i)]
    return tuple(found)
