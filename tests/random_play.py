"""States reached by random legal play from a seeded deal, shared by the test modules."""

from __future__ import annotations

import random
from typing import Literal

import bendolib
from bendolib import GameState, RuleSet


def random_play(
    rules: str | RuleSet,
    seed: int,
    moves: int,
    players: int | None = None,
    *,
    stop: Literal["game", "round"] = "game",
) -> GameState:
    """
    The state after ``moves`` uniformly random legal moves from ``new_game(rules, players,
    seed)`` (moves drawn from ``random.Random(seed)``), stopping early at the end of the
    match (or of the round).  ``players`` defaults to one of the allowed counts, by seed.
    """
    ruleset = bendolib.rules.get(rules) if isinstance(rules, str) else rules
    count = players or ruleset.player_counts[seed % len(ruleset.player_counts)]
    state = bendolib.new_game(ruleset, count, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_game_over or (stop == "round" and state.is_round_over):
            break
        legal = bendolib.legal_moves(state)
        state = bendolib.apply(state, legal[rng.randrange(len(legal))])
    return state
