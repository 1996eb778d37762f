"""A strength ladder per rule set: every pair of bots, mirrored deals (docs/bots.md).

    python bench/ladder.py [--rules basic triangle-dominoes] [--matches 40]
        [--bots random greedy search infoset] [--no-ismcts] [--param target=1]
        [--seconds 0.005] [--seed 2026] [--jobs 0] [--gauntlet infoset]

Plays, for each rule set (two players), a seat-rotated tournament for every pair of
bots: match ``2k`` and ``2k + 1`` share a deal with the seats swapped (mirrored deals),
so ``--matches`` should be even.  Prints per rule set a Markdown table of each pair's
win rate (row bot against column bot) with its Wilson 95% interval, each bot's overall
score, the seat-0 (first seat) win rate over all the matches, and the mean thinking
time per decision of each bot.  ``--seconds`` gives the search bots (search, infoset)
the same CPU time per decision: each gets the number of worlds that takes it that long on
average (measured first, on decisions of greedy-played rounds), so that the matches
depend on the seeds only.  OpenSpiel's
IS-MCTS (``bendolib.adapters.openspiel.ISMCTSBot``, 20 simulations) joins when
open_spiel is installed (``--no-ismcts``: not; it costs about 25 ms of CPU per decision).
``--gauntlet NAME`` plays only the pairs of that bot (one of ``--bots``) with each of
the others (the other cells of the table stay empty).
Plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Sequence
from typing import Any

from bendolib import bots, legal_moves, new_game
from bendolib import rules as registry
from bendolib.bots import Bot, InfoSetBot, SearchBot
from bendolib.engine import apply
from bendolib.tournament import SerialExecutor, run_tournament, wilson


def seconds_per_decision(bot: Bot, rules: Any, decisions: int = 60, seed: int = 1) -> float:
    """The mean CPU time ``bot`` takes per decision in greedy-played rounds of ``rules``."""
    greedy = bots.get("greedy")
    rng = random.Random(seed)
    spent = 0.0
    asked = 0
    game = 0
    while asked < decisions:
        state = new_game(rules, 2, seed + game)
        game += 1
        while not state.is_round_over and asked < decisions:
            legal = legal_moves(state)
            seat = state.current_player
            observation = state.observation(seat)
            if len(legal) > 1:
                started = time.thread_time()
                bot.choose(observation, legal, rng)
                spent += time.thread_time() - started
                asked += 1
            state = apply(state, greedy.choose(observation, legal, rng))
    return spent / decisions


def worlds_for(make: Any, seconds: float, rules: Any) -> int:
    """The number of worlds with which ``make(worlds=n)`` takes about ``seconds`` per decision."""
    per_world = seconds_per_decision(make(worlds=8), rules, 120) / 8
    return max(1, round(seconds / per_world))


def make_bots(names: Sequence[str], seconds: float | None, rules: Any, ismcts: bool) -> list[Bot]:
    made: list[Bot] = []
    for name in names:
        if name == "infoset" and seconds is not None:
            made.append(InfoSetBot(worlds=worlds_for(InfoSetBot, seconds, rules)))
        elif name == "search" and seconds is not None:
            made.append(SearchBot(worlds=worlds_for(SearchBot, seconds, rules)))
        else:
            made.append(bots.get(name))
    if ismcts:
        try:
            from bendolib.adapters.openspiel import ISMCTSBot
        except ImportError:
            print("(open_spiel is not installed: no IS-MCTS)")
        else:
            made.append(ISMCTSBot(simulations=20))
    return made


def label(bot: Bot) -> str:
    if isinstance(bot, SearchBot):
        return f"search({bot.worlds})"
    if isinstance(bot, InfoSetBot):
        return f"infoset({bot.seconds} s)" if bot.seconds else f"infoset({bot.worlds})"
    name = getattr(bot, "name", type(bot).__name__)
    return "ismcts" if name != "random" and "ISMCTS" in type(bot).__name__ else str(name)


def ladder(
    rules: Any,
    entrants: list[Bot],
    matches: int,
    seed: int,
    jobs: int,
    gauntlet: int | None = None,
) -> tuple[str, dict[str, Any]]:
    names = [label(b) for b in entrants]
    n = len(entrants)
    wins = [[0] * n for _ in range(n)]
    seat0 = 0
    total = 0
    started = time.perf_counter()
    played = set()
    for i, j in itertools.combinations(range(n), 2):
        if gauntlet is not None and gauntlet not in (i, j):
            continue
        played.add((i, j))
        played.add((j, i))
        executor = SerialExecutor() if jobs == 1 else None
        result = run_tournament(rules, [entrants[i], entrants[j]], matches, seed, executor)
        for record in result.records:
            total += 1
            if record.winners == (0,):
                seat0 += 1
            for seat, entrant in enumerate(record.seats):
                me, other = (i, j) if entrant == 0 else (j, i)
                if seat in record.winners and len(record.winners) == 1:
                    wins[me][other] += 1
        print(f"  {names[i]} vs {names[j]}: {wins[i][j]}/{matches}", flush=True)
    elapsed = time.perf_counter() - started
    head = "| bot | " + " | ".join(f"vs {name}" for name in names) + " | overall |"
    lines = [head, "|---" * (n + 2) + "|"]
    for i in range(n):
        cells = []
        for j in range(n):
            if i == j or (i, j) not in played:
                cells.append("—")
                continue
            ci = wilson(wins[i][j], matches)
            cells.append(f"{ci.value:.0%} [{ci.low:.0%}, {ci.high:.0%}]")
        won = sum(wins[i])
        count = matches * sum(1 for j in range(n) if (i, j) in played)
        ci = wilson(won, count)
        cells.append(f"{won}/{count} {ci.value:.0%} [{ci.low:.0%}, {ci.high:.0%}]")
        lines.append(f"| **{names[i]}** | " + " | ".join(cells) + " |")
    first = wilson(seat0, total)
    lines.append("")
    lines.append(
        f"Seat 0 (first seat) won {seat0}/{total} matches: {first.value:.1%} "
        f"[{first.low:.1%}, {first.high:.1%}]; {elapsed:.0f} s."
    )
    return "\n".join(lines), {"seat0": seat0, "total": total, "elapsed": elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=["basic"])
    parser.add_argument("--bots", nargs="+", default=["random", "greedy", "search", "infoset"])
    parser.add_argument(
        "--ismcts",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="add OpenSpiel's IS-MCTS when open_spiel is installed (default: yes)",
    )
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--gauntlet", metavar="NAME", help="only the pairs of this bot")
    args = parser.parse_args()
    if args.gauntlet is not None and args.gauntlet not in args.bots:
        parser.error(f"--gauntlet {args.gauntlet} is not one of --bots")
    params = {}
    for item in args.param:
        key, _, value = item.partition("=")
        params[key] = int(value) if value.lstrip("-").isdigit() else value
    for name in args.rules:
        rules = registry.get(name, **params)
        entrants = make_bots(args.bots, args.seconds, rules, args.ismcts)
        times = {label(b): seconds_per_decision(b, rules, 60) for b in entrants}
        print(f"## {name} {params or ''}: {args.matches} matches per pair, seed {args.seed}")
        focus = None if args.gauntlet is None else args.bots.index(args.gauntlet)
        table, _ = ladder(rules, entrants, args.matches, args.seed, args.jobs, focus)
        print(table)
        print(
            "Mean CPU time per decision: "
            + ", ".join(f"{k} {1000 * v:.1f} ms" for k, v in times.items())
        )
        print()


if __name__ == "__main__":
    main()
