"""An independent Euclidean oracle for the hexagonal lattice of the bend geometry.

The lattice (``bendolib.geometry.lattice``) answers every geometric question of curved
play with small integer tables: which positions overlap, which meet flush, where an end
leads, which way a tile turns.  ``../shared/design/geometry.md`` says that model was
checked against exact Euclidean geometry and that "the same check belongs in the project's
own tests, as an oracle that does not share code with the lattice".  This module is that
oracle.

Nothing here computes a coordinate with library code.  The conventions are re-stated from
the lattice's documentation and turned into shapely polygons from scratch:

* cells are flat-topped regular hexagons of side 45 mm (12 + 33); cell ``(q, r)`` has its
  centre at ``x = 1.5 * 45 * q``, ``y = sqrt(3) * 45 * (r + q / 2)``;
* corner ``k`` of a cell lies at angle ``60 k`` degrees from the centre; side ``k`` joins
  corners ``k`` and ``k + 1`` and faces the neighbour at axial offset ``DIRECTIONS[k]``;
* a tile at ``(q, r, c)`` is the 120-degree annular sector centred at corner ``c``, inner
  radius 12, outer radius 33, sweeping across the cell's interior between sides ``c - 1``
  and ``c``.

The library is only called as the thing under test (``overlaps``, ``joins``, ``extend``,
``turn_between``) or to translate its spiral cell indices (``cell_index`` /
``cell_coords``), and, in the last test, through the public game API.
"""

from __future__ import annotations

import functools
import math
import os
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

shapely: Any = pytest.importorskip("shapely")

import bendolib  # noqa: E402  (imported after the skip)
from bendolib.geometry import lattice  # noqa: E402
from bendolib.tiles import LEFT, RIGHT  # noqa: E402

# --------------------------------------------------------------------------------------
# The Euclidean model, from the documented conventions only
# --------------------------------------------------------------------------------------

SIDE = 45.0  #: cell side, mm: 12 + 33
INNER = 12.0  #: inner radius of a tile, mm
OUTER = 33.0  #: outer radius of a tile, mm
ARC_SEGMENTS = 256  #: straight segments approximating each 120-degree arc

#: Axial offset of the neighbour across side k (re-stated, not imported).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

#: An overlap has positive area: above 1 mm^2.  Touching shapes share at most a segment
#: (area 0 up to rounding); no honest answer falls between the two thresholds.
OVERLAP_AREA = 1.0
TOUCH_AREA = 1e-6
#: Points (segment ends, centres) "coincide" within this distance, mm.
EPS = 1e-6

Point = tuple[float, float]
Segment = tuple[Point, Point]
Pos = tuple[int, int, int]

ANNULUS_AREA = math.pi * (OUTER**2 - INNER**2)


def cell_centre(q: int, r: int) -> Point:
    """Centre of cell ``(q, r)``: flat-topped axial layout."""
    return 1.5 * SIDE * q, math.sqrt(3.0) * SIDE * (r + q / 2.0)


def corner_point(q: int, r: int, k: int) -> Point:
    """Corner ``k`` of cell ``(q, r)``, at angle ``60 k`` degrees from its centre."""
    cx, cy = cell_centre(q, r)
    angle = math.radians(60.0 * (k % 6))
    return cx + SIDE * math.cos(angle), cy + SIDE * math.sin(angle)


def side_segment(q: int, r: int, k: int) -> Segment:
    """Side ``k`` of cell ``(q, r)``: from corner ``k`` to corner ``k + 1``."""
    return corner_point(q, r, k), corner_point(q, r, k + 1)


def hexagon(q: int, r: int) -> Any:
    """The cell as a shapely polygon."""
    return shapely.Polygon([corner_point(q, r, k) for k in range(6)])


def dist(a: Point, b: Point) -> float:
    """Euclidean distance."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def cross(o: Point, a: Point, b: Point) -> float:
    """z-component of ``(a - o) x (b - o)``: positive when o->a->b turns counter-clockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def point_on_segment(p: Point, seg: Segment) -> bool:
    """True if ``p`` lies on the closed segment ``seg`` (within ``EPS``)."""
    (ax, ay), (bx, by) = seg
    dx, dy = bx - ax, by - ay
    t = ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)
    t = min(1.0, max(0.0, t))
    return dist(p, (ax + t * dx, ay + t * dy)) < EPS


