"""The straight geometry of classic rectangular dominoes: a line with two open ends."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from bendolib._construct import fast_constructor
from bendolib._memo import remember
from bendolib.geometry.board import Board, End, Placement
from bendolib.geometry.chain import ChainGeometry
from bendolib.geometry.lattice import Position
from bendolib.moves import OPENING
from bendolib.tiles import BOTH, STRAIGHT, Tile

#: The open end showing each value (immutable, shared by every board).
_OPEN_ENDS = {value: End(value, BOTH) for value in range(-3, 100)}
_new_placement = fast_constructor(Placement)
#: Placements already built (immutable, shared by every board; a bounded memo table).
_PLACEMENTS: dict[tuple[int, int, int, int], Placement] = {}
_new_board = fast_constructor(Board)


@attrs.frozen
class StraightGeometry(ChainGeometry):
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
        old = board.ends
        new = _OPEN_ENDS.get(shows) or End(shows, BOTH)
        ends: tuple[End, ...]
        if len(old) == 2:
            ends = (new, old[1]) if end == 0 else (old[0], new)
        else:
            ends = old[:end] + (new,) + old[end + 1 :]
        key = (id(tile), inward, shows, end)
        placement = _PLACEMENTS.get(key)
        if placement is None:
            # the placement holds ``tile``, so its id is not reused while it is memoised
            placement = remember(
                _PLACEMENTS, key, _new_placement(tile, inward, shows, STRAIGHT, None, end)
            )
        return _new_board(board.placements + (placement,), ends, 0)

    def connected(self, board: Board, end: int) -> bool:
        """A straight line never closes."""
        return False


STRAIGHT_LINE = StraightGeometry()
