"""The rules in numbers: how every rule set plays, with the random and the greedy bot.

    python bench/rule_stats.py [--rounds 600] [--greedy-rounds 200] [--rules basic,all-five]
                               [--players 2] [--bots random,greedy] [--seed 0]
                               [--format table|markdown|summary|json]

For each rule set, player count and bot (every seat played by the same bot), the first
round of ``--rounds`` matches (seeds ``seed .. seed + rounds - 1``) is played to its end.
Per rule set it prints: the share of rounds won by going out and of blocked rounds; how
often each blocked reason A-D (seeds/000) is among the ends of the board that ended a
blocked round; the mean round length in moves and in draws; the first player's (the
opener's) and each seat's share of round wins with a Wilson 95% interval; and the mean
points scored per round.  ``--format markdown`` prints the tables of the rule pages
("The game in numbers") and then the cross-variant table of docs/rules/index.md,
``summary`` that table alone.  ``--write`` puts each rule set's table into its page
itself, under a line giving the command, the date and the load (figures generated, not
typed: issue 21).

The defaults run in under two minutes on one core.  Plain script: it asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import attrs

import bendolib
from bendolib import GameState, apply, classify_ends, legal_moves, new_game
from bendolib.bots import GreedyBot, RandomBot
from bendolib.moves import Draw
from bendolib.tournament import Interval, wilson

REASONS = ("A", "B", "C", "D")


@attrs.frozen
class Stats:
    """The figures of one rule set, player count and bot."""

    rules: str
    players: int
    bot: str
    rounds: int
    out: int
    blocked: int
    reasons: dict[str, int]
    moves: float
    draws: float
    first_wins: int
    seat_wins: tuple[int, ...]
    points: float
    seconds: float

    def share(self, count: int) -> float:
        return count / self.rounds if self.rounds else 0.0

    @property
    def first_rate(self) -> Interval:
        return wilson(self.first_wins, self.rounds)

    def seat_rate(self, seat: int) -> Interval:
        return wilson(self.seat_wins[seat], self.rounds)


def _first_player(state: GameState) -> int:
    """The seat that made the round's first move."""
    turns = state.history
    return turns[0].player if turns else state.current_player


def play_round(
    rules: bendolib.RuleSet, players: int, seed: int, bot: str
) -> tuple[GameState, int, int]:
    """The first round of match ``seed`` played to its end: (final state, moves, draws)."""
    state = new_game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    chooser = GreedyBot() if bot == "greedy" else RandomBot()
    moves = draws = 0
    while state.phase == bendolib.state.PLAYING and state.round_number == 1:
        legal = legal_moves(state)
        if bot == "random":
            move = legal[rng.randrange(len(legal))]
        else:
            move = chooser.choose(state.observation(state.current_player), legal, rng)
        state = apply(state, move)
        moves += 1
        draws += type(move) is Draw
    return state, moves, draws


def measure(rules: bendolib.RuleSet, players: int, bot: str, rounds: int, seed: int) -> Stats:
    """Play ``rounds`` first rounds and tally them."""
    started = time.process_time()
    out = blocked = first_wins = 0
    reasons = dict.fromkeys(REASONS, 0)
    seat_wins = [0] * players
    lengths: list[int] = []
    drawn: list[int] = []
    points: list[int] = []
    for n in range(rounds):
        state, moves, draws = play_round(rules, players, seed + n, bot)
        result = state.results[-1]
        lengths.append(moves)
        drawn.append(draws)
        points.append(sum(result.points))
        if result.blocked:
            blocked += 1
            seen = {s.blocked.value for s in classify_ends(state) if s.blocked is not None}
            for reason in seen:
                reasons[reason] += 1
        else:
            out += 1
        winners = set(result.winners)
        for seat in winners:
            seat_wins[seat] += 1
        if _first_player(state) in winners:
            first_wins += 1
    return Stats(
        rules.name,
        players,
        bot,
        rounds,
        out,
        blocked,
        reasons,
        statistics.fmean(lengths),
        statistics.fmean(drawn),
        first_wins,
        tuple(seat_wins),
        statistics.fmean(points),
        time.process_time() - started,
    )


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _ci(i: Interval) -> str:
    return f"{100 * i.value:.0f}% ({100 * i.low:.0f}-{100 * i.high:.0f})"


def table(rows: Sequence[Stats]) -> str:
    """A plain-text table, one line per rule set, player count and bot."""
    head = (
        f"{'rules':24} {'p':>2} {'bot':7} {'n':>5} {'out':>5} {'block':>5} "
        + " ".join(f"{r:>4}" for r in REASONS)
        + f" {'moves':>6} {'draws':>6} {'first wins':>16} {'pts/rd':>7}  seats"
    )
    lines = [head]
    for s in rows:
        lines.append(
            f"{s.rules:24} {s.players:2} {s.bot:7} {s.rounds:5} {_pct(s.share(s.out)):>5} "
            f"{_pct(s.share(s.blocked)):>5} "
            + " ".join(f"{_pct(s.share(s.reasons[r])):>4}" for r in REASONS)
            + f" {s.moves:6.1f} {s.draws:6.1f} {_ci(s.first_rate):>16} {s.points:7.1f}  "
            + " ".join(_ci(s.seat_rate(seat)) for seat in range(s.players))
        )
    return "\n".join(lines)