def segments_coincide(a: Segment, b: Segment) -> bool:
    """True if two segments have the same two endpoints, in either order."""
    same = dist(a[0], b[0]) < EPS and dist(a[1], b[1]) < EPS
    swapped = dist(a[0], b[1]) < EPS and dist(a[1], b[0]) < EPS
    return same or swapped


def midpoint(seg: Segment) -> Point:
    """Middle of a segment."""
    return (seg[0][0] + seg[1][0]) / 2.0, (seg[0][1] + seg[1][1]) / 2.0


def hex_distance(q: int, r: int) -> int:
    """Hex distance of axial ``(q, r)`` from the origin (cube coordinates)."""
    return max(abs(q), abs(r), abs(q + r))


def patch(radius: int) -> list[tuple[int, int]]:
    """Every cell within ``radius`` of the origin."""
    return [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if hex_distance(q, r) <= radius
    ]


def patch_positions(radius: int) -> list[Pos]:
    """Every position ``(q, r, corner)`` of the cells within ``radius``."""
    return [(q, r, c) for q, r in patch(radius) for c in range(6)]


@dataclass(frozen=True)
class Sector:
    """A tile as Euclidean geometry.

    ``ends`` maps the index of the cell side each straight end lies on (found by
    geometry, not by formula) to that end segment ``(inner point, outer point)``.
    """

    pos: Pos
    centre: Point
    polygon: Any
    ends: dict[int, Segment]


@functools.cache
def sector(pos: Pos) -> Sector:
    """The 120-degree annular sector of a tile at ``pos``."""
    q, r, c = pos
    centre = corner_point(q, r, c)
    towards_next = corner_point(q, r, c + 1)
    towards_prev = corner_point(q, r, c - 1)
    cx, cy = centre
    start = math.atan2(towards_next[1] - cy, towards_next[0] - cx)
    sweep = 2.0 * math.pi / 3.0  # the inner angle of a regular hexagon

    def at(radius: float, angle: float) -> Point:
        return cx + radius * math.cos(angle), cy + radius * math.sin(angle)

    # Oracle self-checks: the sweep ends on the ray towards the other neighbouring corner
    # and its middle ray points into the cell, through its centre (at distance SIDE).
    assert dist(at(SIDE, start + sweep), towards_prev) < EPS
    assert dist(at(SIDE, start + sweep / 2.0), cell_centre(q, r)) < EPS

    angles = [start + sweep * i / ARC_SEGMENTS for i in range(ARC_SEGMENTS + 1)]
    outer = [at(OUTER, a) for a in angles]
    inner = [at(INNER, a) for a in reversed(angles)]
    polygon = shapely.Polygon(outer + inner)
    assert polygon.is_valid

    ends: dict[int, Segment] = {}
    for angle in (start, start + sweep):
        seg = (at(INNER, angle), at(OUTER, angle))
        on = [k for k in range(6) if all(point_on_segment(p, side_segment(q, r, k)) for p in seg)]
        assert len(on) == 1, f"end of {pos} on sides {on}"
        ends[on[0]] = seg
    return Sector(pos, centre, polygon, ends)


@functools.cache
def overlap_area(a: Pos, b: Pos) -> float:
    """Area of the intersection of two tiles (exactly 0.0 when their discs are apart)."""
    sa, sb = sector(a), sector(b)
    if dist(sa.centre, sb.centre) > 2.0 * OUTER + EPS:
        return 0.0  # each sector lies in the disc of radius OUTER about its centre
    return float(sa.polygon.intersection(sb.polygon).area)


def euclid_overlaps(a: Pos, b: Pos) -> bool:
    """True if the tiles at ``a`` and ``b`` overlap with positive area."""
    area = overlap_area(*sorted((a, b)))
    assert area > OVERLAP_AREA or area < TOUCH_AREA, f"ambiguous overlap {area} of {a}, {b}"
    return area > OVERLAP_AREA


