"""
Draw the boards shown in docs/rendering.md (and docs/triangles.md, the rule pages of
the triangle games) with ``bendolib.render_svg``.

Each picture is a position from a seeded random game, so running this again draws the
same boards:

    python examples/render_board.py [OUTPUT_DIR]   # default: docs/images
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

import bendolib
from bendolib.render_svg import to_svg
from bendolib.state import GameState

OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent.parent / "docs" / "images"


def first_position(
    rules: str, players: int, wanted: Callable[[GameState], bool], seeds: range = range(200)
) -> GameState:
    """The first state of seeded random games (seed by seed) that passes ``wanted``."""
    for seed in seeds:
        state = bendolib.new_game(bendolib.rules.get(rules), players, seed)
        rng = random.Random(seed)
        while not state.is_round_over:
            if wanted(state):
                return state
            state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    raise SystemExit(f"no {rules} position found")


def blocked(state: GameState) -> set[str]:
    return {s.blocked.value for s in bendolib.classify_ends(state) if s.blocked is not None}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    pictures = {
        # a Bendominoes chain in the middle of a round, both ends open
        "board-basic.svg": (
            first_position("basic", 2, lambda s: len(s.board.placements) >= 14 and not blocked(s)),
            False,
        ),
        # an end trapped in a dead end (the seeds' reason C)
        "board-dead-end.svg": (
            first_position(
                "basic", 3, lambda s: "C" in blocked(s) and len(s.board.placements) >= 9
            ),
            False,
        ),
        # All Five: two tiles back to back in the centre cell, four ends
        "board-all-five.svg": (
            first_position("all-five", 2, lambda s: len(s.board.placements) >= 8),
            True,
        ),
        # a classic game: straight tiles in a line, doubles crosswise
        "board-classic.svg": (
            first_position(
                "classic-draw",
                2,
                lambda s: (
                    len(s.board.placements) >= 9
                    and sum(p.tile.is_double for p in s.board.placements) >= 2
                ),
            ),
            False,
        ),
        # Triangle Dominoes (seed 004) in the middle of a round: triangles in their
        # cells, a number at each corner, every open edge marked
        "board-triangle-dominoes.svg": (
            first_position("triangle-dominoes", 2, lambda s: len(s.board.placements) >= 9),
            True,
        ),
        # Triominoes in the middle of a round, with a blocked edge among the open ones
        "board-triominoes.svg": (
            first_position(
                "triominoes", 2, lambda s: len(s.board.placements) >= 12 and bool(blocked(s))
            ),
            True,
        ),
    }
    for name, (state, numbers) in pictures.items():
        path = OUT / name
        path.write_text(to_svg(state, numbers=numbers), encoding="utf-8")
        ends = ", ".join(
            f"{s.label}{'' if s.blocked is None else ' ' + s.blocked.value}"
            for s in bendolib.classify_ends(state)
        )
        print(f"{name}: {state.rules.name}, {len(state.board.placements)} tiles, ends {ends}")


if __name__ == "__main__":
    main()
