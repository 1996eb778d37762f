"""
An exact endgame solver for two players once the stock is empty.

With two seats, an empty stock and every tile either on the table or in a hand, each
player knows the other's hand: the rest of the round is a game of perfect information.
:func:`solve` searches it to the end with alpha-beta (minimax on the round's point
outcome: the mover's side's points gained minus the other side's) and a transposition
table, and returns the value and the best move.  :func:`perfect_information` says when
an observation allows it, :func:`known_state` builds the one state it allows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import attrs

from bendolib.engine import apply, legal_moves
from bendolib.errors import BendolibError
from bendolib.geometry.board import Board
from bendolib.moves import Move, Place
from bendolib.observation import Observation
from bendolib.state import PLAYING, GameState

_EXACT = 0
_LOWER = 1
_UPPER = 2


class EndgameError(BendolibError, ValueError):
    """A state the endgame solver does not apply to (see :func:`applies`)."""


class SolveTimeoutError(BendolibError, TimeoutError):
    """The search ran past its node budget or deadline."""


@attrs.frozen
class Solution:
    """
    A solved position: ``value`` is the round's point outcome for the seat to move with
    best play by both (its side's points gained from now to the end of the round, minus
    the other side's); ``move`` a best move (the first listed among equals); ``nodes``
    the positions searched.
    """

    value: int
    move: Move
    nodes: int


def applies(state: GameState) -> bool:
    """
    True when ``state`` is a two-seat position in play on a chain board with an empty
    stock: its rest is a game of perfect information that :func:`solve` searches.
    """
    return (
        state.players == 2
        and state.phase == PLAYING
        and state.stock_pos >= len(state.deck)
        and type(state.board) is Board
        and len(state.sides) == 2
    )


def perfect_information(observation: Observation) -> bool:
    """
    True when ``observation`` (two seats, a chain board, an empty stock) leaves no tile
    unaccounted for: every tile not on the table nor in the observer's hand is in the
    other hand, so one state only is consistent with it.
    """
    if observation.players != 2 or observation.stock_size != 0:
        return False
    if type(observation.board) is not Board:
        return False
    total = len(observation.rules.tileset)
    return total == sum(observation.hand_sizes) + len(observation.board.placements)


def _key(state: GameState) -> tuple[object, ...]:
    board = state.board
    return (
        state.hand_masks,
        state.current_player,
        state.last_placer,
        board.ends,
        board.occupancy,
        state.context.play_points,
        state.context.out,
        state.context.scores,
    )


def _order(moves: Sequence[Move]) -> list[int]:
    """Heaviest placements first (they tend to be best: cut-offs come sooner)."""
    weights = [-m.tile.points if isinstance(m, Place) else 1 for m in moves]
    return sorted(range(len(moves)), key=weights.__getitem__)


def solve(
    state: GameState,
    *,
    max_nodes: int | None = None,
    deadline: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Solution:
    """
    The exact value and a best move of ``state`` (see :class:`Solution`), which must
    satisfy :func:`applies`.  ``max_nodes`` or ``deadline`` (a value of ``clock``,
    ``time.perf_counter`` by default) bound the work: past them
    :class:`SolveTimeoutError` is raised.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"solve takes a GameState, not {type(state).__name__}")
    if not applies(state):
        raise EndgameError(
            "the endgame solver needs two seats, a chain board, a round in play and an "
            f"empty stock (players {state.players}, stock "
            f"{len(state.deck) - state.stock_pos})"
        )
    sides = state.sides
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    base = state.scores
    table: dict[tuple[object, ...], tuple[int, int, int]] = {}
    nodes = 0
    limit = max_nodes if max_nodes is not None else -1

    def terminal(end: GameState, me: int) -> int:
        gains = [sum(end.scores[s] - base[s] for s in side) for side in sides]
        mine = side_of[me]
        return gains[mine] - gains[1 - mine]

    def search(node: GameState, alpha: int, beta: int) -> tuple[int, int]:
        """(value for the mover, index of a best move)."""
        nonlocal nodes
        nodes += 1
        if nodes == limit:
            raise SolveTimeoutError(f"the endgame search passed {max_nodes} positions")
        if deadline is not None and not nodes & 255 and clock() > deadline:
            raise SolveTimeoutError("the endgame search passed its deadline")
        key = _key(node)
        hit = table.get(key)
        first = -1
        if hit is not None:
            value, flag, first = hit
            if flag == _EXACT:
                return value, first
            if flag == _LOWER and value >= beta:
                return value, first
            if flag == _UPPER and value <= alpha:
                return value, first
        mover = node.current_player
        moves = legal_moves(node)
        order = _order(moves)
        if first >= 0:
            order.remove(first)
            order.insert(0, first)
        best = -(1 << 30)
        best_k = order[0]
        a = alpha
        for k in order:
            child = apply(node, moves[k])
            if child.phase != PLAYING:
                value = terminal(child, mover)
            elif side_of[child.current_player] == side_of[mover]:
                value = search(child, a, beta)[0]
            else:
                value = -search(child, -beta, -a)[0]
            if value > best:
                best, best_k = value, k
                if value > a:
                    a = value
                    if a >= beta:
                        break
        flag = _EXACT
        if best <= alpha:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        table[key] = (best, flag, best_k)
        return best, best_k

    value, index = search(state, -(1 << 30), 1 << 30)
    return Solution(value=value, move=legal_moves(state)[index], nodes=nodes)
