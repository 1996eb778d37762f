"""Scoring policies: points won at the end of a round, and points scored in play."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Literal, Protocol

import attrs

from bendolib.errors import RuleSetError

if TYPE_CHECKING:
    from bendolib.geometry.board import Board
    from bendolib.moves import Move
    from bendolib.state import GameState


@attrs.frozen
class RoundOutcome:
    """
    What a round scorer needs to know about a finished round.

    ``sides`` groups the seats (one seat a side, or teams); ``hand_points`` are the
    points left in each hand; ``order`` the seats in the order they went out;
    ``blocked`` is true when play stopped with no one able to move; ``last_placer``
    the seat that laid the last tile; ``play_points`` points each seat scored by
    play during the round.
    """

    sides: tuple[tuple[int, ...], ...]
    hand_points: tuple[int, ...]
    order: tuple[int, ...]
    blocked: bool
    last_placer: int
    play_points: tuple[int, ...]

    def side_of(self, seat: int) -> int:
        """Index of the side that ``seat`` plays for."""
        for i, side in enumerate(self.sides):
            if seat in side:
                return i
        raise ValueError(f"seat {seat} is on no side")

    def side_points(self, side: int) -> int:
        """Points left in the hands of one side."""
        return sum(self.hand_points[s] for s in self.sides[side])


@attrs.frozen
class RoundScore:
    """Points awarded to each seat by a round, and the seats credited as its winners."""

    points: tuple[int, ...]
    winners: tuple[int, ...]


class RoundScoring(Protocol):
    """Turns a finished round into points for each seat."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        """The points each seat wins for the round."""
        ...


def _award(players: int, seat: int, amount: int) -> tuple[int, ...]:
    return tuple(amount if s == seat else 0 for s in range(players))


@attrs.frozen
class WinnerTakesPips:
    """
    The round's winner scores the points left in the opponents' hands.

    The winner is the seat that went out; in a blocked round, the lowest hand
    (``blocked_winner="lowest_seat"``) or the side with the fewest points in hand
    (``"lowest_side"``, credited to that side's lowest hand); partners tied for the
    lowest hand win for their side (the lower seat credited).  ``tie`` settles a tie
    for lowest between sides: ``"nobody"`` scores, or (two sides) the side that laid
    the last tile loses (``"locker_loses"``).  ``minus_own`` subtracts the winner's
    own points in hand (the seed's Draw Dominoes).  Opponents are the seats of the other sides.

    Options for other traditions: ``out_wins=False`` settles every round like a
    blocked one, even when someone went out (OpenSpiel's games); ``takes="all"``
    gives the winner every point left on the table, partners' and own included
    (the ``dominoes`` package); ``win_points`` awards that fixed number instead of
    pips (a round won counts one).
    """

    blocked_winner: Literal["lowest_seat", "lowest_side"] = "lowest_seat"
    tie: Literal["nobody", "locker_loses"] = "nobody"
    minus_own: bool = False
    out_wins: bool = True
    takes: Literal["opponents", "all"] = "opponents"
    win_points: int | None = None

    def __attrs_post_init__(self) -> None:
        if self.blocked_winner not in ("lowest_seat", "lowest_side"):
            raise RuleSetError(f"unknown blocked_winner {self.blocked_winner!r}")
        if self.tie not in ("nobody", "locker_loses"):
            raise RuleSetError(f"unknown tie rule {self.tie!r}")
        if self.takes not in ("opponents", "all"):
            raise RuleSetError(f"unknown takes {self.takes!r}")
        if self.win_points is not None and self.win_points < 0:
            raise RuleSetError(f"win_points cannot be negative: {self.win_points}")

    def _blocked_winner(self, outcome: RoundOutcome) -> int:
        players = len(outcome.hand_points)
        if self.blocked_winner == "lowest_side":
            totals = [outcome.side_points(i) for i in range(len(outcome.sides))]
            low = min(totals)
            sides = [i for i, t in enumerate(totals) if t == low]
            if len(sides) > 1:
                if self.tie != "locker_loses" or len(outcome.sides) != 2:
                    return -1
                sides = [1 - outcome.side_of(outcome.last_placer)]
            members = outcome.sides[sides[0]]
            return min(members, key=lambda s: (outcome.hand_points[s], s))
        low = min(outcome.hand_points)
        seats = [s for s in range(players) if outcome.hand_points[s] == low]
        if len({outcome.side_of(s) for s in seats}) == 1:
            return seats[0]  # one hand, or partners tied: their side wins outright
        if self.tie == "locker_loses":
            locker_side = outcome.side_of(outcome.last_placer)
            others = [s for s in seats if outcome.side_of(s) != locker_side]
            if others and len({outcome.side_of(s) for s in others}) == 1:
                return min(others)
        return -1

    def score(self, outcome: RoundOutcome) -> RoundScore:
        """Points for the winner; nothing for the others."""
        players = len(outcome.hand_points)
        if outcome.order and self.out_wins:
            winner = outcome.order[0]
        else:
            winner = self._blocked_winner(outcome)
        if winner < 0:
            return RoundScore((0,) * players, ())
        if self.win_points is not None:
            return RoundScore(_award(players, winner, self.win_points), (winner,))
        side = outcome.side_of(winner)
        won = sum(outcome.hand_points)
        if self.takes != "all":
            won -= outcome.side_points(side)  # the opponents' points only
        if self.minus_own:
            won = max(0, won - outcome.hand_points[winner])
        return RoundScore(_award(players, winner, won), (winner,))


def finishing_order(outcome: RoundOutcome) -> tuple[int, ...]:
    """
    Every seat ranked: those who went out in order, then fewest points in hand
    first (ties: lower seat first).
    """
    rest = [s for s in range(len(outcome.hand_points)) if s not in outcome.order]
    rest.sort(key=lambda s: (outcome.hand_points[s], s))
    return outcome.order + tuple(rest)


def _freeze_table(
    table: Mapping[int, tuple[int, ...]] | tuple[tuple[int, tuple[int, ...]], ...],
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    items = table.items() if isinstance(table, Mapping) else table
    return tuple(sorted((int(k), tuple(v)) for k, v in items))


@attrs.frozen
class FinishingOrder:
    """
    Points by finishing place (Bendo All In): ``table`` maps the number of
    players to the points of first, second, ... place.

    ``tie`` settles players of a blocked round left with equal points in hand:
    ``"seat"`` ranks the lower seat first, ``"share"`` gives each of them the
    average of the places they share, a whole number: ``rounding="down"`` (so a tie
    never scores more than the places it shares: four tied players of 40/20/10/0
    score 17 each) or ``"up"`` (18 each).
    """

    table: tuple[tuple[int, tuple[int, ...]], ...] = attrs.field(converter=_freeze_table)
    tie: Literal["seat", "share"] = "seat"
    rounding: Literal["down", "up"] = "down"
    #: Every seat scores its place's points, not only the winner (read by bendolib.testing).
    points_to_every_seat: ClassVar[bool] = True

    def __attrs_post_init__(self) -> None:
        if not self.table:
            raise RuleSetError("the place points table is empty")
        for players, points in self.table:
            if len(points) != players:
                raise RuleSetError(f"{players} players need {players} place points, not {points}")
        if self.tie not in ("seat", "share"):
            raise RuleSetError(f"unknown tie rule {self.tie!r}; use 'seat' or 'share'")
        if self.rounding not in ("down", "up"):
            raise RuleSetError(f"unknown rounding {self.rounding!r}; use 'down' or 'up'")

    def check_players(self, players: int) -> None:
        """Raise :class:`RuleSetError` unless the table scores ``players`` players."""
        self.points_for(players)

    def points_for(self, players: int) -> tuple[int, ...]:
        """Place points for a game of ``players``."""
        for count, points in self.table:
            if count == players:
                return points
        raise RuleSetError(f"no place points for {players} players")

    def score(self, outcome: RoundOutcome) -> RoundScore:
        """Each seat scores the points of its place."""
        order = finishing_order(outcome)
        table = self.points_for(len(order))
        points = [0] * len(order)
        for place, seat in enumerate(order):
            points[seat] = table[place]
        if self.tie == "seat":
            return RoundScore(tuple(points), order[:1])
        out = len(outcome.order)
        place = out
        while place < len(order):
            end = place + 1
            held = outcome.hand_points[order[place]]
            while end < len(order) and outcome.hand_points[order[end]] == held:
                end += 1
            total, count = sum(table[place:end]), end - place
            share = total // count if self.rounding == "down" else -(-total // count)
            for seat in order[place:end]:
                points[seat] = share
            place = end
        low = outcome.hand_points[order[0]]
        first = order[:1] if out else tuple(s for s in order if outcome.hand_points[s] == low)
        return RoundScore(tuple(points), first)


@attrs.frozen
class HighestPlayScore:
    """
    All Five: the seat that scored most in play this round wins it and adds the
    points left in the other hands; a tie for most goes to the tied seat that went
    out, or else nobody adds anything (``tie="nobody"``).
    """

    tie: Literal["nobody"] = "nobody"

    def __attrs_post_init__(self) -> None:
        if self.tie != "nobody":
            raise RuleSetError(f"unknown tie rule {self.tie!r}; use 'nobody'")

    def score(self, outcome: RoundOutcome) -> RoundScore:
        """The bonus for the round's top scorer."""
        players = len(outcome.hand_points)
        best = max(outcome.play_points)
        top = [s for s in range(players) if outcome.play_points[s] == best]
        if len(top) > 1:
            out = [s for s in top if s in outcome.order[:1]]
            if not out:
                return RoundScore((0,) * players, ())
            top = out
        winner = top[0]
        bonus = sum(outcome.hand_points[s] for s in range(players) if s != winner)
        return RoundScore(_award(players, winner, bonus), (winner,))


class PlayScoring(Protocol):
    """Points a placement scores at once, from the board's open ends after it."""

    def score(self, end_values: tuple[int, ...]) -> int:
        """Points for the player who just placed."""
        ...


class MoveScoring(Protocol):
    """
    Points a placement scores at once, from the placement itself and the board after
    it (the triangles' tile sums, hexagons and bridges): a play scoring that looks at
    more than the open ends.
    """

    def score_move(self, before: GameState, move: Move, board: Board) -> int:
        """Points for the player to move in ``before``, who made ``move``."""
        ...


@attrs.frozen
class EndsMultiple:
    """
    All Five: when the open ends add up to a multiple of ``multiple``, the
    player scores that total.  Every open end counts, blocked or not.
    """

    multiple: int = 5

    def __attrs_post_init__(self) -> None:
        if self.multiple < 1:
            raise RuleSetError("multiple must be positive")

    def score(self, end_values: tuple[int, ...]) -> int:
        """The total of the ends when it is a multiple, else 0."""
        total = sum(end_values)
        return total if total % self.multiple == 0 else 0
