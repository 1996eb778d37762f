"""
The triangular lattice of the triangle geometry: pure integer functions.

Conventions (see docs/triangles.md):

* Lattice **points** have integer coordinates ``(i, j)``: the point ``i * u + j * v``
  with ``u`` one side length to the right and ``v`` one side length at 60 degrees
  (up and to the right).  Nothing here needs a square root or a float.
* Each parallelogram ``(i, j), (i+1, j), (i+1, j+1), (i, j+1)`` holds two **cells**:
  the *up* triangle ``U(i, j)`` with corners ``(i, j)``, ``(i, j+1)``, ``(i+1, j)``
  and the *down* triangle ``D(i, j)`` with corners ``(i, j+1)``, ``(i+1, j+1)``,
  ``(i+1, j)``: in both, corners 0, 1, 2 go **clockwise** and corner 0 is the
  left-most (the lower-left corner of an up cell, the upper-left of a down cell).
* **Edge** ``k`` of a cell joins its corners ``k`` and ``k + 1``; the cell across it
  is :func:`neighbors` ``[k]``, where the same edge has the index
  :func:`across` ``(down, k)``.

Points and cells are also packed into small integers (the *keys* the geometry works
with): a point key is ``(i + OFFSET) * STRIDE + (j + OFFSET)``, a cell key is
``point_key(i, j) * 2 + down``.
"""

from __future__ import annotations

import attrs

from bendolib.errors import BendolibError

#: Coordinates range over ``-OFFSET < i, j < OFFSET`` (far more than any set of tiles
#: can reach from the origin).
OFFSET = 1 << 12
#: The step between two values of ``i`` in a point key.
STRIDE = 1 << 13


class LatticeRangeError(BendolibError, ValueError):
    """A point or cell lies beyond the coordinates the lattice numbers."""


def point_key(i: int, j: int) -> int:
    """The integer key of point ``(i, j)``."""
    if not (-OFFSET < i < OFFSET and -OFFSET < j < OFFSET):
        raise LatticeRangeError(f"point ({i}, {j}) is off the lattice (|i|, |j| < {OFFSET})")
    return (i + OFFSET) * STRIDE + (j + OFFSET)


def point_coords(key: int) -> tuple[int, int]:
    """The coordinates ``(i, j)`` of a point key."""
    return key // STRIDE - OFFSET, key % STRIDE - OFFSET


def cell_key(i: int, j: int, down: bool) -> int:
    """The integer key of cell ``U(i, j)`` (``down`` false) or ``D(i, j)``."""
    return point_key(i, j) * 2 + (1 if down else 0)


def cell_coords(key: int) -> tuple[int, int, bool]:
    """The coordinates ``(i, j, down)`` of a cell key."""
    i, j = point_coords(key >> 1)
    return i, j, bool(key & 1)


def corners(cell: int) -> tuple[int, int, int]:
    """The point keys of a cell's corners 0, 1, 2 (clockwise)."""
    p = cell >> 1
    if cell & 1:
        return p + 1, p + STRIDE + 1, p + STRIDE
    return p, p + 1, p + STRIDE


def neighbors(cell: int) -> tuple[int, int, int]:
    """The cell keys across a cell's edges 0, 1, 2 (edge ``k`` joins corners ``k``, ``k+1``)."""
    p = cell >> 1
    if cell & 1:
        return (p + 1) * 2, (p + STRIDE) * 2, p * 2
    return (p - STRIDE) * 2 + 1, p * 2 + 1, (p - 1) * 2 + 1


def across(down: bool, edge: int) -> int:
    """The index, in the neighbouring cell, of edge ``edge`` of an up (or down) cell."""
    return (edge + 2) % 3 if down else (edge + 1) % 3


def around(point: int) -> tuple[int, int, int, int, int, int]:
    """The six cells that have ``point`` as a corner, counter-clockwise from ``U(i, j)``."""
    return (
        point * 2,
        (point - STRIDE) * 2 + 1,
        (point - STRIDE) * 2,
        (point - STRIDE - 1) * 2 + 1,
        (point - 1) * 2,
        (point - 1) * 2 + 1,
    )


@attrs.frozen(order=True)
class Cell:
    """A cell of the triangular lattice: ``U(x, y)`` or, with ``down``, ``D(x, y)``."""

    x: int
    y: int
    down: bool = False

    @classmethod
    def from_key(cls, key: int) -> Cell:
        """The cell of an integer key."""
        return cls(*cell_coords(key))

    @property
    def key(self) -> int:
        """The integer key of this cell."""
        return cell_key(self.x, self.y, self.down)

    def __str__(self) -> str:
        return f"{self.x},{self.y}{'d' if self.down else 'u'}"


#: The cell of a round's first tile.
ORIGIN = Cell(0, 0, False)
