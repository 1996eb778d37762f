"""
Draw the pictures of docs/geometry.md with the library's SVG renderer.

Each picture is ``bendolib.render_svg.to_svg`` of a position, with the hexagonal
cells of the lattice drawn underneath (from the renderer's own ``cell_centre`` and
``corner_point``) and, for the open and closed positions, the two positions beyond
an end outlined: green dashed where a tile may go, red where it may not.

    python examples/render_geometry_pictures.py [OUTPUT_DIR]   # default docs/images
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

import bendolib
from bendolib.geometry import lattice
from bendolib.geometry.chain import as_chain
from bendolib.render_svg import INNER, OUTER, cell_centre, corner_point, to_svg

RULES = bendolib.rules.get("basic")
TS = RULES.tileset

#: A step building a board: (end, tile, inward face, turn); end -1 opens the board.
Step = tuple[int, str, int, int]
L, R = bendolib.LEFT, bendolib.RIGHT

#: The positions of tests/test_basic_rules.py (seeds/000 and 002).
OPENING: list[Step] = [(-1, "6-6", 6, R)]
CLOSED: list[Step] = [(-1, "6-6", 6, R), (0, "1-6", 6, L), (1, "3-6", 6, L)]
#: An even ring (6 meets 6), as the default closing="even" allows; the uneven ring of
#: tests/test_basic_rules.py (6-6, 6-1, 6-5: 1 meets 5) needs closing="any".
CLOSED_DEAD: list[Step] = [(-1, "1-6", 1, R), (0, "1-2", 1, L), (0, "2-6", 2, L)]
DEAD_END: list[Step] = [
    (-1, "6-6", 6, R), (0, "5-6", 6, R), (0, "0-5", 5, L), (0, "0-2", 0, L),
    (0, "1-2", 2, R), (1, "2-6", 6, R), (0, "1-5", 1, L), (0, "4-5", 5, R),
    (1, "2-4", 2, L), (0, "4-4", 4, L), (1, "4-6", 4, L), (0, "1-4", 4, L),
    (0, "1-6", 1, R), (0, "3-6", 6, L), (0, "3-3", 3, R),
]  # fmt: skip

GREEN, RED, BLUE = "#2a9d3a", "#d62828", "#1f5fa8"
#: Pixels per millimetre of the pictures' width and height.
SCALE = 2.0
Point = tuple[float, float]


def board_of(steps: Sequence[Step]) -> bendolib.Board:
    """The board built by laying the tiles of ``steps`` with the basic geometry."""
    geometry = RULES.geometry
    board = bendolib.Board()
    for end, text, inward, turn in steps:
        tile = TS.parse_tile(text)
        if end < 0:
            board = geometry.open([(tile, inward)])
        else:
            board = as_chain(geometry).place(board, end, tile, inward, tile.other(inward), turn)
    return board


def state_of(steps: Sequence[Step]) -> bendolib.GameState:
    """A basic-rules state showing that board (the picture does not show the hands)."""
    return attrs.evolve(bendolib.new_game(RULES, players=2, seed=0), board=board_of(steps))


def svg_point(p: Point) -> str:
    """A point in SVG user units (millimetres, y pointing down)."""
    return f"{p[0]:.2f},{-p[1]:.2f}"


def hexagon(q: int, r: int) -> str:
    """The outline of cell ``(q, r)``."""
    points = " ".join(svg_point(corner_point(q, r, k)) for k in range(6))
    return f'<polygon points="{points}" fill="none" stroke="#9aa79a" stroke-width="0.6"/>'


def label(p: Point, text: str, size: float, colour: str, italic: bool = False) -> str:
    """Centred text at ``p`` with a light halo, so it stays readable over tiles."""
    style = ' font-style="italic"' if italic else ""
    return (
        f'<text x="{p[0]:.2f}" y="{-p[1]:.2f}" font-size="{size}" fill="{colour}"{style} '
        'text-anchor="middle" dominant-baseline="central" stroke="#ffffff" '
        f'stroke-width="1.2" paint-order="stroke">{text}</text>'
    )


def sector(position: bendolib.Position, colour: str) -> str:
    """The dashed outline of a tile at ``position``: the 120° arc around its corner."""
    cx, cy = corner_point(position.q, position.r, position.corner)
    start, stop = 60 * position.corner + 120, 60 * position.corner + 240

    def at(radius: float, degrees: float) -> Point:
        return cx + radius * math.cos(math.radians(degrees)), cy + radius * math.sin(
            math.radians(degrees)
        )

    path = (
        f"M{svg_point(at(OUTER, start))} A{OUTER},{OUTER} 0 0 0 {svg_point(at(OUTER, stop))} "
        f"L{svg_point(at(INNER, stop))} A{INNER},{INNER} 0 0 1 {svg_point(at(INNER, start))} Z"
    )
    return (
        f'<path d="{path}" fill="{colour}" fill-opacity="0.08" stroke="{colour}" '
        'stroke-width="0.9" stroke-dasharray="3 2"/>'
    )


def cells_of(board: bendolib.Board, *ends: int) -> set[tuple[int, int]]:
    """The cells holding a tile, and those of the positions beyond the given ends."""
    cells = {(p.position.q, p.position.r) for p in board.placements if p.position is not None}
    for end in ends:
        e = board.ends[end]
        cells |= {(p.q, p.r) for p in (e.left, e.right) if p is not None}
    return cells


def picture(
    state: bendolib.GameState,
    cells: Iterable[tuple[int, int]],
    under: Sequence[str] = (),
    over: Sequence[str] = (),
) -> str:
    """The renderer's picture of ``state`` on the given lattice cells, with extra marks."""
    board = to_svg(state, caption=False)
    root = re.match(r"<svg\b[^>]*>", board)
    view = re.search(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"', board)
    if root is None or view is None:
        raise ValueError("to_svg() no longer starts with an <svg viewBox=...> element")
    x, y, w, h = (float(v) for v in view.groups())
    cells = sorted(cells)
    xs = [x, x + w] + [corner_point(q, r, k)[0] for q, r in cells for k in range(6)]
    ys = [y, y + h] + [-corner_point(q, r, k)[1] for q, r in cells for k in range(6)]
    left, top = min(xs) - 3, min(ys) - 3
    width, height = max(xs) + 3 - left, max(ys) + 3 - top
    box = " ".join(view.groups())
    nested = f'<svg class="board" x="{x}" y="{y}" width="{w}" height="{h}" viewBox="{box}">'
    return "\n".join(
        [
            '<svg xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="{left:.2f} {top:.2f} {width:.2f} {height:.2f}" '
            f'width="{SCALE * width:.0f}" height="{SCALE * height:.0f}" '
            'font-family="Helvetica, Arial, sans-serif">',
            # the renderer paints its own background: let the cells show through it
            "<style>.board > rect:first-of-type { fill: none; }</style>",
            f'<rect x="{left:.2f}" y="{top:.2f}" width="{width:.2f}" height="{height:.2f}" '
            'fill="#e9efe6"/>',
            *(hexagon(q, r) for q, r in cells),
            *under,
            nested + board[root.end() :].rstrip().removesuffix("</svg>") + "</svg>",
            *over,
            "</svg>",
        ]
    )


def candidates(board: bendolib.Board, end: int) -> list[str]:
    """The two positions beyond ``end``: green where free, red where taken."""
    e = board.ends[end]
    marks = []
    for turn, position in ((L, e.left), (R, e.right)):
        if position is not None:
            marks.append(sector(position, GREEN if e.free & turn else RED))
    return marks


def lattice_picture() -> str:
    """The cell lattice round the centre, the opening double at corner 0 of (0, 0)."""
    state = state_of(OPENING)
    cells = [(q, r) for q in range(-1, 2) for r in range(-1, 2) if lattice.distance(q, r) <= 1]
    over = []
    for q, r in cells:
        cx, cy = cell_centre(q, r)
        if (q, r) != (0, 0):
            over.append(label((cx, cy), f"({q},{r})", 6, "#55605a"))
    over.append(label((0.0, 4.0), "(0,0)", 6, "#55605a"))
    for k in range(6):
        angle = math.radians(60 * k)
        over.append(label((36 * math.cos(angle), 36 * math.sin(angle)), f"c{k}", 5, BLUE))
        side = math.radians(60 * k + 30)
        over.append(
            label((27 * math.cos(side), 27 * math.sin(side)), f"s{k}", 5, BLUE, italic=True)
        )
    return picture(state, cells, over=over)


def pictures() -> dict[str, str]:
    """Every picture of the geometry page, by file name."""
    opening = state_of(OPENING)
    closed = state_of(CLOSED)
    dead_end = state_of(DEAD_END)
    loop = state_of(CLOSED_DEAD)
    return {
        "geometry-lattice.svg": lattice_picture(),
        "geometry-open.svg": picture(
            opening,
            cells_of(opening.board, 0, 1),
            under=candidates(opening.board, 0) + candidates(opening.board, 1),
        ),
        "geometry-closed.svg": picture(
            closed, cells_of(closed.board, 0), under=candidates(closed.board, 0)
        ),
        "geometry-dead-end.svg": picture(
            dead_end, cells_of(dead_end.board, 1), under=candidates(dead_end.board, 1)
        ),
        "geometry-closed-loop.svg": picture(loop, cells_of(loop.board)),
    }


def main(argv: Sequence[str] = ()) -> None:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    for name, svg in pictures().items():
        path = out / name
        text = svg + "\n"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        else:
            print(f"{path} is up to date")


if __name__ == "__main__":
    main(sys.argv[1:])
