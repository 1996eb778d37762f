"""Moves: placing a tile (at an end, or in a cell), drawing, passing, and dealing the next round."""

from __future__ import annotations

import attrs

from bendolib.geometry.lattice import Position
from bendolib.geometry.trilattice import Cell
from bendolib.tiles import TURN_LETTERS, Tile, face_str

#: ``end`` of the placement that opens a round (the first tile on an empty table).
OPENING = -1


@attrs.frozen
class Place:
    """
    Place ``tile`` from the hand at open end ``end``.

    ``inward`` is the face laid against the end, ``shows`` the number the new end
    shows outward (the other face, or the value the player names for a wild face),
    ``turn`` the tile's turning sense on a curved board (``STRAIGHT`` otherwise) and
    ``position`` its lattice position (``None`` on a straight board).  ``end`` is
    :data:`OPENING` for the first tile of a round.
    """

    tile: Tile
    end: int
    inward: int
    shows: int
    turn: int
    position: Position | None = None

    def __str__(self) -> str:
        # never raises, even for a Place whose inward face is not on its tile (illegal)
        outward = self.tile.b if self.inward == self.tile.a else self.tile.a
        named = f"={face_str(self.shows)}" if outward != self.shows else ""
        body = f"{face_str(self.inward)}-{face_str(outward)}{named}"
        if self.end == OPENING:
            return f"{body}*"
        return f"{body}@{self.end}{TURN_LETTERS.get(self.turn, f'?{self.turn}')}"


@attrs.frozen
class PlaceInCell:
    """
    Lay ``tile`` from the hand in a free ``cell`` of a cell geometry (the triangles),
    turned ``rotation`` steps clockwise: corner ``k`` of the cell then shows the tile's
    face ``k - rotation`` (see :attr:`corners`).

    Written ``<corner 0>-<corner 1>-<corner 2>@<cell>``: the numbers the tile shows
    at the cell's corners, clockwise, then the cell, e.g. ``5-3-3@1,-1d``.
    """

    tile: Tile
    cell: Cell
    rotation: int

    @property
    def corners(self) -> tuple[int, ...]:
        """The numbers at the cell's corners 0, 1, 2... (clockwise) once the tile lies there."""
        faces = self.tile.faces
        n = len(faces)
        r = self.rotation % n
        return faces[n - r :] + faces[: n - r]  # face k - rotation at corner k

    def __str__(self) -> str:
        return f"{'-'.join(map(face_str, self.corners))}@{self.cell}"


@attrs.frozen
class Draw:
    """Draw from the stock (one tile, or the rule set's batch size)."""

    def __str__(self) -> str:
        return "draw"


@attrs.frozen
class Pass:
    """Pass the turn."""

    def __str__(self) -> str:
        return "pass"


@attrs.frozen
class NextRound:
    """Deal the next round of the match (the only move once a round is over)."""

    def __str__(self) -> str:
        return "next"


Move = Place | PlaceInCell | Draw | Pass | NextRound
#: A move that lays a tile: at an open end of a chain, or in a cell.
PlaceMove = Place | PlaceInCell

DRAW = Draw()
PASS = Pass()
NEXT_ROUND = NextRound()
