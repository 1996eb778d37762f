"""Measure OpenSpiel's IS-MCTS (bendolib.adapters.openspiel.ISMCTSBot) against our bots.

    python bench/ismcts_strength.py [--rounds 100] [--opponent greedy] [--simulations 100]
        [--uct-c 10] [--rules basic] [--target 1] [--seed 2026] [--jobs 0]
    python bench/ismcts_strength.py --decisions 40

Plays a seat-rotated tournament (one round per match with ``--target 1``, the game
OpenSpiel's IS-MCTS searches) and prints the table, the time taken and the JSON summary.
With ``--decisions N`` it times instead the bot's first N decisions (seat 0 of deals 0,
1, 2..., the other seat playing its first legal move) in CPU seconds.
Needs ``bendolib[openspiel]``.  Plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import time

from bendolib import bots, rules
from bendolib.adapters.openspiel import ISMCTSBot
from bendolib.runner import SerialExecutor, process_pool
from bendolib.tournament import run_tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--uct-c", type=float, default=10.0)
    parser.add_argument("--rules", default="basic")
    parser.add_argument("--target", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--decisions", type=int, default=0)
    args = parser.parse_args()
    if args.decisions:
        time_decisions(args)
        return
    ruleset = rules.get(args.rules, target=args.target)
    entrants = [ISMCTSBot(args.simulations, args.uct_c), bots.get(args.opponent)]
    executor = SerialExecutor() if args.jobs == 1 else process_pool(args.jobs or None)
    start = time.perf_counter()
    result = run_tournament(
        ruleset,
        entrants,
        args.rounds,
        seed=args.seed,
        executor=executor,
        progress=lambda done, total: print(f"\r{done}/{total}", end="", flush=True),
    )
    elapsed = time.perf_counter() - start
    executor.shutdown()
    print()
    print(result.table())
    print(f"{elapsed:.0f} s")
    print(json.dumps({k: v for k, v in result.to_dict().items() if k != "records"}, indent=2))


def time_decisions(args: argparse.Namespace) -> None:
    """Print the CPU time of the bot's decisions: min, median, max."""
    import random

    import bendolib

    bot = ISMCTSBot(args.simulations, args.uct_c)
    ruleset = rules.get(args.rules)
    rng = random.Random(args.seed)
    times: list[float] = []
    deal = 0
    while len(times) < args.decisions:
        state = bendolib.new_game(ruleset, 2, deal)
        while not state.is_round_over and len(times) < args.decisions:
            legal = bendolib.legal_moves(state)
            move = legal[0]
            if len(legal) > 1 and state.current_player == 0:
                start = time.process_time()
                move = bot.choose(state.observation(0), legal, rng)
                times.append(time.process_time() - start)
            state = bendolib.apply(state, move)
        deal += 1
    times.sort()
    median = times[len(times) // 2]
    print(
        f"{len(times)} decisions, CPU s: min {times[0]:.3f} median {median:.3f} max {times[-1]:.3f}"
    )


if __name__ == "__main__":
    main()
