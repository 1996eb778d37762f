"""
Leagues: any number of bots, tables of the rule set's seats, mirrored deals, ratings.

:func:`run_league` plays ``matches`` matches among ``entrants`` at tables of ``players``
seats: every combination of entrants (a round robin), or each of the first
``gauntlet`` entrants against every combination of the others (a gauntlet).  Matches
come in groups of ``players``: one deal played once in every rotation of the seats at
one table (for two players, the same deal with the seats swapped), and the groups go
round the tables, so every table plays deal 0, then every table deal 1, and so on: the
luck of the deal cancels out and a stopped league has played the tables evenly.  Each
match is a pure function of its index and the seed, so the result does not depend on
the executor (a process pool, threads, Dask's ``Client.get_executor()``...).

``results=PATH`` keeps the finished matches in a JSON file, rewritten atomically as
they come in; running the same league again with the same file plays only the matches
it lacks.  Ratings with their uncertainty come from ``openskill`` (the ``ratings``
extra) when it is installed: :attr:`LeagueResult.ratings`.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from functools import partial
from typing import Any

import attrs

from bendolib import bots as bot_registry
from bendolib import rules as rules_registry
from bendolib._files import write_atomically
from bendolib._rng import derive_seed
from bendolib.bots.bot import Bot
from bendolib.engine import apply, new_game
from bendolib.errors import BendolibError
from bendolib.notation import parse_move
from bendolib.playouts import MAX_MOVES
from bendolib.records import GameRecord, record_of
from bendolib.rules.ruleset import RuleSet
from bendolib.runner import SerialExecutor, process_pool, run_indexed, stop_pool
from bendolib.tournament import (
    Z95,
    Interval,
    MatchRecord,
    bot_name,
    check_max_moves,
    match_bot_seed,
    mean_interval,
    play_match,
    play_record,
    wilson,
)

#: The version of the results file's layout.
RESULTS_VERSION = 1
#: Least time between two writes of the results file, in seconds.
SAVE_SECONDS = 2.0


class LeagueFileError(BendolibError, ValueError):
    """A results file that cannot be read or belongs to another league."""


def tables(entrants: int, players: int, gauntlet: int = 0) -> tuple[tuple[int, ...], ...]:
    """
    The tables of a league: the entrants (indices, ascending) seated at each.

    Round robin (``gauntlet=0``): every combination of ``players`` of the ``entrants``.
    Gauntlet: each of the first ``gauntlet`` entrants with every combination of
    ``players - 1`` of the others (the challengers never meet each other).
    """
    if players < 1:
        raise ValueError(f"a table has at least one seat, not {players}")
    if not 0 <= gauntlet < entrants:
        raise ValueError(
            f"a gauntlet of {gauntlet} challengers needs more than {gauntlet} entrants "
            f"(there are {entrants})"
        )
    if gauntlet == 0:
        if entrants < players:
            raise ValueError(f"{players} seats need at least {players} entrants, not {entrants}")
        return tuple(itertools.combinations(range(entrants), players))
    field = range(gauntlet, entrants)
    if len(field) < players - 1:
        raise ValueError(
            f"{players} seats need {players - 1} entrants besides each challenger, not {len(field)}"
        )
    return tuple(
        (challenger, *others)
        for challenger in range(gauntlet)
        for others in itertools.combinations(field, players - 1)
    )


def league_match(
    index: int, seed: int, table_list: Sequence[tuple[int, ...]]
) -> tuple[tuple[int, ...], int, int]:
    """
    Match ``index`` of a league: the entrant in each seat, the deal seed and the bots'
    seed.  Group ``index // players`` is deal ``group // len(tables)`` at table
    ``group % len(tables)``; the match is rotation ``index % players`` of the table.
    """
    players = len(table_list[0])
    group, rotation = divmod(index, players)
    deal, table = divmod(group, len(table_list))
    entrants = table_list[table]
    seats = tuple(entrants[(seat - rotation) % players] for seat in range(players))
    return seats, derive_seed(seed, deal), match_bot_seed(seed, index)


def _play_chunk(
    rules: RuleSet,
    entrants: tuple[Bot, ...],
    seed: int,
    table_list: tuple[tuple[int, ...], ...],
    keep_moves: bool,
    max_moves: int,
    indices: tuple[int, ...],
) -> list[MatchRecord]:
    out = []
    for index in indices:
        seats, deal, bot_seed = league_match(index, seed, table_list)
        record = play_record(rules, entrants, seats, index, deal, bot_seed, keep_moves, max_moves)
        out.append(record)
    return out


@attrs.frozen
class Rating:
    """
    An entrant's rating: ``mu`` with its uncertainty ``sigma`` (openskill's
    Plackett-Luce model, on its scale: a new entrant starts at 25 +- 8.33) and the
    95% interval ``mu +- 1.96 sigma`` (``low``, ``high``).
    """

    entrant: int
    name: str
    mu: float
    sigma: float
    low: float
    high: float


@attrs.frozen
class LeagueStanding:
    """
    One entrant's results: ``wins`` of the ``matches`` it played, its win rate with a
    Wilson 95% interval, and its side's mean final score with a bootstrap 95% interval
    (never outside the range of the scores).
    """

    entrant: int
    name: str
    matches: int
    wins: int
    win_rate: Interval
    mean_points: Interval


def ratings_available() -> bool:
    """True when openskill (the ``ratings`` extra) is installed."""
    try:
        import openskill.models  # noqa: F401
    except ImportError:
        return False
    return True


@attrs.frozen
class LeagueResult:
    """
    Every finished match of a league (``records``, by index) and what was played:
    ``rules`` (name), ``parameters`` (the rule set's, as text), ``players`` seats per
    table, ``tables``, ``entrants`` (names), ``matches`` asked for.  ``interrupted``
    is True when the league was stopped before all of them finished.  ``sides``
    are the seats of each side (partners share a side; default: one seat each).
    """

    rules: str
    parameters: str
    players: int
    seed: int
    entrants: tuple[str, ...]
    tables: tuple[tuple[int, ...], ...]
    matches: int
    records: tuple[MatchRecord, ...]
    interrupted: bool = False
    sides: tuple[tuple[int, ...], ...] = ()
    ruleset: RuleSet | None = attrs.field(default=None, eq=False, repr=False)
    bots: tuple[Bot, ...] = attrs.field(default=(), eq=False, repr=False)

    def record(self, index: int) -> GameRecord:
        """
        Match ``index`` as a :class:`~bendolib.records.GameRecord` (players named after
        the entrants): from its kept moves (``keep_moves=True``), else played again with
        the bots.  Needs the result :func:`run_league` returned (a result read back with
        :func:`load_results` has neither the rule set nor the bots).
        """
        found = [r for r in self.records if r.index == index]
        if not found or self.ruleset is None:
            raise BendolibError(f"this league result has no match {index} to replay")
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
            raise BendolibError("this league result keeps neither the moves nor the bots")
        if state.scores != match.scores:
            raise BendolibError(
                f"match {index} played again ends {list(state.scores)}, not "
                f"{list(match.scores)}: a bot does not choose from its seeded rng alone"
            )
        return record_of(state, names)

    @property
    def standings(self) -> tuple[LeagueStanding, ...]:
        """One standing per entrant, in entrant order."""
        wins = [0] * len(self.entrants)
        points: list[list[float]] = [[] for _ in self.entrants]
        for record in self.records:
            for seat, entrant in enumerate(record.seats):
                wins[entrant] += seat in record.winners
                points[entrant].append(record.side_scores[seat])
        return tuple(
            LeagueStanding(
                e,
                name,
                len(points[e]),
                wins[e],
                wilson(wins[e], len(points[e])),
                mean_interval(points[e]),
            )
            for e, name in enumerate(self.entrants)
        )

    def seat_wins(self) -> tuple[Interval, ...]:
        """Each seat's win rate over the league with its Wilson 95% interval."""
        return tuple(
            wilson(sum(seat in r.winners for r in self.records), len(self.records))
            for seat in range(self.players)
        )

    def head_to_head(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """
        ``[a][b]``: the matches entrant ``a`` won and ``b`` did not, and the matches
        they played together (one table).
        """
        n = len(self.entrants)
        won = [[0] * n for _ in range(n)]
        met = [[0] * n for _ in range(n)]
        for record in self.records:
            for seat_a, a in enumerate(record.seats):
                for seat_b, b in enumerate(record.seats):
                    if a != b:
                        met[a][b] += 1
                        won[a][b] += seat_a in record.winners and seat_b not in record.winners
        return tuple(tuple(zip(won[a], met[a], strict=True)) for a in range(n))

    def pairs_table(self) -> str:
        """:meth:`head_to_head` as text: row ``a``, column ``b``: ``a``'s wins / matches."""
        pairs = self.head_to_head()
        head = ["", *(str(e) for e in range(len(self.entrants)))]
        rows = [head]
        for a, name in enumerate(self.entrants):
            cells = [f"{w}/{m}" if m else "-" for w, m in pairs[a]]
            cells[a] = ""
            rows.append([f"{a} {name}", *cells])
        widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
        return "\n".join(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
            for row in rows
        )

    @property
    def ratings(self) -> tuple[Rating, ...] | None:
        """
        Each entrant's rating after the matches in index order (openskill's
        Plackett-Luce; a side's seats are a team, ranked winners first, then by side
        score), in entrant order; None when ``openskill`` is not installed
        (``pip install 'bendolib[ratings]'``).
        """
        if not ratings_available():
            return None
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        current = [model.rating(name=name) for name in self.entrants]
        sides = list(self.sides) or [(s,) for s in range(self.players)]
        for record in self.records:
            teams = [[current[record.seats[s]] for s in side] for side in sides]
            ranks = [float(_rank(record, side, sides)) for side in sides]
            rated = model.rate(teams, ranks=ranks)
            for side, team in zip(sides, rated, strict=True):
                for seat, rating in zip(side, team, strict=True):
                    current[record.seats[seat]] = rating
        return tuple(
            Rating(e, name, r.mu, r.sigma, r.mu - Z95 * r.sigma, r.mu + Z95 * r.sigma)
            for e, (name, r) in enumerate(zip(self.entrants, current, strict=True))
        )

    def table(self) -> str:
        """The standings (and ratings when available) as a plain-text table, best first."""
        standings = self.standings
        ratings = self.ratings
        order = sorted(
            range(len(self.entrants)),
            key=lambda e: (-ratings[e].mu if ratings else -standings[e].win_rate.value, e),
        )
        head = ["#", "bot", "matches", "wins", "win rate", "95% CI", "mean points", "95% CI"]
        if ratings:
            head += ["rating", "95% CI"]
        rows = [tuple(head)]
        for e in order:
            s = standings[e]
            row = [
                str(e),
                s.name,
                str(s.matches),
                str(s.wins),
                f"{s.win_rate.value:.3f}",
                f"[{s.win_rate.low:.3f}, {s.win_rate.high:.3f}]",
                f"{s.mean_points.value:.1f}",
                f"[{s.mean_points.low:.1f}, {s.mean_points.high:.1f}]",
            ]
            if ratings:
                r = ratings[e]
                row += [f"{r.mu:.1f}", f"[{r.low:.1f}, {r.high:.1f}]"]
            rows.append(tuple(row))
        widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
        lines = [
            "  ".join(
                cell.ljust(w) if i < 2 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
            for row in rows
        ]
        stopped = " (interrupted)" if self.interrupted else ""
        title = (
            f"{self.rules}, {len(self.entrants)} entrants, {len(self.tables)} tables of "
            f"{self.players}, {len(self.records)} of {self.matches} matches{stopped}, "
            f"seed {self.seed}"
        )
        seats = ", ".join(
            f"seat {s} {w.value:.3f} [{w.low:.3f}, {w.high:.3f}]"
            for s, w in enumerate(self.seat_wins())
        )
        lines.append(f"win rate by seat: {seats}")
        if ratings is None:
            lines.append("(no ratings: pip install 'bendolib[ratings]' for openskill)")
        return "\n".join([title, *lines])

    def ratings_svg(self) -> str:
        """The ratings with their 95% intervals as an SVG chart (needs ``openskill``)."""
        ratings = self.ratings
        if ratings is None:
            raise BendolibError("ratings need openskill: pip install 'bendolib[ratings]'")
        return ratings_svg(ratings, f"{self.rules}: {len(self.records)} matches")

    def to_dict(self) -> dict[str, Any]:
        """The league as JSON-ready data (what the results file holds, and the tables)."""
        ratings = self.ratings
        return {
            "version": RESULTS_VERSION,
            "rules": self.rules,
            "parameters": self.parameters,
            "players": self.players,
            "seed": self.seed,
            "entrants": list(self.entrants),
            "tables": [list(t) for t in self.tables],
            "sides": [list(t) for t in self.sides],
            "matches": self.matches,
            "finished": len(self.records),
            "interrupted": self.interrupted,
            "standings": [attrs.asdict(s) for s in self.standings],
            "ratings": None if ratings is None else [attrs.asdict(r) for r in ratings],
            "records": [attrs.asdict(r) for r in self.records],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), indent=1)


def _rank(record: MatchRecord, side: tuple[int, ...], sides: list[tuple[int, ...]]) -> int:
    """A side's rank in a match: 0 for the winners, then by side score (higher first)."""
    if side[0] in record.winners:
        return 0
    score = record.side_scores[side[0]]
    better = {
        record.side_scores[other[0]]
        for other in sides
        if other[0] not in record.winners and record.side_scores[other[0]] > score
    }
    return 1 + len(better)


def ratings_svg(ratings: Sequence[Rating], title: str = "ratings") -> str:
    """``ratings`` as an SVG chart: one row per entrant, best first, its 95% interval."""
    from xml.sax.saxutils import escape

    rows = sorted(ratings, key=lambda r: (-r.mu, r.entrant))
    label = 10 + 7 * max((len(r.name) for r in rows), default=4)
    plot = 420
    width, height = label + plot + 70, 50 + 24 * len(rows)
    low = min((r.low for r in rows), default=0.0)
    high = max((r.high for r in rows), default=1.0)
    low, high = (low - 1.0, high + 1.0) if high - low < 1e-9 else (low, high)

    def x(value: float) -> float:
        return label + plot * (value - low) / (high - low)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2:.1f}" y="18" text-anchor="middle">{escape(title)}, '
        "rating with 95% interval</text>",
    ]
    for i, r in enumerate(rows):
        y = 40 + 24 * i
        out += [
            f'<text x="{label - 6}" y="{y + 4}" text-anchor="end">{escape(r.name)}</text>',
            f'<line x1="{x(r.low):.1f}" y1="{y}" x2="{x(r.high):.1f}" y2="{y}" '
            'stroke="#3465a4" stroke-width="2"/>',
            f'<circle cx="{x(r.mu):.1f}" cy="{y}" r="4" fill="#204a87"/>',
            f'<text x="{x(r.high) + 6:.1f}" y="{y + 4}">{r.mu:.1f}</text>',
        ]
    axis = height - 8
    out.append(
        f'<text x="{label}" y="{axis}">{low:.1f}</text>'
        f'<text x="{label + plot}" y="{axis}" text-anchor="end">{high:.1f}</text>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _labels(entrants: Sequence[Bot | str], bots: Sequence[Bot]) -> tuple[str, ...]:
    """Entrant names: the text that named a bot, else its name; repeats numbered."""
    names = [e if isinstance(e, str) else bot_name(b) for e, b in zip(entrants, bots, strict=True)]
    out = []
    for i, name in enumerate(names):
        if names.count(name) > 1:
            name = f"{name}#{names[:i].count(name) + 1}"
        out.append(name)
    return tuple(out)


def _parameters_text(ruleset: RuleSet) -> str:
    return json.dumps(ruleset.parameters(), sort_keys=True, default=repr)


def load_results(path: str | os.PathLike[str]) -> LeagueResult:
    """A league's results file (written by :func:`run_league`) read back."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as exc:
        raise LeagueFileError(f"cannot read {name!r}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise LeagueFileError(f"{name!r} is not a league results file: {exc}") from None
    try:
        if data["version"] != RESULTS_VERSION:
            raise LeagueFileError(f"{name!r} is a results file of version {data['version']!r}")
        records = tuple(_record(r) for r in data["records"])
        return LeagueResult(
            rules=str(data["rules"]),
            parameters=str(data["parameters"]),
            players=int(data["players"]),
            seed=int(data["seed"]),
            entrants=tuple(map(str, data["entrants"])),
            tables=tuple(tuple(map(int, t)) for t in data["tables"]),
            matches=int(data["matches"]),
            records=records,
            interrupted=bool(data["interrupted"]),
            sides=tuple(tuple(map(int, t)) for t in data.get("sides", ())),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, LeagueFileError):
            raise
        raise LeagueFileError(
            f"{name!r} is not a league results file ({type(exc).__name__}: {exc})"
        ) from None


_RECORD_FIELDS = frozenset(f.name for f in attrs.fields(MatchRecord))


def _record(data: dict[str, Any]) -> MatchRecord:
    fields: dict[str, Any] = {
        k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in _RECORD_FIELDS
    }
    return MatchRecord(**fields)


def _save(path: str, result: LeagueResult) -> None:
    """Write ``result`` to ``path`` atomically (a temporary file renamed over it)."""
    text = result.to_json().encode("utf-8")
    write_atomically(os.path.abspath(path), lambda out: out.write(text), prefix=".league-")


def run_league(
    rules: RuleSet | str,
    entrants: Sequence[Bot | str],
    matches: int,
    seed: int = 0,
    *,
    players: int | None = None,
    gauntlet: int = 0,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    results: str | os.PathLike[str] | None = None,
    keep_moves: bool = False,
    names: Sequence[str] | None = None,
    max_moves: int = MAX_MOVES,
) -> LeagueResult:
    """
    Play ``matches`` matches of a league among ``entrants`` (bots, or names for
    :func:`bendolib.bots.get`) at tables of ``players`` seats (default: the rule set's
    fewest), round robin or, with ``gauntlet=k``, the first ``k`` entrants against the
    others (:func:`tables`).  Use a multiple of ``players * len(tables)`` for matches
    so that every table plays the same deals.

    ``executor``, ``progress`` and Ctrl-C work as in
    :func:`~bendolib.tournament.run_tournament` (Ctrl-C raises :class:`LeagueInterrupted`
    holding the finished matches).  With ``results`` the finished matches are kept in
    that file (JSON, rewritten atomically every few seconds and at the end, even after
    Ctrl-C); a file of the same league is read first and its matches are not played
    again, a file of another league raises :class:`LeagueFileError`.  ``names`` label
    the entrants (default: the text that named a bot, else its name; repeats numbered).
    A failing bot (:class:`~bendolib.tournament.BotError`) or a match still going after
    ``max_moves`` moves (:class:`~bendolib.tournament.MatchTooLongError`) stops the
    league, the finished matches kept in ``results``.
    """
    ruleset = rules_registry.get(rules) if isinstance(rules, str) else rules
    bots = tuple(bot_registry.get(e) if isinstance(e, str) else e for e in entrants)
    seats = min(ruleset.player_counts) if players is None else players
    if seats not in ruleset.player_counts:
        raise ValueError(f"{ruleset.name} is for {ruleset.player_counts} players, not {seats}")
    if matches < 0:
        raise ValueError("matches cannot be negative")
    table_list = tables(len(bots), seats, gauntlet)
    sides = tuple(tuple(side) for side in new_game(ruleset, seats, 0).sides)
    if names is not None and len(names) != len(bots):
        raise ValueError(f"{len(names)} names for {len(bots)} entrants")
    names = _labels(entrants if names is None else names, bots)
    path = None if results is None else os.fspath(results)
    found: dict[int, MatchRecord] = {}
    if path is not None and os.path.exists(path):
        before = load_results(path)
        ours = (ruleset.name, _parameters_text(ruleset), seats, seed, names, table_list)
        theirs = (
            before.rules,
            before.parameters,
            before.players,
            before.seed,
            before.entrants,
            before.tables,
        )
        if ours != theirs:
            raise LeagueFileError(
                f"{path!r} holds another league ({before.rules}, seed {before.seed}, "
                f"entrants {', '.join(before.entrants)}): give another results file"
            )
        found.update((r.index, r) for r in before.records if r.index < matches)

    def result(interrupted: bool) -> LeagueResult:
        return LeagueResult(
            rules=ruleset.name,
            parameters=_parameters_text(ruleset),
            players=seats,
            seed=seed,
            entrants=names,
            tables=table_list,
            matches=matches,
            records=tuple(found[i] for i in sorted(found)),
            interrupted=interrupted,
            sides=sides,
            ruleset=ruleset,
            bots=bots,
        )

    last_save = time.monotonic()

    def on_done(_: tuple[int, ...], done: list[MatchRecord]) -> None:
        nonlocal last_save
        found.update((r.index, r) for r in done)
        if path is not None and time.monotonic() - last_save >= SAVE_SECONDS:
            _save(path, result(True))
            last_save = time.monotonic()

    todo = [i for i in range(matches) if i not in found]
    already = len(found)

    def report(done: int, total: int) -> None:
        if progress is not None:
            progress(already + done, already + total)

    check_max_moves(max_moves)
    task = partial(_play_chunk, ruleset, bots, seed, table_list, keep_moves, max_moves)
    own = executor is None
    pool: Executor = SerialExecutor()
    try:
        if todo:
            pool = process_pool() if executor is None else executor
            run_indexed(task, todo, pool, on_done, report)
        elif progress is not None:
            progress(already, already)
    except KeyboardInterrupt:
        if own:
            stop_pool(pool)
        stopped = result(True)
        if path is not None:
            _save(path, stopped)
        raise LeagueInterrupted(stopped) from None
    except Exception:
        if path is not None:  # keep what finished before a failing bot
            _save(path, result(True))
        raise
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    final = result(False)
    if path is not None:
        _save(path, final)
    return final


class LeagueInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_league`; ``result`` holds the matches that finished."""

    def __init__(self, result: LeagueResult) -> None:
        super().__init__(f"interrupted after {len(result.records)} matches")
        self.result = result


__all__ = [
    "RESULTS_VERSION",
    "LeagueFileError",
    "LeagueInterrupted",
    "LeagueResult",
    "LeagueStanding",
    "Rating",
    "league_match",
    "load_results",
    "ratings_available",
    "ratings_svg",
    "run_league",
    "tables",
]
