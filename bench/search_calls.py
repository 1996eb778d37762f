"""Small calls as a search bot makes them: many different states, few playouts each.

    python bench/search_calls.py [--rounds 7] [--states 2000] [--large 200] [--rules basic]
        [--players 2]

The states are positions of ``--states`` different deals, each a few random moves in
(as the leaves of a search tree are).  Round after round, interleaved:

* ``1 per call``: ``playouts(state, 1)`` once per state, a call per playout;
* ``in a large call``: ``playouts(state, --large)``, per playout (every tenth state: a
  smaller sample's playouts differ in length from the mean of all states);
* ``many states``: ``playouts_many(states, 1)``, one call for every state, per playout;
* ``new_game``: dealing a round, per deal.

Prints microseconds (CPU time) median (min - max) over the rounds and the ratio of a
1-playout call to a playout in a large call (per round, min / median / max; the
target of issue 24 is at most 1.3).  Plain script: asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bendolib import apply, legal_moves, new_game
from bendolib.playouts import playouts
from bendolib.rules import get as registered_rules
from bendolib.state import GameState

try:
    from bendolib.playouts import playouts_many
except ImportError:  # before the batched call existed
    playouts_many = None


def leaves(rules: str, players: int, count: int) -> list[GameState]:
    """``count`` positions of different deals, 0 to 5 random moves in."""
    rng = random.Random(7)
    found = []
    for seed in range(count):
        state = new_game(rules, players, seed=seed)
        for _ in range(rng.randrange(6)):
            if state.is_round_over:
                break
            legal = legal_moves(state)
            state = apply(state, legal[rng.randrange(len(legal))])
        if not state.is_round_over:
            found.append(state)
    return found


def timed(work: Callable[[], int]) -> float:
    """Microseconds per unit of work (the count work returns)."""
    start = time.process_time()
    units = work()
    return (time.process_time() - start) * 1e6 / units


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--states", type=int, default=2000)
    parser.add_argument("--large", type=int, default=200)
    parser.add_argument("--rules", default="basic")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    rules = registered_rules(args.rules)
    states = leaves(args.rules, args.players, args.states)

    def one_per_call() -> int:
        for i, state in enumerate(states):
            playouts(state, 1, seed=i)
        return len(states)

    sample = states[::10]

    def large_call() -> int:
        for state in sample:
            playouts(state, args.large, seed=1)
        return args.large * len(sample)

    def many_states() -> int:
        assert playouts_many is not None
        playouts_many(states, 1, seed=1)
        return len(states)

    def deals() -> int:
        for seed in range(len(states)):
            new_game(rules, args.players, seed=seed)
        return len(states)

    works = {"1 per call": one_per_call, "in a large call": large_call}
    if playouts_many is not None:
        works["many states"] = many_states
    works["new_game"] = deals
    times: dict[str, list[float]] = {name: [] for name in works}
    ratios = []
    for _ in range(args.rounds):
        for name, work in works.items():
            times[name].append(timed(work))
        ratios.append(times["1 per call"][-1] / times["in a large call"][-1])
    print(f"{args.rules}, {args.players} players, {len(states)} states, {args.rounds} rounds")
    for name, values in times.items():
        print(
            f"{name:16} {statistics.median(values):7.2f} µs ({min(values):.2f} - {max(values):.2f})"
        )
    print(
        f"1-playout call / playout in a large call: min {min(ratios):.2f}, "
        f"median {statistics.median(ratios):.2f}, max {max(ratios):.2f}"
    )


if __name__ == "__main__":
    main()
