"""
Move notation: ``str(move)`` writes it, :func:`parse_move` reads it back.

* placement: ``<inward>-<outward>[=<named>]@<end><L|R>``, e.g. ``5-3@1L`` lays the
  tile 3-5 with its 5 against open end 1, turning left (no turn letter on a
  straight board; ``=n`` names the value a wild outward face shows, written when it is
  not the face's own number);
* the opening tile of a round: ``6-6*``;
* ``draw``, ``pass`` and ``next`` (deal the next round).

:func:`parse_move` also reads shortened forms when they name exactly one legal move:
the end or the turn letter left out (``5-3``, ``5-3@1``), the words ``d``, ``p``, ``n``.
docs/notation.md is the full reference.
"""

from __future__ import annotations

import attrs

from bendolib.engine import legal_moves, why_illegal
from bendolib.errors import IllegalMoveError, ParseError
from bendolib.limits import MAX_DIGITS, MAX_MOVE_CHARS
from bendolib.moves import DRAW, NEXT_ROUND, OPENING, PASS, Move, Place
from bendolib.rules.ruleset import is_chain
from bendolib.state import GameState
from bendolib.tiles import LEFT, RIGHT, SYMBOL_NAMES, face_str

__all__ = ["MovePattern", "parse_move", "parse_pattern"]

_WORDS: dict[str, Move] = {
    "draw": DRAW,
    "d": DRAW,
    "pass": PASS,
    "p": PASS,
    "next": NEXT_ROUND,
    "n": NEXT_ROUND,
}
_SYMBOLS = {name: face for face, name in SYMBOL_NAMES.items()}
_TURNS = {"L": LEFT, "R": RIGHT, "l": LEFT, "r": RIGHT}


@attrs.frozen
class MovePattern:
    """
    A placement as written, before it is matched against the legal moves.

    ``end`` is ``None`` when left out, :data:`~bendolib.moves.OPENING` for ``*``;
    ``turn`` and ``named`` are ``None`` when left out.
    """

    inward: int
    outward: int
    named: int | None
    end: int | None
    turn: int | None

    def __str__(self) -> str:
        named = "" if self.named is None else f"={self.named}"
        body = f"{face_str(self.inward)}-{face_str(self.outward)}{named}"
        if self.end == OPENING:
            return body + "*"
        if self.end is None:
            return body
        letter = {LEFT: "L", RIGHT: "R"}.get(self.turn or 0, "")
        return f"{body}@{self.end}{letter}"


class _Scanner:
    """Reads the placement grammar left to right, reporting the first bad column."""

    def __init__(self, text: str, start: int, stop: int) -> None:
        self.text = text
        self.pos = start
        self.stop = stop

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < self.stop else ""

    def fail(self, expected: str) -> ParseError:
        got = repr(self.peek()) if self.peek() else "the end"
        return ParseError(f"expected {expected}, found {got}", self.text, self.pos)

    def number(self, expected: str) -> int:
        start = self.pos
        while self.peek().isdigit() and self.peek().isascii():
            self.pos += 1
        if start == self.pos:
            raise self.fail(expected)
        if self.pos - start > MAX_DIGITS:
            raise ParseError(f"a number has at most {MAX_DIGITS} digits", self.text, start)
        return int(self.text[start : self.pos])

    def face(self) -> int:
        char = self.peek()
        if char in _SYMBOLS:
            self.pos += 1
            return _SYMBOLS[char]
        return self.number("a face (a number, A, P or W)")

    def accept(self, char: str) -> bool:
        if self.peek() == char:
            self.pos += 1
            return True
        return False


def parse_pattern(text: str) -> MovePattern:
    """
    A placement's notation read without a position; raises :class:`ParseError`
    with the offset of the first character that does not fit the grammar.
    """
    _check_text(text)
    stop = len(text.rstrip())
    start = len(text) - len(text.lstrip())
    scan = _Scanner(text, start, stop)
    inward = scan.face()
    if not scan.accept("-"):
        raise scan.fail("'-' between the two faces")
    outward = scan.face()
    named = scan.number("the number a wild face shows") if scan.accept("=") else None
    end: int | None = None
    turn: int | None = None
    if scan.accept("*"):
        end = OPENING
    elif scan.accept("@"):
        end = scan.number("an open end number after '@'")
        if scan.peek() in _TURNS:
            turn = _TURNS[scan.peek()]
            scan.pos += 1
    if scan.pos != stop:
        raise scan.fail("the end of the move" if end is not None else "'@<end>', '*' or the end")
    return MovePattern(inward, outward, named, end, turn)


def _check_text(text: object) -> None:
    """TypeError for what is not a str, ParseError for a text longer than any move."""
    if not isinstance(text, str):
        raise TypeError(f"a move is written as a str, not {type(text).__name__}")
    if len(text) > MAX_MOVE_CHARS:
        raise ParseError(
            f"a move has at most {MAX_MOVE_CHARS} characters, not {len(text):,}",
            text,
            MAX_MOVE_CHARS,
        )


def _outward(move: Place) -> int:
    return move.inward if move.tile.is_double else move.tile.other(move.inward)


