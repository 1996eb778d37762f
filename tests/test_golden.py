"""Frozen golden games: for every rule set, a seed and the exact moves and scores it gives.

``tests/golden/<rule set>.json`` holds, for each allowed player count, one match dealt
from a fixed seed and played by a SplitMix64 move chooser: every move in notation, each
round's result and the final scores; each match is also replayed from its move text
alone.  Regenerating them must give the same files, so a
change of dealing, legal-move order, rules or notation between library versions or
Python versions fails here.

A change of behaviour that is intended: regenerate, review the diff, commit it::

    PYTHONPATH=src python tests/test_golden.py --regenerate
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import bendolib
from bendolib._rng import SplitMix64, derive_seed

GOLDEN = Path(__file__).parent / "golden"
#: The deal seed of every golden game (plus the player count).
SEED = 20_260_501
#: The SplitMix64 stream label of the move chooser.
CHOOSER = 0x601D


def golden_game(name: str, players: int) -> dict[str, Any]:
    rules = bendolib.rules.get(name)
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


def golden_file(name: str) -> dict[str, Any]:
    rules = bendolib.rules.get(name)
    return {
        "rules": name,
        "chooser": "SplitMix64(derive_seed(seed, 0x601D)).below(len(legal_moves))",
        "games": [golden_game(name, players) for players in rules.player_counts],
    }


def path_of(name: str) -> Path:
    return GOLDEN / f"{name}.json"


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1) + "\n"


@pytest.mark.parametrize("name", bendolib.rules.names())
def test_golden_game_is_unchanged(name: str) -> None:
    path = path_of(name)
    if not path.exists():
        pytest.fail(f"no golden record for {name!r}: run python tests/test_golden.py --regenerate")
    frozen = json.loads(path.read_text(encoding="utf-8"))
    fresh = golden_file(name)
    for old, new in zip(frozen["games"], fresh["games"], strict=True):
        old_moves, new_moves = old["moves"].split(), new["moves"].split()
        first = next(
            (i for i, (a, b) in enumerate(zip(old_moves, new_moves, strict=False)) if a != b),
            min(len(old_moves), len(new_moves)),
        )
        assert old_moves == new_moves, (
            f"{name}, {old['players']} players: the moves differ from move {first} on"
        )
        assert old == new
    assert frozen == fresh


@pytest.mark.parametrize("name", bendolib.rules.names())
def test_golden_games_replay_from_their_notation(name: str) -> None:
    # each frozen match replayed from its move text alone (parse_move of every move)
    rules = bendolib.rules.get(name)
    frozen = json.loads(path_of(name).read_text(encoding="utf-8"))
    for game in frozen["games"]:
        state = bendolib.new_game(rules, game["players"], game["seed"])
        for text in game["moves"].split():
            state = bendolib.apply(state, bendolib.parse_move(text, state))
        assert state.is_game_over
        assert [list(r.points) for r in state.results] == [r["points"] for r in game["rounds"]]
        assert list(state.scores) == game["scores"] and state.winner == game["winner"]


def test_every_golden_file_is_a_registered_rule_set() -> None:
    stale = sorted(p.stem for p in GOLDEN.glob("*.json") if p.stem not in bendolib.rules.names())
    assert not stale, f"golden records of unregistered rule sets: {stale}"


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name in bendolib.rules.names():
        path_of(name).write_text(render(golden_file(name)), encoding="utf-8")
        print(f"wrote {path_of(name)}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit("usage: python tests/test_golden.py --regenerate")
    regenerate()
