"""How often the sampler counts the triangle games exactly, and what building it costs.

    python bench/triangle_sampling.py [--rounds 2] [--rules triangle-dominoes triominoes]
                                      [--players 2 3]

For each rule set and player count: random rounds (deal ``seed``, moves drawn from
``random.Random(seed)``, seeds 0, 1, ...), and at every position the sampler of every
seat's observation built afresh: how many counted exactly (``Sampler.exact``) and the
mean and largest CPU time of building one. Plain script: it prints figures and asserts
nothing.
"""

from __future__ import annotations

import argparse
import random
import time

import bendolib
from bendolib.rules.triangles import TRIANGLE_RULESETS
from bendolib.sampling import Sampler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--rules", nargs="*", default=[r.name for r in TRIANGLE_RULESETS])
    parser.add_argument("--players", nargs="*", type=int, default=None)
    args = parser.parse_args()
    for rules in TRIANGLE_RULESETS:
        if rules.name not in args.rules:
            continue
        for players in rules.player_counts:
            if args.players and players not in args.players:
                continue
            count = exact = 0
            total = worst = 0.0
            for seed in range(args.rounds):
                state = bendolib.new_game(rules, players, seed)
                rng = random.Random(seed)
                while not state.is_round_over:
                    for seat in range(players):
                        start = time.process_time()
                        sampler = Sampler(state.observation(seat))
                        spent = time.process_time() - start
                        total += spent
                        worst = max(worst, spent)
                        count += 1
                        exact += sampler.exact
                    state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
            print(
                f"{rules.name:18} {players}p  {count:5} observations  {exact:5} exact  "
                f"build mean {1000 * total / count:7.1f} ms  max {1000 * worst:7.0f} ms",
                flush=True,
            )


if __name__ == "__main__":
    main()
