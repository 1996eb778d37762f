"""
Matches and tournaments between bots: seeded, seat-rotated, on any executor.

:func:`play_match` plays one match to its end.  :func:`run_tournament` plays many:
the matches come in groups of one deal seed per group, played once with the entrants
in every rotation of the seats (entrant ``e`` sits in seat ``(e + r) % n`` in the
group's ``r``-th match), so every entrant gets every seat with the same tiles.  Each
match is a pure function of its index and the tournament seed, so the results are the
same whatever runs them: worker processes (the default), threads, a cluster's
``concurrent.futures.Executor`` (Dask's ``Client.get_executor()``, Ray's...) or the
calling thread (:class:`SerialExecutor`).  Every :class:`MatchRecord` holds the seeds
that replay its match; :meth:`TournamentResult.record` gives it as a game record.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from functools import partial
from typing import Any

import attrs

from bendolib import bots as bot_registry
from bendolib import position_text
from bendolib import rules as rules_registry
from bendolib._rng import derive_seed
from bendolib.bots.bot import Bot, ForfeitError
from bendolib.engine import apply, legal_moves, new_game
from bendolib.errors import ArgumentError, BendolibError
from bendolib.limits import clipped, shown
from bendolib.moves import Move
from bendolib.notation import parse_move
from bendolib.observation import Observation, detached
from bendolib.playouts import MAX_MOVES
from bendolib.records import GameRecord, record_of
from bendolib.rules.ruleset import RuleSet
from bendolib.runner import SerialExecutor, process_pool, run_indexed, stop_pool
from bendolib.state import GameState, Turn

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: Label of the random generators of the bots (kept apart from the deal seeds).
_BOT_STREAM = 0xB07


@attrs.frozen
class MatchResult:
    """
    One match: the ``final`` state, each seat's ``scores``, the ``winner`` side and
    its ``winners`` seats, and every move in order (``moves``, with ``next`` between
    rounds), which replay the match from ``new_game(rules, players, seed)``;
    ``bot_seed`` seeded the bots.  ``forfeit`` is the seat of a bot that gave up the
    match (:class:`~bendolib.bots.bot.ForfeitError`; -1: none) and ``reason`` why: the match
    stopped there (``final`` is not over) and the best other side won it.
    """

    seed: int
    bots: tuple[str, ...]
    final: GameState
    scores: tuple[int, ...]
    side_scores: tuple[int, ...]
    winner: int
    winners: tuple[int, ...]
    moves: tuple[Turn, ...]
    bot_seed: int = 0
    forfeit: int = -1
    reason: str = ""

    @property
    def rounds(self) -> int:
        """Number of rounds played."""
        return self.final.round_number


def bot_name(bot: Bot) -> str:
    """A bot's label: its ``name`` attribute, else its class name."""
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) else type(bot).__name__


