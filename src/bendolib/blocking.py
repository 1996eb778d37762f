"""Why an open end is blocked: the seeds' four reasons, from public information only."""

from __future__ import annotations

import enum

import attrs

from bendolib._placing import _general_placements
from bendolib.moves import Place
from bendolib.state import GameState
from bendolib.tiles import face_str


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
    not yet on the board (so it never depends on hidden hands).  A tile that would
    close the chain unevenly (see ``RuleSet.closing``) does not fit: B.
    """
    rules = state.rules
    tileset = rules.tileset
    remaining = off_board(state)
    board = state.board
    wild_mask = rules.wild_mask
    out = []
    classify_end = getattr(rules.geometry, "classify_end", None)
    if classify_end is not None:  # a geometry that judges its own ends (the triangles)
        for e, end in enumerate(board.ends):
            letter = classify_end(board, e, tileset, remaining)
            values = tuple(getattr(end, "values", (end.value,)))
            out.append(EndStatus(e, end.value, None if letter is None else Block(letter), values))
        return tuple(out)
    fitting: set[int] | None = None
    for e, end in enumerate(board.ends):
        reason: Block | None = None
        if rules.geometry.connected(board, e):
            reason = Block.ENDS_CONNECTED
        elif not end.free:
            reason = Block.DEAD_END
        elif not remaining & (tileset.with_face(end.value) | wild_mask):
            reason = Block.NO_MATCHING_NUMBER
        else:
            # a matching tile exists: does one fit (turns the free way, and closes the
            # chain evenly where the rules ask it to)?
            if fitting is None:
                fitting = {
                    p.end
                    for p in _general_placements(rules, board, remaining)
                    if isinstance(p, Place)
                }
            if e not in fitting:
                reason = Block.NO_FITTING_TILE
        out.append(EndStatus(e, end.value, reason, (end.value,)))
    return tuple(out)
