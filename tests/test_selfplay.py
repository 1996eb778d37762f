"""Self-play data (issue 16, point 4): every decision, columnar, resumable, deterministic."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

np: Any = pytest.importorskip("numpy", reason="self-play needs numpy")

import bendolib  # noqa: E402
from bendolib import rules, selfplay  # noqa: E402
from bendolib.encoding import action_index, action_mask, encode, move_of  # noqa: E402
from bendolib.moves import Move  # noqa: E402
from bendolib.observation import Observation  # noqa: E402
from bendolib.rules.triangles import TRIANGLE_DOMINOES  # noqa: E402
from bendolib.runner import SerialExecutor  # noqa: E402
from bendolib.tournament import run_tournament  # noqa: E402

SHORT = rules.get("basic", target=30)


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(np.array_equal(a[k], b[k]) for k in selfplay.COLUMNS)


@pytest.mark.parametrize("ruleset", [SHORT, TRIANGLE_DOMINOES], ids=lambda r: r.name)
def test_every_decision_is_written_with_its_encoding_mask_action_and_outcome(
    tmp_path: Path, ruleset: bendolib.RuleSet
) -> None:
    summary = selfplay.selfplay(
        ruleset,
        ["greedy", "random"],
        3,
        tmp_path,
        seed=9,
        file_format="npz",
        executor=SerialExecutor(),
    )
    data = selfplay.load(tmp_path)
    assert summary.games == 3 and summary.decisions == len(data["action"]) > 0
    tournament = run_tournament(
        ruleset, ["greedy", "random"], 3, seed=9, executor=SerialExecutor(), keep_moves=True
    )
    row = 0
    for match in tournament.records:
        state = bendolib.new_game(ruleset, 2, match.seed)
        final_sides = {s: i for i, side in enumerate(state.sides) for s in side}
        for text in match.move_text.split():
            legal = bendolib.legal_moves(state)
            move = bendolib.parse_move(text, state)
            if len(legal) > 1:  # a decision: one row
                seat = state.current_player
                assert data["game"][row] == match.index and data["seat"][row] == seat
                assert data["entrant"][row] == match.seats[seat]
                assert data["round"][row] == state.round_number
                assert data["move"][row] == len(state.history)
                assert tuple(data["observation"][row]) == encode(state.observation(seat))
                board = state.board  # a placement in a cell is numbered on its board
                assert tuple(data["legal"][row]) == action_mask(legal, ruleset, board)
                assert move_of(int(data["action"][row]), legal, ruleset, board) == move
                assert data["action"][row] == action_index(move, ruleset, board)
                assert data["won"][row] == int(seat in match.winners)
                assert data["final_score"][row] == match.side_scores[seat]
                row += 1
            state = bendolib.apply(state, move)
        del final_sides
    assert row == len(data["action"])


def test_round_rewards_are_zero_sum_point_differences(tmp_path: Path) -> None:
    selfplay.selfplay(
        SHORT,
        ["greedy", "greedy"],
        2,
        tmp_path,
        seed=1,
        file_format="npz",
        executor=SerialExecutor(),
    )
    data = selfplay.load(tmp_path)
    for game in (0, 1):
        for number in set(data["round"][data["game"] == game].tolist()):
            rows = (data["game"] == game) & (data["round"] == number)
            by_seat = {
                int(s): float(r)
                for s, r in zip(data["seat"][rows], data["round_reward"][rows], strict=True)
            }
            if len(by_seat) == 2:
                assert sum(by_seat.values()) == pytest.approx(0.0)


def test_the_data_are_the_same_whatever_runs_them(tmp_path: Path) -> None:
    args = (SHORT, ["greedy", "random"], 5)
    selfplay.selfplay(
        *args,
        tmp_path / "serial",
        seed=4,
        shard_games=2,
        file_format="npz",
        executor=SerialExecutor(),
    )
    with ThreadPoolExecutor(max_workers=3) as threads:
        selfplay.selfplay(
            *args, tmp_path / "threads", seed=4, shard_games=3, file_format="npz", executor=threads
        )
    assert _same(selfplay.load(tmp_path / "serial"), selfplay.load(tmp_path / "threads"))
    selfplay.selfplay(
        *args, tmp_path / "other", seed=5, file_format="npz", executor=SerialExecutor()
    )
    assert not _same(selfplay.load(tmp_path / "serial"), selfplay.load(tmp_path / "other"))


def test_parquet_files_hold_the_same_columns(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="Parquet needs the selfplay extra")
    args = (SHORT, ["greedy", "random"], 3)
    selfplay.selfplay(
        *args, tmp_path / "p", seed=2, file_format="parquet", executor=SerialExecutor()
    )
    selfplay.selfplay(*args, tmp_path / "n", seed=2, file_format="npz", executor=SerialExecutor())
    assert sorted(p.suffix for p in (tmp_path / "p").glob("games-*")) == [".parquet"]
    parquet, npz = selfplay.load(tmp_path / "p"), selfplay.load(tmp_path / "n")
    assert _same(parquet, npz)
    # move_text is a NumPy string array (dtype "<U...", whatever its longest text)
    kinds = {k: "str" if v.dtype.kind == "U" else v.dtype.name for k, v in parquet.items()}
    assert kinds == selfplay.COLUMNS


class StopAfter:
    """Greedy, but presses Ctrl-C at its ``limit``-th decision (counted per object)."""

    name = "greedy"

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.calls = 0
        self.greedy = bendolib.bots.GreedyBot()

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        self.calls += 1
        if self.calls == self.limit:
            raise KeyboardInterrupt
        return self.greedy.choose(observation, legal_moves, rng)

    def __repr__(self) -> str:
        return "GreedyBot(name='greedy')"


def test_an_interrupted_run_resumes_to_the_same_data(tmp_path: Path) -> None:
    args = (SHORT, 6, tmp_path / "stopped")
    counter = StopAfter(-1)
    selfplay.selfplay(
        SHORT,
        ["greedy", counter],
        6,
        tmp_path / "count",
        seed=3,
        file_format="npz",
        executor=SerialExecutor(),
    )
    with pytest.raises(selfplay.SelfplayInterrupted) as caught:  # Ctrl-C in a late game
        selfplay.selfplay(
            SHORT,
            ["greedy", StopAfter(counter.calls * 3 // 4)],
            *args[1:],
            seed=3,
            shard_games=2,
            file_format="npz",
            executor=SerialExecutor(),
        )
    stopped = caught.value.summary
    assert stopped.interrupted and stopped.games in (2, 4)
    summary = selfplay.selfplay(
        SHORT,
        ["greedy", "greedy"],
        *args[1:],
        seed=3,
        shard_games=2,
        file_format="npz",
        executor=SerialExecutor(),
    )
    assert summary.games_before == stopped.games and summary.games == 6 - stopped.games
    selfplay.selfplay(
        SHORT,
        ["greedy", "greedy"],
        6,
        tmp_path / "whole",
        seed=3,
        shard_games=2,
        file_format="npz",
        executor=SerialExecutor(),
    )
    assert _same(selfplay.load(tmp_path / "stopped"), selfplay.load(tmp_path / "whole"))


def test_a_directory_of_another_run_is_refused(tmp_path: Path) -> None:
    selfplay.selfplay(
        SHORT,
        ["greedy", "greedy"],
        1,
        tmp_path,
        seed=1,
        file_format="npz",
        executor=SerialExecutor(),
    )
    manifest = json.loads((tmp_path / selfplay.MANIFEST).read_text())
    assert manifest["bots"] == ["greedy", "greedy"] and manifest["observation_size"] == 139
    with pytest.raises(selfplay.SelfplayError, match="differs in seed"):
        selfplay.selfplay(
            SHORT,
            ["greedy", "greedy"],
            1,
            tmp_path,
            seed=2,
            file_format="npz",
            executor=SerialExecutor(),
        )
    with pytest.raises(selfplay.SelfplayError, match="not a self-play directory"):
        selfplay.load(tmp_path / "nothing")


def test_progress_counts_games(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    selfplay.selfplay(
        SHORT,
        ["random", "random"],
        4,
        tmp_path,
        seed=1,
        file_format="npz",
        executor=SerialExecutor(),
        progress=lambda d, t: seen.append((d, t)),
    )
    assert seen[-1] == (4, 4) and all(t == 4 for _, t in seen)
