"""Hand-built triangle layouts and positions for the triangle tests (issue 15)."""

from __future__ import annotations

from collections.abc import Sequence

from bendolib import GameState
from bendolib.geometry import TRIANGLES_GEOMETRY, Cell, TriangleBoard
from bendolib.geometry.trilattice import ORIGIN, corners
from bendolib.moves import PlaceInCell
from bendolib.rules import RuleSet
from bendolib.tiles import TRIANGLES, Tile


def U(x: int, y: int) -> Cell:  # noqa: N802 - the docs' names for the cells
    return Cell(x, y, False)


def D(x: int, y: int) -> Cell:  # noqa: N802
    return Cell(x, y, True)


def lay(tile: str, cell: Cell, reading: Sequence[int] | None = None) -> PlaceInCell:
    """``tile`` in ``cell``, turned so that its corners read ``reading`` (clockwise from
    corner 0; the tile's own reading when left out)."""
    piece = TRIANGLES.parse_tile(tile)
    want = tuple(reading) if reading is not None else piece.faces
    for rotation in range(3):
        move = PlaceInCell(piece, cell, rotation)
        if move.corners == want:
            return move
    raise ValueError(f"{tile} cannot read {want}")


def build(moves: Sequence[PlaceInCell]) -> TriangleBoard:
    """The board after ``moves``, each checked to be a listed placement."""
    board = TRIANGLES_GEOMETRY.opening(moves[0].tile, moves[0].corners[0])[0]
    assert moves[0].cell == ORIGIN, "the first tile lies in U(0, 0)"
    for move in moves[1:]:
        listed = TRIANGLES_GEOMETRY.placements(board, TRIANGLES, TRIANGLES.full_mask, frozenset())
        assert move in listed, f"{move} is not a legal placement"
        board = TRIANGLES_GEOMETRY.play(board, move)
    return board


def fill(cells: Sequence[Cell], numbers: dict[int, int] | None = None) -> list[PlaceInCell]:
    """
    Distinct tiles for ``cells`` (in order) so that every lattice point shows one
    number, found by backtracking; ``numbers`` fixes some points (point key to number).
    """
    fixed = dict(numbers or {})

    def search(k: int, used: set[Tile], shown: dict[int, int]) -> list[PlaceInCell] | None:
        if k == len(cells):
            return []
        points = corners(cells[k].key)
        for tile in TRIANGLES.tiles:
            if tile in used:
                continue
            for rotation in range(3):
                move = PlaceInCell(tile, cells[k], rotation)
                if any(shown.get(p, n) != n for p, n in zip(points, move.corners, strict=True)):
                    continue
                rest = search(
                    k + 1, used | {tile}, {**shown, **dict(zip(points, move.corners, strict=True))}
                )
                if rest is not None:
                    return [move, *rest]
        return None

    found = search(0, set(), fixed)
    assert found is not None, "no tiles fit those cells"
    return found


def position(
    rules: RuleSet,
    board: TriangleBoard,
    hands: Sequence[Sequence[str]],
    stock: Sequence[str] = (),
    scores: Sequence[int] | None = None,
    *,
    empty_stock: bool = False,
) -> GameState:
    """
    A state of ``rules`` with ``board``, these hands (player 0 to move) and the stock
    ``stock`` then every other tile; with ``empty_stock``, the other tiles go to the
    last hand instead and the stock is empty.
    """
    tileset = rules.tileset
    on_board = [tileset.index(p.tile) for p in board.placements]
    held = [[tileset.index(tileset.parse_tile(t)) for t in hand] for hand in hands]
    drawn = [tileset.index(tileset.parse_tile(t)) for t in stock]
    taken = set(on_board) | {i for hand in held for i in hand} | set(drawn)
    rest = [i for i in range(len(tileset)) if i not in taken]
    if empty_stock:
        assert not drawn
        held[-1] += rest
        rest = []
    dealt = [i for hand in held for i in hand]
    deck = tuple(dealt + on_board + drawn + rest)
    players = len(hands)
    return GameState.create(
        rules=rules,
        players=players,
        seed=0,
        round_number=1,
        deck=deck,
        stock_pos=len(dealt) + len(on_board),
        hand_masks=tuple(sum(1 << i for i in hand) for hand in held),
        board=board,
        current_player=0,
        scores=tuple(scores) if scores is not None else (0,) * players,
        play_points=(0,) * players,
    )
