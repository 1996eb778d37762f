"""
An information-set search bot: many determinized worlds per decision, compiled
rollouts, and an exact endgame once the stock is empty (two players).

For each decision :class:`InfoSetBot` draws worlds consistent with what its seat knows
(:func:`bendolib.sampling.sample_state`, under the forced-draws opponent model; the
worlds after the first are dealt without replaying the history,
:class:`bendolib.bots.worlds.Worlds`), and in each world tries every legal move, then
every reply of the next player when that player is of another side, keeping the reply
worst for its side (a search one reply deep, ``replies``), and plays each line out to the
end of the round with :func:`bendolib.playouts.playouts` (compiled when the kernel knows
the rule set), every seat following the rollout policy: by default the greedy policy
where the rules score single moves (the triangle games' sums and bonuses, which the search
bot's ``"heaviest"`` rollouts ignore), else ``"heaviest"``.  Worlds whose hands
contradict the other players' placements under the model "each places its heaviest tile
that fits" count less (:class:`Evidence`).  The same worlds serve every move (common
random numbers).  It searches a fixed number of worlds (``worlds``, reproducible) or as
many as fit in a time budget (``seconds`` per decision), and plays the move with the best
weighted total outcome: its side's points gained in the round minus the best other
side's, plus a bonus (``match_bonus``) when the round ends the match in its side's favour
(minus it when against).

With two players and an empty stock the rest of the round is a game of perfect
information: the bot then plays the move of :func:`bendolib.bots.endgame.solve` (an
alpha-beta search to the end of the round), when that search ends within the budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import attrs

from bendolib._inference import fitting
from bendolib._playouts_reference import POLICIES
from bendolib.bots.endgame import Solution, SolveTimeoutError, applies, perfect_information, solve
from bendolib.bots.search import scores_value
from bendolib.bots.worlds import Worlds
from bendolib.engine import apply
from bendolib.engine import legal_moves as engine_legal_moves
from bendolib.geometry.board import EMPTY_BOARD, Board
from bendolib.moves import DRAW, Move, Place
from bendolib.observation import Observation
from bendolib.playouts import Outcome, playouts
from bendolib.rules.ruleset import RuleSet
from bendolib.sampling import sample_state
from bendolib.state import PLAYING, GameState, Turn
from bendolib.tiles import indices

#: The rollout policies :class:`InfoSetBot` takes.
ROLLOUTS = ("auto", *POLICIES)


def rollout_policy(rules: RuleSet) -> str:
    """
    The ``"auto"`` rollout policy: ``"greedy"`` where the rules score single moves (the
    triangle games' sums and bonuses: the greedy policy takes the best-scoring move),
    else ``"heaviest"`` (the search bot's: as strong as greedy on the chains, and
    cheaper).
    """
    return "greedy" if getattr(rules.play_scoring, "score_move", None) is not None else "heaviest"


@attrs.frozen
class InfoSetBot:
    """
    Determinized search (see the module docstring).

    ``worlds``: worlds searched per decision; ``seconds``: a thinking time per decision
    instead (CPU time of the calling thread, so that other jobs on the machine do not
    shorten it; as many worlds as fit, at least one: the moves then depend on the
    machine's speed); ``rollout``: the rollout policy (``"greedy"``, ``"heaviest"``,
    ``"random"``, or ``"auto"``: see :func:`rollout_policy`); ``endgame``: solve
    two-player empty-stock positions exactly, up to ``endgame_nodes`` positions searched
    (or half the time), else search as usual; ``infer``: the weight of a world per
    placement of another player that its hand there contradicts under the opponent
    model "places its heaviest tile that fits" (the greedy bot's rule, and mostly the
    search bot's): 1 ignores the model, 0 trusts it fully; ``match_bonus``: points added
    to a rollout's outcome when its round ends the match, won (or taken away, lost);
    ``replies``: search the next player's replies (when of another side) in each world
    and keep the worst for its side, instead of one rollout per move.
    """

    worlds: int = attrs.field(default=16, validator=attrs.validators.gt(0))
    seconds: float | None = None
    rollout: str = attrs.field(default="auto", validator=attrs.validators.in_(ROLLOUTS))
    endgame: bool = True
    endgame_nodes: int = 20_000
    infer: float = attrs.field(
        default=0.5, validator=[attrs.validators.ge(0), attrs.validators.le(1)]
    )
    match_bonus: int = 100
    replies: bool = True
    name: str = "infoset"

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """The move of best total outcome over the sampled worlds (or the solved one)."""
        if len(legal_moves) == 1:
            return legal_moves[0]
        timed = self.seconds is not None
        started = time.thread_time()
        deadline = started + self.seconds if self.seconds is not None else None
        if self.endgame and perfect_information(observation):
            # at most half the time: the search has the rest when the solver gives up
            half = started + self.seconds / 2 if self.seconds is not None else None
            solution = solved(observation, rng, self.endgame_nodes, half)
            if solution is not None:
                return solution.move
        seat = observation.player
        side = next(k for k, members in enumerate(observation.sides) if seat in members)
        policy = rollout_policy(observation.rules) if self.rollout == "auto" else self.rollout
        count = len(legal_moves)
        first = range(count)
        totals = [0.0] * count
        evidence = heavier_evidence(observation) if self.infer < 1 else None
        source = Worlds(observation, rng, forced_draws=True)
        bonus = self.match_bonus
        worlds = 0
        while (
            worlds < 1
            or (timed and deadline is not None and time.thread_time() < deadline)
            or (not timed and worlds < self.worlds)
        ):
            world = source.draw(rng)
            worlds += 1
            weight = 1.0
            if evidence is not None:
                weight = self.infer ** evidence.misses(world, observation)
            seed = rng.getrandbits(64) if policy == "random" else 0
            if self.replies:
                for j, move in enumerate(legal_moves):
                    totals[j] += weight * reply_value(world, move, seat, side, policy, seed, bonus)
                continue
            runs = playouts(world, policy=policy, seed=seed, first=first)
            for j, outcome in enumerate(runs):
                totals[j] += weight * outcome_value(world, outcome, seat, side, bonus)
        best = max(range(count), key=totals.__getitem__)
        return legal_moves[best]


def outcome_value(world: GameState, outcome: Outcome, seat: int, side: int, bonus: int) -> int:
    """
    A rollout's value for ``seat`` (of side ``side``) from ``world``: its side's points
    gained minus the best other side's, ``bonus`` more (less) when it won (lost) the match.
    """
    value = scores_value(world, outcome.scores, seat)
    if outcome.match_winner >= 0:
        value += bonus if outcome.match_winner == side else -bonus
    return value


def reply_value(
    world: GameState, move: Move, seat: int, side: int, policy: str, seed: int, bonus: int
) -> int:
    """
    The value of ``move`` in ``world`` searched one reply deep: when the next player is
    of another side, the worst for ``seat``'s side over that player's legal replies
    (each followed by a rollout), else one rollout (the round's end, when it ends).
    """
    child = apply(world, move)
    if child.phase != PLAYING:
        value = scores_value(world, child.scores, seat)
        if child.match_winner >= 0:
            value += bonus if child.match_winner == side else -bonus
        return value
    if child.current_player in child.sides[side]:
        return outcome_value(world, playouts(child, policy=policy, seed=seed)[0], seat, side, bonus)
    replies = range(len(engine_legal_moves(child)))
    runs = playouts(child, policy=policy, seed=seed, first=replies)
    return min(outcome_value(world, outcome, seat, side, bonus) for outcome in runs)


def solved(
    observation: Observation, rng: random.Random, nodes: int, deadline: float | None
) -> Solution | None:
    """The endgame solution of a perfect-information observation, or None past the budget."""
    world = sample_state(observation, rng)
    if not applies(world):
        return None
    try:
        return solve(world, max_nodes=nodes, deadline=deadline, clock=time.thread_time)
    except SolveTimeoutError:
        return None


@attrs.frozen
class Evidence:
    """
    What the other seats' placements say under the "heaviest tile that fits" model:
    per placement by another seat (its choice among the tiles of its hand), the tiles
    heavier than the one it placed that fitted then (``heavier``), the tiles that seat
    placed after it (``placed_after``) and which draws of the round it made after it
    (``drawn_after``: indices into ``Observation.taken``).
    """

    seats: tuple[int, ...]
    heavier: tuple[int, ...]
    placed_after: tuple[int, ...]
    drawn_after: tuple[tuple[int, ...], ...]

    def misses(self, world: GameState, observation: Observation) -> int:
        """How many of the placements the hands of ``world`` contradict."""
        base = world.stock_pos - len(observation.taken)
        if base < 0:
            return 0
        deck = world.deck
        hands = world.hand_masks
        missed = 0
        for seat, heavier, placed, drawn in zip(
            self.seats, self.heavier, self.placed_after, self.drawn_after, strict=True
        ):
            held = hands[seat] | placed
            for k in drawn:
                held &= ~(1 << deck[base + k])
            if held & heavier:
                missed += 1
        return missed


def heavier_evidence(observation: Observation) -> Evidence | None:
    """
    The :class:`Evidence` of ``observation``'s round, or None where it is not read:
    a round that did not start from a fresh deal on an empty chain board.
    """
    rules = observation.rules
    if observation.start is not None or rules.deal.table_tiles or observation.history == ():
        return None
    geometry = rules.geometry
    tileset = rules.tileset
    board: Board = EMPTY_BOARD
    events: list[tuple[int, int, int]] = []  # (history index, seat, heavier mask)
    previous: Turn | None = None
    for index, turn in enumerate(observation.history):
        move = turn.move
        if type(move) is Place:
            chosen = not board.is_empty and not (
                previous is not None and previous.player == turn.player and previous.move == DRAW
            )
            if chosen and turn.player != observation.player:
                fits = fitting(observation, board)
                points = move.tile.points
                heavier = 0
                for k in indices(fits):
                    if tileset.tiles[k].points > points:
                        heavier |= 1 << k
                if heavier:
                    events.append((index, turn.player, heavier))
            next_board = geometry.play(board, move)
            if type(next_board) is not Board:
                return None
            board = next_board
        previous = turn
    if not events:
        return None
    taken = observation.taken
    placed_after = []
    drawn_after = []
    for index, seat, _ in events:
        placed = 0
        for later in observation.history[index + 1 :]:
            if later.player == seat and type(later.move) is Place:
                placed |= 1 << tileset.index(later.move.tile)
        placed_after.append(placed)
        drawn_after.append(
            tuple(k for k, t in enumerate(taken) if t.player == seat and t.turn > index)
        )
    return Evidence(
        seats=tuple(e[1] for e in events),
        heavier=tuple(e[2] for e in events),
        placed_after=tuple(placed_after),
        drawn_after=tuple(drawn_after),
    )
