"""Tiles and tile sets: faces, pips, and the bend of each curved tile."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from bendolib.errors import ParseError, RuleSetError
from bendolib.limits import MAX_DIGITS, MAX_FACE, MAX_TILES, clipped, quoted, shown

#: Turning senses of a curved tile read from one face to the other.
STRAIGHT = 0
LEFT = 1
RIGHT = 2
BOTH = LEFT | RIGHT
TURN_LETTERS = {STRAIGHT: "", LEFT: "L", RIGHT: "R"}

#: Symbol faces of the optional action tiles (negative numbers never clash with pips).
ARROW = -1
PLUS = -2
STAR = -3
SYMBOL_NAMES = {ARROW: "A", PLUS: "P", STAR: "W"}
SYMBOL_POINTS = {ARROW: 10, PLUS: 10, STAR: 20}


def face_str(face: int) -> str:
    """The notation of one face: its pips, or A / P / W for the symbols."""
    return SYMBOL_NAMES.get(face, str(face))


def face_points(face: int) -> int:
    """Points a face counts in hand: pips at face value, symbols as the seeds score them."""
    return SYMBOL_POINTS.get(face, face)


def opposite(turn: int) -> int:
    """The other turning sense (STRAIGHT stays STRAIGHT)."""
    return {LEFT: RIGHT, RIGHT: LEFT}.get(turn, turn)


def _check_numbers(tile: Tile, fields: tuple[str, ...]) -> None:
    """TypeError unless the fields are ints; RuleSetError for a face out of range."""
    for name in fields:
        value = getattr(tile, name)
        if type(value) is not int:
            raise TypeError(f"{type(tile).__name__}.{name} is an int, not {type(value).__name__}")
    for name in fields[:-1]:
        face = getattr(tile, name)
        if not (0 <= face <= MAX_FACE or face in SYMBOL_NAMES):
            raise RuleSetError(
                f"a face is a number from 0 to {MAX_FACE} or a symbol "
                f"({', '.join(map(str, SYMBOL_NAMES))}), not {face}"
            )


@attrs.frozen(order=True)
class Tile:
    """
    A tile with faces ``a`` <= ``b``.

    ``bend`` is the turning sense when read from ``a`` to ``b`` (``LEFT`` or
    ``RIGHT``); it is ``STRAIGHT`` for doubles and for straight (classic) tiles.
    """

    a: int
    b: int
    bend: int = STRAIGHT

    def __attrs_post_init__(self) -> None:
        _check_numbers(self, ("a", "b", "bend"))
        if self.a > self.b:
            raise RuleSetError(f"tile faces must be ordered: {self.a} > {self.b}")
        if self.bend not in (STRAIGHT, LEFT, RIGHT):
            raise RuleSetError(f"bad bend {self.bend}")
        if self.a == self.b and self.bend != STRAIGHT:
            raise RuleSetError("a double has no bend")

    @property
    def is_double(self) -> bool:
        """True for a double (both faces equal)."""
        return self.a == self.b

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face, in order: ``(a, b)``."""
        return (self.a, self.b)

    @property
    def points(self) -> int:
        """Points in hand: the sum of both faces' points."""
        return face_points(self.a) + face_points(self.b)

    def other(self, face: int) -> int:
        """The face opposite ``face``."""
        if face == self.a:
            return self.b
        if face == self.b:
            return self.a
        raise ValueError(f"{self} has no face {face}")

    def turn_from(self, face: int) -> int:
        """Turning sense read from ``face`` to the other face; ``BOTH`` for a curved double."""
        if self.a == self.b:
            return BOTH if self.bend == STRAIGHT else self.bend
        if face == self.a:
            return self.bend
        return opposite(self.bend)

    def __str__(self) -> str:
        return f"{face_str(self.a)}-{face_str(self.b)}{TURN_LETTERS[self.bend]}"


