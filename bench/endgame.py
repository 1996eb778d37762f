"""Measure the exact endgame solver (docs/bots.md).

    python bench/endgame.py [--rules basic] [--games 200] [--worlds 16] [--seed 0]

Plays ``--games`` rounds of two players (greedy against search) and, at every decision
once the stock is empty (and the observation leaves no tile unaccounted for), solves the
position exactly with ``bendolib.bots.endgame.solve``: prints the positions solved, the
median and maximum time and nodes, the positions solved per second, and how often the
solved move differs from the move the information-set bot would play without the solver
(``InfoSetBot(worlds=--worlds, endgame=False)``) among decisions with two or more
moves, and by how many points the solver's value exceeds that move's exact value.
Plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bendolib import apply, bots, legal_moves, new_game
from bendolib import rules as registry
from bendolib.bots.endgame import applies, perfect_information, solve
from bendolib.bots.infoset import InfoSetBot
from bendolib.state import PLAYING


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="basic")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = registry.get(args.rules)
    players = [bots.get("greedy"), bots.get("search")]
    pimc = InfoSetBot(worlds=args.worlds, endgame=False)
    times: list[float] = []
    nodes: list[int] = []
    decisions = 0
    changed = 0
    differs = 0
    lost: list[int] = []
    for game in range(args.games):
        state = new_game(rules, 2, args.seed + game)
        rng = random.Random(game)
        while state.phase == PLAYING:
            legal = legal_moves(state)
            seat = state.current_player
            observation = state.observation(seat)
            if applies(state) and perfect_information(observation):
                started = time.perf_counter()
                solution = solve(state)
                times.append(time.perf_counter() - started)
                nodes.append(solution.nodes)
                if len(legal) > 1:
                    decisions += 1
                    other = pimc.choose(observation, legal, rng)
                    if other != solution.move:
                        differs += 1
                        after = apply(state, other)
                        value = solution.value
                        if after.phase == PLAYING:
                            sub = solve(after)
                            same = after.current_player == seat
                            other_value = sub.value if same else -sub.value
                            # values are relative to each position's own scores
                            gained = [
                                a - b for a, b in zip(after.scores, state.scores, strict=True)
                            ]
                            other_value += gained[seat] - gained[1 - seat]
                        else:
                            gained = [
                                a - b for a, b in zip(after.scores, state.scores, strict=True)
                            ]
                            other_value = gained[seat] - gained[1 - seat]
                        if other_value < value:
                            changed += 1
                            lost.append(value - other_value)
            state = apply(state, players[seat].choose(observation, legal, rng))
    if not times:
        print("no position solved")
        return
    print(f"{args.rules}: {len(times)} empty-stock positions from {args.games} rounds")
    print(
        f"time: median {1000 * statistics.median(times):.2f} ms, "
        f"max {1000 * max(times):.1f} ms; nodes: median {statistics.median(nodes):.0f}, "
        f"max {max(nodes)}; {len(times) / sum(times):.0f} positions solved per second"
    )
    print(
        f"decisions with 2+ moves: {decisions}; the solver's move differs from the PIMC "
        f"move in {differs} ({differs / max(1, decisions):.1%}) and is better than it "
        f"({args.worlds} worlds) in {changed} ({changed / max(1, decisions):.1%}), "
        f"by {statistics.mean(lost) if lost else 0:.1f} points on average"
    )


if __name__ == "__main__":
    main()
