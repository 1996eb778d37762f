"""Baseline bots: a uniformly random player and a greedy one."""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from bendolib._inference import fitting
from bendolib.geometry.board import Board
from bendolib.moves import DRAW, Move, Place, PlaceInCell, PlaceMove
from bendolib.observation import Observation
from bendolib.state import GameState


@attrs.frozen
class RandomBot:
    """Plays a legal move chosen uniformly at random."""

    name: str = "random"

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """A uniformly random legal move."""
        return legal_moves[rng.randrange(len(legal_moves))]


def board_after(observation: Observation, move: PlaceMove) -> Board:
    """The board once ``move`` is placed."""
    return observation.rules.geometry.play(observation.board, move)


def options_after(observation: Observation, move: PlaceMove) -> int:
    """How many of the tiles left in hand after ``move`` could then be placed."""
    rest = observation.hand_mask & ~(1 << observation.rules.tileset.index(move.tile))
    if not rest:
        return 0
    return (fitting(observation, board_after(observation, move)) & rest).bit_count()


def points_now(observation: Observation, moves: Sequence[PlaceMove]) -> list[int]:
    """
    The points each of ``moves`` scores at once under a play scoring that values the
    move itself (``score_move``: the triangles' sums, hexagons and bridges), else 0s.
    """
    score_move = getattr(observation.rules.play_scoring, "score_move", None)
    if score_move is None:
        return [0] * len(moves)
    before = public_state(observation)
    return [int(score_move(before, m, board_after(observation, m))) for m in moves]


def public_state(observation: Observation) -> GameState:
    """
    A state with the observation's public facts (board, scores, stock size, the
    observer to move with its hand) and nothing in the other hands: enough for the
    rules' per-move scoring, which looks at the board and the move only.
    """
    hands = [0] * observation.players
    hands[observation.player] = observation.hand_mask
    return GameState.create(
        rules=observation.rules,
        players=observation.players,
        seed=0,
        round_number=observation.round_number,
        deck=(),
        stock_pos=0,
        hand_masks=tuple(hands),
        board=observation.board,
        current_player=observation.player,
        scores=observation.scores,
    )


@attrs.frozen
class GreedyBot:
    """
    Places the tile that scores the most at once under a per-move play scoring (the
    triangles' sums and bonuses), then the heaviest tile (most points in hand), and
    among those the placement that leaves the most tiles of its hand playable; draws
    only when it cannot place; passes when it must.
    """

    name: str = "greedy"

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """The greedy move (deterministic: ties go to the first listed)."""
        places = [m for m in legal_moves if isinstance(m, (Place, PlaceInCell))]
        if places:
            now = points_now(observation, places)
            ranked = [(p, m.tile.points) for p, m in zip(now, places, strict=True)]
            top = max(ranked)
            best = [m for m, rank in zip(places, ranked, strict=True) if rank == top]
            if len(best) == 1:
                return best[0]
            return max(best, key=lambda m: options_after(observation, m))
        if DRAW in legal_moves:
            return DRAW
        return legal_moves[0]
