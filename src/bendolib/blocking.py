"""Why an open end is blocked: the seeds' four reasons, from public information only."""

from __future__ import annotations

import enum

import attrs

from bendolib.state import GameState
from bendolib.tiles import face_str, indices


class Block(enum.Enum):
    """
    The four ways an end of the chain is blocked (seeds/000 and 002, A to D).  An open
    edge of a triangle layout is blocked A, B or C (docs/triangles.md).
    """

    NO_MATCHING_NUMBER = "A"
    NO_FITTING_TILE = "B"
    DEAD_END = "C"
    ENDS_CONNECTED = "D"


@attrs.frozen
class EndStatus:
    """
    One open end: ``blocked`` is ``None`` while some tile still off the board
    could be placed there.
    """

    end: int
    value: int
    blocked: Block | None
    values: tuple[int, ...] = ()
    """Every number the end shows: ``(value,)``, or an open edge's two."""

    @property
    def label(self) -> str:
        """How the end is written in reports: ``index:number`` (``index:a-b`` for an edge)."""
        shown = "-".join(map(face_str, self.values)) if self.values else face_str(self.value)
        return f"{self.end}:{shown}"

    @property
    def playable(self) -> bool:
        """True when the end is not blocked."""
        return self.blocked is None


def off_board(state: GameState) -> int:
    """Bitmask of the tiles not on the board (in hands or stock): public knowledge."""
    on_board = 0
    tileset = state.rules.tileset
    for placement in state.board.placements:
        on_board |= 1 << tileset.index(placement.tile)
    return tileset.full_mask & ~on_board


def classify_ends(state: GameState) -> tuple[EndStatus, ...]:
    """
    Each open end, playable or blocked with its reason, judged against every tile
    not yet on the board (so it never depends on hidden hands).
    """
    rules = state.rules
    tileset = rules.tileset
    remaining = off_board(state)
    wild_mask = 0
    for face in rules.wild_faces:
        wild_mask |= tileset.with_face(face)
    out = []
    classify_end = getattr(rules.geometry, "classify_end", None)
    if classify_end is not None:  # a geometry that judges its own ends (the triangles)
        for e, end in enumerate(state.board.ends):
            letter = classify_end(state.board, e, tileset, remaining)
            values = tuple(getattr(end, "values", (end.value,)))
            out.append(EndStatus(e, end.value, None if letter is None else Block(letter), values))
        return tuple(out)
    for e, end in enumerate(state.board.ends):
        reason: Block | None = None
        if rules.geometry.connected(state.board, e):
            reason = Block.ENDS_CONNECTED
        elif not end.free:
            reason = Block.DEAD_END
        else:
            cand = remaining & (tileset.with_face(end.value) | wild_mask)
            if not cand:
                reason = Block.NO_MATCHING_NUMBER
            elif rules.geometry.uses_bends and not any(
                end.free & tileset.tiles[i].turn_from(face)
                for i in indices(cand)
                for face in (tileset.tiles[i].a, tileset.tiles[i].b)
                if face == end.value or face in rules.wild_faces
            ):
                reason = Block.NO_FITTING_TILE
        out.append(EndStatus(e, end.value, reason, (end.value,)))
    return tuple(out)
