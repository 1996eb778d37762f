"""Plain-text pictures of a position, for terminals and ``repr`` in notebooks."""

from __future__ import annotations

from bendolib.blocking import classify_ends
from bendolib.geometry import lattice, trilattice
from bendolib.geometry.triangles import TriangleBoard, TrianglePlacement
from bendolib.rules.ruleset import is_chain
from bendolib.state import GameState
from bendolib.tiles import RIGHT, SYMBOL_NAMES, TURN_LETTERS, face_str

__all__ = ["board_text", "chain_text", "lattice_map", "state_text", "triangle_map"]

#: One cell of the lattice map: a flat-topped hexagon, 7 lines by 12 columns, whose
#: neighbours sit 3 lines and 9 columns away (q to the right, r up).
_HEXAGON = (
    "   ______",
    "  /      \\",
    " /        \\",
    "/          \\",
    "\\          /",
    " \\        /",
    "  \\______/",
)
#: Where the faces of a tile hugging each corner are written: (row, column) of the
#: face next to side ``corner - 1``, then of the face next to side ``corner``.
_FACE_SLOTS = {
    0: ((4, 10), (3, 10)),
    1: ((1, 8), (1, 7)),
    2: ((1, 4), (1, 3)),
    3: ((3, 1), (4, 1)),
    4: ((5, 3), (5, 4)),
    5: ((5, 7), (5, 8)),
}
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
        turn = TURN_LETTERS[placement.turn]
        where = f" {placement.position}" if placement.position is not None else ""
        chain.append(f"{face_str(placement.inward)}-{face_str(placement.shows)}{turn}{where}")
    lines.append("board: " + (", ".join(chain) if chain else "(empty)"))
    statuses = classify_ends(state)
    ends = []
    for status in statuses:
        flag = "open" if status.blocked is None else f"blocked {status.blocked.value}"
        ends.append(f"{status.label} ({flag})")
    lines.append("ends: " + (", ".join(ends) if ends else "-"))
    for player, hand in enumerate(state.hands):
        shown = " ".join(str(t) for t in hand) or "(out)"
        lines.append(f"player {player}: {shown}")
    lines.append(f"stock: {state.stock_size}  scores: {list(state.scores)}")
    return "\n".join(lines)


def lattice_map(state: GameState) -> str:
    """
    A map of a curved board: each hexagonal cell drawn as it lies (flat-topped,
    q to the right, r up and to the left).

    A tile writes its two numbers in the corner of the cell it hugs, each next to
    the side its end lies on; an open end shows as ``<n>`` (``#n`` when blocked) in
    the cell it leads into.  An empty string for a straight or empty board.
    """
    board = state.board
    if not state.rules.geometry.uses_bends or board.is_empty:
        return ""
    faces: dict[tuple[int, int], list[tuple[int, int, str]]] = {}
    marks: dict[tuple[int, int], list[str]] = {}
    for p in board.placements:
        assert p.position is not None
        tile = p.tile
        outward = p.inward if tile.is_double else tile.other(p.inward)
        pair = (p.inward, outward) if p.turn == RIGHT else (outward, p.inward)
        cell = (p.position.q, p.position.r)
        for (row, col), face in zip(_FACE_SLOTS[p.position.corner], pair, strict=True):
            faces.setdefault(cell, []).append((row, col, _face_char(face)))
    for status, end in zip(classify_ends(state), board.ends, strict=True):
        if end.cell < 0:
            continue
        target = lattice.cell_coords(lattice.neighbor(end.cell, end.side))
        marks.setdefault(target, []).append(
            f"<{status.end}>" if status.blocked is None else f"#{status.end}"
        )
    cells = set(faces) | set(marks)
    origins = {cell: (-(2 * cell[1] + cell[0]) * 3, cell[0] * 9) for cell in cells}
    top = min(row for row, _ in origins.values())
    left = min(col for _, col in origins.values())
    height = max(row for row, _ in origins.values()) - top + len(_HEXAGON)
    width = max(col for _, col in origins.values()) - left + 12
    grid = [[" "] * width for _ in range(height)]
    for cell in sorted(cells, key=lambda c: origins[c]):
        row0, col0 = origins[cell][0] - top, origins[cell][1] - left
        for dr, line in enumerate(_HEXAGON):
            for dc, char in enumerate(line):
                if char != " ":
                    grid[row0 + dr][col0 + dc] = char
    for cell in cells:
        row0, col0 = origins[cell][0] - top, origins[cell][1] - left
        for row, col, char in faces.get(cell, []):
            grid[row0 + row][col0 + col] = char
        label = "".join(marks.get(cell, []))[:8]
        start = col0 + 6 - (len(label) + 1) // 2
        for k, char in enumerate(label):
            grid[row0 + 3][start + k] = char
    return "\n".join("".join(line).rstrip() for line in grid)


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
    A picture of a position for a terminal: the board (a lattice map, or the chain
    in a line), the open ends, the hands and the scores.  With ``viewer`` only that
    player's hand is shown; the others show their tile counts.
    """
    lines = []
    header = f"{state.rules.name}: round {state.round_number}"
    if state.is_game_over:
        header += f", match over: side {state.winner} wins"
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
    ends = []
    for status in classify_ends(state):
        flag = "open" if status.blocked is None else f"blocked {status.blocked.value}"
        ends.append(f"{status.label} ({flag})")
    lines.append("ends: " + (", ".join(ends) if ends else "-"))
    for player, hand in enumerate(state.hands):
        if viewer is None or player == viewer:
            shown = " ".join(str(t) for t in hand) or "(out)"
        else:
            shown = f"{len(hand)} tiles"
        you = " (you)" if viewer == player else ""
        lines.append(f"player {player}{you}: {shown}")
    scores = ", ".join(map(str, state.side_scores))
    lines.append(f"stock: {state.stock_size}  scores: {scores}")
    return "\n".join(lines)
