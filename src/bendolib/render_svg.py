"""
SVG pictures of a board.

Curved tiles are drawn as what they are: 120-degree annular sectors (radii 12 and
33 mm) about a corner of their hexagonal cell (side 45 mm, the conventions of
:mod:`bendolib.geometry.lattice`); classic tiles as rectangles in a line, doubles
crosswise.  Each half shows its pips (numbers above 9, letters for the symbols),
and each open end is marked: green when playable, red with the seeds' reason
(A to D, :func:`bendolib.classify_ends`) when blocked.  Triangles (Triominoes,
Triangle Dominoes) are drawn in their cells of the triangular lattice (side 40 mm),
with the number at each corner written near it, and each open edge marked like an
open end, labelled ``index:a-b`` (the numbers at its two corners).  Units are
millimetres.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from xml.sax.saxutils import escape

import attrs

from bendolib.blocking import EndStatus, classify_ends
from bendolib.geometry import lattice, trilattice
from bendolib.geometry.board import Board, Placement
from bendolib.geometry.chain import as_chain
from bendolib.geometry.drawing import INNER, OUTER, SIDE, cell_centre, corner_point
from bendolib.geometry.triangles import OpenEdge, TriangleBoard, TrianglePlacement
from bendolib.state import _VIEWS, GameState
from bendolib.text import printable, side_name
from bendolib.tiles import ARROW, PLUS, RIGHT, STAR, face_str

__all__ = ["INNER", "OUTER", "SIDE", "cell_centre", "corner_point", "to_svg"]

#: Size of one square half of a classic tile (mm).
SQUARE = 20.0

_TILE_STYLE = 'fill="#fbf7ea" stroke="#3a3a3a" stroke-width="0.8"'
_OPEN = "#2a9d3a"
_BLOCKED = "#d62828"
_SYMBOLS = {ARROW: "\u21c4", PLUS: "+", STAR: "\u2605"}
#: Radius of a pip (mm).
_PIP = 1.9
#: Pip positions on a 3x3 grid (row, column in -1..1) for 0..9 pips.
_PIPS: tuple[tuple[tuple[int, int], ...], ...] = (
    (),
    ((0, 0),),
    ((-1, -1), (1, 1)),
    ((-1, -1), (0, 0), (1, 1)),
    ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
    ((-1, -1), (-1, 0), (-1, 1), (0, 0), (1, -1), (1, 0), (1, 1)),
    ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
    tuple((r, c) for r in (-1, 0, 1) for c in (-1, 0, 1)),
)

Point = tuple[float, float]


def _f(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


#: Width of a character as a fraction of the font size, an upper estimate for the
#: sans-serif fonts the pictures name (Helvetica, Arial): used to keep text clear
#: of pips and inside the picture.
CHAR_WIDTH = 0.6
#: Font sizes (mm) of the caption and of the end labels.
CAPTION_SIZE = 6.0
LABEL_SIZE = 5.0

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in y-up mm


@attrs.frozen
class _Canvas:
    """
    Collected SVG elements (in y-up mm coordinates) and their bounding box; the
    boxes of the pips and numbers drawn so far (``marks``), which an end's label
    must not cover, and per tile its bounding box and a test of whether a point lies on
    it (``bodies``).
    """

    items: list[str] = attrs.field(factory=list)
    xs: list[float] = attrs.field(factory=list)
    ys: list[float] = attrs.field(factory=list)
    marks: list[Box] = attrs.field(factory=list)
    bodies: list[tuple[Box, Callable[[Point], bool]]] = attrs.field(factory=list)

    def grow(self, points: Iterable[Point]) -> None:
        for x, y in points:
            self.xs.append(x)
            self.ys.append(y)

    def add(self, element: str, points: Iterable[Point] = ()) -> None:
        self.items.append(element)
        self.grow(points)

    def clear(self, area: Box) -> bool:
        """True when ``area`` covers no pip, number or label drawn so far."""
        x0, y0, x1, y1 = area
        return all(x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0 for a0, b0, a1, b1 in self.marks)

    def on_a_tile(self, area: Box) -> bool:
        """True when ``area`` (its corners, edge middles and centre) touches a tile."""
        x0, y0, x1, y1 = area
        points = [(x, y) for x in (x0, (x0 + x1) / 2, x1) for y in (y0, (y0 + y1) / 2, y1)]
        return any(
            body(p)
            for (a0, b0, a1, b1), body in self.bodies
            if a0 <= x1 and x0 <= a1 and b0 <= y1 and y0 <= b1
            for p in points
        )


def _bounds(points: Sequence[Point]) -> Box:
    """The bounding box of ``points``."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _text_box(at: Point, label: str, size: float) -> Box:
    """The box a centred text takes (an estimate: :data:`CHAR_WIDTH` per character)."""
    half = CHAR_WIDTH * size * len(label) / 2
    return (at[0] - half, at[1] - size / 2, at[0] + half, at[1] + size / 2)


