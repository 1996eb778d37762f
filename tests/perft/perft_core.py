"""Perft (move-tree size) and legal-move counts along fixed games, for regression vectors."""

from __future__ import annotations

import bendolib
from bendolib import GameState
from bendolib.rules.triangles import TRIANGLE_RULESETS

#: (rules, players, seed, first-listed moves applied before counting, depth)
POSITIONS = [
    ("basic", 2, 1, 1, 6),
    ("basic", 2, 2, 5, 4),
    ("basic", 3, 3, 4, 4),
    ("basic", 4, 4, 6, 4),
    ("basic", 2, 5, 12, 4),
    ("basic", 2, 6, 3, 5),
]
#: (rules, players, seed, number of moves): legal-move counts along a fixed game in
#: which move k picks index (7 * k) mod len(legal moves).
ALONG = [("basic", 2, 10, 80), ("basic", 3, 11, 80), ("basic", 4, 13, 80)]

#: The same for the triangle rule sets (tests/perft/triangles.perft, issue 15).
TRIANGLE_POSITIONS = [
    ("triangle-dominoes", 2, 1, 1, 6),
    ("triangle-dominoes", 2, 42, 2, 6),
    ("triangle-dominoes", 3, 42, 2, 5),
    ("triominoes", 2, 42, 5, 4),
    ("triominoes", 2, 31, 5, 4),
    ("triominoes", 3, 42, 5, 4),
    ("triominoes", 4, 6, 20, 4),
]
TRIANGLE_ALONG = [
    ("triangle-dominoes", 2, 20, 80),
    ("triominoes", 2, 21, 80),
    ("triominoes", 5, 22, 80),
]


def rules_named(name: str) -> bendolib.RuleSet:
    """A registered rule set, or one of the triangle rule sets (not registered yet)."""
    for rules in TRIANGLE_RULESETS:
        if rules.name == name:
            return rules
    return bendolib.rules.get(name)


def start_position(rules: str, players: int, seed: int, prefix: int) -> GameState:
    state = bendolib.new_game(rules_named(rules), players=players, seed=seed)
    for _ in range(prefix):
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    return state


def perft(state: GameState, depth: int) -> int:
    moves = bendolib.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(bendolib.apply(state, m), depth - 1) for m in moves)


def along_counts(rules: str, players: int, seed: int, moves: int) -> list[int]:
    state = bendolib.new_game(rules_named(rules), players=players, seed=seed)
    counts = []
    for k in range(moves):
        legal = bendolib.legal_moves(state)
        if not legal:
            break
        counts.append(len(legal))
        state = bendolib.apply(state, legal[(7 * k) % len(legal)])
    return counts