def flush_sides(a: Pos, b: Pos) -> list[tuple[int, int]]:
    """Pairs ``(side of a, side of b)`` where an end of ``a`` lies flush on an end of ``b``.

    Flush means the two straight end segments coincide and the tiles do not overlap.
    """
    if a == b or euclid_overlaps(a, b):
        return []
    sa, sb = sector(a), sector(b)
    return [
        (ka, kb)
        for ka, ea in sa.ends.items()
        for kb, eb in sb.ends.items()
        if segments_coincide(ea, eb)
    ]


def euclid_turn(pos: Pos, entry_side: int) -> int:
    """Turning sense of the tile at ``pos`` travelled from its end on ``entry_side``.

    Moving along the arc (120 degrees, so the short way round) from the entry end to the
    exit end: the centre of curvature on the left is LEFT (counter-clockwise), on the right
    RIGHT.
    """
    s = sector(pos)
    (exit_side,) = (k for k in s.ends if k != entry_side)
    z = cross(s.centre, midpoint(s.ends[entry_side]), midpoint(s.ends[exit_side]))
    assert abs(z) > 1.0
    return LEFT if z > 0 else RIGHT


def other_end(pos: Pos, side: int) -> int:
    """The side of the tile's other end."""
    (k,) = (k for k in sector(pos).ends if k != side)
    return k


def lattice_pos(cell: int, corner: int) -> Pos:
    """A lattice answer ``(cell index, corner)`` as ``(q, r, corner)``."""
    q, r = lattice.cell_coords(cell)
    return q, r, corner


def lattice_extend(pos: Pos, side: int, turn: int) -> tuple[Pos, int]:
    """The lattice's extension of the end of ``pos`` on ``side``: new position, exit side."""
    cell, corner, exit_side = lattice.extend(lattice.cell_index(pos[0], pos[1]), side, turn)
    return lattice_pos(cell, corner), exit_side


PATCH_RADIUS = 3
POSITIONS = patch_positions(PATCH_RADIUS)


def fail_list(problems: Sequence[str]) -> str:
    """An assertion message showing the first few problems."""
    return f"{len(problems)} disagreement(s):\n" + "\n".join(problems[:20])


# --------------------------------------------------------------------------------------
# 1. Collision
# --------------------------------------------------------------------------------------


def test_patch_size() -> None:
    """The patch of ../shared/design/geometry.md: 37 cells, 222 positions."""
    assert len(patch(PATCH_RADIUS)) == 37
    assert len(POSITIONS) == 222 == len(set(POSITIONS))


def test_every_tile_lies_inside_its_own_cell() -> None:
    """A placed tile lies inside one cell, hugging one corner (../shared/design/geometry.md)."""
    problems = []
    for pos in POSITIONS:
        cell = hexagon(pos[0], pos[1])
        outside = sector(pos).polygon.difference(cell).area
        if outside > TOUCH_AREA or not cell.buffer(EPS).contains(sector(pos).polygon):
            problems.append(f"{pos}: {outside} mm^2 outside its cell")
    assert not problems, fail_list(problems)


def test_overlap_agrees_with_lattice_on_every_pair() -> None:
    """Overlap with positive area == ``lattice.overlaps``, all 222 x 222 pairs of the patch.

    ../shared/design/geometry.md: "two tiles overlap if and only if they are in the same
    cell at the same or at adjacent corners. Tiles in different cells never overlap."
    """
    problems = []
    overlapping = 0
    for i, a in enumerate(POSITIONS):
        for b in POSITIONS[i:]:
            euclid = euclid_overlaps(a, b)
            overlapping += euclid
            for x, y in ((a, b), (b, a)):
                if lattice.overlaps(x, y) != euclid:
                    problems.append(f"overlaps{x, y} = {not euclid}, Euclidean {euclid}")
    assert not problems, fail_list(problems)
    # 222 self-pairs plus, in each of the 37 cells, 6 pairs of adjacent corners.
    assert overlapping == 222 + 37 * 6


def test_a_cell_holds_at_most_three_tiles() -> None:
    """Alternate corners of one cell are disjoint (../shared/design/geometry.md)."""
    for q, r in patch(1):
        for start in (0, 1):
            trio = [(q, r, c) for c in range(start, 6, 2)]
            assert not any(euclid_overlaps(a, b) for a in trio for b in trio if a < b)


