"""The Bot protocol: what a player program implements."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from bendolib.errors import BendolibError
from bendolib.moves import Move
from bendolib.observation import Observation


class ForfeitError(BendolibError):
    """
    Raised by a bot's ``choose`` to give up the match (an out-of-process bot that
    answered late, answered an illegal move or stopped): the match ends there and the
    bot's side loses it.  ``reason`` says why.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __reduce__(self) -> tuple[type[ForfeitError], tuple[str]]:
        return (type(self), (self.reason,))


@runtime_checkable
class Bot(Protocol):
    """
    A player program.  ``choose`` gets what its seat knows (``observation``), the legal
    moves (never empty) and a random generator of its own, and returns one of the moves.

    A bot should be a plain picklable object (a module-level class), so tournaments can
    run it in worker processes; it should not keep state between calls that changes its
    choices, so that the same seeds give the same matches.

    A bot may also have a ``start_match(rules, players, seat)`` method:
    :func:`~bendolib.tournament.play_match` calls it before each match.  A bot that
    raises :class:`ForfeitError` in ``choose`` loses the match.
    """

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """The move to play."""
        ...
