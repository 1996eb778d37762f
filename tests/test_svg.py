"""
SVG pictures of boards (docs/rendering.md): they parse, and no two drawn tiles overlap.

The tile shapes are read back from the SVG text itself (path data with arcs, turned into
polygons here, independently of the renderer) and checked with shapely.
"""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET

import pytest
import shapely
from shapely.geometry import Polygon, box

import bendolib
from bendolib.blocking import Block, classify_ends
from bendolib.geometry.triangles import TriangleGeometry, TrianglePlacement
from bendolib.geometry.trilattice import Cell
from bendolib.render_svg import TRIANGLE_SIDE, to_svg
from bendolib.state import GameState
from bendolib.tiles import face_str

SVG = "{http://www.w3.org/2000/svg}"
SIDE = 45.0
#: Overlap area (mm^2) counted as touching only; a real overlap is hundreds of mm^2.
SLACK = 0.05
#: The SVG writes coordinates to 0.001 mm.
ROUNDING = 0.01
#: A character's width as a fraction of the font size: an upper estimate for Helvetica
#: and Arial (their widest digits and capitals are 0.56 to 0.67 em; "1:5 D" averages 0.5).
EM_WIDTH = 0.6
#: The smallest text and pip radius legible at the default size (SVG pixels).
LEGIBLE_TEXT = 12.0
LEGIBLE_PIP = 4.0


def arc_points(
    start: tuple[float, float], radius: float, large: int, sweep: int, end: tuple[float, float]
) -> list[tuple[float, float]]:
    """Points along an SVG circular arc (the endpoint-to-centre conversion of SVG 1.1 F.6.5)."""
    (x1, y1), (x2, y2) = start, end
    hx, hy = (x1 - x2) / 2, (y1 - y2) / 2
    d2 = hx * hx + hy * hy
    root = math.sqrt(max(radius * radius - d2, 0.0) / d2)
    coef = root if large != sweep else -root
    cx, cy = coef * hy + (x1 + x2) / 2, -coef * hx + (y1 + y2) / 2
    a1 = math.atan2(y1 - cy, x1 - cx)
    delta = math.atan2(y2 - cy, x2 - cx) - a1
    if sweep and delta < 0:
        delta += 2 * math.pi
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    steps = 48
    return [
        (
            cx + radius * math.cos(a1 + delta * k / steps),
            cy + radius * math.sin(a1 + delta * k / steps),
        )
        for k in range(1, steps + 1)
    ]


def path_polygon(d: str) -> Polygon:
    """A closed path of M / L / A / Z commands as a polygon (SVG coordinates)."""
    tokens = re.findall(r"[MLAZ]|-?\d+(?:\.\d+)?", d)
    points: list[tuple[float, float]] = []
    i = 0
    while i < len(tokens):
        command = tokens[i]
        if command in ("M", "L"):
            points.append((float(tokens[i + 1]), float(tokens[i + 2])))
            i += 3
        elif command == "A":
            rx, _ry, _rot, large, sweep, x, y = tokens[i + 1 : i + 8]
            points += arc_points(
                points[-1], float(rx), int(large), int(sweep), (float(x), float(y))
            )
            i += 8
        elif command == "Z":
            i += 1
        else:
            raise AssertionError(f"unexpected path token {command!r} in {d!r}")
    polygon = Polygon(points)
    assert polygon.is_valid, d
    return polygon


def hexagon(q: int, r: int) -> Polygon:
    """Cell (q, r) in SVG coordinates, from the documented lattice conventions."""
    x, y = 1.5 * SIDE * q, math.sqrt(3) * SIDE * (r + q / 2)
    return Polygon(
        [
            (
                x + SIDE * math.cos(math.radians(60 * k)),
                -(y + SIDE * math.sin(math.radians(60 * k))),
            )
            for k in range(6)
        ]
    )


def drawn_tiles(svg: str) -> list[tuple[ET.Element, Polygon]]:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    out = []
    for group in root.iter(SVG + "g"):
        if group.get("class") == "tile":
            outline = next(p for p in group.iter(SVG + "path") if p.get("class") == "tile-outline")
            out.append((group, path_polygon(outline.get("d", ""))))
    return out


def text_box(text: ET.Element) -> Polygon:
    """Where a text element's characters lie (estimated with :data:`EM_WIDTH`)."""
    x, y = float(text.get("x", "0")), float(text.get("y", "0"))
    size = float(text.get("font-size", "0"))
    width = EM_WIDTH * size * len(text.text or "")
    left = x - width / 2 if text.get("text-anchor") == "middle" else x
    if text.get("dominant-baseline") == "central":
        return box(left, y - size / 2, left + width, y + size / 2)
    return box(left, y - 0.8 * size, left + width, y + 0.2 * size)