# --------------------------------------------------------------------------------------
# 2. Flush joints, extension and turning sense
# --------------------------------------------------------------------------------------


@functools.cache
def flush_partners(pos: Pos, side: int) -> frozenset[Pos]:
    """Positions (anywhere one ring beyond the patch) meeting the end of ``pos`` flush."""
    end = sector(pos).ends[side]
    return frozenset(
        other
        for other in patch_positions(PATCH_RADIUS + 1)
        if other != pos
        and any(segments_coincide(end, e) for e in sector(other).ends.values())
        and not euclid_overlaps(pos, other)
    )


def test_each_end_meets_flush_exactly_the_two_extensions() -> None:
    """Each end meets flush exactly ``extend(..., LEFT)`` and ``extend(..., RIGHT)``.

    ../shared/design/geometry.md: extending an open end from cell H into H' puts the new
    tile in H' at one of the two corners bounding the shared side; seeds/000_*.txt: each
    Bendomino "must be connected evenly" with other pieces.  Also checks, Euclidean-ly,
    that the new tile lies in the neighbour across that side (``DIRECTIONS``), that its
    other end lies on the ``exit_side`` the lattice returns, and that it turns the way
    asked.
    """
    problems = []
    checked = 0
    for pos in POSITIONS:
        q, r, _ = pos
        for side in sector(pos).ends:
            dq, dr = DIRECTIONS[side]
            neighbour = hexagon(q + dq, r + dr)
            shared = shapely.LineString(side_segment(q, r, side))
            assert neighbour.boundary.buffer(EPS).contains(shared)  # oracle self-check
            partners = flush_partners(pos, side)
            expected = {}
            for turn in (LEFT, RIGHT):
                new, exit_side = lattice_extend(pos, side, turn)
                expected[new] = turn
                checked += 1
                if new[:2] != (q + dq, r + dr):
                    problems.append(f"extend{pos, side, turn} -> {new}: not across side")
                    continue
                entry = [kb for ka, kb in flush_sides(pos, new) if ka == side]
                if len(entry) != 1:
                    problems.append(f"extend{pos, side, turn} -> {new}: not flush")
                    continue
                if other_end(new, entry[0]) != exit_side:
                    problems.append(
                        f"extend{pos, side, turn} -> exit {exit_side}, "
                        f"Euclidean {other_end(new, entry[0])}"
                    )
                if euclid_turn(new, entry[0]) != turn:
                    problems.append(f"extend{pos, side, turn} -> {new} turns the other way")
            if partners != set(expected):
                problems.append(f"{pos} side {side}: flush {sorted(partners)}, lattice {expected}")
    assert not problems, fail_list(problems)
    assert checked == 222 * 2 * 2


def test_joins_agrees_with_flush_on_every_pair() -> None:
    """``lattice.joins`` == Euclidean flush joint, all ordered pairs of the patch.

    ../shared/design/geometry.md: "tiles join end to end, flush ... the straight end of one
    lies on the straight end of the next".
    """
    problems = []
    joined = 0
    for a in POSITIONS:
        flush = {b for side in sector(a).ends for b in flush_partners(a, side)}
        joined += len(flush & set(POSITIONS))
        for b in POSITIONS:
            if lattice.joins(a, b) != (b in flush):
                problems.append(f"joins{a, b} = {b not in flush}, Euclidean {b in flush}")
    assert not problems, fail_list(problems)
    assert joined > 0


def test_turning_sense_agrees_with_turn_between() -> None:
    """``turn_between(entry_side, corner)`` == the Euclidean turning sense.

    LEFT: the centre of curvature is on the left going from the entry end to the exit end
    (counter-clockwise).  seeds/000_*.txt and ../shared/design/geometry.md: a tile bends one
    way read from a to b and the other way read from b to a.
    """
    problems = []
    for pos in POSITIONS:
        senses = set()
        for entry in sector(pos).ends:
            euclid = euclid_turn(pos, entry)
            senses.add(euclid)
            if lattice.turn_between(entry, pos[2]) != euclid:
                problems.append(f"turn_between({entry}, {pos[2]}) != Euclidean {euclid}")
        assert senses == {LEFT, RIGHT}
    assert not problems, fail_list(problems)


