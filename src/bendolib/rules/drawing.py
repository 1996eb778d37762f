"""Drawing policy: when a player may or must draw, how many, and what follows."""

from __future__ import annotations

from typing import Literal

import attrs

from bendolib.errors import RuleSetError

WhenStuck = Literal["never", "once", "until_fits"]
WhenBlocked = Literal["one_each", "as_stuck"]
AfterVoluntary = Literal["pass", "play"]


@attrs.frozen
class DrawPolicy:
    """
    When and how tiles are drawn from the stock.

    * ``when_stuck``: what a player without a fitting tile does: ``"never"`` (pass),
      ``"once"`` (draw one batch, then play a drawn tile if allowed or the turn ends)
      or ``"until_fits"`` (keep drawing until a drawn tile fits or the stock is empty).
    * ``voluntary``: a player may draw even with a fitting tile.
    * ``after_voluntary``: what follows a voluntary draw (one made while holding a
      tile that fits): the turn ends at once (``"pass"``: "draw a Bendomino and pass
      their turn", seeds/000), or the player goes on as after any draw and may place
      a drawn tile that fits (``"play"``).
    * ``must_play``: a drawn tile that fits must be played (no passing).
    * ``when_blocked``: when no tile off the board fits anywhere (the chain is fully
      blocked), a stuck player draws one batch and the turn passes, so the players
      draw in turn until the stock is empty (``"one_each"``: "each player draws a
      Bendomino until the stock is empty", seeds/000), or draws as ``when_stuck`` says
      (``"as_stuck"``: under ``"until_fits"`` the whole stock in one turn).
    * ``batch``: tiles taken by one draw (house rule: draw 2 or 3 at once).
    * ``max_per_turn``: most tiles one player may draw in a turn (house rule).

    After drawing, only tiles drawn in this turn may be placed.
    """

    when_stuck: WhenStuck = "once"
    voluntary: bool = True
    must_play: bool = False
    batch: int = 1
    max_per_turn: int | None = None
    after_voluntary: AfterVoluntary = "pass"
    when_blocked: WhenBlocked = "one_each"
    draws: bool = attrs.field(init=False, eq=False, repr=False, hash=False)
    """True if the stock is ever drawn from (derived from ``when_stuck``)."""

    def __attrs_post_init__(self) -> None:
        if self.when_stuck not in ("never", "once", "until_fits"):
            raise RuleSetError(f"unknown when_stuck {self.when_stuck!r}")
        if self.batch < 1:
            raise RuleSetError("batch must be at least 1")
        if self.max_per_turn is not None and self.max_per_turn < 1:
            raise RuleSetError("max_per_turn must be at least 1 (or None)")
        if self.after_voluntary not in ("pass", "play"):
            raise RuleSetError(
                f"unknown after_voluntary {self.after_voluntary!r}; use 'pass' or 'play'"
            )
        if self.when_blocked not in ("one_each", "as_stuck"):
            raise RuleSetError(
                f"unknown when_blocked {self.when_blocked!r}; use 'one_each' or 'as_stuck'"
            )
        if self.when_stuck == "never" and self.voluntary:
            raise RuleSetError("voluntary draws need a rule that draws")
        object.__setattr__(self, "draws", self.when_stuck != "never")
