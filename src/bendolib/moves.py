"""Moves: placing a tile, drawing, passing, and dealing the next round."""

from __future__ import annotations

import attrs

from bendolib.geometry.lattice import Position
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


Move = Place | Draw | Pass | NextRound

DRAW = Draw()
PASS = Pass()
NEXT_ROUND = NextRound()
