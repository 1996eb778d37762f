"""The Bot protocol: what a player program implements."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from bendolib.moves import Move
from bendolib.observation import Observation


@runtime_checkable
class Bot(Protocol):
    """
    A player program.  ``choose`` gets what its seat knows (``observation``), the legal
    moves (never empty) and a random generator of its own, and returns one of the moves.

    A bot should be a plain picklable object (a module-level class), so tournaments can
    run it in worker processes; it should not keep state between calls that changes its
    choices, so that the same seeds give the same matches.
    """

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """The move to play."""
        ...
