"""
An information-set search bot: many determinized worlds per decision, compiled
rollouts, and an exact endgame once the stock is empty (two players).

For each decision :class:`InfoSetBot` draws worlds consistent with what its seat knows
(:func:`bendolib.sampling.sample_state`, under the forced-draws opponent model), and in
each world plays every legal move out to the end of the round with
:func:`bendolib.playouts.playouts` (compiled when the kernel knows the rule set), every
seat following the ``rollout`` policy: ``"greedy"`` by default, which scores the
triangles' per-move points and bonuses (the search bot's ``"heaviest"`` does not).  The
same worlds serve every move (common random numbers).  It searches a fixed number of
worlds (``worlds``, reproducible) or as many as fit in a time budget (``seconds`` per
decision), and plays the move with the best total outcome: its side's points gained in
the round minus the best other side's.

With two players and an empty stock the rest of the round is a game of perfect
information: the bot then plays the move of :func:`bendolib.bots.endgame.solve` (an
alpha-beta search to the end of the round), when that search ends within the budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import attrs

from bendolib._playouts_reference import POLICIES
from bendolib.bots.endgame import Solution, SolveTimeoutError, applies, perfect_information, solve
from bendolib.bots.search import scores_value
from bendolib.moves import Move
from bendolib.observation import Observation
from bendolib.playouts import playouts
from bendolib.sampling import sample_state


@attrs.frozen
class InfoSetBot:
    """
    Determinized search (see the module docstring).

    ``worlds``: worlds searched per decision; ``seconds``: a thinking time per decision
    instead (wall clock; as many worlds as fit, at least one: the moves then depend on
    the machine's speed); ``rollout``: the rollout policy (``"greedy"``, ``"heaviest"``
    or ``"random"``); ``endgame``: solve two-player empty-stock positions exactly, up to
    ``endgame_nodes`` positions searched (or the time left), else search as usual.
    """

    worlds: int = attrs.field(default=16, validator=attrs.validators.gt(0))
    seconds: float | None = None
    rollout: str = attrs.field(default="greedy", validator=attrs.validators.in_(POLICIES))
    endgame: bool = True
    endgame_nodes: int = 20_000
    name: str = "infoset"

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """The move of best total outcome over the sampled worlds (or the solved one)."""
        if len(legal_moves) == 1:
            return legal_moves[0]
        timed = self.seconds is not None
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        if self.endgame and perfect_information(observation):
            solution = solved(observation, rng, self.endgame_nodes, deadline)
            if solution is not None:
                return solution.move
        seat = observation.player
        count = len(legal_moves)
        first = range(count)
        totals = [0] * count
        worlds = 0
        while (
            worlds < 1
            or (timed and deadline is not None and time.perf_counter() < deadline)
            or (not timed and worlds < self.worlds)
        ):
            world = sample_state(observation, rng, forced_draws=True)
            worlds += 1
            seed = rng.getrandbits(64) if self.rollout == "random" else 0
            runs = playouts(world, policy=self.rollout, seed=seed, first=first)
            for j, outcome in enumerate(runs):
                totals[j] += scores_value(world, outcome.scores, seat)
        best = max(range(count), key=totals.__getitem__)
        return legal_moves[best]


def solved(
    observation: Observation, rng: random.Random, nodes: int, deadline: float | None
) -> Solution | None:
    """The endgame solution of a perfect-information observation, or None past the budget."""
    world = sample_state(observation, rng)
    if not applies(world):
        return None
    try:
        return solve(world, max_nodes=nodes, deadline=deadline)
    except SolveTimeoutError:
        return None
