"""
A search bot: determinized Monte Carlo rollouts (perfect-information Monte Carlo).

For each decision the bot deals the hidden tiles again several times with
:func:`bendolib.sampling.sample_state` (consistent with everything its seat knows), tries
every legal move in each of these worlds, plays the round out with a fast heuristic for
every seat, and picks the move with the best total outcome: its side's points gained in
the round minus the best other side's.  The same worlds are used for every move (common
random numbers), so the comparison between moves is sharp.  The rollouts run in
:func:`bendolib.playouts.playouts` (the compiled kernel when it is built).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from bendolib.engine import apply, legal_moves
from bendolib.moves import DRAW, Move, Place, PlaceInCell
from bendolib.observation import Observation
from bendolib.playouts import playouts
from bendolib.sampling import sample_state
from bendolib.state import PLAYING, GameState


def heaviest_move(moves: Sequence[Move]) -> Move:
    """The rollout policy: the heaviest placement, else draw, else the first move."""
    best: Move | None = None
    points = -1
    for move in moves:
        if isinstance(move, (Place, PlaceInCell)) and move.tile.points > points:
            best, points = move, move.tile.points
    if best is not None:
        return best
    if DRAW in moves:
        return DRAW
    return moves[0]


def rollout(state: GameState) -> GameState:
    """The end of the round, every seat playing :func:`heaviest_move`."""
    while state.phase == PLAYING:
        state = apply(state, heaviest_move(legal_moves(state)))
    return state


def round_value(before: GameState, after: GameState, seat: int) -> int:
    """Points ``seat``'s side gained from ``before`` to ``after``, minus the best other side's."""
    return scores_value(before, after.scores, seat)


def scores_value(before: GameState, scores: Sequence[int], seat: int) -> int:
    """:func:`round_value` for the match scores ``scores`` reached from ``before``."""
    sides = before.sides
    gains = [sum(scores[s] - before.scores[s] for s in side) for side in sides]
    mine = next(i for i, side in enumerate(sides) if seat in side)
    others = [g for i, g in enumerate(gains) if i != mine]
    return gains[mine] - (max(others) if others else 0)


@attrs.frozen
class SearchBot:
    """
    Determinized rollouts: ``worlds`` consistent deals per decision, one rollout per
    legal move in each.  ``forced_draws`` samples the deals assuming the other players
    draw only when they cannot place (an opponent model that fits the greedy and search
    bots; when it cannot explain the history, the plain posterior is used).
    """

    worlds: int = 8
    forced_draws: bool = True
    name: str = "search"

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """The move with the best total rollout value over the sampled worlds."""
        if len(legal_moves) == 1:
            return legal_moves[0]
        totals = [0] * len(legal_moves)
        seat = observation.player
        moves = range(len(legal_moves))
        for _ in range(self.worlds):
            world = sample_state(observation, rng, forced_draws=self.forced_draws)
            # one rollout per legal move (the world lists the observation's moves)
            for j, outcome in enumerate(playouts(world, policy="heaviest", first=moves)):
                totals[j] += scores_value(world, outcome.scores, seat)
        best = max(range(len(legal_moves)), key=totals.__getitem__)
        return legal_moves[best]
