"""The curved-tile geometry: Bendominoes on the hexagonal cell lattice."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from bendolib.geometry import lattice
from bendolib.geometry.board import Board, End, Placement
from bendolib.geometry.lattice import COLLISION_MASKS, Position
from bendolib.moves import OPENING
from bendolib.tiles import LEFT, RIGHT, Tile

#: Corners used by the opening tiles: one tile at corner 0 of the centre cell, or
#: two tiles back to back at opposite corners 0 and 3 (All Five).
_OPENING_CORNERS = (0, 3, 2, 5, 4, 1)


def _free(occupancy: int, cell: int, side: int) -> int:
    """Turn mask of the free positions beyond the end leaving ``cell`` through ``side``."""
    target = lattice.neighbor(cell, side)
    used = (occupancy >> (target * 6)) & 0b111111
    free = 0
    if not used & COLLISION_MASKS[(side + 3) % 6]:
        free |= LEFT
    if not used & COLLISION_MASKS[(side + 4) % 6]:
        free |= RIGHT
    return free


def _end(value: int, occupancy: int, cell: int, side: int) -> End:
    target = lattice.neighbor(cell, side)
    q, r = lattice.cell_coords(target)
    return End(
        value,
        _free(occupancy, cell, side),
        cell,
        side,
        Position(q, r, (side + 3) % 6),
        Position(q, r, (side + 4) % 6),
    )


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
class BendGeometry:
    """Curved tiles on the hexagonal lattice: fit, collision, dead ends, closed loops."""

    name: str = "bend"
    uses_bends: bool = True

    def open(self, tiles: Sequence[tuple[Tile, int]]) -> Board:
        """Opening tiles in the centre cell: one at corner 0, a second back to back."""
        if not 1 <= len(tiles) <= 3:
            raise ValueError("a curved opening has one to three tiles")
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
        old = board.ends[end]
        cell, corner, exit_side = lattice.extend(old.cell, old.side, turn)
        occupancy = board.occupancy | (1 << (cell * 6 + corner))
        new_end = _end(shows, occupancy, cell, exit_side)
        ends = list(board.ends)
        ends[end] = new_end
        for i, other in enumerate(ends):
            if i != end and other.free:
                free = _free(occupancy, other.cell, other.side)
                if free != other.free:
                    ends[i] = attrs.evolve(other, free=free)
        position = Position(*lattice.cell_coords(cell), corner)
        placement = Placement(tile, inward, shows, turn, position, end)
        return Board(board.placements + (placement,), tuple(ends), occupancy)

    def connected(self, board: Board, end: int) -> bool:
        """True when the end faces another open end across the same side."""
        e = board.ends[end]
        target = lattice.neighbor(e.cell, e.side)
        back = (e.side + 3) % 6
        return any(o.cell == target and o.side == back for o in board.ends)


BEND = BendGeometry()
