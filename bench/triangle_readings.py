"""Triangle Dominoes read two ways: the library's reading against the "collect" reading.

    python bench/triangle_readings.py [--rounds 150] [--greedy-rounds 50] [--matches 40]

seeds/004 mixes sentences of several pages (docs/rules/triangle-dominoes.md discusses
each).  The library's ``triangle-dominoes`` scores each tile's sum as it is laid, a
stuck player draws one tile, one deal decides; ``TRIANGLE_DOMINOES_COLLECT`` (in
``bendolib.rules.triangles``) reads the neighbouring "dominoes" sentences as the game's:
draw until a tile fits, the player out collects the dots left in the others' hands, a
blocked round goes to the fewest dots (minus their own), first to 100.

Prints, per reading, player count and bot, the first round of ``--rounds`` matches
(seeds 0 upwards) in the columns of bench/rule_stats.py (``--format markdown``: the
rule page's tables), then, with the random bot, ``--matches`` whole matches of each:
rounds and moves per match.  Small counts by default (seconds on one core).  Plain
script: it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rule_stats import markdown, measure, table

import bendolib
from bendolib.rules.triangles import TRIANGLE_DOMINOES, TRIANGLE_DOMINOES_COLLECT

READINGS = (TRIANGLE_DOMINOES, TRIANGLE_DOMINOES_COLLECT)


def whole_matches(rules: bendolib.RuleSet, players: int, matches: int) -> str:
    """Rounds and moves per match, random bot, matches seeded 0 upwards."""
    import random

    rounds, moves = [], []
    for seed in range(matches):
        rng = random.Random(seed)
        state = bendolib.new_game(rules, players, seed)
        count = 0
        while not state.is_game_over:
            legal = bendolib.legal_moves(state)
            state = bendolib.apply(state, legal[rng.randrange(len(legal))])
            count += 1
        rounds.append(len(state.results))
        moves.append(count)
    return (
        f"| `{rules.name}` | {players} | {matches} | {statistics.mean(rounds):.1f} "
        f"| {max(rounds)} | {statistics.mean(moves):.0f} |"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=150)
    parser.add_argument("--greedy-rounds", type=int, default=50)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--format", choices=("table", "markdown"), default="markdown")
    args = parser.parse_args(argv)
    players = [int(p) for p in args.players.split(",")]
    start = time.process_time()
    for rules in READINGS:
        rows = [
            measure(rules, p, bot, n, 0)
            for p in players
            for bot, n in (("random", args.rounds), ("greedy", args.greedy_rounds))
        ]
        print(f"\n{rules.name}\n")
        print(markdown(rows) if args.format == "markdown" else table(rows))
    print("\n| reading | players | matches | rounds per match | most rounds | moves per match |")
    print("|---|---|---|---|---|---|")
    for rules in READINGS:
        for p in players:
            print(whole_matches(rules, p, args.matches))
    print(f"\n({time.process_time() - start:.0f} CPU seconds)")


if __name__ == "__main__":
    main()
