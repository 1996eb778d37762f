"""Matches and tournaments (issue 5): seeded, seat-rotated, the same on every executor."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

import bendolib
from bendolib import rules
from bendolib.bots import GreedyBot, RandomBot
from bendolib.moves import Move
from bendolib.observation import Observation
from bendolib.tournament import (
    SerialExecutor,
    match_seats,
    mean_interval,
    play_match,
    run_tournament,
    wilson,
)

SHORT = rules.get("basic", target=40)


class FirstMoveBot:
    """A user-defined bot (not registered): always the first legal move."""

    name = "first"

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        return legal_moves[0]


def test_a_match_is_a_pure_function_of_its_seed() -> None:
    first = play_match(SHORT, ["greedy", "random"], seed=3)
    again = play_match(SHORT, [GreedyBot(), RandomBot()], seed=3)
    assert first == again
    other = play_match(SHORT, ["greedy", "random"], seed=4)
    assert other.moves != first.moves


def test_a_match_result_replays_from_its_moves() -> None:
    result = play_match(SHORT, ["random", FirstMoveBot(), "greedy"], seed=8)
    state = bendolib.new_game(SHORT, 3, 8)
    for turn in result.moves:
        assert turn.player == state.current_player
        state = bendolib.apply(state, turn.move)
    assert state == result.final
    assert state.is_game_over and result.winner == state.winner
    assert result.scores == state.scores and result.bots == ("random", "first", "greedy")
    assert max(result.side_scores) >= SHORT.match.target
    assert result.winners == state.winning_players


def test_seats_rotate_so_every_entrant_sits_everywhere() -> None:
    assert [match_seats(i, 3) for i in range(3)] == [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    result = run_tournament(
        SHORT, ["greedy", "random", "random"], 6, seed=1, executor=SerialExecutor()
    )
    assert [r.seats for r in result.records[:3]] == [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    assert len({r.seed for r in result.records[:3]}) == 1
    assert result.records[0].seed != result.records[3].seed


def test_the_results_are_the_same_on_every_executor() -> None:
    def run(executor: object) -> dict[str, object]:
        return run_tournament(
            SHORT,
            ["greedy", "random"],
            6,
            seed=7,
            executor=executor,  # type: ignore[arg-type]
        ).to_dict()

    reference = run(SerialExecutor())
    with ThreadPoolExecutor(max_workers=3) as threads:
        assert run(threads) == reference
    with ProcessPoolExecutor(max_workers=2) as processes:
        assert run(processes) == reference
    assert run(None) == reference


def test_standings_count_wins_and_points() -> None:
    seen: list[tuple[int, int]] = []
    result = run_tournament(
        SHORT,
        ["greedy", "random"],
        8,
        seed=2,
        executor=SerialExecutor(),
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen[-1] == (8, 8)
    greedy, rnd = result.standings
    assert greedy.wins + rnd.wins == 8 and greedy.matches == 8
    wins = sum(1 for r in result.records if r.seats[r.winners[0]] == 0)
    assert greedy.wins == wins
    points = [r.side_scores[r.seats.index(0)] for r in result.records]
    assert greedy.mean_points.value == pytest.approx(sum(points) / 8)
    assert greedy.win_rate.low <= greedy.win_rate.value <= greedy.win_rate.high
    table = result.table()
    assert "greedy" in table and "95% CI" in table
    data = json.loads(json.dumps(result.to_dict()))
    assert data["standings"][0]["wins"] == greedy.wins and len(data["records"]) == 8


def test_interval_formulas() -> None:
    w = wilson(8, 10)
    assert w.value == 0.8
    assert w.low == pytest.approx(0.4902, abs=1e-4) and w.high == pytest.approx(0.9433, abs=1e-4)
    m = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert m.value == 2.5 and m.high - m.value == pytest.approx(1.96 * 1.2910 / 2, abs=1e-3)


def test_a_wrong_number_of_bots_is_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        run_tournament("no-draw-teams", ["greedy", "random"], 2, executor=SerialExecutor())
