"""
Notation of placements in cells (the triangles): ``str(move)`` writes a
:class:`~bendolib.moves.PlaceInCell` as ``<corner 0>-<corner 1>-<corner 2>@<x>,<y><u|d>``
(the numbers the tile shows at the cell's corners, clockwise, then the cell), and
:func:`parse_cell_move` reads it back.  :func:`bendolib.parse_move` calls it for the
rule sets whose geometry lays tiles in cells; docs/notation.md is the reference.

Shortened forms name a legal move when they name exactly one: ``3-4-5`` (the corners
read 3-4-5 in some cell, or else the tile 3-4-5 laid anywhere), ``3-4-5*`` (the round's
opening tile), ``u``/``d`` in upper case.
"""

from __future__ import annotations

import attrs

from bendolib.engine import legal_moves, why_illegal
from bendolib.errors import IllegalMoveError, ParseError
from bendolib.geometry.trilattice import ORIGIN, Cell
from bendolib.moves import Move, PlaceInCell
from bendolib.state import GameState
from bendolib.tiles import SYMBOL_NAMES, face_str

__all__ = ["CellPattern", "parse_cell_move", "parse_cell_pattern"]

_SYMBOLS = {name: face for face, name in SYMBOL_NAMES.items()}
#: ``cell`` of a pattern written with ``*``: the round's opening tile.
OPENING_CELL = "*"


@attrs.frozen
class CellPattern:
    """
    A cell placement as written: the numbers read clockwise from the cell's corner 0,
    and the cell (``None`` when left out; ``opening`` for ``*``).
    """

    faces: tuple[int, ...]
    cell: Cell | None
    opening: bool = False

    def __str__(self) -> str:
        body = "-".join(map(face_str, self.faces))
        if self.opening:
            return body + "*"
        return body if self.cell is None else f"{body}@{self.cell}"


def parse_cell_pattern(text: str) -> CellPattern:
    """
    A cell placement's notation read without a position; raises :class:`ParseError`
    with the offset of the first character that does not fit the grammar.
    """
    pos = len(text) - len(text.lstrip())
    stop = len(text.rstrip())

    def fail(expected: str) -> ParseError:
        got = repr(text[pos]) if pos < stop else "the end"
        return ParseError(f"expected {expected}, found {got}", text, pos)

    def number(expected: str, signed: bool = False) -> int:
        nonlocal pos
        start = pos
        if signed and pos < stop and text[pos] in "+-":
            pos += 1
        digits = pos
        while pos < stop and text[pos].isascii() and text[pos].isdigit():
            pos += 1
        if pos == digits:
            pos = start
            raise fail(expected)
        return int(text[start:pos])

    def face() -> int:
        nonlocal pos
        if pos < stop and text[pos] in _SYMBOLS:
            pos += 1
            return _SYMBOLS[text[pos - 1]]
        return number("a number")

    faces = [face()]
    while pos < stop and text[pos] == "-":
        pos += 1
        faces.append(face())
    if len(faces) < 3:
        raise fail("'-' and the next corner's number (a triangle has three)")
    cell: Cell | None = None
    opening = False
    if pos < stop and text[pos] == "*":
        pos += 1
        opening = True
    elif pos < stop and text[pos] == "@":
        pos += 1
        x = number("the cell's x after '@'", signed=True)
        if pos >= stop or text[pos] != ",":
            raise fail("',' between the cell's x and y")
        pos += 1
        y = number("the cell's y", signed=True)
        if pos >= stop or text[pos] not in "udUD":
            raise fail("'u' (up) or 'd' (down) after the cell's x,y")
        cell = Cell(x, y, text[pos] in "dD")
        pos += 1
    if pos != stop:
        raise fail("the end of the move")
    return CellPattern(tuple(faces), cell, opening)


def _rotations(faces: tuple[int, ...]) -> set[tuple[int, ...]]:
    n = len(faces)
    return {tuple(faces[(k - r) % n] for k in range(n)) for r in range(n)}


def parse_cell_move(text: str, state: GameState, legal: tuple[Move, ...] | None = None) -> Move:
    """
    The legal cell placement of ``state`` written as ``text`` (the words ``draw``,
    ``pass``, ``next`` are :func:`bendolib.parse_move`'s).  Raises :class:`ParseError`
    for malformed or ambiguous text and :class:`IllegalMoveError` for a well-formed
    placement that is not legal.
    """
    legal = legal_moves(state) if legal is None else legal
    written = text.strip()
    for move in legal:
        if str(move) == written:
            return move  # exactly as written (also a user geometry's own move notation)
    pattern = parse_cell_pattern(text)
    places = [m for m in legal if isinstance(m, PlaceInCell)]
    if pattern.opening:
        if not state.board.is_empty:
            raise IllegalMoveError(
                str(pattern), "the round is already open: write the cell, '@x,y<u|d>'", legal
            )
        found = [m for m in places if pattern.faces in _rotations(m.corners)]
    elif pattern.cell is not None:
        found = [m for m in places if m.cell == pattern.cell and m.corners == pattern.faces]
    else:
        found = [m for m in places if m.corners == pattern.faces]
        if not found:
            found = [m for m in places if pattern.faces in _rotations(m.corners)]
    if len(found) == 1:
        return found[0]
    if found:
        shown = ", ".join(str(m) for m in found[:8])
        more = "" if len(found) <= 8 else f" ... ({len(found)} in all)"
        raise ParseError(
            f"ambiguous move: it could be {shown}{more}; write the cell: '@x,y<u|d>'",
            text,
            len(text),
        )
    raise IllegalMoveError(str(pattern), _why_not(state, pattern, legal), legal)


def _why_not(state: GameState, pattern: CellPattern, legal: tuple[Move, ...]) -> str:
    """Why no legal move fits ``pattern``, as the engine would explain it."""
    tileset = state.rules.tileset
    rotations = _rotations(pattern.faces)
    tiles = [t for t in tileset.tiles if t.faces in rotations]
    if not tiles:
        return f"there is no tile {'-'.join(map(face_str, pattern.faces))} in {tileset.name}"
    tile = tiles[0]
    if state.is_round_over:
        return "the round is over: the only move is 'next'"
    cell = pattern.cell if pattern.cell is not None else ORIGIN
    rotation = next(r for r in range(3) if tile.faces[-r:] + tile.faces[:-r] == pattern.faces)
    guess = PlaceInCell(tile, cell, rotation)
    if pattern.cell is None and not pattern.opening:
        reason = why_illegal(state, guess)
        if "hand" in reason or "drawing" in reason or "opens with" in reason:
            return reason
        return "it fits no free cell of the layout"
    return why_illegal(state, guess)