def _matches(move: Place, pattern: MovePattern, wild: frozenset[int]) -> bool:
    """
    Whether ``pattern`` names ``move``; with ``wild`` empty, a wild outward face written
    without ``=n`` names only the move where it shows its own number (what ``str`` writes).
    """
    outward = _outward(move)
    if move.end == OPENING:
        if pattern.end not in (None, OPENING):
            return False
        faces_match = sorted((move.inward, outward)) == sorted((pattern.inward, pattern.outward))
    else:
        if pattern.end not in (None, move.end):
            return False
        faces_match = (move.inward, outward) == (pattern.inward, pattern.outward)
    if not faces_match or pattern.turn not in (None, move.turn):
        return False
    if pattern.named is not None:
        return move.shows == pattern.named
    return outward in wild or move.shows == outward


def parse_move(text: str, state: GameState) -> Move:
    """
    The legal move of ``state`` written as ``text``.

    Raises :class:`ParseError` (with the offset) for malformed text and for text
    that fits more than one legal move, and :class:`IllegalMoveError` (with the
    reason and the legal moves) for a well-formed move that is not legal.
    """
    _check_text(text)
    legal = legal_moves(state)
    word = _WORDS.get(text.strip().lower())
    if word is not None:
        if word in legal:
            return word
        raise IllegalMoveError(word, why_illegal(state, word), legal)
    chain = is_chain(state.rules.geometry)
    like = "'5-3@1L', '6-6*'" if chain else "'5-3-3@1,-1d', '5-5-5*'"
    if not text.strip():
        raise ParseError(f"empty move: expected a placement like {like}, or draw / pass / next")
    if text.strip()[:1].isalpha() and text.strip()[:1] not in _SYMBOLS:
        column = len(text) - len(text.lstrip())
        raise ParseError(f"expected a placement like {like}, or draw / pass / next", text, column)
    if not chain:
        from bendolib.cell_notation import parse_cell_move

        return parse_cell_move(text, state, legal)  # tiles in cells (the triangles)
    pattern = parse_pattern(text)
    wild = state.rules.wild_faces
    # exact first: a wild face written bare shows its own number, as str(move) writes it;
    # else (its own number is no value it can show) every value it could show fits
    found = [m for m in legal if isinstance(m, Place) and _matches(m, pattern, frozenset())]
    if not found and wild:
        found = [m for m in legal if isinstance(m, Place) and _matches(m, pattern, wild)]
    if len(found) == 1:
        return found[0]
    if found:
        shown = ", ".join(str(m) for m in found[:8])
        more = "" if len(found) <= 8 else f" ... ({len(found)} in all)"
        hint = _hint(pattern, found, wild)
        raise ParseError(f"ambiguous move: it could be {shown}{more}; {hint}", text, len(text))
    raise IllegalMoveError(str(pattern), _why_not(state, pattern), legal)


def _hint(pattern: MovePattern, found: list[Place], wild: frozenset[int]) -> str:
    if len({m.end for m in found}) > 1:
        return "write the end: '@<end>'"
    if len({m.turn for m in found}) > 1:
        return "add the turn letter L or R"
    return "name the value the wild face shows: '=<n>'"


def _why_not(state: GameState, pattern: MovePattern) -> str:
    """Why no legal move fits ``pattern``, as the engine would explain it."""
    rules = state.rules
    tileset = rules.tileset
    lo, hi = sorted((pattern.inward, pattern.outward))
    tiles = [t for t in tileset.tiles if (t.a, t.b) == (lo, hi)]
    if not tiles:
        return f"there is no tile {face_str(lo)}-{face_str(hi)} in {tileset.name}"
    if state.is_round_over:
        return why_illegal(state, DRAW)
    player = state.current_player
    hand = state.hand_masks[player]
    held = [t for t in tiles if hand >> tileset.index(t) & 1]
    if not held:
        return f"{tiles[0]} is not in player {player}'s hand"
    if pattern.named is not None and pattern.outward not in rules.wild_faces:
        return f"'={pattern.named}' names a value, but {face_str(pattern.outward)} is not wild"
    if pattern.turn is not None and not rules.geometry.uses_bends:
        return "a straight board has no turns: leave out the letter L or R"
    if pattern.end == OPENING and not state.board.is_empty:
        return "the round is already open: play at an end, '@<end>'"
    if pattern.end not in (None, OPENING) and state.board.is_empty:
        return "the board is empty: the round opens with a tile written 'a-b*'"
    if pattern.end is None:
        shown = ", ".join(face_str(e.value) for e in state.board.ends) or "none"
        if state.drawn and not any(state.drawn >> tileset.index(t) & 1 for t in held):
            return "after drawing, only a drawn tile may be placed"
        return f"it fits no open end (the ends show {shown})"
    tile = held[0]
    if pattern.turn is not None:
        tile = next((t for t in held if t.turn_from(pattern.inward) & pattern.turn), tile)
    end = state.board.ends[pattern.end] if 0 <= pattern.end < len(state.board.ends) else None
    position = None
    if end is not None:
        position = end.left if pattern.turn == LEFT else end.right
    shows = pattern.named if pattern.named is not None else pattern.outward
    if pattern.inward not in (tile.a, tile.b):
        return f"{tile} has no face {face_str(pattern.inward)}"
    guess = Place(tile, pattern.end, pattern.inward, shows, pattern.turn or 0, position)
    reason = why_illegal(state, guess)
    if reason.startswith("the placement does not match") and pattern.turn is None:
        return "no turn that way fits"
    return reason