def test_same_sense_continues_the_curve() -> None:
    """Same turning sense continues the curve, the other one is an S-bend.

    ../shared/design/geometry.md: "one of those corners continues the curve of the previous
    tile (same turning sense), the other reverses it".  Euclidean: the continuing tile has
    the same centre of curvature; the S-bend's centre is reflected through the joint.
    """
    for pos in POSITIONS:
        for side in sector(pos).ends:
            before = euclid_turn(pos, other_end(pos, side))
            for turn in (LEFT, RIGHT):
                new, _ = lattice_extend(pos, side, turn)
                gap = dist(sector(pos).centre, sector(new).centre)
                if turn == before:
                    assert gap < EPS, (pos, side, turn)
                else:
                    assert abs(gap - SIDE) < EPS, (pos, side, turn)


# --------------------------------------------------------------------------------------
# 3. Closed circles
# --------------------------------------------------------------------------------------


@functools.cache
def reference_annulus(centre: Point) -> Any:
    """A full annulus about ``centre`` (fine polygonal circles)."""
    ring = shapely.Point(centre)
    return ring.buffer(OUTER, quad_segs=ARC_SEGMENTS).difference(
        ring.buffer(INNER, quad_segs=ARC_SEGMENTS)
    )


@functools.cache
def full_annulus(trio: frozenset[Pos]) -> str:
    """Why the union of three tiles is not a full annulus ('' when it is)."""
    sectors = [sector(p) for p in trio]
    centre = sectors[0].centre
    if len(trio) != 3 or any(dist(s.centre, centre) > EPS for s in sectors):
        return "the three tiles do not share a centre"
    union = shapely.union_all([s.polygon for s in sectors], grid_size=EPS)
    if union.geom_type != "Polygon" or len(union.interiors) != 1:
        return f"union is {union.geom_type} with holes {len(getattr(union, 'interiors', []))}"
    if not math.isclose(union.area, ANNULUS_AREA, rel_tol=1e-4):
        return f"union area {union.area}, annulus {ANNULUS_AREA}"
    if union.symmetric_difference(reference_annulus(centre)).area > OVERLAP_AREA:
        return "union differs from the annulus"
    return ""


def test_three_turns_the_same_way_close_a_circle() -> None:
    """Three tiles laid end to end, bending the same way, close a full circle.

    ../shared/design/geometry.md ("three tiles around one corner point", "both ends
    connect"); seeds/000_*.txt (blocked position D, "both ends connect").  From every end
    of every position of the patch, three LEFT (or three RIGHT) extensions give three tiles
    with one common centre whose union is an annulus of area pi (33^2 - 12^2), and the third
    tile's exit end lies flush on the end we started from.
    """
    problems = []
    loops = 0
    for pos in POSITIONS:
        for side in sector(pos).ends:
            for turn in (LEFT, RIGHT):
                start = sector(pos).ends[side]
                at, exit_side, trio = pos, side, []
                for _ in range(3):
                    new, new_exit = lattice_extend(at, exit_side, turn)
                    if not any(ka == exit_side for ka, _ in flush_sides(at, new)):
                        problems.append(f"{at} side {exit_side} -> {new}: not flush")
                    at, exit_side = new, new_exit
                    trio.append(new)
                loops += 1
                why = full_annulus(frozenset(trio))
                if why:
                    problems.append(f"{pos} side {side} turn {turn}: {why} ({trio})")
                if not segments_coincide(sector(at).ends[exit_side], start):
                    problems.append(f"{pos} side {side} turn {turn}: loop does not close")
    assert not problems, fail_list(problems)
    assert loops == 222 * 2 * 2


# --------------------------------------------------------------------------------------
# 4. Boards of random games
# --------------------------------------------------------------------------------------

#: Random games whose boards are checked: 60 (about 1.5 s), 200 in the long profile
#: (``BENDOLIB_LONG=1 PYTHONPATH=src python -m pytest tests/test_geometry_oracle.py``).
GAMES = 200 if os.environ.get("BENDOLIB_LONG", "") not in ("", "0") else 60


