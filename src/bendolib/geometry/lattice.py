"""
The hexagonal cell lattice of the bend geometry: pure integer functions.

Conventions (see docs/geometry.md):

* Cells are regular hexagons with side 45 (mm), in *axial* coordinates ``(q, r)``,
  flat-topped: cell ``(q, r)`` has its centre at ``x = 1.5 q``, ``y = sqrt(3) (r + q/2)``
  (in units of the side length, y pointing up).
* Corner ``k`` (0..5) of a cell lies at angle ``60 k`` degrees from its centre;
  side ``k`` joins corners ``k`` and ``k + 1`` and faces the neighbour ``DIRECTIONS[k]``.
* A tile at position ``(cell, corner c)`` hugs corner ``c``: its straight ends lie
  on sides ``c - 1`` and ``c``.  Read from side ``c - 1`` to side ``c`` it turns right
  (clockwise about the corner); read from side ``c`` to side ``c - 1`` it turns left.
* Two tiles overlap iff they are in the same cell at the same or adjacent corners.

Cells are also numbered by a spiral index (0 is the origin, then ring by ring), and a
position is the small integer ``cell_index * 6 + corner``; an occupancy set is a
Python int used as a bitmask over positions.
"""

from __future__ import annotations

import attrs

from bendolib.tiles import LEFT, RIGHT

#: Axial offset of the neighbour across side k (angles 30, 90, ..., 330 degrees).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

_coords: list[tuple[int, int]] = [(0, 0)]
_index: dict[tuple[int, int], int] = {(0, 0): 0}
_neighbors: list[int] = []
_radius = 0


def _grow(radius: int) -> None:
    """Extend the spiral numbering to every cell within ``radius`` of the origin."""
    global _radius
    while _radius < radius:
        d = _radius + 1
        q, r = d * DIRECTIONS[4][0], d * DIRECTIONS[4][1]
        for side in range(6):
            dq, dr = DIRECTIONS[side]
            for _ in range(d):
                _index[(q, r)] = len(_coords)
                _coords.append((q, r))
                q, r = q + dq, r + dr
        _radius = d
    # neighbour table for every cell whose neighbours are all numbered
    inner = 3 * (_radius - 1) * _radius + 1 if _radius else 0
    for cell in range(len(_neighbors) // 6, inner):
        q, r = _coords[cell]
        for dq, dr in DIRECTIONS:
            _neighbors.append(_index[(q + dq, r + dr)])


_grow(24)


def distance(q: int, r: int) -> int:
    """Hex distance of cell ``(q, r)`` from the origin."""
    return (abs(q) + abs(r) + abs(q + r)) // 2


def cell_index(q: int, r: int) -> int:
    """Spiral index of cell ``(q, r)``."""
    found = _index.get((q, r))
    if found is None:
        _grow(distance(q, r) + 1)
        found = _index[(q, r)]
    return found


def cell_coords(cell: int) -> tuple[int, int]:
    """Axial coordinates of the cell with spiral index ``cell``."""
    while cell >= len(_coords):
        _grow(_radius + 8)
    return _coords[cell]


def neighbor(cell: int, side: int) -> int:
    """Spiral index of the cell across ``side`` of ``cell``."""
    slot = cell * 6 + side
    if slot >= len(_neighbors):
        q, r = cell_coords(cell)
        _grow(distance(q, r) + 2)
    return _neighbors[slot]


def sides_of(corner: int) -> tuple[int, int]:
    """The two sides a tile at ``corner`` touches: ``(corner - 1, corner)`` mod 6."""
    return (corner + 5) % 6, corner


def extend(cell: int, side: int, turn: int) -> tuple[int, int, int]:
    """
    Extend an open end leaving ``cell`` through ``side`` with a tile turning ``turn``.

    Returns ``(new_cell, new_corner, exit_side)``: a left turn takes the corner of the
    new cell that continues a left-turning curve, a right turn the other one.
    """
    new_cell = neighbor(cell, side)
    if turn == LEFT:
        return new_cell, (side + 3) % 6, (side + 2) % 6
    if turn == RIGHT:
        return new_cell, (side + 4) % 6, (side + 4) % 6
    raise ValueError(f"a curved tile turns LEFT or RIGHT, not {turn!r}")


def turn_between(entry_side: int, corner: int) -> int:
    """Turning sense of a tile at ``corner`` entered through ``entry_side``."""
    before, after = sides_of(corner)
    if entry_side == before:
        return RIGHT
    if entry_side == after:
        return LEFT
    raise ValueError(f"side {entry_side} does not touch corner {corner}")


def position(cell: int, corner: int) -> int:
    """The integer key of position ``(cell, corner)``."""
    return cell * 6 + corner


#: For each corner, the bitmask of corners of the same cell that a tile there overlaps.
COLLISION_MASKS: tuple[int, ...] = tuple(
    (1 << ((c + 5) % 6)) | (1 << c) | (1 << ((c + 1) % 6)) for c in range(6)
)


def cell_corners(occupancy: int, cell: int) -> int:
    """The 6-bit mask of occupied corners of ``cell`` in an occupancy bitmask."""
    return (occupancy >> (cell * 6)) & 0b111111


def collides(occupancy: int, cell: int, corner: int) -> bool:
    """True if a tile at ``(cell, corner)`` would overlap a tile of ``occupancy``."""
    return bool((occupancy >> (cell * 6)) & COLLISION_MASKS[corner])


def overlaps(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """True if tiles at axial positions ``(q, r, corner)`` ``a`` and ``b`` overlap."""
    if a[:2] != b[:2]:
        return False
    return (a[2] - b[2]) % 6 in (0, 1, 5)


def joins(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """True if tiles at axial positions ``a`` and ``b`` meet flush, end to end."""
    qa, ra, ca = a
    qb, rb, cb = b
    for side in sides_of(ca):
        dq, dr = DIRECTIONS[side]
        if (qa + dq, ra + dr) == (qb, rb) and (side + 3) % 6 in sides_of(cb):
            return True
    return False


@attrs.frozen(order=True)
class Position:
    """A lattice position: cell ``(q, r)`` in axial coordinates, and ``corner`` 0..5."""

    q: int
    r: int
    corner: int

    @classmethod
    def from_key(cls, key: int) -> Position:
        """The position of an integer key ``cell_index * 6 + corner``."""
        q, r = cell_coords(key // 6)
        return cls(q, r, key % 6)

    @property
    def key(self) -> int:
        """The integer key of this position."""
        return cell_index(self.q, self.r) * 6 + self.corner

    def __str__(self) -> str:
        return f"({self.q},{self.r}):{self.corner}"
