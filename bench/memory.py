"""Memory per retained state, beyond what it shares with its parent.

    python bench/memory.py [--states 10000] [--rules basic,classic-block]

Plays random rounds and keeps every state in a list (as a search tree would), measuring
with tracemalloc the memory newly allocated per retained state: each state shares its
rules, deck, unchanged tuples, board parts and history with its parent (structural
sharing), so this is what one more state really costs.  The figures include what the
engine's memo tables grow by meanwhile.

Then it plays ``--memo-rounds`` rounds of Basic Bendomino keeping no state, and prints
the memory that stays allocated: the engine's memos (moves, ends and placements by
lattice position, bounded tables) and the lattice tables.  Plain script: asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import tracemalloc

import bendolib
from bendolib import GameState, apply, legal_moves, new_game


def per_state(rules: bendolib.RuleSet, players: int, count: int) -> tuple[float, float]:
    """(bytes per retained state over ``count`` states, bytes per fresh deal)."""
    rng = random.Random(4)
    # warm up the lattice and tables outside the measurement
    state = new_game(rules, players=players, seed=2**64 - 1)
    while not state.is_round_over:
        moves = legal_moves(state)
        state = apply(state, moves[rng.randrange(len(moves))])
    kept: list[GameState] = []
    deals = 0
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    seed = 0
    while len(kept) < count:
        state = new_game(rules, players=players, seed=seed)
        seed += 1
        deals += 1
        kept.append(state)
        while not state.is_round_over and len(kept) < count:
            moves = legal_moves(state)
            state = apply(state, moves[rng.randrange(len(moves))])
            kept.append(state)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    total = after - before
    # the list holding the states is not part of a state's cost
    total -= 8 * len(kept)
    return total / len(kept), float(deals)


def memo_footprint(rounds: int) -> tuple[float, dict[str, int]]:
    """Megabytes still allocated after ``rounds`` rounds of Basic Bendomino, and memo sizes."""
    from bendolib.geometry import bend, straight

    rules = bendolib.rules.get("basic")
    rng = random.Random(8)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for seed in range(10**7, 10**7 + rounds):
        state = new_game(rules, players=2, seed=seed)
        while not state.is_round_over:
            moves = legal_moves(state)
            state = apply(state, moves[rng.randrange(len(moves))])
    del state, moves
    bendolib.engine._last_listed = (None, ())  # the one state the engine remembers
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    sizes = {
        "moves (tile set memo)": len(rules.tileset._memo),
        "ends": len(bend._ENDS),
        "placements": len(bend._PLACEMENTS) + len(straight._PLACEMENTS),
        "lattice steps": len(bend._STEPS),
    }
    return (after - before) / 1e6, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--states", type=int, default=10_000)
    parser.add_argument("--rules", default="basic,all-five,classic-block,domino-pairs")
    parser.add_argument("--memo-rounds", type=int, default=10_000)
    args = parser.parse_args()
    print(f"bytes per retained state (tracemalloc, {args.states} states, deals included):")
    for name in args.rules.split(","):
        rules = bendolib.rules.get(name)
        for players in rules.player_counts:
            size, deals = per_state(rules, players, args.states)
            print(f"  {name:24} {players}p  {size:7.0f} B/state  ({deals:.0f} deals)")
    if args.memo_rounds:
        megabytes, sizes = memo_footprint(args.memo_rounds)
        entries = ", ".join(f"{label} {count:,}" for label, count in sizes.items())
        print(
            f"held after {args.memo_rounds:,} more rounds of basic: {megabytes:.1f} MB ({entries})"
        )


if __name__ == "__main__":
    main()
