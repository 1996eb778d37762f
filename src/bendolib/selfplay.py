"""
Self-play data for learning: every decision of many seeded matches, in columnar files.

:func:`selfplay` plays ``games`` matches between bots (game ``i`` is tournament match
``i`` of :func:`bendolib.tournament.run_tournament` with the same seed: same deal, same
seats, same bot seeds) and writes, for every decision a bot made (a move chosen among
two or more), the observation encoding, the legal-action mask, the action taken and
the match's final outcome.  The files go in a directory, one shard per
``shard_games`` games, as Parquet (needs ``pyarrow``: ``pip install
'bendolib[selfplay]'``) or as NumPy ``.npz``; a shard is written atomically once all
its games are played, so a run stopped by Ctrl-C resumes where it stopped, and every
shard depends only on the seed and its games, so the data are the same whatever runs
them.  :func:`load` reads a directory back as NumPy arrays.  Needs NumPy.

With ``batch=True`` the matches are played in the compiled kernel's batched games
(:mod:`bendolib.vector`), every decision of a chunk of games at once, when every bot
is ``random`` or ``greedy`` (played by the kernel's policies of those names): game
``i`` is then episode 0 of the batched game seeded ``derive_seed(seed, i)`` (seats
rotated as in a tournament), a different deal and stream from the bots' own.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from functools import partial
from pathlib import Path
from typing import Any, Literal

import attrs

from bendolib import bots as bot_registry
from bendolib import rules as rules_registry
from bendolib._rng import derive_seed
from bendolib._rule_spec import rules_to_spec
from bendolib.bots.baseline import GreedyBot, RandomBot
from bendolib.bots.bot import Bot
from bendolib.encoding import action_count, action_index, encode, encoding_size, layout
from bendolib.engine import apply, new_game
from bendolib.errors import BendolibError
from bendolib.moves import Move
from bendolib.observation import Observation
from bendolib.rules.ruleset import RuleSet
from bendolib.runner import SerialExecutor, process_pool, run_indexed, stop_pool
from bendolib.state import GameState, Turn
from bendolib.tournament import bot_name, match_bot_seed, match_seats, match_seed, play_match

#: Games per shard file by default.
SHARD_GAMES = 100
#: Name of the file that describes a self-play directory.
MANIFEST = "selfplay.json"
#: The manifest's format version.
VERSION = 1

#: The columns of a shard, with their NumPy types (``observation`` and ``legal`` are
#: two-dimensional: one row per decision).
COLUMNS = {
    "game": "int64",
    "round": "int32",
    "move": "int32",
    "seat": "int8",
    "entrant": "int8",
    "observation": "int32",
    "legal": "uint8",
    "action": "int32",
    "round_reward": "float32",
    "won": "int8",
    "final_score": "int32",
}

Format = Literal["parquet", "npz"]


class SelfplayError(BendolibError):
    """A self-play directory that does not fit the run asked for, or cannot be read."""


@attrs.frozen
class SelfplaySummary:
    """What :func:`selfplay` did: games and decisions written now and in all."""

    directory: str
    format: str
    games: int
    decisions: int
    games_before: int
    interrupted: bool = False


def _numpy() -> Any:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - depends on the environment
        raise SelfplayError(
            "self-play needs NumPy: pip install 'bendolib[selfplay]' (NumPy and pyarrow)"
        ) from None
    return np


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _play_games(
    rules: RuleSet, bots: tuple[Bot, ...], seed: int, indices: tuple[int, ...]
) -> list[dict[str, Any]]:
    """The decisions of each game in ``indices``, as NumPy columns."""
    return [_play_game(rules, bots, seed, index) for index in indices]


def _play_game(rules: RuleSet, bots: tuple[Bot, ...], seed: int, index: int) -> dict[str, Any]:
    """The decisions of game ``index``, as NumPy columns."""
    np = _numpy()
    players = len(bots)
    actions = action_count(rules)
    seats = match_seats(index, players)
    rows: list[tuple[int, int, int, tuple[int, ...], list[int], int]] = []

    def record(state: GameState, obs: Observation, legal: tuple[Move, ...], move: Move) -> None:
        mask = [0] * actions
        board = state.board
        for m in legal:
            mask[action_index(m, rules, board)] = 1
        turn = (state.round_number, len(state.history), state.current_player)
        rows.append((*turn, encode(obs), mask, action_index(move, rules, board)))

    deal = match_seed(seed, index, players)
    result = play_match(
        rules, [bots[e] for e in seats], deal, match_bot_seed(seed, index), on_decision=record
    )
    final = result.final
    side_of = {s: i for i, side in enumerate(final.sides) for s in side}
    rewards = _round_rewards(rules, players, deal, result.moves)
    won = [int(side_of[s] == final.match_winner) for s in range(players)]
    n = len(rows)

    def column(values: list[Any], kind: str, width: int | None = None) -> Any:
        return np.array(values, kind).reshape(n if width is None else (n, width))

    return {
        "game": np.full(n, index, np.int64),
        "round": column([r[0] for r in rows], "int32"),
        "move": column([r[1] for r in rows], "int32"),
        "seat": column([r[2] for r in rows], "int8"),
        "entrant": column([seats[r[2]] for r in rows], "int8"),
        "observation": column([r[3] for r in rows], "int32", encoding_size(rules, players)),
        "legal": column([r[4] for r in rows], "uint8", actions),
        "action": column([r[5] for r in rows], "int32"),
        "round_reward": column([rewards[r[0]][r[2]] for r in rows], "float32"),
        "won": column([won[r[2]] for r in rows], "int8"),
        "final_score": column([final.side_scores[side_of[r[2]]] for r in rows], "int32"),
    }


#: The bots the batched games play, as the kernel policies of :mod:`bendolib.vector`.
BATCH_BOTS = {RandomBot: "random", GreedyBot: "greedy"}


def _batch_policies(bots: tuple[Bot, ...]) -> tuple[int, ...] | None:
    """The kernel policy of each bot (an index into ``vector.POLICIES``), or None."""
    from bendolib.vector import POLICIES

    out = []
    for bot in bots:
        name = BATCH_BOTS.get(type(bot))
        if name is None or bot != type(bot)():
            return None
        out.append(POLICIES.index(name))
    return tuple(out)


def _play_batch(
    rules: RuleSet, policies: tuple[int, ...], seed: int, indices: tuple[int, ...]
) -> list[dict[str, Any]]:
    """The decisions of each game in ``indices``, played together in batched games."""
    np = _numpy()
    from bendolib.vector import VectorGames

    players = len(policies)
    n = len(indices)
    games = VectorGames(
        rules,
        n,
        players,
        seeds=np.array([derive_seed(seed, i) for i in indices], dtype=np.uint64),
        episode="match",
        skip_forced=True,
    )
    seats = [match_seats(i, players) for i in indices]
    codes = np.array([[policies[e] for e in row] for row in seats], dtype=np.int8)
    round_at = next(f.offset for f in layout(rules, players) if f.name == "round_number")
    sides = rules.match.sides(players)
    side_of = {s: i for i, side in enumerate(sides) for s in side}
    active = np.ones(n, dtype=np.bool_)
    steps: list[tuple[Any, ...]] = []
    rewards: dict[tuple[int, int], Any] = {}
    won = np.zeros((n, players), dtype=np.int8)
    final = np.zeros((n, players), dtype=np.int32)
    while active.any():
        actions = games.core_actions(codes)
        index = np.flatnonzero(active)
        rounds = games.obs[index, round_at].copy()
        steps.append(
            (
                index,
                rounds,
                games.round_moves[index].copy(),
                games.seat[index].copy(),
                games.obs[index].copy(),
                games.action_mask[index].astype(np.uint8),
                actions[index].astype(np.int32),
            )
        )
        games.step(actions)
        over = games.terminated[index]
        ended = over | (games.obs[index, round_at] != rounds)
        for g, number in zip(index[ended], rounds[ended], strict=True):
            rewards[int(g), int(number)] = games.rewards[g].astype(np.float32)
        for g in index[over]:
            scores = games.final_scores[g]
            for s in range(players):
                side = side_of[s]
                final[g, s] = sum(int(scores[t]) for t in sides[side])
                won[g, s] = int(side == games.match_winner[g])
        active[index[over]] = False
    game = np.concatenate([step[0] for step in steps])
    order = np.argsort(game, kind="stable")
    game = game[order]
    columns = [np.concatenate([step[k] for step in steps])[order] for k in range(1, 7)]
    number, move, seat, observation, legal, action = columns
    where = seat.astype(np.int64)
    # each row's round reward, looked up by (game, round)
    span = int(number.max()) + 1 if len(number) else 1
    keys = np.array(sorted(g * span + r for g, r in rewards), dtype=np.int64)
    table = np.stack([rewards[int(k) // span, int(k) % span] for k in keys]) if len(keys) else None
    round_reward = np.zeros(len(game), dtype=np.float32)
    if table is not None:
        found = np.searchsorted(keys, game * span + number)
        round_reward = table[found, where]
    entrant = np.array(seats, dtype=np.int8)[game, where]
    bounds = np.searchsorted(game, np.arange(n + 1))
    out = []
    for g, index_ in enumerate(indices):
        part = slice(bounds[g], bounds[g + 1])
        out.append(
            {
                "game": np.full(bounds[g + 1] - bounds[g], index_, np.int64),
                "round": number[part].astype(np.int32),
                "move": move[part].astype(np.int32),
                "seat": seat[part].astype(np.int8),
                "entrant": entrant[part],
                "observation": observation[part],
                "legal": legal[part],
                "action": action[part],
                "round_reward": round_reward[part],
                "won": won[g, where[part]],
                "final_score": final[g, where[part]],
            }
        )
    return out


def _round_rewards(
    rules: RuleSet, players: int, seed: int, moves: Sequence[Turn]
) -> dict[int, list[float]]:
    """
    Per round, each seat's side gain in the round (play and round-end points) minus
    the mean over the seats: the reward of the OpenSpiel and PettingZoo adapters.
    """
    state = new_game(rules, players, seed)
    start = {state.round_number: state.side_scores}
    out = {}
    for turn in moves:
        state = apply(state, turn.move)
        number = state.round_number
        if state.is_round_over:
            side_of = {s: i for i, side in enumerate(state.sides) for s in side}
            gains = [b - a for a, b in zip(start[number], state.side_scores, strict=True)]
            per_seat = [float(gains[side_of[s]]) for s in range(players)]
            mean = sum(per_seat) / players
            out[number] = [g - mean for g in per_seat]
        elif number not in start:
            start[number] = state.side_scores
    return out


def _shard_name(start: int, end: int, fmt: str) -> str:
    return f"games-{start:08d}-{end - 1:08d}.{fmt}"


def _manifest(
    rules: RuleSet, bots: tuple[Bot, ...], seed: int, shard_games: int, fmt: str, batch: bool
) -> dict[str, Any]:
    players = len(bots)
    engine = {"engine": "batch"} if batch else {}
    return {
        **engine,
        "format": "bendolib-selfplay",
        "version": VERSION,
        "rules": rules_to_spec(rules),
        "players": players,
        "bots": [bot_name(b) for b in bots],
        "bot_reprs": [repr(b) for b in bots],
        "seed": seed,
        "shard_games": shard_games,
        "file_format": fmt,
        "observation_size": encoding_size(rules, players),
        "action_count": action_count(rules),
        "layout": [[f.name, f.offset, f.length] for f in layout(rules, players)],
        "columns": COLUMNS,
    }


def _write_shard(path: Path, data: dict[str, Any], fmt: str) -> None:
    """Write one shard atomically (a temporary file renamed into place)."""
    temporary = path.with_name(path.name + ".partial")
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        columns = {}
        for name, column in data.items():
            if column.ndim == 2:
                flat = pa.array(column.reshape(-1))
                columns[name] = pa.FixedSizeListArray.from_arrays(flat, column.shape[1])
            else:
                columns[name] = pa.array(column)
        pq.write_table(pa.table(columns), temporary, compression="zstd")
    else:
        np = _numpy()
        with open(temporary, "wb") as handle:
            np.savez_compressed(handle, **data)
    os.replace(temporary, path)


def _read_shard(path: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    np = _numpy()
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(path)
        out = {}
        for name, kind in COLUMNS.items():
            column = table.column(name).combine_chunks()
            if name in ("observation", "legal"):
                width = manifest["observation_size" if name == "observation" else "action_count"]
                out[name] = column.flatten().to_numpy().astype(kind).reshape(-1, width)
            else:
                out[name] = column.to_numpy().astype(kind)
        return out
    with np.load(path) as stored:
        return {name: stored[name] for name in COLUMNS}


def _concatenate(parts: Sequence[dict[str, Any]], manifest: dict[str, Any]) -> dict[str, Any]:
    np = _numpy()
    out = {}
    for name, kind in COLUMNS.items():
        if parts:
            out[name] = np.concatenate([p[name] for p in parts])
        elif name in ("observation", "legal"):
            width = manifest["observation_size" if name == "observation" else "action_count"]
            out[name] = np.zeros((0, width), kind)
        else:
            out[name] = np.zeros(0, kind)
    return out


def _read_manifest(directory: Path) -> dict[str, Any] | None:
    path = directory / MANIFEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SelfplayError(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != "bendolib-selfplay":
        raise SelfplayError(f"{path} is not a bendolib self-play manifest")
    return data


class SelfplayInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`selfplay`; ``summary`` says what was written."""

    def __init__(self, summary: SelfplaySummary) -> None:
        super().__init__(f"interrupted after {summary.games} games")
        self.summary = summary


