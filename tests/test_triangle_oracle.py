"""An independent Euclidean oracle for the triangle geometry (issue 15).

The triangle geometry (``bendolib.geometry.triangles`` over ``geometry.trilattice``)
answers every question of triangle play with integer keys and tables: which free cells
border the layout, which tiles fit them turned which way, which edges are open, when a
tile closes a hexagon or makes a bridge.  This oracle answers the same questions from
Euclidean geometry, in exact integer arithmetic, and shares no code with the lattice.

Conventions, re-stated from docs/triangles.md (the only thing taken from the library):

* the lattice point ``(i, j)`` is at ``x = i + j / 2``, ``y = j * sqrt(3) / 2`` (side 1);
  here a point is stored as the integers ``X = 2x = 2i + j`` and ``Y = 2y / sqrt(3) = j``,
  so a squared length is ``(dX**2 + 3 * dY**2) / 4`` exactly;
* cell ``U(x, y)`` has the corners ``(x, y)``, ``(x, y+1)``, ``(x+1, y)`` and cell
  ``D(x, y)`` the corners ``(x, y+1)``, ``(x+1, y+1)``, ``(x+1, y)``, both listed
  clockwise; a placement writes the numbers at those corners in that order.

From there everything is Euclid: a tile is the triangle on its three vertices; two tiles
overlap when their interiors meet (separating-axis test on the edge lines, exact); they
share an edge when they share two vertices; a tile may go where it is the mirror image of
a placed tile across one of that tile's edges, overlaps nothing and every vertex it has in
common with placed tiles carries their number, its numbers read clockwise (a rotation of
the tile, never its mirror image).  A hexagon is six tiles on one vertex; a bridge a tile
sharing exactly one edge with the others whose vertex off that edge is a vertex of
another tile.

The library is called only through the public game API: ``new_game``, ``legal_moves``,
``apply``, the moves' ``tile``/``cell``/``corners`` and the board's placements, open
edges and scores, as the thing under test.

By default it plays 60 random games of Triangle Dominoes and 5 random matches of
Triominoes (each several rounds), about 6 s; 200 games with ``BENDOLIB_LONG=1`` (the long
profile, about 20 s); ``TRIANGLE_ORACLE_GAMES`` and ``TRIANGLE_ORACLE_MATCHES`` set those
numbers (the counts are printed with ``-s``)::

    BENDOLIB_LONG=1 TRIANGLE_ORACLE_MATCHES=200 PYTHONPATH=src \
        python -m pytest -s tests/test_triangle_oracle.py
"""

from __future__ import annotations

import os
import random
from fractions import Fraction

import pytest

import bendolib
from bendolib.geometry import TriangleBoard
from bendolib.moves import Draw, NextRound, Pass, PlaceInCell
from bendolib.rules import TRIANGLE_DOMINOES, TRIOMINOES

Point = tuple[int, int]  # (X, Y) = (2x, 2y / sqrt(3))
Tri = tuple[Point, Point, Point]  # vertices, clockwise

LONG = os.environ.get("BENDOLIB_LONG", "") not in ("", "0")
GAMES = int(os.environ.get("TRIANGLE_ORACLE_GAMES", "200" if LONG else "60"))
MATCHES = int(os.environ.get("TRIANGLE_ORACLE_MATCHES", "5"))


def vertex(i: int, j: int) -> Point:
    return (2 * i + j, j)


def cell_vertices(x: int, y: int, down: bool) -> Tri:
    if down:
        return vertex(x, y + 1), vertex(x + 1, y + 1), vertex(x + 1, y)
    return vertex(x, y), vertex(x, y + 1), vertex(x + 1, y)


def squared_length(a: Point, b: Point) -> Fraction:
    dx, dy = b[0] - a[0], b[1] - a[1]
    return Fraction(dx * dx + 3 * dy * dy, 4)