def rect_box(rect: ET.Element) -> Polygon:
    x, y = float(rect.get("x", "0")), float(rect.get("y", "0"))
    return box(x, y, x + float(rect.get("width", "0")), y + float(rect.get("height", "0")))


def check_labels_and_view(svg: str, outlines: list[Polygon] | None = None) -> int:
    """
    Issue 16.7: no end label covers a pip, a number or another label; every text,
    label and tile outline (``outlines``, read from ``svg`` when not given) lies inside
    the viewBox.  Returns the number of labels.
    """
    root = ET.fromstring(svg)
    left, top, width, height = map(float, root.get("viewBox", "").split())
    view = box(left, top, left + width, top + height).buffer(ROUNDING)
    marks: list[Polygon] = []
    pips: list[tuple[float, float, float]] = []
    for group in root.iter(SVG + "g"):
        if group.get("class") == "tile":
            pips += [
                (float(c.get("cx", "0")), float(c.get("cy", "0")), float(c.get("r", "0")))
                for c in group.iter(SVG + "circle")
            ]
            marks += [text_box(t) for t in group.iter(SVG + "text")]
    if pips:  # every pip as a disc (in one call: there are thousands)
        centres = shapely.points([(x, y) for x, y, _ in pips])
        marks += list(shapely.buffer(centres, [r for _, _, r in pips], quad_segs=4))
    if outlines is None:
        outlines = [polygon for _, polygon in drawn_tiles(svg)]
    assert all(view.contains(outline) for outline in outlines)
    labels: list[Polygon] = []
    for group in root.iter(SVG + "g"):
        if (group.get("class") or "").startswith("end "):
            rect = group.find(SVG + "rect")
            text = group.find(SVG + "text")
            assert rect is not None and text is not None
            labels.append(rect_box(rect))
            assert labels[-1].contains(text_box(text)), f"label text {text.text!r} overflows"
            assert view.contains(labels[-1])
    obstacles = marks + labels
    tree = shapely.STRtree(obstacles)
    for k, label in enumerate(labels):
        for j in tree.query(label, predicate="intersects"):
            if int(j) != len(marks) + k:
                area = label.intersection(obstacles[j]).area
                assert area < SLACK, f"end label {k} covers a pip, number or label"
    for text in root.iter(SVG + "text"):
        assert view.contains(text_box(text)), f"text {text.text!r} is cut off by the viewBox"
    return len(labels)


def triangle_corners(cell: Cell) -> list[tuple[float, float]]:
    """
    The corners 0, 1, 2 of a cell in SVG coordinates, from docs/triangles.md: point
    ``(i, j)`` at ``x = i + j/2``, ``y = j * sqrt(3)/2`` (sides of TRIANGLE_SIDE mm, y
    down in SVG); ``U(i, j)``: ``(i, j), (i, j+1), (i+1, j)``; ``D(i, j)``: ``(i, j+1),
    (i+1, j+1), (i+1, j)``.
    """
    i, j = cell.x, cell.y
    points = (
        [(i, j + 1), (i + 1, j + 1), (i + 1, j)] if cell.down else [(i, j), (i, j + 1), (i + 1, j)]
    )
    return [(TRIANGLE_SIDE * (a + b / 2), -TRIANGLE_SIDE * b * math.sqrt(3) / 2) for a, b in points]


def check_triangle(group: ET.Element, polygon: Polygon, placement: TrianglePlacement) -> None:
    """A triangle is drawn in its own cell, each corner's number written nearest it."""
    assert group.get("data-cell") == str(placement.cell)
    corners = triangle_corners(placement.cell)
    cell = Polygon(corners)
    assert cell.buffer(ROUNDING).contains(polygon) and polygon.buffer(ROUNDING).contains(cell)
    texts = list(group.iter(SVG + "text"))
    assert len(texts) == 3
    for text in texts:
        at = (float(text.get("x", "0")), float(text.get("y", "0")))
        assert polygon.contains(text_box(text))
        nearest = min(range(3), key=lambda k: math.dist(at, corners[k]))
        assert text.text == face_str(placement.corners[nearest])


