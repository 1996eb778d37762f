"""Why an open end is blocked: the seeds' four reasons, from public information only."""

from __future__ import annotations

import enum

import attrs

from bendolib.placing import _general_placements
from bendolib.state import GameState


class Block(enum.Enum):
    """The four ways an end of the chain is blocked (seeds/000 and 002, A to D)."""

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
                fitting = {p.end for p in _general_placements(rules, board, remaining)}
            if e not in fitting:
                reason = Block.NO_FITTING_TILE
        out.append(EndStatus(e, end.value, reason))
    return tuple(out)