def markdown(rows: Sequence[Stats]) -> str:
    """The table of a rule page's "The game in numbers" section."""
    lines = [
        "| players | bot | rounds | out | blocked | A | B | C | D | moves | draws "
        "| first player wins | seats win | points/round |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in rows:
        seats = ", ".join(_ci(s.seat_rate(seat)) for seat in range(s.players))
        lines.append(
            f"| {s.players} | {s.bot} | {s.rounds} | {_pct(s.share(s.out))} "
            f"| {_pct(s.share(s.blocked))} | "
            + " | ".join(_pct(s.share(s.reasons[r])) for r in REASONS)
            + f" | {s.moves:.1f} | {s.draws:.1f} | {_ci(s.first_rate)} | {seats} "
            f"| {s.points:.1f} |"
        )
    return "\n".join(lines)


def summary(rows: Sequence[Stats]) -> str:
    """One line per rule set (its smallest player count): the cross-variant table."""
    lines = [
        "| rule set | players | out (random / greedy) | D (random / greedy) "
        "| moves (random) | first player wins (random) |",
        "|---|---|---|---|---|---|",
    ]
    by_key = {(s.rules, s.players, s.bot): s for s in rows}
    done = set()
    for s in rows:
        if s.rules in done:
            continue
        done.add(s.rules)
        rnd = by_key.get((s.rules, s.players, "random"))
        grd = by_key.get((s.rules, s.players, "greedy"))

        def pair(f: str, rnd: Stats | None = rnd, grd: Stats | None = grd) -> str:
            parts = []
            for x in (rnd, grd):
                if x is None:
                    parts.append("-")
                elif f == "D":
                    parts.append(_pct(x.share(x.reasons["D"])))
                else:
                    parts.append(_pct(x.share(x.out)))
            return " / ".join(parts)

        moves = f"{rnd.moves:.1f}" if rnd else "-"
        first = _ci(rnd.first_rate) if rnd else "-"
        lines.append(
            f"| `{s.rules}` | {s.players} | {pair('out')} | {pair('D')} | {moves} | {first} |"
        )
    return "\n".join(lines)


#: The rule page of each rule set whose page is not named after it.
PAGES = {"bendo-all-in-actions": "actions"}
#: The line ``--write`` keeps above the table (the date and the load of the measure).
MEASURED = "Measured by `python bench/rule_stats.py --rules {name} --write` on {date}"


def write_page(name: str, table_text: str, docs: Path | None = None) -> Path:
    """
    Replace the table of ``name``'s page section "The game in numbers" by
    ``table_text``, under a line saying when and at what load it was measured.
    """
    root = docs or Path(__file__).resolve().parent.parent / "docs" / "rules"
    page = root / f"{PAGES.get(name, name)}.md"
    text = page.read_text(encoding="utf-8")
    start = text.index("## The game in numbers")
    head = text.index("| players | bot | rounds |", start)
    lines = text[head:].split("\n")
    length = next(i for i, line in enumerate(lines) if not line.startswith("|"))
    end = head + len("\n".join(lines[:length]))
    before = text[start:head]
    previous = before.rfind("\nMeasured by `python bench/rule_stats.py")
    if previous >= 0:
        head = start + previous + 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    stamp = MEASURED.format(name=name, date=datetime.date.today().isoformat())
    note = f"{stamp} (load {load:.1f}, {os.cpu_count()} cores):\n\n"
    page.write_text(text[:head] + note + table_text + text[end:], encoding="utf-8")
    return page


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=600, help="rounds per cell, random bot")
    parser.add_argument("--greedy-rounds", type=int, default=200, help="rounds, greedy bot")
    parser.add_argument("--rules", default=",".join(bendolib.rules.names()))
    parser.add_argument("--players", default="", help="player counts (default: all allowed)")
    parser.add_argument("--bots", default="random,greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--format", choices=("table", "markdown", "summary", "json"), default="table"
    )
    parser.add_argument(
        "--write",
        action="store_true",
        help="also put each rule set's table into its page's 'The game in numbers' section "
        "(docs/rules/NAME.md), with the date and the load, instead of copying it by hand",
    )
    args = parser.parse_args(argv)
    wanted = {int(p) for p in args.players.split(",") if p}
    rows: list[Stats] = []
    started = time.process_time()
    for name in args.rules.split(","):
        rules = bendolib.rules.get(name)
        counts = [p for p in rules.player_counts if not wanted or p in wanted]
        for players in counts:
            for bot in args.bots.split(","):
                rounds = args.greedy_rounds if bot == "greedy" else args.rounds
                rows.append(measure(rules, players, bot, rounds, args.seed))
        if args.format == "markdown":
            print(f"### `{name}`\n\n{markdown([r for r in rows if r.rules == name])}\n")
        if args.write:
            page = write_page(name, markdown([r for r in rows if r.rules == name]))
            print(f"# wrote {page}", file=sys.stderr)
    if args.format == "table":
        print(table(rows))
    elif args.format in ("summary", "markdown"):
        print(summary(rows))
    elif args.format == "json":
        print(json.dumps([attrs.asdict(r) for r in rows], indent=1))
    print(f"# {time.process_time() - started:.0f} CPU seconds", file=sys.stderr)


if __name__ == "__main__":
    main()