def check_picture(state: GameState, numbers_too: bool = True) -> int:
    """
    Parse one picture (and with ``numbers_too`` the one drawn with numbers) and check
    its tiles, ends and labels; returns the number of tiles.
    """
    svg = to_svg(state)
    tiles = drawn_tiles(svg)
    check_labels_and_view(svg, [polygon for _, polygon in tiles])
    if numbers_too:
        check_labels_and_view(to_svg(state, numbers=True), [polygon for _, polygon in tiles])
    board = state.board
    assert len(tiles) == len(board.placements)
    polygons = [p for _, p in tiles]
    tree = shapely.STRtree(polygons)
    touching = 0
    for i, polygon in enumerate(polygons):
        for j in tree.query(polygon, predicate="dwithin", distance=ROUNDING):
            if i < j:
                area = polygon.intersection(polygons[j]).area
                assert area < SLACK, f"tiles {i} and {j} overlap by {area:.2f} mm^2"
                touching += 1
    openings = sum(1 for p in board.placements if p.end < 0)
    assert touching >= len(polygons) - openings  # each tile laid at an end touches its owner
    for (group, polygon), placement in zip(tiles, board.placements, strict=True):
        assert group.get("data-tile") == str(placement.tile)
        if placement.position is not None:
            pos = placement.position
            assert group.get("data-position") == str(pos)
            assert hexagon(pos.q, pos.r).buffer(ROUNDING).contains(polygon)
            assert math.isclose(polygon.area, math.pi * (33**2 - 12**2) / 3, rel_tol=2e-3)
        if isinstance(placement, TrianglePlacement):
            check_triangle(group, polygon, placement)
    root = ET.fromstring(svg)
    ends = [g for g in root.iter(SVG + "g") if (g.get("class") or "").startswith("end ")]
    statuses = classify_ends(state)
    assert len(ends) == len(statuses)
    for group, status in zip(ends, statuses, strict=True):
        assert group.get("data-end") == str(status.end)
        blocked = status.blocked.value if status.blocked is not None else None
        assert group.get("data-reason") == blocked
        assert group.get("class") == ("end open" if blocked is None else "end blocked")
    return len(tiles)


@pytest.mark.parametrize("name", bendolib.rules.names())
def test_random_boards_parse_and_no_tiles_overlap(name: str) -> None:
    """Boards of random games of every variant: valid SVG, tiles apart, ends marked."""
    rules = bendolib.rules.get(name)
    # a triangle layout has dozens of open edges, each labelled: fewer pictures of it
    every = 12 if isinstance(rules.geometry, TriangleGeometry) else 4
    drawn = 0
    for seed in range(2):
        players = rules.player_counts[seed % len(rules.player_counts)]
        state = bendolib.new_game(rules, players, seed)
        rng = random.Random(seed)
        for move_number in range(400):
            if state.is_game_over:
                break
            if move_number % every == 0 or state.is_round_over:
                drawn += check_picture(state, numbers_too=move_number % (2 * every) == 0)
            state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
        drawn += check_picture(state)
    assert drawn > 20


def test_end_labels_in_a_three_tile_ring_leave_every_pip_visible() -> None:
    """Issue 16.7: the label of end 0 hid a pip of 4-6L in this ring (both ends meet).

    The ring closes unevenly (6 meets 0), so it is built under ``closing="any"``.
    """
    state = bendolib.new_game(bendolib.rules.get("basic", closing="any"), 2, 5)
    for text in ("6-6*", "6-4@1R", "6-0@0L"):
        state = bendolib.apply(state, bendolib.parse_move(text, state))
    assert [s.blocked for s in classify_ends(state)] == [Block.ENDS_CONNECTED] * 2
    assert "4-6L" in [str(p.tile) for p in state.board.placements]
    assert check_labels_and_view(to_svg(state)) == 2
    assert check_labels_and_view(to_svg(state, numbers=True)) == 2


@pytest.mark.parametrize(
    ("name", "players", "moves"),
    [("basic", 2, 0), ("basic", 2, 1), ("domino-pairs", 4, 1), ("bendo-all-in-teams", 4, 2)],
)
def test_the_caption_is_never_cut_off(name: str, players: int, moves: int) -> None:
    """A narrow board with a long caption (team scores): the picture widens to fit it."""
    state = bendolib.new_game(bendolib.rules.get(name), players, 3)
    for _ in range(moves):
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    svg = to_svg(state)
    check_labels_and_view(svg)
    caption = [t for t in ET.fromstring(svg).iter(SVG + "text") if t.text and "round" in t.text]
    assert len(caption) == 1
    if len(state.sides[0]) > 1:
        assert "team 1 (players 1 and 3)" in (caption[0].text or "")


def test_the_default_size_is_legible() -> None:
    """At the default scale every text is at least 12 pixels high and a pip 4 in radius."""
    state = bendolib.new_game(bendolib.rules.get("basic"), 2, 7)
    for _ in range(6):
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    for numbers in (False, True):
        root = ET.fromstring(to_svg(state, numbers=numbers))
        view_width = float(root.get("viewBox", "").split()[2])
        pixels_per_mm = float(root.get("width", "0")) / view_width
        sizes = [float(t.get("font-size", "0")) for t in root.iter(SVG + "text")]
        assert min(sizes) * pixels_per_mm >= LEGIBLE_TEXT
        radii = [float(c.get("r", "0")) for c in root.iter(SVG + "circle")]
        assert numbers or min(radii) * pixels_per_mm >= LEGIBLE_PIP


