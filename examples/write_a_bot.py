"""Write a bot in about 30 lines and run it in a tournament against the built-in bots."""

from __future__ import annotations

import random
from collections.abc import Sequence

import bendolib
from bendolib import bots
from bendolib.moves import DRAW, Move, Place
from bendolib.observation import Observation
from bendolib.tournament import SerialExecutor, run_tournament


class DoublesFirstBot:
    """Gets rid of doubles first (they fit only one number), then the heaviest tile."""

    name = "doubles-first"

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        places = [m for m in legal_moves if isinstance(m, Place)]
        if not places:  # nothing fits: draw if we may, else pass
            return DRAW if DRAW in legal_moves else legal_moves[0]
        lacking = observation.deductions.cannot_hold((observation.player + 1) % observation.players)

        def score(move: Place) -> tuple[bool, int, int]:
            # prefer doubles, then heavy tiles, then showing a number the next player lacks
            shown = sum(
                1 for t in observation.rules.tileset.tiles_of(lacking) if move.shows in (t.a, t.b)
            )
            return move.tile.is_double, move.tile.points, shown

        return max(places, key=score)


def main() -> None:
    rules = bendolib.rules.get("basic", target=50)
    for opponent in ("random", "greedy"):
        # A bot defined in a script runs in this process; registered bots can also go to
        # worker processes (the default executor) or a cluster's executor.
        result = run_tournament(
            rules, [DoublesFirstBot(), bots.get(opponent)], 20, seed=1, executor=SerialExecutor()
        )
        print(result.table(), end="\n\n")


if __name__ == "__main__":
    main()
