"""Frozen golden games of the triangle rule sets (issue 15), like tests/test_golden.py.

``tests/golden/triangles/<rule set>.json`` holds, for each allowed player count, one
match dealt from a fixed seed and played by the SplitMix64 move chooser of
tests/test_golden.py: every move in notation, each round's result and the final scores.
Each record is also replayed from its notation alone (``parse_move`` of every move).
The triangle rule sets join tests/golden/ when they are registered (issue 15, phase 2).

An intended change of behaviour: regenerate, review the diff, commit it::

    PYTHONPATH=src python tests/test_triangle_golden.py --regenerate
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import bendolib
from bendolib._rng import SplitMix64, derive_seed
from bendolib.rules.triangles import TRIANGLE_RULESETS

GOLDEN = Path(__file__).parent / "golden" / "triangles"
SEED = 20_260_501
CHOOSER = 0x601D


def golden_game(rules: bendolib.RuleSet, players: int) -> dict[str, Any]:
    seed = SEED + players
    state = bendolib.new_game(rules, players, seed)
    chooser = SplitMix64(derive_seed(seed, CHOOSER))
    moves = []
    while not state.is_game_over:
        legal = bendolib.legal_moves(state)
        move = legal[chooser.below(len(legal))]
        moves.append(str(move))
        state = bendolib.apply(state, move)
    return {
        "players": players,
        "seed": seed,
        "moves": " ".join(moves),
        "rounds": [
            {"round": r.round_number, "points": list(r.points), "winners": list(r.winners)}
            for r in state.results
        ],
        "scores": list(state.scores),
        "winner": state.winner,
    }


def golden_file(rules: bendolib.RuleSet) -> dict[str, Any]:
    return {
        "rules": rules.name,
        "chooser": "SplitMix64(derive_seed(seed, 0x601D)).below(len(legal_moves))",
        "games": [golden_game(rules, players) for players in rules.player_counts],
    }


def path_of(rules: bendolib.RuleSet) -> Path:
    return GOLDEN / f"{rules.name}.json"


@pytest.mark.parametrize("rules", TRIANGLE_RULESETS, ids=lambda r: r.name)
def test_triangle_golden_game_is_unchanged(rules: bendolib.RuleSet) -> None:
    frozen = json.loads(path_of(rules).read_text(encoding="utf-8"))
    fresh = golden_file(rules)
    for old, new in zip(frozen["games"], fresh["games"], strict=True):
        old_moves, new_moves = old["moves"].split(), new["moves"].split()
        first = next(
            (i for i, (a, b) in enumerate(zip(old_moves, new_moves, strict=False)) if a != b),
            min(len(old_moves), len(new_moves)),
        )
        assert old_moves == new_moves, f"{rules.name}, {old['players']}p: moves differ from {first}"
        assert old == new
    assert frozen == fresh


@pytest.mark.parametrize("rules", TRIANGLE_RULESETS, ids=lambda r: r.name)
def test_triangle_golden_games_replay_from_their_notation(rules: bendolib.RuleSet) -> None:
    frozen = json.loads(path_of(rules).read_text(encoding="utf-8"))
    for game in frozen["games"]:
        state = bendolib.new_game(rules, game["players"], game["seed"])
        for text in game["moves"].split():
            state = bendolib.apply(state, bendolib.parse_move(text, state))
        assert state.is_game_over
        assert list(state.scores) == game["scores"] and state.winner == game["winner"]


def regenerate() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for rules in TRIANGLE_RULESETS:
        path_of(rules).write_text(json.dumps(golden_file(rules), indent=1) + "\n", "utf-8")
        print(f"wrote {path_of(rules)}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit("usage: python tests/test_triangle_golden.py --regenerate")
    regenerate()
