"""Plain-text pictures of a position, for terminals and ``repr`` in notebooks."""

from __future__ import annotations

from bendolib.blocking import classify_ends
from bendolib.state import GameState
from bendolib.tiles import TURN_LETTERS, face_str


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
        ends.append(f"{status.end}:{face_str(status.value)} ({flag})")
    lines.append("ends: " + (", ".join(ends) if ends else "-"))
    for player, hand in enumerate(state.hands):
        shown = " ".join(str(t) for t in hand) or "(out)"
        lines.append(f"player {player}: {shown}")
    lines.append(f"stock: {state.stock_size}  scores: {list(state.scores)}")
    return "\n".join(lines)
