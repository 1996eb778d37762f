"""
SVG pictures of a board.

Curved tiles are drawn as what they are: 120-degree annular sectors (radii 12 and
33 mm) about a corner of their hexagonal cell (side 45 mm, the conventions of
:mod:`bendolib.geometry.lattice`); classic tiles as rectangles in a line, doubles
crosswise.  Each half shows its pips (numbers above 9, letters for the symbols),
and each open end is marked: green when playable, red with the seeds' reason
(A to D, :func:`bendolib.classify_ends`) when blocked.  Units are millimetres.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from xml.sax.saxutils import escape

import attrs

from bendolib.blocking import EndStatus, classify_ends
from bendolib.geometry import lattice
from bendolib.geometry.board import Board, Placement
from bendolib.geometry.chain import as_chain
from bendolib.state import GameState
from bendolib.tiles import ARROW, PLUS, RIGHT, STAR, face_str

__all__ = ["INNER", "OUTER", "SIDE", "cell_centre", "corner_point", "to_svg"]

#: Inner and outer radius of a curved tile, and the side of a lattice cell (mm).
INNER = 12.0
OUTER = 33.0
SIDE = INNER + OUTER
#: Size of one square half of a classic tile (mm).
SQUARE = 20.0

_SQRT3 = math.sqrt(3.0)
_TILE_STYLE = 'fill="#fbf7ea" stroke="#3a3a3a" stroke-width="0.8"'
_OPEN = "#2a9d3a"
_BLOCKED = "#d62828"
_SYMBOLS = {ARROW: "\u21c4", PLUS: "+", STAR: "\u2605"}
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


def cell_centre(q: int, r: int) -> Point:
    """Centre of cell ``(q, r)`` in mm, y pointing up (the lattice conventions)."""
    return 1.5 * SIDE * q, _SQRT3 * SIDE * (r + q / 2)


def corner_point(q: int, r: int, corner: int) -> Point:
    """Corner ``corner`` of cell ``(q, r)`` in mm, y up."""
    x, y = cell_centre(q, r)
    angle = math.radians(60 * corner)
    return x + SIDE * math.cos(angle), y + SIDE * math.sin(angle)


@attrs.frozen
class _Canvas:
    """Collected SVG elements (in y-up mm coordinates) and their bounding box."""

    items: list[str] = attrs.field(factory=list)
    xs: list[float] = attrs.field(factory=list)
    ys: list[float] = attrs.field(factory=list)

    def grow(self, points: Iterable[Point]) -> None:
        for x, y in points:
            self.xs.append(x)
            self.ys.append(y)

    def add(self, element: str, points: Iterable[Point] = ()) -> None:
        self.items.append(element)
        self.grow(points)


def _pt(p: Point) -> str:
    """A point in SVG coordinates (y flipped)."""
    return f"{_f(p[0])},{_f(-p[1])}"


def _text(p: Point, label: str, size: float, colour: str = "#222", weight: str = "") -> str:
    bold = f' font-weight="{weight}"' if weight else ""
    return (
        f'<text x="{_f(p[0])}" y="{_f(-p[1])}" font-size="{_f(size)}" fill="{colour}"'
        f'{bold} text-anchor="middle" dominant-baseline="central">{escape(label)}</text>'
    )


def _face_marks(face: int, at: Point, across: Point, along: Point, numbers: bool) -> list[str]:
    """Pips (or a label) for one face centred at ``at``; grid axes ``across``/``along``."""
    if face in _SYMBOLS:
        return [_text(at, _SYMBOLS[face], 11, "#7a3db8", "bold")]
    if numbers or not 0 <= face < len(_PIPS):
        return [_text(at, face_str(face), 10, "#222", "bold")]
    marks = []
    for row, col in _PIPS[face]:
        x = at[0] + row * across[0] + col * along[0]
        y = at[1] + row * across[1] + col * along[1]
        marks.append(f'<circle cx="{_f(x)}" cy="{_f(-y)}" r="1.9" fill="#1d1d1d"/>')
    return marks


# -- curved tiles -----------------------------------------------------------------------


def _polar(centre: Point, radius: float, degrees: float) -> Point:
    angle = math.radians(degrees)
    return centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)


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
        parts += _face_marks(face, at, across, along, numbers)
    if placement.shows != (
        placement.inward if placement.tile.is_double else placement.tile.other(placement.inward)
    ):
        far = base + 150 if placement.turn == RIGHT else base + 210
        parts.append(_text(_polar(centre, OUTER - 4, far), f"={placement.shows}", 6, "#7a3db8"))
    parts.append("</g>")
    canvas.add("".join(parts), outline)


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


def _end_marker(
    canvas: _Canvas, status: EndStatus, segment: tuple[Point, Point], outward: Point
) -> None:
    """A coloured bar on an open end and a label ``index:value`` just beyond it."""
    (x0, y0), (x1, y1) = segment
    colour = _OPEN if status.blocked is None else _BLOCKED
    mid = ((x0 + x1) / 2, (y0 + y1) / 2)
    label_at = (mid[0] + 9 * outward[0], mid[1] + 9 * outward[1])
    label = f"{status.end}:{face_str(status.value)}"
    if status.blocked is not None:
        label += f" {status.blocked.value}"
    kind = "open" if status.blocked is None else "blocked"
    reason = "" if status.blocked is None else f' data-reason="{status.blocked.value}"'
    width, height = 2.5 * len(label) + 4, 8.0
    canvas.add(
        f'<g class="end {kind}" data-end="{status.end}"{reason}>'
        f'<path d="M{_pt((x0, y0))} L{_pt((x1, y1))}" stroke="{colour}" stroke-width="2.4" '
        'stroke-linecap="round"/>'
        f'<rect x="{_f(label_at[0] - width / 2)}" y="{_f(-label_at[1] - height / 2)}" '
        f'width="{_f(width)}" height="{_f(height)}" rx="4" fill="white" '
        f'stroke="{colour}" stroke-width="0.8"/>'
        + _text(label_at, label, 4.2, colour, "bold")
        + "</g>",
        [
            (label_at[0] - width / 2, label_at[1] - height / 2),
            (label_at[0] + width / 2, label_at[1] + height / 2),
        ],
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
        parts += _face_marks(face, at, (5.5, 0.0), (0.0, 5.5), numbers)
    if placement.shows != outward:
        parts.append(_text(second, f"={placement.shows}", 6, "#7a3db8"))
    parts.append("</g>")
    canvas.add("".join(parts), [(x - hx, y - hy), (x + hx, y + hy)])
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


# -- the picture ------------------------------------------------------------------------


def to_svg(
    state: GameState,
    *,
    numbers: bool = False,
    caption: bool = True,
    scale: float = 2.0,
) -> str:
    """
    An SVG picture of ``state``'s board (a complete ``<svg>`` document).

    ``numbers`` writes each half's number instead of its pips; ``caption`` adds a
    line naming the rules, round, player to move and scores; ``scale`` is the
    number of SVG pixels per millimetre for the ``width``/``height`` attributes.
    """
    canvas = _Canvas()
    if state.rules.geometry.uses_bends:
        _draw_curved_board(canvas, state, numbers)
    else:
        _draw_straight_board(canvas, state, numbers)
    if not canvas.xs:
        canvas.grow([(-SIDE, -SIDE / 2), (SIDE, SIDE / 2)])
    margin = 6.0
    left, right = min(canvas.xs) - margin, max(canvas.xs) + margin
    bottom, top = min(canvas.ys) - margin, max(canvas.ys) + margin
    title = _caption(state)
    head = 10.0 if caption else 0.0
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
            f'<text x="{_f(left + 3)}" y="{_f(-top - head + 6.5)}" font-size="5" fill="#333">'
            f"{escape(title)}</text>"
        )
    if state.board.is_empty:
        lines.append(_text((0.0, 0.0), "(empty board)", 6, "#666"))
    lines += canvas.items
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def _caption(state: GameState) -> str:
    if state.is_game_over:
        turn = f"match over, side {state.winner} wins"
    elif state.is_round_over:
        turn = "round over"
    else:
        turn = f"player {state.current_player} to move"
    scores = ", ".join(map(str, state.side_scores))
    return f"{state.rules.name} \u2014 round {state.round_number}, {turn}; scores {scores}"
