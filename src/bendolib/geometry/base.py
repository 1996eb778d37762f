"""The interface every board geometry implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bendolib.geometry.board import Board
from bendolib.geometry.lattice import Position
from bendolib.tiles import Tile


class Geometry(Protocol):
    """
    How tiles lie on the table: where an end leads and what blocks it.

    ``uses_bends`` is true when a tile's turning sense matters (the curved lattice).
    """

    @property
    def name(self) -> str:
        """A short name for the geometry."""
        ...

    @property
    def uses_bends(self) -> bool:
        """True when a tile's turning sense matters."""
        ...

    def open(self, tiles: Sequence[tuple[Tile, int]]) -> Board:
        """The board after the opening tiles, each given with the face read first."""
        ...

    def opening_position(self, tile: Tile, first: int) -> tuple[int, Position | None]:
        """The turn and position of a round's single opening tile."""
        ...

    def place(
        self, board: Board, end: int, tile: Tile, inward: int, shows: int, turn: int
    ) -> Board:
        """The board after placing ``tile`` at open end ``end``."""
        ...

    def connected(self, board: Board, end: int) -> bool:
        """True when open end ``end`` meets another open end (the chain has closed)."""
        ...