class BotError(BendolibError):
    """
    A bot that raised an exception or returned a move that is not legal.

    ``bot`` is its name, ``seat`` its seat, ``match`` the tournament's match index
    (None outside a tournament), ``seed`` and ``bot_seed`` the seeds that replay the
    match (:func:`play_match`), ``position`` the position text of the state it was
    asked about (:func:`bendolib.position_text.loads` reads it back).
    """

    def __init__(
        self,
        problem: str,
        bot: str,
        seat: int,
        seed: int,
        bot_seed: int,
        position: str,
        match: int | None = None,
    ) -> None:
        self.problem = problem
        self.bot = bot
        self.seat = seat
        self.seed = seed
        self.bot_seed = bot_seed
        self.position = position
        self.match = match
        where = f"match {match}, " if match is not None else ""
        super().__init__(
            f"bot {bot!r} in seat {seat} {problem} ({where}seed {seed}, bot seed {bot_seed}); "
            f"position: {position}"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        args = (self.problem, self.bot, self.seat, self.seed, self.bot_seed, self.position)
        return (type(self), (*args, self.match))

    def in_match(self, match: int) -> BotError:
        """The same error, naming tournament match ``match``."""
        args = (self.problem, self.bot, self.seat, self.seed, self.bot_seed, self.position)
        return BotError(*args, match)


class MatchTooLongError(BendolibError):
    """
    A match still going after ``max_moves`` moves (:func:`play_match`): under some
    configured rules no score ever reaches the target, and the match would never end.

    ``rules`` is the rule set's text (its name and changed parameters), ``max_moves``
    the bound, ``match`` the tournament's match index (None outside a tournament),
    ``seed`` and ``bot_seed`` the seeds that replay the match, ``round_number`` and
    ``scores`` where it had got to.
    """

    def __init__(
        self,
        rules: str,
        max_moves: int,
        seed: int,
        bot_seed: int,
        round_number: int,
        scores: tuple[int, ...],
        match: int | None = None,
    ) -> None:
        self.rules = rules
        self.max_moves = max_moves
        self.seed = seed
        self.bot_seed = bot_seed
        self.round_number = round_number
        self.scores = scores
        self.match = match
        where = f"match {match}, " if match is not None else ""
        super().__init__(
            f"the match of {clipped(rules, 200)} is still going after {max_moves:,} moves "
            f"(round {round_number}, scores {clipped(str(list(scores)), 60)}; {where}"
            f"seed {seed}, bot seed {bot_seed}): under these rules it may never end"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._args())

    def _args(self) -> tuple[str, int, int, int, int, tuple[int, ...], int | None]:
        return (
            self.rules,
            self.max_moves,
            self.seed,
            self.bot_seed,
            self.round_number,
            self.scores,
            self.match,
        )

    def in_match(self, match: int) -> MatchTooLongError:
        """The same error, naming tournament match ``match``."""
        return MatchTooLongError(*self._args()[:-1], match)


def check_max_moves(max_moves: int) -> int:
    """``max_moves`` itself: a positive int (:class:`TypeError`, :class:`ArgumentError`)."""
    if isinstance(max_moves, bool) or not isinstance(max_moves, int):
        raise TypeError(f"max_moves is an int, not {type(max_moves).__name__}")
    if max_moves < 1:
        raise ArgumentError(f"max_moves must be at least 1, not {shown(max_moves)}")
    return max_moves


def _ask(
    bot: Bot,
    observation: Observation,
    legal: tuple[Move, ...],
    rng: random.Random,
    state: GameState,
    seeds: tuple[int, int],
) -> Move:
    """
    The bot's move; :class:`BotError` when it raises or answers a move not in ``legal``.
    The bot gets ``legal`` (a tuple of frozen moves) and a :func:`detached` observation:
    nothing it writes into reaches the match.
    """
    try:
        move = bot.choose(detached(observation), legal, rng)
    except ForfeitError:
        raise
    except Exception as exc:
        problem = f"raised {type(exc).__name__}: {str(exc)[:200]}"
        raise BotError(
            problem, bot_name(bot), state.current_player, *seeds, _position(state)
        ) from exc
    if move not in legal:
        shown = str(move) if isinstance(move, Move) else repr(move)
        raise BotError(
            f"returned the illegal move {shown[:80]!r}",
            bot_name(bot),
            state.current_player,
            *seeds,
            _position(state),
        )
    return move


def _call_start(
    start: Callable[[RuleSet, int, int], object],
    rules: RuleSet,
    players: int,
    seat: int,
    bot: Bot,
    state: GameState,
    seeds: tuple[int, int],
) -> None:
    """``bot.start_match(rules, players, seat)``; :class:`BotError` when it raises."""
    try:
        start(rules, players, seat)
    except Exception as exc:
        problem = f"raised {type(exc).__name__} at the start: {str(exc)[:200]}"
        raise BotError(problem, bot_name(bot), seat, *seeds, _position(state)) from exc


def _forfeited(
    state: GameState,
    players: Sequence[Bot],
    moves: list[Turn],
    seed: int,
    bot_seed: int,
    seat: int,
    reason: str,
) -> MatchResult:
    """The result of a match that the bot in ``seat`` gave up: the best other side wins."""
    sides = state.sides
    loser = _side_of(state, seat)
    others = [i for i in range(len(sides)) if i != loser]
    winner = max(others, key=lambda i: (state.side_scores[i], -i)) if others else loser
    return MatchResult(
        seed=seed,
        bots=tuple(bot_name(b) for b in players),
        final=state,
        scores=state.scores,
        side_scores=state.side_scores,
        winner=winner,
        winners=tuple(sorted(sides[winner])) if others else (),
        moves=tuple(moves),
        bot_seed=bot_seed,
        forfeit=seat,
        reason=reason,
    )


def _position(state: GameState) -> str:
    """The position text of ``state``, or why there is none."""
    try:
        return position_text.dumps(state)
    except BendolibError as exc:
        return f"(no position text: {exc})"


def _resolve_rules(rules: RuleSet | str) -> RuleSet:
    return rules_registry.get(rules) if isinstance(rules, str) else rules


def _resolve_bots(bots: Sequence[Bot | str]) -> tuple[Bot, ...]:
    return tuple(bot_registry.get(b) if isinstance(b, str) else b for b in bots)


def play_match(
    rules: RuleSet | str,
    bots: Sequence[Bot | str],
    seed: int,
    bot_seed: int | None = None,
    on_decision: Callable[[GameState, Observation, tuple[Move, ...], Move], None] | None = None,
    *,
    max_moves: int = MAX_MOVES,
) -> MatchResult:
    """
    One match between ``bots`` (one per seat, seat order), dealt from ``seed``.

    Each bot gets its own ``random.Random`` seeded from ``bot_seed`` (default: ``seed``)
    and its seat.  A move that is the only legal one is played without asking the bot
    (including ``next`` between rounds).  A bot that raises or returns a move that is
    not legal stops the match with a :class:`BotError`; a bot that raises
    :class:`~bendolib.bots.bot.ForfeitError` loses the match (``MatchResult.forfeit``).
    Before the first move each bot's ``start_match(rules, players, seat)`` is called
    when it has one.  ``on_decision(state, observation, legal_moves, move)`` is called
    after every move a bot chose.  A match still going after ``max_moves`` moves
    (``next`` between rounds included; default
    :data:`~bendolib.playouts.MAX_MOVES`, 200,000) raises :class:`MatchTooLongError`:
    some configured rules let a match go on for ever.
    """
    check_max_moves(max_moves)
    ruleset = _resolve_rules(rules)
    players = _resolve_bots(bots)
    base = seed if bot_seed is None else bot_seed
    rngs = [random.Random(derive_seed(base, _BOT_STREAM, seat)) for seat in range(len(players))]
    state = new_game(ruleset, len(players), seed)
    for seat, player in enumerate(players):
        start = getattr(player, "start_match", None)
        if callable(start):
            _call_start(start, ruleset, len(players), seat, player, state, (seed, base))
    moves: list[Turn] = []
    while not state.is_game_over:
        if len(moves) >= max_moves:
            raise MatchTooLongError(
                repr(ruleset), max_moves, seed, base, state.round_number, state.scores
            )
        legal = legal_moves(state)
        seat = state.current_player
        if len(legal) == 1:
            move = legal[0]
        else:
            observation = state.observation(seat)
            try:
                move = _ask(players[seat], observation, legal, rngs[seat], state, (seed, base))
            except ForfeitError as exc:
                return _forfeited(state, players, moves, seed, base, seat, exc.reason)
            if on_decision is not None:
                on_decision(state, observation, legal, move)
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
        bot_seed=base,
    )