def pos_of(position: Any) -> Pos:
    """A library ``Position`` as ``(q, r, corner)``."""
    return int(position.q), int(position.r), int(position.corner)


def owner_of_end(placed: Iterable[Pos], cell: int, side: int) -> list[Pos]:
    """Placed tiles in ``cell`` (spiral index) with an end on that cell's ``side``."""
    q, r = lattice.cell_coords(cell)
    edge = side_segment(q, r, side)
    return [
        p
        for p in placed
        if p[:2] == (q, r)
        and any(all(point_on_segment(x, edge) for x in e) for e in sector(p).ends.values())
    ]


def check_board(board: Any, previous: Any, label: str) -> int:
    """Check one board Euclidean-ly; ``previous`` is the board one move earlier, or None.

    Returns the number of open ends checked.
    """
    placed = [pos_of(p.position) for p in board.placements]
    assert len(set(placed)) == len(placed), f"{label}: a position is used twice"

    old: list[Any] = list(previous.placements) if previous is not None else []
    grown = list(board.placements[: len(old)]) == old
    first_new = len(old) if grown else 0
    for i in range(first_new, len(placed)):
        for j in range(i):
            assert not euclid_overlaps(placed[i], placed[j]), (
                f"{label}: {placed[i]} overlaps {placed[j]}"
            )
        placement = board.placements[i]
        if placement.end < 0:  # an opening tile
            continue
        assert grown and previous is not None, f"{label}: placement without its board"
        end = previous.ends[placement.end]
        owners = owner_of_end(placed[:i], end.cell, end.side)
        assert len(owners) == 1, f"{label}: end {placement.end} has owners {owners}"
        flush = [kb for ka, kb in flush_sides(owners[0], placed[i]) if ka == end.side]
        assert len(flush) == 1, f"{label}: {placed[i]} not flush with {owners[0]}"
        assert euclid_turn(placed[i], flush[0]) == placement.turn, (
            f"{label}: {placed[i]} turns the other way"
        )

    ends = 0
    for index, end in enumerate(board.ends):
        if end.cell < 0:
            continue
        ends += 1
        owners = owner_of_end(placed, end.cell, end.side)
        assert len(owners) == 1, f"{label}: end {index} has owners {owners}"
        for bit, candidate in ((LEFT, end.left), (RIGHT, end.right)):
            cand = pos_of(candidate)
            flush = [kb for ka, kb in flush_sides(owners[0], cand) if ka == end.side]
            assert len(flush) == 1, f"{label}: end {index} candidate {cand} is not flush"
            assert euclid_turn(cand, flush[0]) == bit, f"{label}: end {index} {cand} turn"
            free = not any(euclid_overlaps(cand, p) for p in placed)
            assert free == bool(end.free & bit), (
                f"{label}: end {index} candidate {cand}: Euclidean free {free}, mask {end.free}"
            )
    return ends


def test_random_game_boards() -> None:
    """Every board of GAMES seeded random games (60; 200 long) passes the Euclidean checks.

    No two placed tiles overlap; each tile laid at an end lies flush on the tile that owned
    that end and turns the way the placement says; and for every open end each candidate
    position is Euclidean-free exactly when its bit of ``free`` is set (seeds/000_*.txt:
    "the new piece needs to match but also has to fit", dead ends;
    ../shared/design/geometry.md: collision, dead end).
    """
    assert (LEFT, RIGHT) == (1, 2)
    rules = bendolib.rules.get("basic")
    boards = ends = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = bendolib.new_game(rules, players=2, seed=seed)
        previous = None
        moves_played = 0
        while not state.is_game_over:
            board = state.board
            ends += check_board(board, previous, f"seed {seed} move {moves_played}")
            boards += 1
            moves = bendolib.legal_moves(state)
            assert moves, f"seed {seed} move {moves_played}: no legal move"
            state = bendolib.apply(state, rng.choice(moves))
            previous = board
            moves_played += 1
        check_board(state.board, previous, f"seed {seed} final")
        boards += 1
    assert boards > GAMES and ends > 0