def selfplay(
    rules: RuleSet | str,
    bots: Sequence[Bot | str],
    games: int,
    directory: str | os.PathLike[str],
    seed: int = 0,
    *,
    shard_games: int = SHARD_GAMES,
    file_format: Format | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    batch: bool = False,
) -> SelfplaySummary:
    """
    Play ``games`` matches between ``bots`` (one per seat, seats rotated as in a
    tournament) and write every decision to shard files in ``directory``.

    ``file_format`` is ``"parquet"`` (the default when pyarrow is installed) or
    ``"npz"``.  A directory that already holds shards of the same run (same rules, bots,
    seed, shard size and format, recorded in its ``selfplay.json``) is resumed: its
    shards are kept and only the missing ones are played.  ``executor`` and
    ``progress(games_done, games)`` work as in :func:`~bendolib.tournament.run_tournament`;
    Ctrl-C raises :class:`SelfplayInterrupted` once the finished shards are written.
    ``batch=True`` plays the games in the kernel's batched games (see the module's
    docstring; every bot ``random`` or ``greedy``, a chain rule set the kernel plays),
    one batch per shard in the calling process (``executor`` is not used).
    """
    _numpy()
    ruleset = rules_registry.get(rules) if isinstance(rules, str) else rules
    entrants = tuple(bot_registry.get(b) if isinstance(b, str) else b for b in bots)
    if len(entrants) not in ruleset.player_counts:
        raise SelfplayError(
            f"{ruleset.name} is for {ruleset.player_counts} players, not {len(entrants)} bots"
        )
    if games < 0 or shard_games < 1:
        raise SelfplayError(f"games must be >= 0 and shard_games >= 1: {games}, {shard_games}")
    fmt: str = file_format or ("parquet" if _has_pyarrow() else "npz")
    if fmt not in ("parquet", "npz"):
        raise SelfplayError(f"file_format is 'parquet' or 'npz', not {fmt!r}")
    if fmt == "parquet" and not _has_pyarrow():
        raise SelfplayError("Parquet files need pyarrow: pip install 'bendolib[selfplay]'")
    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    policies = None
    if batch:
        from bendolib.vector import unsupported_reason

        policies = _batch_policies(entrants)
        if policies is None:
            raise SelfplayError("batched self-play plays the bots random and greedy only")
        reason = unsupported_reason(ruleset, len(entrants))
        if reason is not None:
            raise SelfplayError(f"batched self-play cannot play {ruleset.name}: {reason}")
    manifest = _manifest(ruleset, entrants, seed, shard_games, fmt, batch)
    found = _read_manifest(path)
    if found is not None:
        differ = sorted(k for k in manifest if found.get(k) != manifest[k])
        if differ:
            raise SelfplayError(
                f"{path} holds another self-play run (it differs in {', '.join(differ)}): "
                "use another directory"
            )
    (path / MANIFEST).write_text(json.dumps({**manifest, "games": games}, indent=1) + "\n")

    shards = [(s, min(s + shard_games, games)) for s in range(0, games, shard_games)]
    todo = [s for s in shards if not (path / _shard_name(*s, fmt)).exists()]
    before = games - sum(end - start for start, end in todo)
    written = {"games": 0, "decisions": 0}
    pending: dict[int, dict[int, dict[str, Any]]] = {}

    def on_done(chunk: tuple[int, ...], results: list[dict[str, Any]]) -> None:
        for index, columns in zip(chunk, results, strict=True):
            start = index - index % shard_games
            end = min(start + shard_games, games)
            shard = pending.setdefault(start, {})
            shard[index] = columns
            if len(shard) == end - start:
                data = _concatenate([shard[i] for i in range(start, end)], manifest)
                _write_shard(path / _shard_name(start, end, fmt), data, fmt)
                written["games"] += end - start
                written["decisions"] += len(data["action"])
                del pending[start]

    def summary(interrupted: bool) -> SelfplaySummary:
        return SelfplaySummary(
            str(path), fmt, written["games"], written["decisions"], before, interrupted
        )

    report = None if progress is None else (lambda done, _: progress(before + done, games))
    if policies is not None:
        # one batch per shard, in this process (the batch is the speed-up)
        done = 0
        try:
            for start, end in todo:
                chunk = tuple(range(start, end))
                on_done(chunk, _play_batch(ruleset, policies, seed, chunk))
                done += len(chunk)
                if report is not None:
                    report(done, len(todo))
        except KeyboardInterrupt:
            raise SelfplayInterrupted(summary(True)) from None
        return summary(False)
    own = executor is None
    pool: Executor = SerialExecutor()
    task = partial(_play_games, ruleset, entrants, seed)
    indices = [i for start, end in todo for i in range(start, end)]
    try:
        pool = process_pool() if executor is None else executor
        run_indexed(task, indices, pool, on_done, report)
    except KeyboardInterrupt:
        if own:
            stop_pool(pool)
        raise SelfplayInterrupted(summary(True)) from None
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    return summary(False)


def load(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """
    The shards of a self-play directory's last run (a run stopped early has some
    missing), concatenated in game order: a dict of NumPy arrays named as
    :data:`COLUMNS` (one row per decision).
    """
    path = Path(directory)
    manifest = _read_manifest(path)
    if manifest is None:
        raise SelfplayError(f"{path} has no {MANIFEST}: not a self-play directory")
    games, size, fmt = manifest["games"], manifest["shard_games"], manifest["file_format"]
    names = [_shard_name(s, min(s + size, games), fmt) for s in range(0, games, size)]
    files = [path / name for name in names if (path / name).exists()]
    return _concatenate([_read_shard(p, manifest) for p in files], manifest)


__all__ = [
    "COLUMNS",
    "MANIFEST",
    "SHARD_GAMES",
    "SelfplayError",
    "SelfplayInterrupted",
    "SelfplaySummary",
    "load",
    "selfplay",
]