def test_the_arc_reader_finds_a_known_sector() -> None:
    """The test's own path reader: a 120-degree annular sector has the expected area."""
    r1, r2 = 12.0, 33.0
    a = (r2, 0.0)
    b = (r2 * math.cos(2 * math.pi / 3), -r2 * math.sin(2 * math.pi / 3))
    c = (r1 * math.cos(2 * math.pi / 3), -r1 * math.sin(2 * math.pi / 3))
    d = (r1, 0.0)
    path = f"M{a[0]},{a[1]} A33,33 0 0 0 {b[0]},{b[1]} L{c[0]},{c[1]} A12,12 0 0 1 {d[0]},{d[1]} Z"
    polygon = path_polygon(path)
    assert math.isclose(polygon.area, math.pi * (r2**2 - r1**2) / 3, rel_tol=1e-3)
    assert polygon.centroid.y < 0  # counter-clockwise with y up is upward on screen


def test_pips_and_numbers() -> None:
    state = bendolib.new_game(bendolib.rules.get("basic"), 2, 7)
    state = bendolib.apply(state, bendolib.legal_moves(state)[0])  # 6-6
    pips = ET.fromstring(to_svg(state))
    assert len([c for c in pips.iter(SVG + "circle") if c.get("r") == "1.9"]) == 12
    numbers = ET.fromstring(to_svg(state, numbers=True))
    texts = [t.text for t in numbers.iter(SVG + "text")]
    assert texts.count("6") == 2


def test_empty_board_caption_and_notebook_hook() -> None:
    state = bendolib.new_game(bendolib.rules.get("basic"), 3, 1)
    svg = to_svg(state)
    root = ET.fromstring(svg)
    assert root.find(SVG + "title") is not None
    assert "basic" in (root.findtext(SVG + "title") or "")
    assert "(empty board)" in svg
    assert state._repr_svg_() == svg
    assert ET.fromstring(to_svg(state, caption=False)).find(SVG + "title") is not None


def test_text_pictures() -> None:
    """str(state) is the terminal picture; a straight board is one line."""
    state = bendolib.new_game(bendolib.rules.get("basic"), 2, 7)
    rng = random.Random(2)
    for _ in range(8):
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    text = str(state)
    assert text.startswith("basic: round 1")
    assert "ends: 0:" in text and "player 0:" in text
    assert bendolib.text.lattice_map(state) in text
    classic = bendolib.new_game(bendolib.rules.get("classic-draw"), 2, 1)
    classic = bendolib.apply(classic, bendolib.legal_moves(classic)[0])
    assert bendolib.text.chain_text(classic).count("[") == 1
    assert bendolib.text.lattice_map(classic) == ""
    assert "player 1 (you)" in bendolib.text.state_text(classic, viewer=1)


def test_the_text_picture_in_the_docs_is_what_the_library_prints() -> None:
    """docs/rendering.md shows the output of its own snippet, and the two reprs."""
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[1] / "docs" / "rendering.md").read_text("utf-8")
    state = bendolib.new_game(bendolib.rules.get("basic"), players=2, seed=7)
    for _ in range(6):
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    assert f"```text\n{state}\n```" in docs
    assert f"```text\n{state!r}\n{state.observation(0)!r}\n```" in docs


#: One character of the map covers 3.75 x 7.5 mm; a tile is a third of an annulus.
CHARACTER_AREA = 3.75 * 7.5
TILE_AREA = math.pi * (33**2 - 12**2) / 3


@pytest.mark.parametrize("name", ["basic", "all-five", "bendo-all-in-actions"])
def test_the_map_of_a_curved_board_is_drawn_to_scale(name: str) -> None:
    """
    Issue 16.6: each tile is a band of characters of its real size with its two
    numbers in it; each open end is marked once.
    """
    rules = bendolib.rules.get(name)
    checked = 0
    for seed in range(3):
        state = bendolib.new_game(rules, 2, seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.is_round_over:
                break
            state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
            picture = bendolib.text.lattice_map(state)
            placements = state.board.placements
            marks = re.findall(r"<(\d+)>|#(\d+)", picture)
            assert sorted(int(a or b) for a, b in marks) == [s.end for s in classify_ends(state)]
            bare = re.sub(r"<\d+>|#\d+", " ", picture)
            faces = re.findall(r"[0-9]+|[APW]", bare)
            expected = [
                face_str(face)
                for p in placements
                for face in (p.inward, p.inward if p.tile.is_double else p.tile.other(p.inward))
            ]
            assert sorted(faces) == sorted(expected)
            inked = sum(not ch.isspace() for ch in bare)
            assert inked == pytest.approx(len(placements) * TILE_AREA / CHARACTER_AREA, rel=0.15)
            assert set(bare) <= set(" \n:.+=0123456789APW")
            checked += 1
    assert checked > 30
