"""
Matches and tournaments between bots: seeded, seat-rotated, on any executor.

:func:`play_match` plays one match to its end.  :func:`run_tournament` plays many:
the matches come in groups of one deal seed per group, played once with the entrants
in every rotation of the seats (entrant ``e`` sits in seat ``(e + r) % n`` in the
group's ``r``-th match), so every entrant gets every seat with the same tiles.  Each
match is a pure function of its index and the tournament seed, so the results are the
same whatever runs them: worker processes (the default), threads, a cluster's
``concurrent.futures.Executor`` (Dask's, Ray's...) or the calling thread
(:class:`SerialExecutor`).
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

import attrs

from bendolib import bots as bot_registry
from bendolib import rules as rules_registry
from bendolib.bots.bot import Bot
from bendolib.engine import apply, legal_moves, new_game
from bendolib.rng import derive_seed
from bendolib.rules.ruleset import RuleSet
from bendolib.state import GameState, Turn

_T = TypeVar("_T")

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: Label of the random generators of the bots (kept apart from the deal seeds).
_BOT_STREAM = 0xB07


@attrs.frozen
class MatchResult:
    """
    One match: the ``final`` state, each seat's ``scores``, the ``winner`` side and
    its ``winners`` seats, and every move in order (``moves``, with ``next`` between
    rounds), which replay the match from ``new_game(rules, players, seed)``.
    """

    seed: int
    bots: tuple[str, ...]
    final: GameState
    scores: tuple[int, ...]
    side_scores: tuple[int, ...]
    winner: int
    winners: tuple[int, ...]
    moves: tuple[Turn, ...]

    @property
    def rounds(self) -> int:
        """Number of rounds played."""
        return self.final.round_number


def bot_name(bot: Bot) -> str:
    """A bot's label: its ``name`` attribute, else its class name."""
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) else type(bot).__name__


def _resolve_rules(rules: RuleSet | str) -> RuleSet:
    return rules_registry.get(rules) if isinstance(rules, str) else rules


def _resolve_bots(bots: Sequence[Bot | str]) -> tuple[Bot, ...]:
    return tuple(bot_registry.get(b) if isinstance(b, str) else b for b in bots)


def play_match(
    rules: RuleSet | str,
    bots: Sequence[Bot | str],
    seed: int,
    bot_seed: int | None = None,
) -> MatchResult:
    """
    One match between ``bots`` (one per seat, seat order), dealt from ``seed``.

    Each bot gets its own ``random.Random`` seeded from ``bot_seed`` (default: ``seed``)
    and its seat.  A move that is the only legal one is played without asking the bot
    (including ``next`` between rounds).
    """
    ruleset = _resolve_rules(rules)
    players = _resolve_bots(bots)
    base = seed if bot_seed is None else bot_seed
    rngs = [random.Random(derive_seed(base, _BOT_STREAM, seat)) for seat in range(len(players))]
    state = new_game(ruleset, len(players), seed)
    moves: list[Turn] = []
    while not state.is_game_over:
        legal = legal_moves(state)
        seat = state.current_player
        if len(legal) == 1:
            move = legal[0]
        else:
            move = players[seat].choose(state.observation(seat), legal, rngs[seat])
        moves.append(Turn(seat, move))
        state = apply(state, move)
    winner = state.match_winner
    return MatchResult(
        seed=seed,
        bots=tuple(bot_name(b) for b in players),
        final=state,
        scores=state.scores,
        side_scores=state.side_scores,
        winner=winner,
        winners=state.winning_players,
        moves=tuple(moves),
    )


@attrs.frozen
class MatchRecord:
    """A tournament match in brief: which entrant sat where, and how it ended."""

    index: int
    seed: int
    seats: tuple[int, ...]
    scores: tuple[int, ...]
    side_scores: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    moves: int


@attrs.frozen
class Interval:
    """A point estimate with its 95% confidence interval."""

    value: float
    low: float
    high: float


@attrs.frozen
class Standing:
    """
    One entrant's results: ``wins`` of ``matches`` with the win rate's Wilson 95%
    interval, and its side's mean final score with a normal 95% interval.
    """

    entrant: int
    name: str
    matches: int
    wins: int
    win_rate: Interval
    mean_points: Interval


def wilson(successes: int, trials: int, z: float = Z95) -> Interval:
    """The proportion ``successes / trials`` with its Wilson score interval."""
    if trials == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """The mean of ``values`` with a normal-approximation interval."""
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


