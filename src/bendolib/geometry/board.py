"""The board: tiles on the table and the open ends of the chain."""

from __future__ import annotations

import attrs

from bendolib.geometry.lattice import Position
from bendolib.tiles import Tile


@attrs.frozen
class End:
    """
    An open end of the chain.

    ``value`` is the number it shows; ``free`` the mask of turning senses (LEFT,
    RIGHT) whose position beyond it is free on a curved board, or ``BOTH`` on a
    straight one.  On a curved board the end leaves cell ``cell`` (spiral index)
    through side ``side``; ``left`` and ``right`` are the positions a tile turning
    that way would take.
    """

    value: int
    free: int
    cell: int = -1
    side: int = -1
    left: Position | None = None
    right: Position | None = None


@attrs.frozen
class Placement:
    """A tile on the table: which faces point in and out, how it turns, and where."""

    tile: Tile
    inward: int
    shows: int
    turn: int
    position: Position | None
    end: int


@attrs.frozen
class Board:
    """
    The table: placements in the order played, the open ends, the occupancy.

    ``occupancy`` is the bitmask of occupied lattice position keys (0 on a straight
    board).
    """

    placements: tuple[Placement, ...] = ()
    ends: tuple[End, ...] = ()
    occupancy: int = 0

    @property
    def is_empty(self) -> bool:
        """True before the first tile of the round."""
        return not self.placements

    @property
    def values(self) -> tuple[int, ...]:
        """The numbers shown by the open ends, in end order."""
        return tuple(e.value for e in self.ends)


EMPTY_BOARD = Board()
