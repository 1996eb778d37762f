"""Play one seeded match of basic Bendominoes with random moves and print the result."""

from __future__ import annotations

import random

import bendolib


def main() -> None:
    rules = bendolib.rules.get("basic")
    state = bendolib.new_game(rules, players=3, seed=2026)
    rng = random.Random(2026)
    moves = 0
    while not state.is_game_over:
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
        moves += 1
    print(f"{moves} moves, {len(state.results)} rounds, scores {state.scores}")
    print(f"winner: player {state.winner}")


if __name__ == "__main__":
    main()
