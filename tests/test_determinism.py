"""The same seed gives the identical game in every process, and whatever the executor.

A game is dealt with ``new_game(rules, players, seed)`` and its moves are chosen by a
SplitMix64 generator seeded from the same seed; the whole transcript (every move in
notation, every round's result, the final scores) is hashed.  Fresh interpreters with
different ``PYTHONHASHSEED`` values must produce the same hashes as this process (so
no set or dict ordering leaks into dealing or move order), and a tournament gives the
same result run serially, on threads or on processes.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

import bendolib
from bendolib._rng import SplitMix64, derive_seed
from bendolib.tournament import SerialExecutor, run_tournament

SEED = 987_654_321


def transcript(name: str, players: int, seed: int) -> str:
    """The full text of one randomly played match: moves, results and final scores."""
    rules = bendolib.rules.get(name)
    state = bendolib.new_game(rules, players, seed)
    chooser = SplitMix64(derive_seed(seed, 77))
    moves = []
    while not state.is_game_over:
        legal = bendolib.legal_moves(state)
        move = legal[chooser.below(len(legal))]
        moves.append(str(move))
        state = bendolib.apply(state, move)
    results = [[r.round_number, r.points, r.hand_points, r.winners] for r in state.results]
    return json.dumps({"moves": moves, "results": results, "scores": state.scores})


def digests() -> dict[str, str]:
    out = {}
    for name in bendolib.rules.names():
        for players in bendolib.rules.get(name).player_counts:
            text = transcript(name, players, SEED + players)
            out[f"{name}/{players}"] = hashlib.sha256(text.encode()).hexdigest()
    return out


SCRIPT = f"""
import json, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from test_determinism import digests
print(json.dumps(digests()))
"""


@pytest.mark.parametrize("hash_seed", ["0", "4242"])
def test_same_games_in_a_fresh_process(hash_seed: str) -> None:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, check=True, capture_output=True, text=True
    )
    assert json.loads(out.stdout) == digests()


def test_the_same_seed_replays_the_same_game_in_process() -> None:
    name = bendolib.rules.names()[0]
    assert transcript(name, 2, 5) == transcript(name, 2, 5)
    assert transcript(name, 2, 5) != transcript(name, 2, 6)


@pytest.mark.parametrize(("rules", "entrants"), [("basic", 2), ("classic-draw", 3)])
def test_tournament_result_does_not_depend_on_the_executor(rules: str, entrants: int) -> None:
    bots = ["random", "greedy", "random"][:entrants]
    serial = run_tournament(rules, bots, matches=6, seed=11, executor=SerialExecutor())
    with ThreadPoolExecutor(2) as threads:
        threaded = run_tournament(rules, bots, matches=6, seed=11, executor=threads)
    with ProcessPoolExecutor(2) as processes:
        pooled = run_tournament(rules, bots, matches=6, seed=11, executor=processes)
    assert serial == threaded == pooled
    assert len(serial.records) == 6
    other = run_tournament(rules, bots, matches=6, seed=12, executor=SerialExecutor())
    assert other != serial