def _pt(p: Point) -> str:
    """A point in SVG coordinates (y flipped)."""
    return f"{_f(p[0])},{_f(-p[1])}"


def _text(p: Point, label: str, size: float, colour: str = "#222", weight: str = "") -> str:
    bold = f' font-weight="{weight}"' if weight else ""
    return (
        f'<text x="{_f(p[0])}" y="{_f(-p[1])}" font-size="{_f(size)}" fill="{colour}"'
        f'{bold} text-anchor="middle" dominant-baseline="central">{escape(label)}</text>'
    )


def _face_marks(
    canvas: _Canvas, face: int, at: Point, across: Point, along: Point, numbers: bool
) -> list[str]:
    """Pips (or a label) for one face centred at ``at``; grid axes ``across``/``along``."""
    if face in _SYMBOLS or numbers or not 0 <= face < len(_PIPS):
        label, size = (_SYMBOLS[face], 11.0) if face in _SYMBOLS else (face_str(face), 10.0)
        canvas.marks.append(_text_box(at, label, size))
        if face in _SYMBOLS:
            return [_text(at, label, size, "#7a3db8", "bold")]
        return [_text(at, label, size, "#222", "bold")]
    marks = []
    for row, col in _PIPS[face]:
        x = at[0] + row * across[0] + col * along[0]
        y = at[1] + row * across[1] + col * along[1]
        canvas.marks.append((x - _PIP, y - _PIP, x + _PIP, y + _PIP))
        marks.append(f'<circle cx="{_f(x)}" cy="{_f(-y)}" r="{_f(_PIP)}" fill="#1d1d1d"/>')
    return marks


def _named(canvas: _Canvas, at: Point, value: int) -> str:
    """The ``=n`` a wild face names, at ``at``."""
    label = f"={value}"
    canvas.marks.append(_text_box(at, label, 6))
    return _text(at, label, 6, "#7a3db8")


# -- curved tiles -----------------------------------------------------------------------


def _polar(centre: Point, radius: float, degrees: float) -> Point:
    angle = math.radians(degrees)
    return centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)


def _in_sector(p: Point, centre: Point, start: float) -> bool:
    """True when ``p`` lies on the tile about ``centre`` spanning ``start`` to ``start + 120``."""
    dx, dy = p[0] - centre[0], p[1] - centre[1]
    if not INNER <= math.hypot(dx, dy) <= OUTER:
        return False
    return (math.degrees(math.atan2(dy, dx)) - start) % 360 <= 120


def _sector_path(centre: Point, start: float, stop: float) -> str:
    """An annular sector from angle ``start`` to ``stop`` (counter-clockwise, y up)."""
    a = _polar(centre, OUTER, start)
    b = _polar(centre, OUTER, stop)
    c = _polar(centre, INNER, stop)
    d = _polar(centre, INNER, start)
    # y is flipped: counter-clockwise (y up) is sweep-flag 0 in SVG.
    return (
        f"M{_pt(a)} A{_f(OUTER)},{_f(OUTER)} 0 0 0 {_pt(b)} "
        f"L{_pt(c)} A{_f(INNER)},{_f(INNER)} 0 0 1 {_pt(d)} Z"
    )


