"""
Where the pieces lie in millimetres, for pictures of a curved board (the SVG and
the text map): the measurements of a Bendomino and the lattice conventions of
:mod:`bendolib.geometry.lattice` turned into points, y pointing up.
"""

from __future__ import annotations

import math

__all__ = ["INNER", "OUTER", "SIDE", "cell_centre", "corner_point"]

#: Inner and outer radius of a curved tile, and the side of a lattice cell (mm).
INNER = 12.0
OUTER = 33.0
SIDE = INNER + OUTER

_SQRT3 = math.sqrt(3.0)


def cell_centre(q: int, r: int) -> tuple[float, float]:
    """Centre of cell ``(q, r)`` in mm, y pointing up (the lattice conventions)."""
    return 1.5 * SIDE * q, _SQRT3 * SIDE * (r + q / 2)


def corner_point(q: int, r: int, corner: int) -> tuple[float, float]:
    """Corner ``corner`` of cell ``(q, r)`` in mm, y up: the centre of a tile hugging it."""
    x, y = cell_centre(q, r)
    angle = math.radians(60 * corner)
    return x + SIDE * math.cos(angle), y + SIDE * math.sin(angle)