@attrs.frozen
class TournamentResult:
    """Every match of a tournament, and each entrant's standing."""

    rules: str
    players: int
    seed: int
    entrants: tuple[str, ...]
    records: tuple[MatchRecord, ...]

    @property
    def standings(self) -> tuple[Standing, ...]:
        """One standing per entrant, in entrant order."""
        out = []
        for entrant, name in enumerate(self.entrants):
            wins = 0
            points: list[float] = []
            for record in self.records:
                seat = record.seats.index(entrant)
                wins += seat in record.winners
                points.append(record.side_scores[seat])
            out.append(
                Standing(
                    entrant,
                    name,
                    len(self.records),
                    wins,
                    wilson(wins, len(self.records)),
                    mean_interval(points),
                )
            )
        return tuple(out)

    def table(self) -> str:
        """The standings as a plain-text table."""
        rows = [("#", "bot", "wins", "win rate", "95% CI", "mean points", "95% CI")]
        for s in self.standings:
            rows.append(
                (
                    str(s.entrant),
                    s.name,
                    f"{s.wins}/{s.matches}",
                    f"{s.win_rate.value:.3f}",
                    f"{s.win_rate.low:.3f}-{s.win_rate.high:.3f}",
                    f"{s.mean_points.value:.1f}",
                    f"{s.mean_points.low:.1f}-{s.mean_points.high:.1f}",
                )
            )
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = [
            "  ".join(
                cell.ljust(w) if i < 2 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
            for row in rows
        ]
        head = (
            f"{self.rules}, {self.players} players, {len(self.records)} matches, seed {self.seed}"
        )
        return "\n".join([head, *lines])

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            "matches": len(self.records),
            "entrants": list(self.entrants),
            "standings": [attrs.asdict(s) for s in self.standings],
            "records": [attrs.asdict(r) for r in self.records],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), indent=2)


class SerialExecutor(Executor):
    """An executor that runs every task at once in the calling thread."""

    def submit(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        """Run ``fn(*args, **kwargs)`` now; the future holds its result or exception."""
        future: Future[_T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


def match_seats(index: int, players: int) -> tuple[int, ...]:
    """The entrant in each seat of match ``index``: rotation ``index % players``."""
    rotation = index % players
    return tuple((seat - rotation) % players for seat in range(players))


def match_seed(seed: int, index: int, players: int) -> int:
    """The deal seed of match ``index``: one per group of ``players`` rotations."""
    return derive_seed(seed, index // players)


def _play_chunk(
    rules: RuleSet, bots: tuple[Bot, ...], seed: int, indices: tuple[int, ...]
) -> list[MatchRecord]:
    out = []
    players = len(bots)
    for index in indices:
        seats = match_seats(index, players)
        deal = match_seed(seed, index, players)
        result = play_match(rules, [bots[e] for e in seats], deal, derive_seed(seed, index, 1))
        out.append(
            MatchRecord(
                index=index,
                seed=deal,
                seats=seats,
                scores=result.scores,
                side_scores=tuple(
                    result.side_scores[_side_of(result.final, seat)] for seat in range(players)
                ),
                winners=result.winners,
                rounds=result.rounds,
                moves=len(result.moves),
            )
        )
    return out


def _side_of(state: GameState, seat: int) -> int:
    return next(i for i, side in enumerate(state.sides) if seat in side)


def _chunks(matches: int, parts: int) -> list[tuple[int, ...]]:
    size = max(1, math.ceil(matches / parts))
    return [tuple(range(i, min(matches, i + size))) for i in range(0, matches, size)]


def run_tournament(
    rules: RuleSet | str,
    bots: Sequence[Bot | str],
    matches: int,
    seed: int = 0,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """
    Play ``matches`` seeded matches between ``bots`` (one entrant per seat), seats
    rotated, and gather the standings.

    ``executor`` runs the matches (default: a process pool with one worker per CPU,
    shut down afterwards); bots and rules must then be picklable.  ``progress(done,
    total)`` is called in the calling thread as matches finish.  The result depends
    only on the arguments, not on the executor.
    """
    ruleset = _resolve_rules(rules)
    entrants = _resolve_bots(bots)
    if len(entrants) not in ruleset.player_counts:
        raise ValueError(
            f"{ruleset.name} is for {ruleset.player_counts} players, not {len(entrants)} bots"
        )
    if matches < 0:
        raise ValueError("matches cannot be negative")
    own = executor is None
    pool: Executor = ProcessPoolExecutor() if executor is None else executor
    workers = os.cpu_count() or 1
    try:
        futures = [
            pool.submit(_play_chunk, ruleset, entrants, seed, chunk)
            for chunk in _chunks(matches, 4 * workers)
        ]
        records: list[MatchRecord] = []
        for future in as_completed(futures):
            records.extend(future.result())
            if progress is not None:
                progress(len(records), matches)
    finally:
        if own:
            pool.shutdown()
    records.sort(key=lambda r: r.index)
    return TournamentResult(
        rules=ruleset.name,
        players=len(entrants),
        seed=seed,
        entrants=tuple(bot_name(b) for b in entrants),
        records=tuple(records),
    )
