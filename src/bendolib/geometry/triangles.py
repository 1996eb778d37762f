"""
The triangle geometry: triangular tiles laid in the cells of the triangular lattice
(Triominoes, Triangle Dominoes).

A tile goes in a free cell that shares at least one full edge with the layout, and
every corner it touches must carry the number that every tile meeting at that point
already shows (so along a shared edge both corner numbers match).  The board keeps
the number at each touched lattice point, the filled cells, and the **open edges**:
edges of placed tiles with a free cell across (:class:`OpenEdge`, the board's
``ends``).  docs/triangles.md describes the lattice; :mod:`~bendolib.geometry.trilattice`
holds its pure integer functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

import attrs

from bendolib._construct import fast_constructor
from bendolib._memo import remember
from bendolib.errors import RuleSetError
from bendolib.geometry import trilattice
from bendolib.geometry.board import Board, End, Placement
from bendolib.geometry.trilattice import ORIGIN, Cell, around, corners, neighbors
from bendolib.limits import MAX_TILES
from bendolib.moves import OPENING, PlaceInCell, PlaceMove
from bendolib.tiles import BOTH, STRAIGHT, Tile, TileSet, Triangle


@attrs.frozen
class TrianglePlacement(Placement):
    """
    A triangle on the table: in ``cell``, turned ``rotation`` steps clockwise, showing
    ``corners`` (the numbers at the cell's corners 0, 1, 2).

    The fields a chain :class:`~bendolib.geometry.board.Placement` has are filled so
    that code written for chains reads something harmless: ``inward`` and ``shows``
    are the numbers at corners 0 and 1, ``turn`` is ``STRAIGHT``, ``position`` None,
    ``end`` :data:`~bendolib.moves.OPENING` for the round's first tile and 0 after.
    """

    cell: Cell = ORIGIN
    rotation: int = 0
    corners: tuple[int, ...] = ()


@attrs.frozen
class OpenEdge(End):
    """
    An open edge of a triangle layout: edge ``side`` of the tile in cell ``cell`` (a
    cell key), with the free cell ``site`` (a cell key; :attr:`target` as a
    :class:`~bendolib.geometry.trilattice.Cell`) across it.

    ``values`` are the numbers at the edge's two ends, in the placed tile's clockwise
    order: a tile laid across shows them in the other order.  ``value`` (what code
    written for chain ends reads) is the first of them; ``free`` is ``BOTH``: the cell
    across is empty.
    """

    values: tuple[int, int] = (0, 0)
    site: int = 0

    @property
    def target(self) -> Cell:
        """The free cell across the edge."""
        return Cell.from_key(self.site)

    @property
    def tile_cell(self) -> Cell:
        """The cell of the placed tile whose edge this is."""
        return Cell.from_key(self.cell)


@attrs.frozen
class TriangleBoard(Board):
    """
    A triangle layout: the placements in the order played (:class:`TrianglePlacement`)
    and the open edges (``ends``, :class:`OpenEdge`).  The derived tables (equal
    boards have equal ones) are ``numbers`` (point key to the number shown there),
    ``filled`` (cell key to the index of its placement), ``sites`` (the keys of
    the free cells with an open edge, in the order of their first open edge) and
    ``patterns``.
    """

    numbers: Mapping[int, int] = attrs.field(factory=dict, eq=False, repr=False)
    filled: Mapping[int, int] = attrs.field(factory=dict, eq=False, repr=False)
    sites: tuple[int, ...] = attrs.field(default=(), eq=False, repr=False)
    patterns: tuple[tuple[int, int, int], ...] = attrs.field(default=(), eq=False, repr=False)
    """The numbers each site's corners must show (-1: any), in the order of ``sites``."""

    @property
    def edges(self) -> tuple[OpenEdge, ...]:
        """The open edges (the ``ends``), typed as such."""
        return tuple(e for e in self.ends if isinstance(e, OpenEdge))

    def number_at(self, point: int) -> int:
        """The number shown at lattice point key ``point``, or -1 where no tile touches."""
        return self.numbers.get(point, -1)

    def cell_numbers(self, cell: int) -> tuple[int, int, int]:
        """The numbers at the corners of cell key ``cell`` (-1 where no tile touches)."""
        get = self.numbers.get
        c0, c1, c2 = corners(cell)
        return get(c0, -1), get(c1, -1), get(c2, -1)


_new_board = fast_constructor(TriangleBoard)
_new_placement = fast_constructor(TrianglePlacement)
_new_edge = fast_constructor(OpenEdge)
_new_move = fast_constructor(PlaceInCell)

#: A corner pattern: the numbers a free cell's corners must show (-1: any).
Pattern = tuple[int, int, int]
#: The fits of each corner pattern: a mask of the tiles that fit, and their (tile
#: index, rotation) in order, each way a tile reads once (a triple once).
Fits = dict[Pattern, tuple[int, tuple[tuple[int, int], ...]]]
_NO_FIT: tuple[int, tuple[tuple[int, int], ...]] = (0, ())
#: Per tile set (by id, the set kept alive beside it): its fits, and the moves already
#: built, by ``(cell key * MAX_TILES + tile index) * 4 + rotation`` (one key per move of
#: any tile set the library accepts; the compiled step paths, _kernel.d/tri_step.c, build
#: the same keys).
_TABLES: dict[int, tuple[TileSet, Fits, dict[int, PlaceInCell]]] = {}


def _tables(tileset: TileSet) -> tuple[TileSet, Fits, dict[int, PlaceInCell]]:
    found = _TABLES.get(id(tileset))
    if found is None:
        found = remember(_TABLES, id(tileset), (tileset, _fits(tileset), {}))
    return found


def _fits(tileset: TileSet) -> Fits:
    """
    For every pattern some tile of ``tileset`` fits: the tiles that fit it.  A tile
    turned some way fits the pattern of its three numbers and the seven patterns with
    some of them left free (-1).
    """
    lists: dict[Pattern, list[tuple[int, int]]] = {}
    for i, tile in enumerate(tileset.tiles):
        seen: set[tuple[int, ...]] = set()
        for rotation in range(3):
            shown = _turned(tile, rotation)
            if shown in seen:
                continue  # a triple reads the same turned any way: listed once
            seen.add(shown)
            for free in range(8):
                pattern = tuple(-1 if free >> k & 1 else shown[k] for k in range(3))
                lists.setdefault((pattern[0], pattern[1], pattern[2]), []).append((i, rotation))
    fits: Fits = {}
    for pattern, found in lists.items():
        mask = 0
        for i, _ in found:
            mask |= 1 << i
        fits[pattern] = (mask, tuple(found))
    return fits


def _turned(tile: Tile, rotation: int) -> tuple[int, ...]:
    faces = tile.faces
    return tuple(faces[(k - rotation) % 3] for k in range(3))


@attrs.frozen
class TriangleGeometry:
    """
    Triangles on the triangular lattice: the fit test, the open edges, hexagons and
    bridges.  Moves are :class:`~bendolib.moves.PlaceInCell`; the round's first tile
    lies in cell ``U(0, 0)``.  No face is wild on triangles.
    """

    name: str = "triangles"
    uses_bends: bool = False

    def check_tileset(self, tileset: TileSet) -> None:
        """Raise RuleSetError unless every tile of ``tileset`` is a triangle."""
        if not all(isinstance(t, Triangle) for t in tileset.tiles):
            raise RuleSetError(f"the triangle geometry lays triangles: {tileset.name} has others")

    def open(self, tiles: Sequence[tuple[Tile, int]]) -> TriangleBoard:
        """One tile in cell ``U(0, 0)``, turned so that corner 0 shows face ``first``."""
        if len(tiles) != 1:
            raise ValueError("a triangle layout opens with one tile")
        return self.opening(*tiles[0])[0]

    def opening(self, tile: Tile, first: int) -> tuple[TriangleBoard, PlaceInCell]:
        """The board with ``tile`` alone in ``U(0, 0)``, face ``first`` at corner 0; its move."""
        rotation = (-tile.faces.index(first)) % 3
        move = PlaceInCell(tile, ORIGIN, rotation)
        return self.play(TriangleBoard(), move), move

    def placements(
        self, board: Board, tileset: TileSet, mask: int, wild: frozenset[int]
    ) -> tuple[PlaceInCell, ...]:
        """
        Every placement of a tile of ``mask`` in a free cell with an open edge, in a
        fixed order: by cell (in the order of :attr:`TriangleBoard.sites`), then tile
        index, then rotation (a triple once).
        """
        if wild:
            raise RuleSetError("no face is wild on triangles")
        if not isinstance(board, TriangleBoard):
            raise TypeError(f"not a triangle board: {board!r}")
        _, fits, moves = _tables(tileset)
        out: list[PlaceInCell] = []
        for site, pattern in zip(board.sites, board.patterns):  # noqa: B905 - same length
            found = fits.get(pattern, _NO_FIT)
            if not mask & found[0]:
                continue
            for i, rotation in found[1]:
                if mask >> i & 1:
                    key = (site * MAX_TILES + i) * 4 + rotation
                    move = moves.get(key)
                    if move is None:
                        cell = Cell.from_key(site)
                        move = remember(moves, key, _new_move(tileset.tiles[i], cell, rotation))
                    out.append(move)
        return tuple(out)

    def fits(self, board: Board, tileset: TileSet, mask: int, wild: frozenset[int]) -> bool:
        """True when some tile of ``mask`` fits some free cell with an open edge."""
        if not isinstance(board, TriangleBoard):
            raise TypeError(f"not a triangle board: {board!r}")
        fits = _tables(tileset)[1]
        for pattern in board.patterns:  # noqa: SIM110 - a plain loop is faster than any()
            if mask & fits.get(pattern, _NO_FIT)[0]:
                return True
        return False

    def play(self, board: Board, move: PlaceMove) -> TriangleBoard:
        """The board after laying a tile in a cell (no check: lay only listed moves)."""
        if not isinstance(move, PlaceInCell):
            raise TypeError(
                f"the triangle geometry lays tiles in cells (PlaceInCell), not {move!r}"
            )
        if not isinstance(board, TriangleBoard):
            board = TriangleBoard()
        cell = move.cell.key
        shown = move.corners
        points = corners(cell)
        numbers = dict(board.numbers)
        numbers[points[0]], numbers[points[1]], numbers[points[2]] = shown
        filled = dict(board.filled)
        filled[cell] = len(board.placements)
        # a triangle board's ends are all open edges; those into the new tile's cell close
        ends = [e for e in cast(tuple[OpenEdge, ...], board.ends) if e.site != cell]
        fresh = []
        for k, beyond in enumerate(neighbors(cell)):
            if beyond not in filled:
                pair = (shown[k], shown[(k + 1) % 3])
                ends.append(_new_edge(pair[0], BOTH, cell, k, None, None, pair, beyond))
                fresh.append(beyond)
        # the sites keep the order of their first open edge: the old ones but the new
        # tile's cell, then the new ones; a site's pattern changes only when the new tile
        # touches one of its corners
        get = numbers.get
        touched = {*around(points[0]), *around(points[1]), *around(points[2])}
        sites = []
        patterns = []
        for site, pattern in zip(board.sites, board.patterns):  # noqa: B905 - same length
            if site == cell:
                continue
            if site in touched:
                c0, c1, c2 = corners(site)
                pattern = (get(c0, -1), get(c1, -1), get(c2, -1))
            sites.append(site)
            patterns.append(pattern)
        for site in fresh:
            if site not in sites:
                c0, c1, c2 = corners(site)
                sites.append(site)
                patterns.append((get(c0, -1), get(c1, -1), get(c2, -1)))
        first = OPENING if not board.placements else 0
        placement = _new_placement(
            move.tile, shown[0], shown[1], STRAIGHT, None, first, move.cell, move.rotation, shown
        )
        return _new_board(
            (*board.placements, placement),
            tuple(ends),
            0,
            numbers,
            filled,
            tuple(sites),
            tuple(patterns),
        )

    def connected(self, board: Board, end: int) -> bool:
        """A triangle layout never closes an edge against another: always False."""
        return False

    # -- open edges --------------------------------------------------------------------

    def fitting(self, tileset: TileSet, pattern: Pattern) -> int:
        """
        The mask of the tiles of ``tileset`` that fit a cell whose corners must show
        ``pattern`` (-1: any number).
        """
        return _tables(tileset)[1].get(pattern, _NO_FIT)[0]

    def classify_end(self, board: Board, end: int, tileset: TileSet, remaining: int) -> str | None:
        """
        Whether open edge ``end`` can still take a tile of ``remaining`` (the tiles
        not on the board): None if so, else the blocked reason's letter: ``"C"`` no
        tile of the whole set fits the cell across (a hole for good), ``"A"`` no
        remaining tile shows the edge's two numbers side by side in the right order,
        ``"B"`` some does, but none fits the cell's other corner too.
        """
        edge = board.ends[end]
        if not isinstance(edge, OpenEdge) or not isinstance(board, TriangleBoard):
            raise TypeError(f"not an open edge of a triangle board: {edge!r}")
        cell = board.cell_numbers(edge.site)
        if not self.fitting(tileset, cell):
            return "C"
        back = trilattice.across(bool(edge.cell & 1), edge.side)
        along = [-1, -1, -1]
        along[back], along[(back + 1) % 3] = edge.values[1], edge.values[0]
        if not remaining & self.fitting(tileset, (along[0], along[1], along[2])):
            return "A"
        if not remaining & self.fitting(tileset, cell):
            return "B"
        return None

    # -- what a placement made ------------------------------------------------------

    def hexagons(self, board: TriangleBoard, cell: Cell) -> int:
        """How many corners of ``cell`` have all six cells round them filled (0 to 3)."""
        filled = board.filled
        return sum(1 for point in corners(cell.key) if all(c in filled for c in around(point)))

    def is_bridge(self, board: TriangleBoard, cell: Cell) -> bool:
        """
        True when the tile in ``cell`` touches the rest of the layout by exactly one
        edge and by the corner opposite that edge (another tile meets it only there).
        """
        filled = board.filled
        key = cell.key
        shared = [k for k, beyond in enumerate(neighbors(key)) if beyond in filled]
        if len(shared) != 1:
            return False
        opposite = corners(key)[(shared[0] + 2) % 3]
        return any(c in filled for c in around(opposite) if c != key)

    def why_not(self, board: Board, move: PlaceInCell) -> str:
        """Why ``move`` (a tile the player may lay) cannot go where it says."""
        if not isinstance(board, TriangleBoard) or not board.placements:
            return f"the round opens in cell {ORIGIN}"
        key = move.cell.key
        if key in board.filled:
            return f"cell {move.cell} is taken"
        if key not in board.sites:
            return f"cell {move.cell} shares no edge with the layout"
        for k, (want, got) in enumerate(zip(board.cell_numbers(key), move.corners, strict=True)):
            if want >= 0 and want != got:
                return f"corner {k} of cell {move.cell} shows {want}, the tile {got} there"
        if move.rotation not in (0, 1, 2):
            return f"a triangle turns 0, 1 or 2 steps, not {move.rotation}"
        return f"a triple reads the same turned any way: {move.tile} is listed with rotation 0"


TRIANGLES_GEOMETRY = TriangleGeometry()

__all__ = [
    "TRIANGLES_GEOMETRY",
    "OpenEdge",
    "TriangleBoard",
    "TriangleGeometry",
    "TrianglePlacement",
]
