"""Plain-text pictures of a position, for terminals and ``repr`` in notebooks."""

from __future__ import annotations

import math
import unicodedata

from bendolib.blocking import classify_ends
from bendolib.geometry import lattice, trilattice
from bendolib.geometry.drawing import INNER, OUTER, corner_point
from bendolib.geometry.triangles import TriangleBoard, TrianglePlacement
from bendolib.rules.ruleset import is_chain
from bendolib.state import _VIEWS, GameState
from bendolib.tiles import RIGHT, SYMBOL_NAMES, TURN_LETTERS, face_str

__all__ = [
    "board_text",
    "chain_text",
    "lattice_map",
    "printable",
    "side_name",
    "state_text",
    "triangle_map",
]

#: Unicode categories written as escapes by :func:`printable`: controls, invisible
#: format characters (bidirectional overrides, zero-width joiners...), line and
#: paragraph separators, lone surrogates.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def printable(text: str) -> str:
    r"""
    ``text`` safe to print on a terminal: control characters and invisible ones
    written as escapes (``\x1b``, ``\n``, ``\u202e``), everything else unchanged.

    Text that comes from a file (a player's name in a record, a rule set's name)
    goes through this before it is printed, so that it cannot change colours,
    move the cursor or start a new line.
    """
    if text.isprintable():
        return text
    out = []
    for char in text:
        if unicodedata.category(char) in _HIDDEN_CATEGORIES:
            out.append(ascii(char)[1:-1])
        else:
            out.append(char)
    return "".join(out)


def side_name(state: GameState, side: int) -> str:
    """
    A scoring side as the command line names it: ``player 1``, or in a team game
    ``team 1 (players 1 and 3)`` (seats are numbered from 0, as everywhere).
    """
    sides = state.sides
    if not 0 <= side < len(sides):
        return f"side {side}"
    members = sides[side]
    if len(members) == 1 and len(sides) == state.players:
        return f"player {members[0]}"
    seats = [str(s) for s in members]
    listed = seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]
    return f"team {side} (player{'s' if len(seats) > 1 else ''} {listed})"


def _scores_text(state: GameState) -> str:
    """The match scores: one number per seat, or each team named with its total."""
    sides = state.sides
    if all(len(side) == 1 for side in sides):
        return ", ".join(map(str, state.side_scores))
    return ", ".join(f"{side_name(state, k)} {score}" for k, score in enumerate(state.side_scores))


#: One character per number on the triangle map: 0-9, then a, b, ... for 10, 11, ...
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _face_char(face: int) -> str:
    """One character per face: 0-9, then a, b, ... for 10, 11, ...; A, P, W symbols."""
    if face in SYMBOL_NAMES:
        return SYMBOL_NAMES[face]
    return _DIGITS[face] if 0 <= face < len(_DIGITS) else "?"


def board_text(state: GameState) -> str:
    """A readable summary: chain, open ends with their status, hands, stock, scores."""
    board = state.board
    lines = []
    chain = []
    for placement in board.placements:
        if isinstance(placement, TrianglePlacement):
            chain.append(f"{'-'.join(map(face_str, placement.corners))}@{placement.cell}")
            continue
        turn = TURN_LETTERS[placement.turn]
        where = f" {placement.position}" if placement.position is not None else ""
        chain.append(f"{face_str(placement.inward)}-{face_str(placement.shows)}{turn}{where}")
    lines.append("board: " + (", ".join(chain) if chain else "(empty)"))
    lines.append("ends: " + _ends_text(state))
    for player, hand in enumerate(state.hands):
        shown = " ".join(str(t) for t in hand) or "(out)"
        lines.append(f"player {player}: {shown}")
    lines.append(f"stock: {state.stock_size}  scores: {list(state.scores)}")
    return "\n".join(lines)


def _ends_text(state: GameState) -> str:
    ends = []
    for status in classify_ends(state):
        flag = "open" if status.blocked is None else f"blocked {status.blocked.value}"
        ends.append(f"{status.label} ({flag})")
    return ", ".join(ends) if ends else "-"


# -- the map of a curved board ------------------------------------------------------------

#: Millimetres of the board per column and per row of the map: a character cell is
#: about twice as tall as it is wide, so circles stay round.
_COLUMN_MM = 3.75
_ROW_MM = 7.5
#: How the tiles are filled, one fill per tile; touching tiles get different fills.
_FILLS = ":.+="
#: Distance (mm) from the middle of an open end to the middle of its mark.
_MARK_REACH = 9.0


def _halves(placement_faces: tuple[int, int], corner: int) -> list[tuple[int, float]]:
    """(face, angle in degrees of its half's middle) for the two halves of a tile."""
    before, after = placement_faces
    base = 60 * corner
    return [(after, base + 150.0), (before, base + 210.0)]


