"""
Playouts on the Python engine: the specification the compiled kernel follows move for move.

A *playout* plays a state out to the end of its round (or of its match) with one policy
for every seat.  Playout ``i`` of a batch draws its random choices from
``SplitMix64(derive_seed(seed, i))``; a policy chooses an index into
``legal_moves(state)``:

* ``"random"``: ``rng.below(len(legal))``, uniformly among the legal moves (no draw
  is spent on a move that is the only one);
* ``"heaviest"``: the search bot's rollout policy: the first listed placement of the
  most points in hand, else the draw, else the first move;
* ``"greedy"``: :class:`bendolib.bots.GreedyBot`'s choice: the placement scoring the
  most at once under a per-move play scoring (the triangles'; none on the chains), then
  the heaviest, ties going to the one that leaves the most tiles of the hand playable
  (the first listed among equals), else the draw, else the first move.

A playout is at most :data:`MAX_MOVES` moves long, on either engine: rules under which a
match may never end (Triominoes with high draw penalties: every score sinks below zero
and none reaches the target) would otherwise play forever, and a playout that needs
more moves raises :class:`PlayoutError`.

A placement is a :class:`~bendolib.moves.Place` on the chains, a
:class:`~bendolib.moves.PlaceInCell` on the triangles (which the kernel leaves to this
module).

:mod:`bendolib.playouts` runs the same playouts in compiled code when it can;
:func:`reference_playouts` is what it must agree with, and what runs when it cannot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bendolib._placing import placements
from bendolib._rng import SplitMix64, derive_seed
from bendolib.engine import apply, legal_moves
from bendolib.errors import BendolibError
from bendolib.geometry.board import Board
from bendolib.geometry.chain import as_chain
from bendolib.moves import DRAW, OPENING, Move, Place, PlaceInCell, PlaceMove
from bendolib.rules.ruleset import RuleSet
from bendolib.state import GAME_OVER, PLAYING, GameState

#: The policies a playout can follow, by name.
POLICIES = ("random", "heaviest", "greedy")
#: How far a playout goes: to the end of the round, or of the match.
UNTIL = ("round", "match")
#: The most moves one playout plays (a match of many rounds included): the compiled
#: kernel's ``MAXSTEPS`` (``_kernel.d/kernel.h``, exported as ``_kernel.MAX_STEPS``).
MAX_MOVES = 200_000


class PlayoutError(BendolibError, ValueError):
    """
    Playout arguments that do not fit (a policy name, a first move, a count), or a
    playout that has not ended after :data:`MAX_MOVES` moves.
    """


class Outcome(NamedTuple):
    """
    How one playout ended: the final state's match scores, phase and match winner,
    the latest finished round's result (``blocked``, ``order``, ``hand_points``,
    ``points``, ``winners``; False and empty when no round has finished), the number of
    moves played and, when recorded, the index into ``legal_moves`` of each move.
    """

    scores: tuple[int, ...]
    phase: int
    match_winner: int
    blocked: bool
    order: tuple[int, ...]
    hand_points: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    moves: int
    choices: tuple[int, ...] | None


def heaviest_index(legal: Sequence[Move]) -> int:
    """The ``"heaviest"`` policy: the heaviest placement, else the draw, else the first move."""
    best = -1
    points = -1
    for k, move in enumerate(legal):
        if (type(move) is Place or type(move) is PlaceInCell) and move.tile.points > points:
            best, points = k, move.tile.points
    if best >= 0:
        return best
    for k, move in enumerate(legal):
        if move == DRAW:
            return k
    return 0


def board_after(rules: RuleSet, board: Board, move: PlaceMove) -> Board:
    """The board once ``move`` is placed on ``board``."""
    if type(move) is not Place:
        return rules.geometry.play(board, move)  # a cell geometry's own placement
    if move.end == OPENING:
        return rules.geometry.open([(move.tile, move.inward)])
    geometry = as_chain(rules.geometry)  # the kernel's playouts are on chain geometries
    return geometry.place(board, move.end, move.tile, move.inward, move.shows, move.turn)


def fitting(state: GameState, board: Board) -> int:
    """Bitmask of the tiles of the whole set that could be placed on ``board``."""
    probe = state._replaced(board=board, opening=-1, drawn=0)  # valid values: unchecked
    mask = 0
    for move in placements(probe, state.rules.tileset.full_mask):
        mask |= 1 << state.rules.tileset.index(move.tile)
    return mask


def greedy_index(state: GameState, legal: Sequence[Move]) -> int:
    """The ``"greedy"`` policy (:class:`bendolib.bots.GreedyBot`'s choice), as an index."""
    rules = state.rules
    score_move = getattr(rules.play_scoring, "score_move", None)
    top: tuple[int, int] = (-(1 << 62), -1)
    heaviest: list[int] = []
    for k, move in enumerate(legal):
        if type(move) is Place or type(move) is PlaceInCell:
            now = 0
            if score_move is not None:
                now = int(score_move(state, move, board_after(rules, state.board, move)))
            rank = (now, move.tile.points)
            if rank > top:
                top, heaviest = rank, [k]
            elif rank == top:
                heaviest.append(k)
    if len(heaviest) == 1:
        return heaviest[0]
    if heaviest:
        hand = state.hand_masks[state.current_player]
        best, most = heaviest[0], -1
        for k in heaviest:
            move = legal[k]
            assert isinstance(move, (Place, PlaceInCell))
            rest = hand & ~(1 << rules.tileset.index(move.tile))
            options = 0
            if rest:
                after = board_after(rules, state.board, move)
                options = (fitting(state, after) & rest).bit_count()
            if options > most:
                best, most = k, options
        return best
    for k, move in enumerate(legal):
        if move == DRAW:
            return k
    return 0


def check_arguments(
    state: GameState,
    count: int | None,
    policy: str,
    seed: int,
    until: str,
    first: Sequence[int] | None,
) -> int:
    """Raise for arguments :func:`reference_playouts` does not take; the number of playouts."""
    if not isinstance(state, GameState):
        raise TypeError(f"playouts need a GameState, not {type(state).__name__}")
    if policy not in POLICIES:
        raise PlayoutError(f"unknown policy {str(policy)[:40]!r}; known: {', '.join(POLICIES)}")
    if until not in UNTIL:
        raise PlayoutError(f"until is 'round' or 'match', not {str(until)[:40]!r}")
    if not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if first is not None:
        if not all(isinstance(k, int) and not isinstance(k, bool) for k in first):
            raise TypeError(f"first lists move indices (ints), not {str(first)[:40]}")
        if count is not None and count != len(first):
            raise PlayoutError(f"count {count} differs from the {len(first)} first moves")
        return len(first)
    if count is None:
        return 1
    if not isinstance(count, int) or isinstance(count, bool):
        raise TypeError(f"count must be an int, not {type(count).__name__}")
    if count < 0:
        raise PlayoutError(f"count cannot be negative: {count}")
    return count


def reference_playouts(
    state: GameState,
    count: int | None = None,
    *,
    policy: str = "random",
    seed: int = 0,
    until: str = "round",
    record: bool = False,
    first: Sequence[int] | None = None,
) -> tuple[Outcome, ...]:
    """
    ``count`` playouts from ``state`` on the Python engine (see the module docstring).

    ``first`` lists, per playout, the index into ``legal_moves(state)`` of its first
    move (the policy plays the rest); ``record`` keeps every move's index.
    """
    count = check_arguments(state, count, policy, seed, until, first)
    if first is not None:
        listed = len(legal_moves(state))
        for k in first:
            if not 0 <= k < listed:
                raise PlayoutError(f"first move {k!r} is not an index of the {listed} legal moves")
    stop = PLAYING if until == "round" else GAME_OVER
    out = []
    for i in range(count):
        rng = SplitMix64(derive_seed(seed, i))
        current = state
        choices: list[int] = []
        forced = first[i] if first is not None else -1
        while (current.phase == PLAYING) if stop == PLAYING else (current.phase != GAME_OVER):
            if len(choices) >= MAX_MOVES:
                raise PlayoutError(
                    f"playout {i} (seed {seed}) is still going after {MAX_MOVES:,} moves, "
                    f"scores {str(current.scores)[:60]}: under these rules the {until} "
                    "may never end"
                )
            legal = legal_moves(current)
            if forced >= 0:
                k, forced = forced, -1
            elif policy == "random":
                k = rng.below(len(legal)) if len(legal) > 1 else 0
            elif policy == "heaviest":
                k = heaviest_index(legal)
            else:
                k = greedy_index(current, legal)
            choices.append(k)
            current = apply(current, legal[k])
        out.append(outcome(current, len(choices), tuple(choices) if record else None))
    return tuple(out)


def outcome(final: GameState, moves: int, choices: tuple[int, ...] | None) -> Outcome:
    """The :class:`Outcome` of a playout that ended in ``final``."""
    result = final.last_result
    if result is None:
        return Outcome(
            final.scores, final.phase, final.match_winner, False, (), (), (), (), moves, choices
        )
    return Outcome(
        final.scores,
        final.phase,
        final.match_winner,
        result.blocked,
        result.order,
        result.hand_points,
        result.points,
        result.winners,
        moves,
        choices,
    )