@attrs.frozen(order=True, init=False, repr=False)
class Triangle(Tile):
    """
    A triangular tile (Triominoes, Triangle Dominoes): a number at each corner.

    ``a``, ``b``, ``c`` are the numbers read clockwise, starting from the lowest
    (the rotation whose reading is smallest), so ``Triangle(0, 1, 2)`` and its mirror
    image ``Triangle(0, 2, 1)`` are different tiles.  A triangle is rotated on the
    table, never flipped; it has no bend.  Its "double" (:attr:`is_double`) is a
    triple: three equal numbers.
    """

    c: int = 0

    def __init__(self, a: int, b: int, c: int, bend: int = STRAIGHT) -> None:
        self.__attrs_init__(a, b, bend, c)

    def __attrs_post_init__(self) -> None:
        _check_numbers(self, ("a", "b", "c", "bend"))
        reading = (self.a, self.b, self.c)
        if reading > (self.b, self.c, self.a) or reading > (self.c, self.a, self.b):
            raise RuleSetError(f"read a triangle clockwise from its lowest number: {reading}")
        if self.bend != STRAIGHT:
            raise RuleSetError("a triangle has no bend")

    @property
    def is_double(self) -> bool:
        """True for a triple (three equal numbers)."""
        return self.a == self.b == self.c

    @property
    def faces(self) -> tuple[int, ...]:
        """The three numbers, clockwise: ``(a, b, c)``."""
        return (self.a, self.b, self.c)

    @property
    def points(self) -> int:
        """Points in hand: the sum of the three numbers."""
        return face_points(self.a) + face_points(self.b) + face_points(self.c)

    def other(self, face: int) -> int:
        """A domino's opposite face: a triangle has none (ValueError)."""
        raise ValueError(f"{self} is a triangle: no face is opposite another")

    def turned(self, rotation: int) -> tuple[int, int, int]:
        """
        The numbers at corners 0, 1, 2 (clockwise) of a cell when the tile lies there
        turned ``rotation`` steps clockwise: corner ``k`` shows face ``k - rotation``.
        """
        faces = (self.a, self.b, self.c)
        r = rotation % 3
        return (faces[-r], faces[1 - r], faces[2 - r])

    def __str__(self) -> str:
        return f"{face_str(self.a)}-{face_str(self.b)}-{face_str(self.c)}"

    def __repr__(self) -> str:
        return f"Triangle({self.a}, {self.b}, {self.c})"


#: The kinds of tile a tile set holds.
_KINDS = (Tile, Triangle)


def default_bend(a: int, b: int, values: int) -> int:
    """
    The library's assumed bend of tile ``a|b`` read from ``a`` to ``b``.

    For the standard seven values (double-six) the tile turns left iff
    ``(b - a) mod 7`` is 1, 2 or 4, so every number has three tiles turning each
    way.  For other sets: left iff ``(b - a) mod m`` lies in ``1..(m-1)//2``, and
    when ``m`` is even the half-way difference turns left iff ``a < b``.
    """
    if a == b:
        return STRAIGHT
    m = values
    d = (b - a) % m
    if m == 7:
        return LEFT if d in (1, 2, 4) else RIGHT
    if 2 * d == m:
        return LEFT if a < b else RIGHT
    return LEFT if 1 <= d <= (m - 1) // 2 else RIGHT


BendTable = Mapping[tuple[int, int], int]
_NO_FITS = (0, 0, 0, 0)


def _highest_number(tiles: Iterable[Tile]) -> int:
    """The highest number (non-negative face) on ``tiles``, 0 when there is none."""
    return max((f for t in tiles for f in t.faces if f >= 0), default=0)


def _index_tables(tiles: tuple[Tile, ...]) -> tuple[dict[int, int], tuple[int, ...], int]:
    face_mask: dict[int, int] = {}
    points = []
    doubles = 0
    for i, tile in enumerate(tiles):
        for face in tile.faces:
            face_mask[face] = face_mask.get(face, 0) | (1 << i)
        points.append(tile.points)
        if tile.is_double:
            doubles |= 1 << i
    return face_mask, tuple(points), doubles


