"""Penalty policies: points a player loses for drawing from the stock or passing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import attrs

from bendolib.errors import RuleSetError
from bendolib.moves import Draw, Move

if TYPE_CHECKING:
    from bendolib.state import GameState


class Penalties(Protocol):
    """
    What a draw or a pass costs the player who makes it.  The engine asks after
    working out the move (``after``, before any penalty) and takes the cost off the
    mover's score and play points before the turn passes or the round is scored.
    """

    def cost(self, before: GameState, move: Move, after: GameState) -> int:
        """Points (0 or more) the player to move in ``before`` loses for ``move``."""
        ...


@attrs.frozen
class DrawPenalties:
    """
    Triominoes' penalties: ``per_draw`` points for each tile drawn; when a turn ends
    without a tile laid after drawing, ``pass_after_draws`` more (the published 10 for
    passing after three draws), or ``pass_when_empty`` instead when the stock is
    empty by then (the turn could not go on).  A pass without any draw this turn (the
    stock was already empty) costs ``pass_when_empty``.
    """

    per_draw: int = 5
    pass_after_draws: int = 10
    pass_when_empty: int = 0

    def __attrs_post_init__(self) -> None:
        for name in ("per_draw", "pass_after_draws", "pass_when_empty"):
            if getattr(self, name) < 0:
                raise RuleSetError(f"{name} is a cost: 0 or more, not {getattr(self, name)}")

    def cost(self, before: GameState, move: Move, after: GameState) -> int:
        """The draw's cost, plus the passing cost when the move ends the turn."""
        drew = isinstance(move, Draw)
        cost = self.per_draw if drew else 0
        turn_over = not drew or after.drawn == 0  # a kept draw leaves the drawn tiles marked
        if turn_over:
            if after.stock_size == 0:
                cost += self.pass_when_empty
            elif drew or before.drawn:
                cost += self.pass_after_draws
            else:
                cost += self.pass_when_empty
        return cost