def lattice_map(state: GameState) -> str:
    """
    A picture of a curved board in characters, drawn to scale (one column is
    3.75 mm, one row 7.5 mm): each tile is a curved band filled with ``:`` or
    ``.`` (tiles that touch get different fills), with its two numbers written
    in its two halves.  An open end shows as ``<n>`` just beyond it, a blocked
    one as ``#n``.  An empty string for a straight or empty board.
    """
    board = state.board
    if not state.rules.geometry.uses_bends or board.is_empty:
        return ""
    tiles = []
    for p in board.placements:
        assert p.position is not None
        outward = p.inward if p.tile.is_double else p.tile.other(p.inward)
        faces = (p.inward, outward) if p.turn == RIGHT else (outward, p.inward)
        centre = corner_point(p.position.q, p.position.r, p.position.corner)
        tiles.append((centre, p.position.corner, faces))
    marks = []
    for status, end in zip(classify_ends(state), board.ends, strict=True):
        if end.cell < 0:
            continue
        q, r = lattice.cell_coords(end.cell)
        a = corner_point(q, r, end.side)
        b = corner_point(q, r, (end.side + 1) % 6)
        angle = math.radians(30 + 60 * end.side)
        at = (
            (a[0] + b[0]) / 2 + _MARK_REACH * math.cos(angle),
            (a[1] + b[1]) / 2 + _MARK_REACH * math.sin(angle),
        )
        text = f"<{status.end}>" if status.blocked is None else f"#{status.end}"
        marks.append((at, text))
    xs = [c[0] for c, _, _ in tiles]
    ys = [c[1] for c, _, _ in tiles]
    left = min([x - OUTER for x in xs] + [m[0][0] - 2 * _COLUMN_MM for m in marks])
    right = max([x + OUTER for x in xs] + [m[0][0] + 2 * _COLUMN_MM for m in marks])
    bottom = min([y - OUTER for y in ys] + [m[0][1] - _ROW_MM for m in marks])
    top = max([y + OUTER for y in ys] + [m[0][1] + _ROW_MM for m in marks])
    columns = math.ceil((right - left) / _COLUMN_MM) + 1
    rows = math.ceil((top - bottom) / _ROW_MM) + 1

    def cell_of(x: float, y: float) -> tuple[int, int]:
        return int((top - y) / _ROW_MM), int((x - left) / _COLUMN_MM)

    owner: dict[tuple[int, int], int] = {}
    for index, (centre, corner, _) in enumerate(tiles):
        row0, col0 = cell_of(centre[0] - OUTER, centre[1] + OUTER)
        row1, col1 = cell_of(centre[0] + OUTER, centre[1] - OUTER)
        base = 60 * corner
        for row in range(row0, row1 + 1):
            y = top - (row + 0.5) * _ROW_MM - centre[1]
            for col in range(col0, col1 + 1):
                x = left + (col + 0.5) * _COLUMN_MM - centre[0]
                if not INNER <= math.hypot(x, y) <= OUTER:
                    continue
                if 120 <= (math.degrees(math.atan2(y, x)) - base) % 360 <= 240:
                    owner[row, col] = index
    fill = _fills(owner, len(tiles))
    grid = [[" "] * columns for _ in range(rows)]
    for (row, col), index in owner.items():
        grid[row][col] = fill[index]
    numbers = set()
    middle = (INNER + OUTER) / 2
    for centre, corner, faces in tiles:
        for face, degrees in _halves(faces, corner):
            angle = math.radians(degrees)
            row, col = cell_of(
                centre[0] + middle * math.cos(angle), centre[1] + middle * math.sin(angle)
            )
            label = face_str(face)
            for k, char in enumerate(label, col - (len(label) - 1) // 2):
                grid[row][k] = char
                numbers.add((row, k))
    marked: set[tuple[int, int]] = set()
    for (x, y), text in marks:
        row, col = cell_of(x, y)
        col -= len(text) // 2
        for shift in (0, 1, -1, 2, -2):  # two ends at one side (reason D) share a spot
            spots = [(row + shift, k) for k in range(col - 1, col + len(text) + 1)]
            if not (marked | numbers).intersection(spots) and 0 <= row + shift < rows:
                break
        for k, char in enumerate(text, col):
            grid[row + shift][k] = char
        marked.update(spots)
    lines = ["".join(line).rstrip() for line in grid]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    indent = min(len(line) - len(line.lstrip()) for line in lines if line)
    return "\n".join(line[indent:] for line in lines)


def _fills(owner: dict[tuple[int, int], int], count: int) -> list[str]:
    """A fill character per tile such that tiles drawn side by side differ."""
    touching: list[set[int]] = [set() for _ in range(count)]
    for (row, col), index in owner.items():
        for step in ((0, 1), (1, -1), (1, 0), (1, 1)):
            other = owner.get((row + step[0], col + step[1]), index)
            if other != index:
                touching[index].add(other)
                touching[other].add(index)
    chosen: list[int] = []
    for index in range(count):
        taken = {chosen[k] for k in touching[index] if k < index}
        chosen.append(min(k for k in range(len(_FILLS) + 1) if k not in taken) % len(_FILLS))
    return [_FILLS[k] for k in chosen]


def triangle_map(state: GameState) -> str:
    r"""
    A map of a triangle layout: each number at its lattice point, the edges of the
    placed tiles as ``-``, ``/`` and ``\``; inside a free cell with an open edge,
    ``+`` while some tile off the board fits it, else the blocked letter of its
    first open edge (A, B or C); ``*`` inside the latest tile.  An empty string for
    another board or an empty one.
    """
    board = state.board
    if not isinstance(board, TriangleBoard) or board.is_empty:
        return ""
    chars: dict[tuple[int, int], str] = {}

    def spot(point: int) -> tuple[int, int]:
        i, j = trilattice.point_coords(point)
        return -2 * j, 4 * i + 2 * j

    def inside(cell: int) -> tuple[int, int]:
        row, col = spot(cell >> 1)
        return row - 1, col + (4 if cell & 1 else 2)

    for placement in board.placements:
        assert isinstance(placement, TrianglePlacement)
        points = trilattice.corners(placement.cell.key)
        for k in range(3):
            (r1, c1), (r2, c2) = spot(points[k]), spot(points[(k + 1) % 3])
            if r1 == r2:
                for col in range(min(c1, c2) + 1, max(c1, c2)):
                    chars[(r1, col)] = "-"
            else:
                chars[((r1 + r2) // 2, (c1 + c2) // 2)] = "/" if (c2 - c1) * (r2 - r1) < 0 else "\\"
        for point, number in zip(points, placement.corners, strict=True):
            chars[spot(point)] = _face_char(number)
    statuses = classify_ends(state)
    for status, end in zip(statuses, board.ends, strict=True):
        site = getattr(end, "site", None)
        if site is None:
            continue
        where = inside(site)
        if status.blocked is None:
            chars[where] = "+"
        elif chars.get(where) != "+":
            chars.setdefault(where, status.blocked.value)
    last = board.placements[-1]
    assert isinstance(last, TrianglePlacement)
    chars[inside(last.cell.key)] = "*"
    top = min(r for r, _ in chars)
    left = min(c for _, c in chars)
    height = max(r for r, _ in chars) - top + 1
    width = max(c for _, c in chars) - left + 1
    grid = [[" "] * width for _ in range(height)]
    for (row, col), char in chars.items():
        grid[row - top][col - left] = char
    return "\n".join("".join(line).rstrip() for line in grid)


def chain_text(state: GameState) -> str:
    """A straight board as one line, end 0 on the left: ``[3|5][5|5][5|2]``."""
    board = state.board
    if board.is_empty:
        return "(empty)"
    left: list[str] = []
    right: list[str] = []
    first = board.placements[0]
    centre = f"[{face_str(first.inward)}|{face_str(first.shows)}]"
    for p in board.placements[1:]:
        if p.end == 0:
            left.insert(0, f"[{face_str(p.shows)}|{face_str(p.inward)}]")
        elif p.end == 1:
            right.append(f"[{face_str(p.inward)}|{face_str(p.shows)}]")
        else:
            right.append(f" {p.end}:[{face_str(p.inward)}|{face_str(p.shows)}]")
    return "".join(left) + centre + "".join(right)


def state_text(state: GameState, viewer: int | None = None) -> str:
    """
    A picture of a position for a terminal: the board (a map of a curved board,
    or the chain in a line), the open ends, the hands and the scores.  With
    ``viewer`` only that player's hand is shown while the round is in play (the
    others show their tile counts); once it is over every hand is shown, as
    players show them for scoring.
    """
    lines = []
    header = f"{printable(state.rules.name)}: round {state.round_number}"
    if state.is_game_over:
        winner = state.winner
        header += f", match over: {side_name(state, -1 if winner is None else winner)} wins"
    elif state.is_round_over:
        header += ", round over"
    else:
        header += f", player {state.current_player} to move"
    lines.append(header)
    if state.rules.geometry.uses_bends:
        picture = lattice_map(state)
        lines.append(picture if picture else "(empty board)")
    elif isinstance(state.board, TriangleBoard) or not is_chain(state.rules.geometry):
        picture = triangle_map(state)
        lines.append(picture if picture else "(empty board)")
    else:
        lines.append(chain_text(state))
    lines.append("ends: " + _ends_text(state))
    for player, hand in enumerate(state.hands):
        if viewer is None or player == viewer or state.is_round_over:
            shown = " ".join(str(t) for t in hand) or "(out)"
        else:
            shown = f"{len(hand)} tiles"
        you = " (you)" if viewer == player else ""
        lines.append(f"player {player}{you}: {shown}")
    lines.append(f"stock: {state.stock_size}  scores: {_scores_text(state)}")
    return "\n".join(lines)


_VIEWS.text = state_text