@attrs.frozen
class TileSet:
    """
    An ordered, duplicate-free collection of tiles; a tile's index is its identity.

    Build one with :meth:`double` (optionally with a bend table, both bends, or
    no bends for the classic games) or pass the tiles directly.
    """

    name: str
    tiles: tuple[Tile, ...]
    top: int = attrs.field()
    _face_mask: dict[int, int] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _points: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _doubles: int = attrs.field(init=False, eq=False, repr=False, hash=False)
    _index: dict[Tile, int] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _by_id: dict[int, int] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _fit_masks: dict[int, tuple[int, int, int, int]] = attrs.field(
        init=False, eq=False, repr=False, hash=False
    )
    turn_table: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False, hash=False)
    """Turn masks by ``2 * index + side``: read from face ``a`` (side 0) or ``b`` (side 1)."""
    _bits: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _by_faces: dict[tuple[int, ...], int] = attrs.field(
        init=False, eq=False, repr=False, hash=False
    )
    _memo: dict[tuple[int, ...], Any] = attrs.field(
        init=False, eq=False, repr=False, hash=False, factory=dict
    )
    """The engine's memo of the moves built for this set, by a tuple key (bendolib._placing)."""

    @top.default
    def _top_default(self) -> int:
        return _highest_number(self.tiles)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise TypeError(f"a tile set's name is a str, not {type(self.name).__name__}")
        if not isinstance(self.tiles, tuple) or not all(type(t) in _KINDS for t in self.tiles):
            raise TypeError("a tile set's tiles are a tuple of Tile (or of Triangle)")
        if not self.tiles:
            raise RuleSetError("a tile set needs at least one tile")
        if len(self.tiles) > MAX_TILES:
            raise RuleSetError(f"a tile set has at most {MAX_TILES} tiles, not {len(self.tiles)}")
        if len(set(self.tiles)) != len(self.tiles):
            raise RuleSetError(f"tile set {clipped(self.name)} repeats a tile")
        if type(self.top) is not int or self.top != _highest_number(self.tiles):
            raise RuleSetError(
                f"top must be the highest number on the tiles, "
                f"{_highest_number(self.tiles)}, not {shown(self.top)}"
            )
        face_mask, points, doubles = _index_tables(self.tiles)
        object.__setattr__(self, "_face_mask", face_mask)
        object.__setattr__(self, "_points", points)
        object.__setattr__(self, "_doubles", doubles)
        object.__setattr__(self, "_index", {t: i for i, t in enumerate(self.tiles)})
        object.__setattr__(self, "_bits", tuple(1 << i for i in range(len(self.tiles))))
        by_faces: dict[tuple[int, ...], int] = {}
        for i, t in enumerate(self.tiles):
            by_faces.setdefault(tuple(sorted(t.faces)), i)
        object.__setattr__(self, "_by_faces", by_faces)
        # the set's own Tile objects by identity (it keeps them alive, so ids are stable)
        object.__setattr__(self, "_by_id", {id(t): i for i, t in enumerate(self.tiles)})
        # the turn and fit tables of the chain geometries (none for triangles)
        chain = all(type(t) is Tile for t in self.tiles)
        turns = tuple(t.turn_from(face) for t in self.tiles for face in (t.a, t.b)) if chain else ()
        object.__setattr__(self, "turn_table", turns)
        # one pass over the tiles (a pass per face would cost faces x tiles)
        turn_masks: dict[int, list[int]] = {face: [0, 0, 0, 0] for face in face_mask}
        for i, t in enumerate(self.tiles if chain else ()):
            for face in {t.a, t.b}:
                turn_masks[face][t.turn_from(face)] |= 1 << i
        fit_masks: dict[int, tuple[int, int, int, int]] = {}
        for face, (_, left, right, both) in turn_masks.items() if chain else ():
            # BOTH (a curved double) fits either way
            fit_masks[face] = (0, left | both, right | both, left | right | both)
        object.__setattr__(self, "_fit_masks", fit_masks)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy by the defining fields; the derived tables are rebuilt."""
        return (TileSet, (self.name, self.tiles, self.top))

    @classmethod
    def double(
        cls,
        top: int = 6,
        *,
        bends: BendTable | Callable[[int, int], int] | None = None,
        both_bends: bool = False,
        straight: bool = False,
    ) -> TileSet:
        """
        The double-``top`` set: every pair ``a <= b`` of ``0..top`` once.

        ``bends`` maps ``(a, b)`` (a < b) to the bend read from a to b (default:
        :func:`default_bend`); ``both_bends`` puts each non-double in both bends;
        ``straight`` gives the classic rectangular tiles with no bend.
        """
        if type(top) is not int:
            raise TypeError(f"top is an int, not {type(top).__name__}")
        if not 0 <= top <= MAX_FACE:
            raise RuleSetError(f"a double-N set needs N from 0 to {MAX_FACE}, not {top}")
        tiles: list[Tile] = []
        for a in range(top + 1):
            for b in range(a, top + 1):
                if a == b or straight:
                    tiles.append(Tile(a, b))
                elif both_bends:
                    tiles.extend((Tile(a, b, LEFT), Tile(a, b, RIGHT)))
                else:
                    tiles.append(Tile(a, b, _lookup_bend(bends, a, b, top + 1)))
        kind = "straight" if straight else "both-bends" if both_bends else "curved"
        return cls(f"double-{top} {kind}", tuple(tiles), top)

    @classmethod
    def triangles(cls, top: int = 5, *, mirrors: bool = False) -> TileSet:
        """
        The triangle set of numbers ``0..top``: every multiset of three numbers once,
        a tile with three different numbers only with the numbers increasing
        clockwise (56 tiles for ``top=5``, the Triominoes set); ``mirrors`` adds the
        mirror image of each such tile.
        """
        if top < 0:
            raise RuleSetError(f"a triangle set needs numbers 0..N with N >= 0, not {top}")
        tiles: list[Tile] = []
        for a in range(top + 1):
            for b in range(a, top + 1):
                for c in range(b, top + 1):
                    tiles.append(Triangle(a, b, c))
                    if mirrors and a < b < c:
                        tiles.append(Triangle(a, c, b))
        kind = "triangles with mirrors" if mirrors else "triangles"
        return cls(f"{kind} 0-{top}", tuple(tiles), top)

    def __len__(self) -> int:
        return len(self.tiles)

    @property
    def curved(self) -> bool:
        """True when the non-doubles have bends (a Bendomino set)."""
        return any(t.bend != STRAIGHT for t in self.tiles)

    @property
    def full_mask(self) -> int:
        """Bitmask with one bit per tile."""
        return (1 << len(self.tiles)) - 1

    def index(self, tile: Tile) -> int:
        """The index of ``tile`` in this set (LookupError if absent)."""
        found = self._by_id.get(id(tile))
        if found is not None:
            return found
        try:
            return self._index[tile]
        except KeyError:
            raise LookupError(f"{tile} is not in {self.name}") from None

    def index_of(self, tile: object) -> int:
        """The index of ``tile`` in this set, or -1 (for anything that is not one of its tiles)."""
        found = self._by_id.get(id(tile))
        if found is not None:
            return found
        try:
            index: int = self._index.get(tile, -1)  # type: ignore[call-overload]
            return index
        except TypeError:
            return -1

    def find(self, a: int, b: int) -> int:
        """The index of the first tile with faces ``a`` and ``b`` (either order), or -1."""
        return self._by_faces.get((min(a, b), max(a, b)), -1)

    def with_face(self, face: int) -> int:
        """Bitmask of the tiles that carry ``face``."""
        return self._face_mask.get(face, 0)

    def fit_masks(self, face: int) -> tuple[int, int, int, int]:
        """
        Bitmasks of the tiles that, laid with ``face`` inward on a curved board, can
        turn into the free positions of a turn mask: indexed by that mask (0, LEFT,
        RIGHT, BOTH).
        """
        return self._fit_masks.get(face, _NO_FITS)

    def points(self, index: int) -> int:
        """Points of the tile at ``index``."""
        return self._points[index]

    def mask_points(self, mask: int) -> int:
        """Total points of the tiles in a bitmask."""
        total = 0
        pts = self._points
        while mask:
            low = mask & -mask
            total += pts[low.bit_length() - 1]
            mask ^= low
        return total

    def is_double(self, index: int) -> bool:
        """True if the tile at ``index`` is a double."""
        return bool(self._doubles >> index & 1)

    @property
    def doubles_mask(self) -> int:
        """Bitmask of the doubles."""
        return self._doubles

    def tiles_of(self, mask: int) -> tuple[Tile, ...]:
        """The tiles of a bitmask, in index order."""
        return tuple(self.tiles[i] for i in indices(mask))

    def mask_of(self, tiles: Iterable[Tile]) -> int:
        """The bitmask of some tiles of this set."""
        mask = 0
        for tile in tiles:
            mask |= 1 << self.index(tile)
        return mask

    def parse_tile(self, text: str) -> Tile:
        """
        Read ``"a-b"`` (or ``"a-bL"`` in a both-bends set) as a tile of this set; a
        triangle is ``"a-b-c"``, its numbers clockwise from any corner.
        """
        if not isinstance(text, str):
            raise TypeError(f"a tile is read from a str, not {type(text).__name__}")
        body = text.strip()
        if body.count("-") == 2:
            return self._parse_triangle(text)
        bend = STRAIGHT
        if body[-1:] in ("L", "R"):
            bend = LEFT if body[-1] == "L" else RIGHT
            body = body[:-1]
        parts = body.split("-")
        if len(parts) != 2:
            raise ParseError("a tile is written 'a-b'", text, 0)
        a, b = (_parse_face(p, text) for p in parts)
        lo, hi = min(a, b), max(a, b)
        if bend != STRAIGHT and a > b:
            bend = opposite(bend)
        candidates = [t for t in self.tiles if t.a == lo and t.b == hi]
        if bend != STRAIGHT:
            candidates = [t for t in candidates if t.bend == bend]
        if len(candidates) != 1:
            what = "no" if not candidates else "more than one"
            raise ParseError(f"{what} such tile in {clipped(self.name)}", text, 0)
        return candidates[0]

    def _parse_triangle(self, text: str) -> Tile:
        faces = tuple(_parse_face(p, text) for p in text.strip().split("-"))
        for tile in self.tiles:
            if isinstance(tile, Triangle) and faces in {tile.turned(r) for r in range(3)}:
                return tile
        mirror = (faces[0], faces[2], faces[1])
        for tile in self.tiles:
            if isinstance(tile, Triangle) and mirror in {tile.turned(r) for r in range(3)}:
                raise ParseError(
                    f"no tile {text.strip()!r} in {self.name}: {tile} is its mirror image, "
                    "and a tile is never flipped",
                    text,
                    0,
                )
        raise ParseError(f"no tile {text.strip()!r} in {self.name}", text, 0)


def _parse_face(part: str, text: str) -> int:
    for face, name in SYMBOL_NAMES.items():
        if part == name:
            return face
    if not (part.isascii() and part.isdigit()) or len(part) > MAX_DIGITS:
        raise ParseError(f"bad face {quoted(part)}", text, text.find(part))
    return int(part)


def _lookup_bend(
    bends: BendTable | Callable[[int, int], int] | None, a: int, b: int, values: int
) -> int:
    if bends is None:
        return default_bend(a, b, values)
    if callable(bends):
        bend = bends(a, b)
    else:
        if (a, b) not in bends:
            raise RuleSetError(f"the bend table has no entry for {a}-{b}")
        bend = bends[(a, b)]
    if bend not in (LEFT, RIGHT):
        raise RuleSetError(f"bend of {a}-{b} must be LEFT or RIGHT, not {shown(bend)}")
    return bend


def indices(mask: int) -> Iterable[int]:
    """The set bit positions of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


STANDARD = TileSet.double(6)
STANDARD_STRAIGHT = TileSet.double(6, straight=True)
#: The 56 triangles of Triominoes and Triangle Dominoes (numbers 0 to 5).
TRIANGLES = TileSet.triangles(5)
