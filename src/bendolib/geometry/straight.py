"""The straight geometry of classic rectangular dominoes: a line with two open ends."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from bendolib.geometry.board import Board, End, Placement
from bendolib.geometry.lattice import Position
from bendolib.moves import OPENING
from bendolib.tiles import BOTH, STRAIGHT, Tile


@attrs.frozen
class StraightGeometry:
    """
    Classic dominoes: no collision, an end is never blocked by the layout.

    Doubles laid crosswise are a matter of rendering only.
    """

    name: str = "straight"
    uses_bends: bool = False

    def open(self, tiles: Sequence[tuple[Tile, int]]) -> Board:
        """A single opening tile; its two faces are the two open ends."""
        if len(tiles) != 1:
            raise ValueError("a straight line opens with one tile")
        tile, first = tiles[0]
        second = tile.other(first)
        placement = Placement(tile, first, second, STRAIGHT, None, OPENING)
        return Board((placement,), (End(first, BOTH), End(second, BOTH)))

    def opening_position(self, tile: Tile, first: int) -> tuple[int, Position | None]:
        """A straight opening has no lattice position."""
        return STRAIGHT, None

    def place(
        self, board: Board, end: int, tile: Tile, inward: int, shows: int, turn: int
    ) -> Board:
        """Extend the line at ``end``; the end now shows ``shows``."""
        ends = list(board.ends)
        ends[end] = End(shows, BOTH)
        placement = Placement(tile, inward, shows, STRAIGHT, None, end)
        return Board(board.placements + (placement,), tuple(ends))

    def connected(self, board: Board, end: int) -> bool:
        """A straight line never closes."""
        return False


STRAIGHT_LINE = StraightGeometry()