def _curved_faces(placement: Placement) -> tuple[int, int]:
    """Faces of the halves next to sides ``corner - 1`` and ``corner`` of the cell."""
    tile = placement.tile
    outward = placement.inward if tile.is_double else tile.other(placement.inward)
    if placement.turn == RIGHT:
        return placement.inward, outward
    return outward, placement.inward


def _draw_curved(canvas: _Canvas, index: int, placement: Placement, numbers: bool) -> None:
    pos = placement.position
    assert pos is not None
    centre = corner_point(pos.q, pos.r, pos.corner)
    base = 60 * pos.corner
    start, stop = base + 120, base + 240  # toward corners c+1 (side c) and c-1 (side c-1)
    outline = [
        _polar(centre, radius, start + k * 10) for radius in (INNER, OUTER) for k in range(13)
    ]
    before, after = _curved_faces(placement)
    label = escape(f"{placement.tile}")
    parts = [
        f'<g class="tile" data-tile="{label}" data-position="{pos}" data-index="{index}">',
        f'<path class="tile-outline" d="{_sector_path(centre, start, stop)}" {_TILE_STYLE}/>',
        f'<path d="M{_pt(_polar(centre, INNER + 1.5, base + 180))} '
        f'L{_pt(_polar(centre, OUTER - 1.5, base + 180))}" stroke="#3a3a3a" '
        'stroke-width="0.6"/>',
    ]
    middle = (INNER + OUTER) / 2
    for face, angle in ((after, base + 150), (before, base + 210)):
        at = _polar(centre, middle, angle)
        radial = math.radians(angle)
        across = (6.2 * math.cos(radial), 6.2 * math.sin(radial))
        along = (-6.2 * math.sin(radial), 6.2 * math.cos(radial))
        parts += _face_marks(canvas, face, at, across, along, numbers)
    if placement.shows != (
        placement.inward if placement.tile.is_double else placement.tile.other(placement.inward)
    ):
        far = base + 150 if placement.turn == RIGHT else base + 210
        parts.append(_named(canvas, _polar(centre, OUTER - 4, far), placement.shows))
    parts.append("</g>")
    canvas.add("".join(parts), outline)
    canvas.bodies.append((_bounds(outline), lambda p: _in_sector(p, centre, start)))