@attrs.frozen
class MatchRecord:
    """
    A tournament match in brief: which entrant sat where, how it ended, and the seeds
    that replay it.

    ``seats[s]`` is the entrant (its index in the tournament's bots) in seat ``s``;
    ``scores``, ``side_scores`` (each seat's side total) and ``winners`` are by seat.
    ``play_match(rules, [bots[e] for e in seats], seed, bot_seed)`` plays the match
    again.  ``move_text`` holds its moves in notation (``next`` between rounds),
    separated by spaces, when the tournament kept them (``keep_moves=True``).
    ``forfeit`` is the seat of a bot that gave the match up (-1: none), ``reason`` why.
    """

    index: int
    seed: int
    seats: tuple[int, ...]
    scores: tuple[int, ...]
    side_scores: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    moves: int
    bot_seed: int
    move_text: str = ""
    forfeit: int = -1
    reason: str = ""


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
    interval, and its side's mean final score with a bootstrap 95% interval
    (:func:`mean_interval`: never outside the range of the scores).
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


#: Resamples of the bootstrap in :func:`mean_interval`.
BOOTSTRAP_RESAMPLES = 1000
#: Above this many values :func:`mean_interval` uses the normal interval (kept within
#: the values' range): the bootstrap would cost seconds and agree with it.
BOOTSTRAP_LIMIT = 5000


