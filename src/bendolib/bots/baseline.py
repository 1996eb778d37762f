"""Baseline bots: a uniformly random player and a greedy one."""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from bendolib._inference import fitting
from bendolib.geometry.board import Board
from bendolib.geometry.chain import as_chain
from bendolib.moves import DRAW, OPENING, Move, Place
from bendolib.observation import Observation


@attrs.frozen
class RandomBot:
    """Plays a legal move chosen uniformly at random."""

    name: str = "random"

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """A uniformly random legal move."""
        return legal_moves[rng.randrange(len(legal_moves))]


def board_after(observation: Observation, move: Place) -> Board:
    """The board once ``move`` is placed."""
    geometry = observation.rules.geometry
    if move.end == OPENING:
        return geometry.open([(move.tile, move.inward)])
    return as_chain(geometry).place(
        observation.board, move.end, move.tile, move.inward, move.shows, move.turn
    )


def options_after(observation: Observation, move: Place) -> int:
    """How many of the tiles left in hand after ``move`` could then be placed."""
    rest = observation.hand_mask & ~(1 << observation.rules.tileset.index(move.tile))
    if not rest:
        return 0
    return (fitting(observation, board_after(observation, move)) & rest).bit_count()


@attrs.frozen
class GreedyBot:
    """
    Places the heaviest tile it can (most points in hand), and among those the
    placement that leaves the most tiles of its hand playable; draws only when it
    cannot place; passes when it must.
    """

    name: str = "greedy"

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """The greedy move (deterministic: ties go to the first listed)."""
        places = [m for m in legal_moves if isinstance(m, Place)]
        if places:
            top = max(m.tile.points for m in places)
            heaviest = [m for m in places if m.tile.points == top]
            if len(heaviest) == 1:
                return heaviest[0]
            return max(heaviest, key=lambda m: options_after(observation, m))
        if DRAW in legal_moves:
            return DRAW
        return legal_moves[0]