def _side_segment(cell: int, side: int) -> tuple[Point, Point]:
    """The part of ``side`` of ``cell`` that a tile's straight end covers."""
    q, r = lattice.cell_coords(cell)
    a = corner_point(q, r, side)
    b = corner_point(q, r, (side + 1) % 6)
    t0, t1 = INNER / SIDE, OUTER / SIDE
    return (
        (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
        (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1),
    )


#: Where an end's label may go: distances beyond the end, and offsets across (mm),
#: nearest first.
_REACHES = (9.0, 13.0, 17.0, 22.0, 28.0, 35.0, 44.0, 55.0)
_OFFSETS = (0.0, 6.0, -6.0, 12.0, -12.0, 18.0, -18.0)


def _label_spot(canvas: _Canvas, mid: Point, outward: Point, size: Point) -> Point:
    """
    Where an end's label goes: the nearest spot beyond the end that covers no pip,
    number or other label, preferring one off the tiles.
    """
    across = (-outward[1], outward[0])
    half = (size[0] / 2, size[1] / 2)
    reach = _REACHES[-1] + _OFFSETS[-2] + max(half)
    near = _Canvas(
        marks=[
            m
            for m in canvas.marks
            if m[0] < mid[0] + reach and m[2] > mid[0] - reach
            if m[1] < mid[1] + reach and m[3] > mid[1] - reach
        ],
        bodies=[
            (b, body)
            for b, body in canvas.bodies
            if b[0] < mid[0] + reach and b[2] > mid[0] - reach
            if b[1] < mid[1] + reach and b[3] > mid[1] - reach
        ],
    )
    fallback = None
    for distance in _REACHES:
        for k in _OFFSETS:
            x = mid[0] + distance * outward[0] + k * across[0]
            y = mid[1] + distance * outward[1] + k * across[1]
            area = (x - half[0], y - half[1], x + half[0], y + half[1])
            if near.clear(area):
                if not near.on_a_tile(area):
                    return x, y
                fallback = fallback or (x, y)
    if fallback is not None:
        return fallback
    # a crowded layout (a triangle board has dozens of open edges): the nearest clear
    # spot further out, in any direction, starting with the end's own
    start = math.atan2(outward[1], outward[0])
    distance = _REACHES[-1]
    while True:
        distance += 8.0
        for k in range(24):
            step = (k + 1) // 2  # 0, then 15 degrees either side, then 30...
            angle = start + (step if k % 2 else -step) * math.pi / 12
            x, y = mid[0] + distance * math.cos(angle), mid[1] + distance * math.sin(angle)
            if canvas.clear((x - half[0], y - half[1], x + half[0], y + half[1])):
                return x, y


def _end_marker(
    canvas: _Canvas,
    status: EndStatus,
    segment: tuple[Point, Point],
    outward: Point,
    label: str | None = None,
) -> None:
    """
    A coloured bar on an open end and a label ``index:value`` (or another ``label``)
    beyond it, clear of every pip and number (joined to the bar by a thin line when
    it had to move).
    """
    (x0, y0), (x1, y1) = segment
    colour = _OPEN if status.blocked is None else _BLOCKED
    mid = ((x0 + x1) / 2, (y0 + y1) / 2)
    label = f"{status.end}:{face_str(status.value)}" if label is None else label
    if status.blocked is not None:
        label += f" {status.blocked.value}"
    kind = "open" if status.blocked is None else "blocked"
    reason = "" if status.blocked is None else f' data-reason="{status.blocked.value}"'
    width, height = CHAR_WIDTH * LABEL_SIZE * len(label) + 4, LABEL_SIZE + 3
    at = _label_spot(canvas, mid, outward, (width, height))
    area = (at[0] - width / 2, at[1] - height / 2, at[0] + width / 2, at[1] + height / 2)
    canvas.marks.append(area)
    leader = ""
    if math.dist(at, mid) > 10:
        leader = (
            f'<path d="M{_pt(mid)} L{_pt(at)}" stroke="{colour}" stroke-width="0.6" '
            'stroke-dasharray="1.5,1"/>'
        )
    canvas.add(
        f'<g class="end {kind}" data-end="{status.end}"{reason}>'
        f'<path d="M{_pt((x0, y0))} L{_pt((x1, y1))}" stroke="{colour}" stroke-width="2.4" '
        'stroke-linecap="round"/>' + leader + f'<rect x="{_f(area[0])}" y="{_f(-area[3])}" '
        f'width="{_f(width)}" height="{_f(height)}" rx="4" fill="white" '
        f'stroke="{colour}" stroke-width="0.8"/>'
        + _text(at, label, LABEL_SIZE, colour, "bold")
        + "</g>",
        [(area[0], area[1]), (area[2], area[3])],
    )


def _draw_curved_board(canvas: _Canvas, state: GameState, numbers: bool) -> None:
    board = state.board
    for i, placement in enumerate(board.placements):
        _draw_curved(canvas, i, placement, numbers)
    for status, end in zip(classify_ends(state), board.ends, strict=True):
        if end.cell < 0:
            continue
        angle = math.radians(30 + 60 * end.side)
        _end_marker(
            canvas,
            status,
            _side_segment(end.cell, end.side),
            (math.cos(angle), math.sin(angle)),
        )


# -- classic tiles ----------------------------------------------------------------------

_DIRECTIONS: tuple[Point, ...] = ((-1.0, 0.0), (1.0, 0.0), (0.0, 1.0), (0.0, -1.0))


@attrs.define
class _Frontier:
    """Where the next tile at one end of a straight chain goes."""

    at: Point
    direction: Point


def _rect_path(x0: float, y0: float, x1: float, y1: float) -> str:
    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return "M" + " L".join(_pt(c) for c in corners) + " Z"


def _draw_straight_tile(
    canvas: _Canvas,
    index: int,
    placement: Placement,
    centre: Point,
    direction: Point,
    numbers: bool,
) -> tuple[Point, Point]:
    """Draw one classic tile; returns its half-extents (along x, along y)."""
    tile = placement.tile
    lengthwise = direction if not tile.is_double else (direction[1], direction[0])
    half_long, half_short = SQUARE, SQUARE / 2
    hx = half_long if lengthwise[0] else half_short
    hy = half_long if lengthwise[1] else half_short
    x, y = centre
    outward = placement.inward if tile.is_double else tile.other(placement.inward)
    first = (x - lengthwise[0] * SQUARE / 2, y - lengthwise[1] * SQUARE / 2)
    second = (x + lengthwise[0] * SQUARE / 2, y + lengthwise[1] * SQUARE / 2)
    if not tile.is_double:
        # inward face toward the chain (behind ``direction``), outward face ahead
        first, second = (
            (x - direction[0] * SQUARE / 2, y - direction[1] * SQUARE / 2),
            (x + direction[0] * SQUARE / 2, y + direction[1] * SQUARE / 2),
        )
    label = escape(str(tile))
    parts = [
        f'<g class="tile" data-tile="{label}" data-index="{index}">',
        f'<path class="tile-outline" d="{_rect_path(x - hx, y - hy, x + hx, y + hy)}" '
        f"{_TILE_STYLE}/>",
    ]
    split = (lengthwise[1], lengthwise[0])
    a = (x - split[0] * (half_short - 1.5), y - split[1] * (half_short - 1.5))
    b = (x + split[0] * (half_short - 1.5), y + split[1] * (half_short - 1.5))
    parts.append(f'<path d="M{_pt(a)} L{_pt(b)}" stroke="#3a3a3a" stroke-width="0.6"/>')
    for face, at in ((placement.inward, first), (outward, second)):
        parts += _face_marks(canvas, face, at, (5.5, 0.0), (0.0, 5.5), numbers)
    if placement.shows != outward:
        parts.append(_named(canvas, second, placement.shows))
    parts.append("</g>")
    canvas.add("".join(parts), [(x - hx, y - hy), (x + hx, y + hy)])
    canvas.bodies.append(
        ((x - hx, y - hy, x + hx, y + hy), lambda p: abs(p[0] - x) <= hx and abs(p[1] - y) <= hy)
    )
    return (hx, hy), first


def _straight_layout(state: GameState) -> list[tuple[Placement, Point, Point]]:
    """(placement, centre, direction of growth) of each tile of a straight chain."""
    board = state.board
    placements = board.placements
    openings = [p for p in placements if p.end < 0]
    out: list[tuple[Placement, Point, Point]] = []
    if not openings:
        return out
    geometry = state.rules.geometry
    first = openings[0]
    out.append((first, (0.0, 0.0), (1.0, 0.0)))
    long = SQUARE if not first.tile.is_double else SQUARE / 2
    tall = SQUARE / 2 if not first.tile.is_double else SQUARE
    frontiers = [
        _Frontier((-long, 0.0), _DIRECTIONS[0]),
        _Frontier((long, 0.0), _DIRECTIONS[1]),
    ]
    rebuilt: Board = geometry.open([(first.tile, first.inward)])
    _branch(frontiers, len(rebuilt.ends), (0.0, 0.0), tall)
    for placement in placements[len(openings) :]:
        e = placement.end
        front = frontiers[e]
        dx, dy = front.direction
        along = SQUARE if not placement.tile.is_double else SQUARE / 2
        centre = (front.at[0] + dx * along, front.at[1] + dy * along)
        out.append((placement, centre, front.direction))
        front.at = (centre[0] + dx * along, centre[1] + dy * along)
        before = len(rebuilt.ends)
        rebuilt = as_chain(geometry).place(
            rebuilt, e, placement.tile, placement.inward, placement.shows, placement.turn
        )
        if len(rebuilt.ends) > before:
            across = SQUARE if placement.tile.is_double else SQUARE / 2
            _branch(frontiers, len(rebuilt.ends), centre, across, front.direction)
    return out


def _branch(
    frontiers: list[_Frontier],
    count: int,
    centre: Point,
    reach: float,
    direction: Point = (1.0, 0.0),
) -> None:
    """New ends opened by a tile (a spinner): perpendicular to the line, both sides."""
    sideways = ((-direction[1], direction[0]), (direction[1], -direction[0]))
    k = 0
    while len(frontiers) < count:
        d = sideways[k % 2]
        frontiers.append(_Frontier((centre[0] + d[0] * reach, centre[1] + d[1] * reach), d))
        k += 1


def _draw_straight_board(canvas: _Canvas, state: GameState, numbers: bool) -> None:
    layout = _straight_layout(state)
    last_at: dict[int, tuple[Point, Point, Point]] = {}
    for i, (placement, centre, direction) in enumerate(layout):
        extent, _ = _draw_straight_tile(canvas, i, placement, centre, direction, numbers)
        if i == 0:
            last_at[0] = (centre, (-1.0, 0.0), extent)
            last_at[1] = (centre, (1.0, 0.0), extent)
        else:
            last_at[placement.end] = (centre, direction, extent)
    for status in classify_ends(state):
        if status.end not in last_at:
            continue
        centre, direction, (hx, hy) = last_at[status.end]
        reach_x, reach_y = direction[0] * hx, direction[1] * hy
        mid = (centre[0] + reach_x, centre[1] + reach_y)
        half = (abs(direction[1]) * (hx - 2), abs(direction[0]) * (hy - 2))
        segment = ((mid[0] - half[0], mid[1] - half[1]), (mid[0] + half[0], mid[1] + half[1]))
        _end_marker(canvas, status, segment, direction)


# -- triangles --------------------------------------------------------------------------

#: Side of a triangle tile (mm).
TRIANGLE_SIDE = 40.0
_SIN60 = math.sqrt(3.0) / 2


def _lattice_point(point: int) -> Point:
    """A point of the triangular lattice in mm, y up (docs/triangles.md's conventions)."""
    i, j = trilattice.point_coords(point)
    return TRIANGLE_SIDE * (i + j / 2), TRIANGLE_SIDE * j * _SIN60


def _inside_triangle(p: Point, a: Point, b: Point, c: Point) -> bool:
    def side(u: Point, v: Point) -> float:
        return (v[0] - u[0]) * (p[1] - u[1]) - (v[1] - u[1]) * (p[0] - u[0])

    d1, d2, d3 = side(a, b), side(b, c), side(c, a)
    return not ((d1 < 0 or d2 < 0 or d3 < 0) and (d1 > 0 or d2 > 0 or d3 > 0))


def _draw_triangle(canvas: _Canvas, index: int, placement: TrianglePlacement) -> None:
    """One triangle: its outline and the number at each corner, written near the corner."""
    points = [_lattice_point(k) for k in trilattice.corners(placement.cell.key)]
    cx = sum(p[0] for p in points) / 3
    cy = sum(p[1] for p in points) / 3
    path = "M" + " L".join(_pt(p) for p in points) + " Z"
    label = escape(str(placement.tile))
    parts = [
        f'<g class="tile" data-tile="{label}" data-cell="{placement.cell}" data-index="{index}">',
        f'<path class="tile-outline" d="{path}" {_TILE_STYLE}/>',
    ]
    for point, number in zip(points, placement.corners, strict=True):
        at = (point[0] + 0.5 * (cx - point[0]), point[1] + 0.5 * (cy - point[1]))
        text = face_str(number)
        canvas.marks.append(_text_box(at, text, 7.0))
        parts.append(_text(at, text, 7.0, "#222", "bold"))
    parts.append("</g>")
    canvas.add("".join(parts), points)
    a, b, c = points
    canvas.bodies.append((_bounds(points), lambda p: _inside_triangle(p, a, b, c)))


def _draw_triangle_board(canvas: _Canvas, state: GameState) -> None:
    board = state.board
    for i, placement in enumerate(board.placements):
        assert isinstance(placement, TrianglePlacement)
        _draw_triangle(canvas, i, placement)
    for status, end in zip(classify_ends(state), board.ends, strict=True):
        if not isinstance(end, OpenEdge):
            continue
        points = trilattice.corners(end.cell)
        a, b = _lattice_point(points[end.side]), _lattice_point(points[(end.side + 1) % 3])
        far = _lattice_point(points[(end.side + 2) % 3])
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        away = (mid[0] - far[0], mid[1] - far[1])
        length = math.hypot(*away)
        t0, t1 = 0.22, 0.78
        segment = (
            (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
            (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1),
        )
        _end_marker(canvas, status, segment, (away[0] / length, away[1] / length), status.label)


# -- the picture ------------------------------------------------------------------------


def to_svg(
    state: GameState,
    *,
    numbers: bool = False,
    caption: bool = True,
    scale: float = 3.0,
) -> str:
    """
    An SVG picture of ``state``'s board (a complete ``<svg>`` document).

    ``numbers`` writes each half's number instead of its pips (triangles always show
    numbers); ``caption`` adds a line naming the rules, round, player to move and
    scores (the picture is made wide enough for it); ``scale`` is the number of SVG
    pixels per millimetre for the ``width``/``height`` attributes (at the default 3,
    the end labels are 15 pixels high and the caption 18).
    """
    canvas = _Canvas()
    if isinstance(state.board, TriangleBoard):
        _draw_triangle_board(canvas, state)
    elif state.rules.geometry.uses_bends:
        _draw_curved_board(canvas, state, numbers)
    else:
        _draw_straight_board(canvas, state, numbers)
    if not canvas.xs:
        canvas.grow([(-SIDE, -SIDE / 2), (SIDE, SIDE / 2)])
    margin = 6.0
    left, right = min(canvas.xs) - margin, max(canvas.xs) + margin
    bottom, top = min(canvas.ys) - margin, max(canvas.ys) + margin
    title = _caption(state)
    head = CAPTION_SIZE + 5 if caption else 0.0
    if caption:
        right = max(right, left + CHAR_WIDTH * CAPTION_SIZE * len(title) + 2 * margin)
    width, height = right - left, top - bottom + head
    lines = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{_f(left)} {_f(-top - head)} {_f(width)} {_f(height)}" '
        f'width="{_f(width * scale)}" height="{_f(height * scale)}" '
        'font-family="Helvetica, Arial, sans-serif">',
        f"<title>{escape(title)}</title>",
        f'<rect x="{_f(left)}" y="{_f(-top - head)}" width="{_f(width)}" height="{_f(height)}" '
        'fill="#e9efe6"/>',
    ]
    if caption:
        lines.append(
            f'<text x="{_f(left + margin)}" y="{_f(-top - head / 2)}" '
            f'font-size="{_f(CAPTION_SIZE)}" fill="#333" dominant-baseline="central">'
            f"{escape(title)}</text>"
        )
    if state.board.is_empty:
        lines.append(_text((0.0, 0.0), "(empty board)", 6, "#666"))
    lines += canvas.items
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def _caption(state: GameState) -> str:
    if state.is_game_over:
        winner = state.winner
        turn = f"match over, {side_name(state, -1 if winner is None else winner)} wins"
    elif state.is_round_over:
        turn = "round over"
    else:
        turn = f"player {state.current_player} to move"
    scores = ", ".join(
        f"{side_name(state, k)} {v}" if len(side) > 1 else str(v)
        for k, (side, v) in enumerate(zip(state.sides, state.side_scores, strict=True))
    )
    name = printable(state.rules.name)
    return f"{name} \u2014 round {state.round_number}, {turn}; scores {scores}"


_VIEWS.svg = to_svg