def mean_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """
    The mean of ``values`` with a percentile bootstrap interval (coverage that of a
    two-sided normal interval of ``z``; :data:`BOOTSTRAP_RESAMPLES` resamples, seeded:
    the same values give the same interval; above :data:`BOOTSTRAP_LIMIT` values, the
    normal interval).  The interval stays within the range of the values: means of
    points that cannot be negative never get a negative bound.
    """
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    smallest, largest = min(values), max(values)
    if n == 1 or smallest == largest:
        return Interval(mean, mean, mean)
    if n > BOOTSTRAP_LIMIT:
        var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
        half = z * math.sqrt(var / n)
        return Interval(mean, max(smallest, mean - half), min(largest, mean + half))
    rng = random.Random(n)
    data = list(values)
    means = sorted(math.fsum(rng.choices(data, k=n)) / n for _ in range(BOOTSTRAP_RESAMPLES))
    tail = 1.0 - statistics.NormalDist().cdf(z)
    low = means[max(0, math.floor(tail * BOOTSTRAP_RESAMPLES))]
    high = means[min(BOOTSTRAP_RESAMPLES - 1, math.ceil((1.0 - tail) * BOOTSTRAP_RESAMPLES) - 1)]
    return Interval(mean, min(low, mean), max(high, mean))


@attrs.frozen
class TournamentResult:
    """
    Every match of a tournament (``records``, by match index), and each entrant's
    standing.  ``ruleset`` and ``bots`` are what was played (kept to replay matches,
    left out of comparisons and of :meth:`to_dict`).  ``interrupted`` is True when the
    tournament was stopped early (the records are then the matches that finished).
    """

    rules: str
    players: int
    seed: int
    entrants: tuple[str, ...]
    records: tuple[MatchRecord, ...]
    ruleset: RuleSet | None = attrs.field(default=None, eq=False, repr=False)
    bots: tuple[Bot, ...] = attrs.field(default=(), eq=False, repr=False)
    interrupted: bool = False

    def record(self, index: int) -> GameRecord:
        """
        Match ``index`` as a :class:`~bendolib.records.GameRecord` (players named after
        the bots), from its kept moves or else by playing it again with the bots.
        """
        found = [r for r in self.records if r.index == index]
        if not found or self.ruleset is None:
            raise BendolibError(f"this tournament result has no match {index}")
        match = found[0]
        names = tuple(self.entrants[e] for e in match.seats)
        if match.move_text:
            state = new_game(self.ruleset, self.players, match.seed)
            for text in match.move_text.split():
                state = apply(state, parse_move(text, state))
        elif self.bots:
            bots = [self.bots[e] for e in match.seats]
            bound = max(MAX_MOVES, match.moves)
            state = play_match(
                self.ruleset, bots, match.seed, match.bot_seed, max_moves=bound
            ).final
        else:
            raise BendolibError("this tournament result keeps neither the moves nor the bots")
        if state.scores != match.scores or not (state.is_game_over or match.forfeit >= 0):
            raise BendolibError(
                f"match {index} played again ends {list(state.scores)}, not "
                f"{list(match.scores)}: a bot does not choose from its seeded rng alone"
            )
        return record_of(state, names)

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
                    f"[{s.win_rate.low:.3f}, {s.win_rate.high:.3f}]",
                    f"{s.mean_points.value:.1f}",
                    f"[{s.mean_points.low:.1f}, {s.mean_points.high:.1f}]",
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
        stopped = " (interrupted)" if self.interrupted else ""
        head = (
            f"{self.rules}, {self.players} players, {len(self.records)} matches{stopped}, "
            f"seed {self.seed}"
        )
        return "\n".join([head, *lines])

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            "matches": len(self.records),
            "interrupted": self.interrupted,
            "entrants": list(self.entrants),
            "standings": [attrs.asdict(s) for s in self.standings],
            "records": [attrs.asdict(r) for r in self.records],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), indent=2)


def match_seats(index: int, players: int) -> tuple[int, ...]:
    """The entrant in each seat of match ``index``: rotation ``index % players``."""
    rotation = index % players
    return tuple((seat - rotation) % players for seat in range(players))


