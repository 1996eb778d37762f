"""
Chain geometries: tiles joined end to end, each laid against an open end of the chain
(the straight line and the bend lattice).  :class:`ChainGeometry` gives such a
geometry the whole :class:`~bendolib.geometry.base.Geometry` interface from three
methods of its own: ``open``, ``place`` and ``connected``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from bendolib.errors import RuleSetError
from bendolib.geometry.board import Board

if TYPE_CHECKING:
    from bendolib.geometry.base import Geometry
from bendolib.geometry.lattice import Position
from bendolib.moves import OPENING, Place, PlaceMove
from bendolib.tiles import LEFT, RIGHT, STRAIGHT, Tile, TileSet, Triangle, indices


class ChainGeometry:
    """
    The base of a chain geometry.

    A subclass defines ``name``, ``uses_bends`` and three methods:

    * ``open(tiles)``: the board after the opening tiles;
    * ``place(board, end, tile, inward, shows, turn)``: the board after laying
      ``tile`` with face ``inward`` against open end ``end``, the new end showing
      ``shows``, turning ``turn`` (``STRAIGHT`` unless ``uses_bends``);
    * ``connected(board, end)``: whether an end meets another (the chain closed);

    and inherits the listing of placements (wild faces included), the fit test and
    :meth:`play`.  An open end takes a tile while its ``free`` turn mask is not 0.
    """

    __slots__ = ()
    name: str
    uses_bends: bool

    def open(self, tiles: Sequence[tuple[Tile, int]]) -> Board:
        """The board after the opening tiles, each given with the face read first."""
        raise NotImplementedError

    def place(
        self, board: Board, end: int, tile: Tile, inward: int, shows: int, turn: int
    ) -> Board:
        """The board after placing ``tile`` at open end ``end``."""
        raise NotImplementedError

    def connected(self, board: Board, end: int) -> bool:
        """True when open end ``end`` meets another open end (the chain has closed)."""
        raise NotImplementedError

    def opening_position(self, tile: Tile, first: int) -> tuple[int, Position | None]:
        """The turn and lattice position of a round's single opening tile."""
        placed = self.open([(tile, first)]).placements[0]
        return placed.turn, placed.position

    def opening(self, tile: Tile, first: int) -> tuple[Board, Place]:
        """The board with ``tile`` alone opening the round, and the move that lays it."""
        board = self.open([(tile, first)])
        placed = board.placements[0]
        return board, Place(
            tile, OPENING, placed.inward, placed.shows, placed.turn, placed.position
        )

    def placements(
        self, board: Board, tileset: TileSet, mask: int, wild: frozenset[int]
    ) -> list[Place]:
        """Every placement of a tile of ``mask`` at an open end (see :func:`chain_placements`)."""
        return chain_placements(self, board, tileset, mask, wild)

    def fits(self, board: Board, tileset: TileSet, mask: int, wild: frozenset[int]) -> bool:
        """True when some tile of ``mask`` can be laid at an open end."""
        return chain_fits(self, board, tileset, mask, wild)

    def play(self, board: Board, move: PlaceMove) -> Board:
        """The board after a placement at an open end (or the opening)."""
        if not isinstance(move, Place):
            raise TypeError(f"a chain geometry lays tiles at ends (Place), not {move!r}")
        if move.end == OPENING:
            return self.opening(move.tile, move.inward)[0]
        return self.place(board, move.end, move.tile, move.inward, move.shows, move.turn)

    def check_tileset(self, tileset: TileSet) -> None:
        """Raise RuleSetError for a set with triangles: a chain joins two-faced tiles."""
        if any(isinstance(t, Triangle) for t in tileset.tiles):
            raise RuleSetError(f"the {self.name} geometry joins dominoes, not triangles")


def chain_placements(
    geometry: object,
    board: Board,
    tileset: TileSet,
    mask: int,
    wild: frozenset[int],
) -> list[Place]:
    """
    The placements of the tiles of ``mask`` at the open ends of a non-empty chain, in
    a fixed order: by end, then tile index, inward face, named value and turn.  A face
    in ``wild`` matches any end, and an outward wild face shows any value the player
    names (0 to the set's top); on a curved board a tile turns only into a free
    position, the way it bends read from its inward face.
    """
    tiles = tileset.tiles
    wild_mask = _wild_mask(tileset, wild)
    bends = bool(getattr(geometry, "uses_bends", False))
    values = range(tileset.top + 1)
    out: list[Place] = []
    for e, end in enumerate(board.ends):
        if not end.free:
            continue
        value = end.value
        cand = mask & (tileset.with_face(value) | wild_mask)
        for i in indices(cand):
            tile = tiles[i]
            faces = (tile.a,) if tile.a == tile.b else (tile.a, tile.b)
            for inward in faces:
                if inward != value and inward not in wild:
                    continue
                outward = tile.other(inward) if tile.a != tile.b else inward
                shown = values if outward in wild else (outward,)
                if bends:
                    allowed = end.free & tile.turn_from(inward)
                    for shows in shown:
                        if allowed & LEFT:
                            out.append(Place(tile, e, inward, shows, LEFT, end.left))
                        if allowed & RIGHT:
                            out.append(Place(tile, e, inward, shows, RIGHT, end.right))
                else:
                    for shows in shown:
                        out.append(Place(tile, e, inward, shows, STRAIGHT, None))
    return out


def chain_fits(
    geometry: object,
    board: Board,
    tileset: TileSet,
    mask: int,
    wild: frozenset[int],
) -> bool:
    """True when :func:`chain_placements` would list some placement."""
    wild_mask = _wild_mask(tileset, wild)
    bends = bool(getattr(geometry, "uses_bends", False))
    for end in board.ends:
        if not end.free:
            continue
        cand = mask & (tileset.with_face(end.value) | wild_mask)
        if not cand:
            continue
        if not bends:
            return True
        for i in indices(cand):
            tile = tileset.tiles[i]
            for inward in (tile.a, tile.b):
                if (inward == end.value or inward in wild) and end.free & tile.turn_from(inward):
                    return True
    return False


def as_chain(geometry: Geometry) -> ChainGeometry:
    """``geometry`` seen as a chain geometry, for code that runs on chains only (no check)."""
    return cast(ChainGeometry, geometry)


def _wild_mask(tileset: TileSet, wild: frozenset[int]) -> int:
    mask = 0
    for face in wild:
        mask |= tileset.with_face(face)
    return mask