def cross(o: Point, a: Point, b: Point) -> int:
    """Twice the signed area of (o, a, b) in X, Y units: negative when clockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def dot(u: Point, v: Point) -> Fraction:
    """The Euclidean dot product of two vectors given in X, Y units."""
    return Fraction(u[0] * v[0] + 3 * u[1] * v[1], 4)


def mirror(v: Point, a: Point, b: Point) -> Point:
    """``v`` reflected in the line through ``a`` and ``b`` (exact)."""
    ab = (b[0] - a[0], b[1] - a[1])
    av = (v[0] - a[0], v[1] - a[1])
    t = dot(av, ab) / dot(ab, ab)
    foot = (a[0] + t * ab[0], a[1] + t * ab[1])
    x, y = 2 * foot[0] - v[0], 2 * foot[1] - v[1]
    assert x.denominator == 1 and y.denominator == 1
    return (int(x), int(y))


def clockwise(t: Tri) -> Tri:
    return t if cross(*t) < 0 else (t[0], t[2], t[1])


def interiors_meet(s: Tri, t: Tri) -> bool:
    """True when the two triangles overlap with positive area (separating axes)."""
    for p, q in ((s, t), (t, s)):
        for k in range(3):
            a, b, c = p[k], p[(k + 1) % 3], p[(k + 2) % 3]
            side = cross(a, b, c)
            if all(cross(a, b, v) * side <= 0 for v in q):
                return False  # q lies on the closed far side of the line ab
    return True


Box = tuple[int, int, int, int]


def box(t: Tri) -> Box:
    xs, ys = [v[0] for v in t], [v[1] for v in t]
    return min(xs), max(xs), min(ys), max(ys)


def near(a: Box, b: Box) -> bool:
    """A cheap bounding-box test before the exact one."""
    return not (a[1] < b[0] or b[1] < a[0] or a[3] < b[2] or b[3] < a[2])


class Layout:
    """
    The table as the oracle sees it: triangles with a number at each vertex, and the
    free spots (every triangle that mirrors a placed tile across one of its edges and
    overlaps no placed tile), kept up to date as tiles are added.
    """

    def __init__(self) -> None:
        self.tiles: list[tuple[Tri, tuple[int, int, int], Box]] = []
        self.number: dict[Point, int] = {}
        self.count: dict[Point, int] = {}
        self.spots: dict[frozenset[Point], Tri] = {}

    def overlaps(self, tri: Tri) -> bool:
        b = box(tri)
        return any(near(b, ob) and interiors_meet(tri, o) for o, _, ob in self.tiles)

    def add(self, tri: Tri, numbers: tuple[int, int, int]) -> None:
        assert not self.overlaps(tri), "tiles overlap"
        for v, n in zip(tri, numbers, strict=True):
            assert self.number.get(v, n) == n, f"vertex {v} shows {self.number[v]}, not {n}"
            self.number[v] = n
            self.count[v] = self.count.get(v, 0) + 1
        self.tiles.append((tri, numbers, box(tri)))
        b = box(tri)
        self.spots = {
            k: s for k, s in self.spots.items() if not (near(b, box(s)) and interiors_meet(s, tri))
        }
        for k in range(3):
            a, c, far = tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]
            spot = clockwise((a, c, mirror(far, a, c)))
            assert squared_length(spot[0], spot[1]) == squared_length(spot[1], spot[2]) == 1
            if not self.overlaps(spot):
                self.spots[frozenset(spot)] = spot

    def edge_neighbours(self, tri: Tri) -> int:
        vs = set(tri)
        return sum(1 for other, _, _ in self.tiles if other != tri and len(vs & set(other)) == 2)

    def open_edges(self) -> set[tuple[frozenset[Point], int, int]]:
        """Edges of placed tiles with a free spot across, with the numbers at their ends."""
        spot_edges = {
            frozenset((s[k], s[(k + 1) % 3])) for s in self.spots.values() for k in range(3)
        }
        out = set()
        for tri, numbers, _ in self.tiles:
            for k in range(3):
                edge = frozenset((tri[k], tri[(k + 1) % 3]))
                if edge in spot_edges:
                    out.add((edge, numbers[k], numbers[(k + 1) % 3]))
        return out


def rotations(faces: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {faces[r:] + faces[:r] for r in range(3)}


def oracle_moves(layout: Layout, hand: list[bendolib.Tile]) -> set[tuple[str, frozenset]]:  # type: ignore[type-arg]
    """Every (tile, vertex -> number) a tile of ``hand`` can take on a non-empty table."""
    found = set()
    readings = [(str(tile), rotations(tile.faces)) for tile in hand]
    for spot in layout.spots.values():
        want = [layout.number.get(v, -1) for v in spot]
        for name, turns in readings:
            for r in turns:
                if all(w < 0 or w == n for w, n in zip(want, r, strict=True)):
                    found.add((name, frozenset(zip(spot, r, strict=True))))
    return found


def engine_move(move: PlaceInCell) -> tuple[Tri, tuple[int, int, int]]:
    tri = cell_vertices(move.cell.x, move.cell.y, move.cell.down)
    assert cross(*tri) < 0, "a cell's corners are listed clockwise"
    for k in range(3):
        assert squared_length(tri[k], tri[(k + 1) % 3]) == 1, "cells are unit equilateral"
    numbers = tuple(move.corners)
    assert numbers in rotations(move.tile.faces), "a tile is turned, never flipped"
    return tri, (numbers[0], numbers[1], numbers[2])


def hexagons_closed(layout: Layout, tri: Tri) -> int:
    return sum(1 for v in tri if layout.count.get(v, 0) == 6)


def is_bridge(layout: Layout, tri: Tri) -> bool:
    vs = set(tri)
    shared = [o for o, _, _ in layout.tiles if o != tri and len(vs & set(o)) == 2]
    if len(shared) != 1:
        return False
    (off,) = vs - set(shared[0])
    return layout.count.get(off, 0) >= 2  # the new tile and another one meet there


def check_game(rules: bendolib.RuleSet, players: int, seed: int, counts: dict[str, int]) -> None:
    state = bendolib.new_game(rules, players, seed)
    rng = random.Random(seed)
    scoring = rules.play_scoring
    layout = Layout()
    checked_board = None
    while not state.is_game_over:
        legal = bendolib.legal_moves(state)
        counts["positions"] += 1
        places = [m for m in legal if isinstance(m, PlaceInCell)]
        assert len(places) + sum(1 for m in legal if not isinstance(m, PlaceInCell)) == len(legal)
        if state.board.is_empty or state.is_round_over:
            layout = Layout()
        elif state.opening < 0:
            hand_mask = state.hand_masks[state.current_player]
            if state.drawn:
                hand_mask &= state.drawn
            hand = [t for i, t in enumerate(rules.tileset.tiles) if hand_mask >> i & 1]
            mine = {(str(m.tile), frozenset(zip(*engine_move(m), strict=True))) for m in places}
            assert mine == oracle_moves(layout, hand), f"legal placements differ, seed {seed}"
            assert len(mine) == len(places), "a placement is listed twice"
            if state.board is not checked_board:  # the open edges change with the board only
                edges = set()
                assert isinstance(state.board, TriangleBoard)
                assert state.board.edges == state.board.ends
                for end in state.board.edges:
                    tri = cell_vertices(end.tile_cell.x, end.tile_cell.y, end.tile_cell.down)
                    a, b = tri[end.side], tri[(end.side + 1) % 3]
                    edges.add((frozenset((a, b)), end.values[0], end.values[1]))
                assert edges == layout.open_edges(), f"open edges differ, seed {seed}"
                checked_board = state.board
            counts["compared"] += 1
        move = legal[rng.randrange(len(legal))]
        before = state
        state = bendolib.apply(state, move)
        if isinstance(move, PlaceInCell):
            tri, numbers = engine_move(move)
            layout.add(tri, numbers)
            if len(layout.tiles) > 1:
                assert layout.edge_neighbours(tri) >= 1, "a tile shares a full edge"
            gained = (
                state.play_points[before.current_player] - before.play_points[before.current_player]
            )
            if isinstance(scoring, bendolib.rules.TriangleScoring):
                expected = move.tile.points
                if len(layout.tiles) == 1:
                    if move.tile.is_double:
                        expected += scoring.opening_bonus
                        expected += scoring.zero_triple_bonus if not any(move.tile.faces) else 0
                elif hexagons_closed(layout, tri):
                    expected += scoring.hexagon_bonus[hexagons_closed(layout, tri) - 1]
                    counts["hexagons"] += 1
                elif is_bridge(layout, tri):
                    expected += scoring.bridge_bonus
                    counts["bridges"] += 1
                assert gained == expected, f"{move} scored {gained}, the oracle says {expected}"
            counts["placements"] += 1
        elif isinstance(move, NextRound):
            layout = Layout()
        else:
            assert isinstance(move, Draw | Pass)
            assert state.board == before.board


@pytest.mark.parametrize("rules", [TRIANGLE_DOMINOES, TRIOMINOES], ids=lambda r: r.name)
def test_oracle_agrees_on_every_position(rules: bendolib.RuleSet) -> None:
    counts = dict.fromkeys(("positions", "compared", "placements", "hexagons", "bridges"), 0)
    games = GAMES if rules is TRIANGLE_DOMINOES else MATCHES
    for seed in range(games):
        players = rules.player_counts[seed % len(rules.player_counts)]
        check_game(rules, players, seed, counts)
    print(f"{rules.name}: {games} games, {counts}")
    assert counts["compared"] > 0 and counts["placements"] > games
    if games >= 100:
        assert counts["hexagons"] and counts["bridges"], "the games met hexagons and bridges"
