"""The interface every board geometry implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from bendolib.geometry.board import Board
from bendolib.tiles import Tile, TileSet

if TYPE_CHECKING:
    from bendolib.moves import PlaceMove


class Geometry(Protocol):
    """
    How tiles lie on the table: the opening, where the tiles of a hand can go, and
    the board after a placement.  The straight line, the bend lattice and the
    triangles all implement it, and the engine asks nothing else of a geometry.

    A chain geometry (tiles joined end to end, moves :class:`~bendolib.moves.Place`)
    can subclass :class:`~bendolib.geometry.chain.ChainGeometry` and write only
    ``open``, ``place`` and ``connected``; a geometry of its own kind of move lists
    and plays them itself (the triangles' :class:`~bendolib.moves.PlaceInCell`).
    docs/architecture.md shows a fourth geometry written by a user.
    """

    @property
    def name(self) -> str:
        """A short name for the geometry."""
        ...

    @property
    def uses_bends(self) -> bool:
        """True when a tile's turning sense matters (the bend lattice)."""
        ...

    def open(self, tiles: Sequence[tuple[Tile, int]]) -> Board:
        """The board after the opening tiles, each given with the face read first."""
        ...

    def opening(self, tile: Tile, first: int) -> tuple[Board, PlaceMove]:
        """
        The board with ``tile`` alone opening the round (face ``first`` read first),
        and the move that lays it.
        """
        ...

    def placements(
        self, board: Board, tileset: TileSet, mask: int, wild: frozenset[int]
    ) -> Sequence[PlaceMove]:
        """
        Every placement of a tile of ``mask`` (indices into ``tileset``) on a board
        that is not empty, in a fixed order; faces in ``wild`` match any number.
        """
        ...

    def fits(self, board: Board, tileset: TileSet, mask: int, wild: frozenset[int]) -> bool:
        """True when :meth:`placements` would list some move (a quicker test)."""
        ...

    def play(self, board: Board, move: PlaceMove) -> Board:
        """The board after a listed placement (the opening too, on an empty board)."""
        ...

    def connected(self, board: Board, end: int) -> bool:
        """True when open end ``end`` meets another open end (a chain closed on itself)."""
        ...

    def check_tileset(self, tileset: TileSet) -> None:
        """
        Raise :class:`~bendolib.errors.RuleSetError` unless this geometry can lay
        the tiles of ``tileset``.
        """
        ...