def match_seed(seed: int, index: int, players: int) -> int:
    """The deal seed of match ``index``: one per group of ``players`` rotations."""
    return derive_seed(seed, index // players)


def _play_chunk(
    rules: RuleSet,
    bots: tuple[Bot, ...],
    seed: int,
    keep_moves: bool,
    max_moves: int,
    indices: tuple[int, ...],
) -> list[MatchRecord]:
    players = len(bots)
    return [
        play_record(
            rules,
            bots,
            match_seats(index, players),
            index,
            match_seed(seed, index, players),
            match_bot_seed(seed, index),
            keep_moves,
            max_moves,
        )
        for index in indices
    ]


def play_record(
    rules: RuleSet,
    entrants: Sequence[Bot],
    seats: tuple[int, ...],
    index: int,
    seed: int,
    bot_seed: int,
    keep_moves: bool = False,
    max_moves: int = MAX_MOVES,
) -> MatchRecord:
    """
    Match ``index`` of a tournament or league as a :class:`MatchRecord`: ``entrants[e]``
    plays in the seat ``s`` with ``seats[s] == e``; a :class:`BotError` or
    :class:`MatchTooLongError` names the match.
    """
    bots = [entrants[e] for e in seats]
    try:
        result = play_match(rules, bots, seed, bot_seed, max_moves=max_moves)
    except BotError as exc:
        raise exc.in_match(index) from exc.__cause__
    except MatchTooLongError as exc:
        raise exc.in_match(index) from None
    players = len(seats)
    return MatchRecord(
        index=index,
        seed=seed,
        seats=seats,
        scores=result.scores,
        side_scores=tuple(
            result.side_scores[_side_of(result.final, seat)] for seat in range(players)
        ),
        winners=result.winners,
        rounds=result.rounds,
        moves=len(result.moves),
        bot_seed=bot_seed,
        move_text=" ".join(str(t.move) for t in result.moves) if keep_moves else "",
        forfeit=result.forfeit,
        reason=result.reason,
    )


def match_bot_seed(seed: int, index: int) -> int:
    """The seed of the bots' random generators in match ``index``."""
    return derive_seed(seed, index, 1)


def _side_of(state: GameState, seat: int) -> int:
    return next(i for i, side in enumerate(state.sides) if seat in side)


def run_tournament(
    rules: RuleSet | str,
    bots: Sequence[Bot | str],
    matches: int,
    seed: int = 0,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    *,
    keep_moves: bool = False,
    max_moves: int = MAX_MOVES,
) -> TournamentResult:
    """
    Play ``matches`` seeded matches between ``bots`` (one entrant per seat), seats
    rotated, and gather the standings.

    ``executor`` runs the matches (default: :func:`~bendolib.runner.process_pool`, one
    worker per CPU, shut down afterwards); bots and rules must then be picklable.
    ``progress(done, total)`` is called in the calling thread at least once a second
    while matches run.  ``keep_moves`` keeps every match's moves in its record.  The
    result depends only on the arguments, not on the executor.

    On Ctrl-C the matches not started are cancelled (and, in the default pool, those
    running are ended) and :class:`TournamentInterrupted` (a ``KeyboardInterrupt``) is
    raised within about a second, holding the result of the matches that finished.  A
    failing bot raises :class:`BotError`, a match still going after ``max_moves`` moves
    (:func:`play_match`) :class:`MatchTooLongError`: either stops the tournament.
    """
    ruleset = _resolve_rules(rules)
    entrants = _resolve_bots(bots)
    if len(entrants) not in ruleset.player_counts:
        raise ValueError(
            f"{ruleset.name} is for {ruleset.player_counts} players, not {len(entrants)} bots"
        )
    if matches < 0:
        raise ValueError("matches cannot be negative")
    check_max_moves(max_moves)
    own = executor is None
    found: list[MatchRecord] = []

    def result(interrupted: bool) -> TournamentResult:
        return TournamentResult(
            rules=ruleset.name,
            players=len(entrants),
            seed=seed,
            entrants=tuple(bot_name(b) for b in entrants),
            records=tuple(sorted(found, key=lambda r: r.index)),
            ruleset=ruleset,
            bots=entrants,
            interrupted=interrupted,
        )

    task = partial(_play_chunk, ruleset, entrants, seed, keep_moves, max_moves)
    pool: Executor = SerialExecutor()
    try:
        pool = process_pool() if executor is None else executor
        run_indexed(task, range(matches), pool, lambda _, done: found.extend(done), progress)
    except KeyboardInterrupt:
        if own:
            stop_pool(pool)
        raise TournamentInterrupted(result(True)) from None
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    return result(False)


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_tournament`; ``result`` holds the matches that finished."""

    def __init__(self, result: TournamentResult) -> None:
        super().__init__(f"interrupted after {len(result.records)} matches")
        self.result = result


__all__ = [
    "BOOTSTRAP_LIMIT",
    "BOOTSTRAP_RESAMPLES",
    "Z95",
    "BotError",
    "Interval",
    "MatchRecord",
    "MatchResult",
    "MatchTooLongError",
    "SerialExecutor",
    "Standing",
    "TournamentInterrupted",
    "TournamentResult",
    "bot_name",
    "check_max_moves",
    "match_bot_seed",
    "match_seats",
    "match_seed",
    "mean_interval",
    "play_match",
    "play_record",
    "process_pool",
    "run_tournament",
    "wilson",
]
