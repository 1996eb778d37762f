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

Each row also holds the move's text (``move_text``: ``str(move)``).  The Parquet shards
of a directory read as one dataset (``pyarrow.parquet.read_table(directory)``): they share
one schema, whose metadata (:data:`SCHEMA_KEY`, see :func:`schema_metadata`) holds the
observation's layout, and the manifest's and temporary files' names start with ``_`` and
``.``, which pyarrow skips.  There ``observation`` and ``legal`` are fixed-size binary
columns, packed (the 0/1 values 8 to a byte, the others as little-endian int32: see
:func:`schema_metadata`); :func:`decode` turns a table read from them back into the exact
``encoding.encode`` and ``encoding.action_mask`` arrays.

The manifest (``_selfplay.json``) records each shard written: its games, rows, size and
SHA-256 (rewritten at most every :data:`MANIFEST_SECONDS` during a run, and at its end,
Ctrl-C included).  A shard is trusted (kept on resume, read by :func:`load`) only when it matches
its entry; one that does not is played again on resume and refused by :func:`load`.  A
run has at most :data:`MAX_GAMES` games and :data:`MAX_SHARDS` shards, and a manifest is
at most :data:`MAX_MANIFEST_BYTES` long, so reading one costs little whatever it says.

With ``batch=True`` the matches are played in the compiled kernel's batched games
(:mod:`bendolib.vector`), every decision of up to :data:`BATCH_GAMES` games (whole
shards) at once, when every bot
is ``random`` or ``greedy`` (played by the kernel's policies of those names): game
``i`` is then episode 0 of the batched game seeded ``derive_seed(seed, i)`` (seats
rotated as in a tournament), a different deal and stream from the bots' own.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import os
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, Literal

import attrs

from bendolib import bots as bot_registry
from bendolib import rules as rules_registry
from bendolib._files import write_atomically
from bendolib._rng import derive_seed
from bendolib._rule_spec import rules_to_spec
from bendolib.bots.baseline import GreedyBot, RandomBot
from bendolib.bots.bot import Bot
from bendolib.encoding import _dimensions as encoding_dimensions
from bendolib.encoding import action_count, action_index, encode, encoding_size, layout
from bendolib.engine import apply, new_game
from bendolib.errors import BendolibError
from bendolib.limits import MAX_DEPTH, nests_within, shown
from bendolib.moves import DRAW, NEXT_ROUND, PASS, Move, Place
from bendolib.observation import Observation
from bendolib.playouts import MAX_MOVES
from bendolib.rules.ruleset import RuleSet
from bendolib.runner import SerialExecutor, process_pool, run_indexed, stop_pool
from bendolib.state import GameState, Turn
from bendolib.tiles import LEFT, RIGHT, STRAIGHT
from bendolib.tournament import (
    MatchTooLongError,
    bot_name,
    check_max_moves,
    match_bot_seed,
    match_seats,
    match_seed,
    play_match,
)

#: Games per shard file by default.
SHARD_GAMES = 100
#: Name of the file that describes a self-play directory.  It starts with ``_`` so that
#: Parquet readers skip it (``pyarrow.dataset`` ignores names starting with ``_`` or
#: ``.``, as it does the temporary ``.partial`` files): the directory reads as one dataset.
MANIFEST = "_selfplay.json"
#: The manifest's name before version 3 (read when there is no :data:`MANIFEST`).
OLD_MANIFEST = "selfplay.json"
#: The manifest's format version (2: the manifest lists each shard with its checksum;
#: 3: the shards have the ``move_text`` column and the Parquet schema metadata, and the
#: manifest is :data:`MANIFEST`; 4: a Parquet shard's ``observation`` and ``legal`` are
#: packed fixed-size binary columns, not lists).  A directory of an older version is read
#: as it is (``move_text`` empty before version 3) and resumed by playing its shards again.
VERSION = 4
#: The observation fields that hold only 0 and 1, the layout's first ones: a Parquet
#: shard packs them 8 values to a byte.
BIT_FIELDS = ("hand", "drawn", "board", "possible")
#: The key of the Parquet schema metadata that describes a shard (a JSON object).
SCHEMA_KEY = "bendolib.selfplay"
#: The most games in one run.
MAX_GAMES = 100_000_000
#: The most shards in one run (``games / shard_games``, rounded up): the manifest lists
#: each one, and a resume checks each one.
MAX_SHARDS = 10_000
#: The longest manifest read (bytes): 10,000 shard entries take about 1.5 MB.
MAX_MANIFEST_BYTES = 4 * 1024 * 1024
#: During a run the manifest is rewritten when a shard is written at most once in this
#: many seconds, and at the end of the run (done, Ctrl-C or an error): a process killed
#: outright leaves the shards of its last second unlisted (played again on resume).
MANIFEST_SECONDS = 1.0
#: A shard's file name: its first and last game.
SHARD_NAME = re.compile(r"games-(\d{8,9})-(\d{8,9})\.(parquet|npz)")

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
    "move_text": "str",
}
#: What each column holds (also in the Parquet schema metadata).
COLUMN_DOCS = {
    "game": "the match's index in the run",
    "round": "the round being played, from 1",
    "move": "moves already played in the round (len(state.history))",
    "seat": "the seat to move",
    "entrant": "the index of the seat's bot in the run's bots",
    "observation": "encoding.encode of the seat's observation (see layout)",
    "legal": "encoding.action_mask of the legal moves",
    "action": "the action number of the move chosen (encoding.action_index)",
    "round_reward": "the seat's side gain in the round minus the mean over the seats",
    "won": "1 if the seat's side won the match",
    "final_score": "the seat's side's final match score",
    "move_text": "the move chosen in bendolib's move notation (str(move))",
}

Format = Literal["parquet", "npz"]


class SelfplayError(BendolibError):
    """A self-play directory that does not fit the run asked for, or cannot be read."""


@attrs.frozen
class SelfplaySummary:
    """
    What :func:`selfplay` did: games and decisions written now and in all;
    ``rejected`` names the shard files found that did not match the manifest (played
    again).
    """

    directory: str
    format: str
    games: int
    decisions: int
    games_before: int
    interrupted: bool = False
    rejected: tuple[str, ...] = ()


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
    rules: RuleSet, bots: tuple[Bot, ...], seed: int, max_moves: int, indices: tuple[int, ...]
) -> list[dict[str, Any]]:
    """The decisions of each game in ``indices``, as NumPy columns."""
    return [_play_game(rules, bots, seed, index, max_moves) for index in indices]


def _play_game(
    rules: RuleSet, bots: tuple[Bot, ...], seed: int, index: int, max_moves: int = MAX_MOVES
) -> dict[str, Any]:
    """
    The decisions of game ``index``, as NumPy columns (:class:`MatchTooLongError` names
    the game when it is still going after ``max_moves`` moves).
    """
    np = _numpy()
    players = len(bots)
    actions = action_count(rules)
    seats = match_seats(index, players)
    rows: list[tuple[int, int, int, tuple[int, ...], list[int], int, str]] = []

    def record(state: GameState, obs: Observation, legal: tuple[Move, ...], move: Move) -> None:
        mask = [0] * actions
        board = state.board
        for m in legal:
            mask[action_index(m, rules, board)] = 1
        turn = (state.round_number, len(state.history), state.current_player)
        rows.append((*turn, encode(obs), mask, action_index(move, rules, board), str(move)))

    deal = match_seed(seed, index, players)
    try:
        result = play_match(
            rules,
            [bots[e] for e in seats],
            deal,
            match_bot_seed(seed, index),
            on_decision=record,
            max_moves=max_moves,
        )
    except MatchTooLongError as exc:
        raise exc.in_match(index) from None
    final = result.final
    side_of = {s: i for i, side in enumerate(final.sides) for s in side}
    rewards = _round_rewards(rules, players, deal, result.moves)
    # A forfeited match (a bot gave it up) stops in a round: that round has no reward,
    # and result.winner is the side that won by the forfeit.
    won = [int(side_of[s] == result.winner) for s in range(players)]
    unfinished = [0.0] * players
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
        "round_reward": column([rewards.get(r[0], unfinished)[r[2]] for r in rows], "float32"),
        "won": column([won[r[2]] for r in rows], "int8"),
        "final_score": column([final.side_scores[side_of[r[2]]] for r in rows], "int32"),
        "move_text": np.array([r[6] for r in rows], dtype=str).reshape(n),
    }


#: The most games played together in one batch by ``selfplay(batch=True)``: whole shards
#: (at least one), so that a batch of small shards does not step each shard's longest
#: match on its own.
BATCH_GAMES = 1024


def _groups(shards: list[tuple[int, int]], games: int) -> list[list[tuple[int, int]]]:
    """``shards`` in order, in groups of at most ``games`` games (at least one shard each)."""
    out: list[list[tuple[int, int]]] = []
    size = 0
    for start, end in shards:
        if not out or size + end - start > games:
            out.append([])
            size = 0
        out[-1].append((start, end))
        size += end - start
    return out


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
    rules: RuleSet,
    policies: tuple[int, ...],
    seed: int,
    indices: tuple[int, ...],
    max_moves: int = MAX_MOVES,
) -> dict[str, Any]:
    """
    The decisions of the games ``indices`` (increasing), played together in batched
    games: one set of NumPy columns, in game order (no Python object per decision);
    ``observation`` and ``legal`` packed (:func:`_pack`).
    """
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
        max_moves=min(max_moves, 2**31 - 1),
    )
    seats = np.array([match_seats(i, players) for i in indices], dtype=np.int8)
    codes = np.array(policies, dtype=np.int8)[seats]
    fields = [(f.name, f.offset, f.length) for f in layout(rules, players)]
    round_at = next(offset for name, offset, _ in fields if name == "round_number")
    sides = rules.match.sides(players)
    side_of = np.zeros(players, dtype=np.int64)
    # sum_of[t, s] = 1 when seat t is on seat s's side: final scores @ sum_of = side totals
    sum_of = np.zeros((players, players), dtype=np.int64)
    for i, side in enumerate(sides):
        for s in side:
            side_of[s] = i
            sum_of[list(side), s] = 1
    size, count = encoding_size(rules, players), action_count(rules)
    widths = _widths({"observation_size": size, "action_count": count, "layout": fields})
    observations = _Rows(games.obs, n, *widths["observation"])
    masks = _Rows(games.action_mask, n, *widths["legal"])
    active = np.ones(n, dtype=np.bool_)
    steps: list[tuple[Any, ...]] = []
    ends: list[tuple[Any, Any, Any]] = []
    won = np.zeros((n, players), dtype=np.int8)
    final = np.zeros((n, players), dtype=np.int32)
    index = np.arange(n)
    every = True  # every game still playing
    while len(index):
        actions = games.core_actions(codes, active=None if every else active)
        rounds = games.obs[index, round_at]
        observations.add(index, every)
        masks.add(index, every)
        steps.append((index, rounds, games.round_moves[index], games.seat[index], actions[index]))
        # the games over stand still: they would play their next match
        games.step(actions, active=None if every else active)
        over = games.terminated[index]
        cut = games.truncated[index]
        if np.count_nonzero(cut):
            k = int(np.flatnonzero(cut)[0])
            _too_long(rules, games, indices, int(index[k]), int(rounds[k]), max_moves)
        ended = over | (games.obs[index, round_at] != rounds)
        if np.count_nonzero(ended):  # (faster than .any() on a small array)
            ends.append((index[ended], rounds[ended], games.rewards[index[ended]]))
        if np.count_nonzero(over):
            done = index[over]
            final[done] = games.final_scores[done] @ sum_of
            won[done] = side_of[None, :] == games.match_winner[done, None]
            active[done] = False
            index = np.flatnonzero(active)
            every = False
    game = np.concatenate([step[0] for step in steps])
    order = np.argsort(game, kind="stable")
    game = game[order]
    number, move, seat, action = (
        np.concatenate([step[k] for step in steps])[order] for k in (1, 2, 3, 4)
    )
    observation = observations.packed(order)
    legal = masks.packed(order)
    where = seat.astype(np.int64)
    # each row's round reward, looked up by (game, round)
    span = int(number.max()) + 1 if len(number) else 1
    keys = np.concatenate([g * span + r for g, r, _ in ends]) if ends else np.zeros(0, np.int64)
    round_reward = np.zeros(len(game), dtype=np.float32)
    if len(keys):
        table = np.concatenate([r for _, _, r in ends]).astype(np.float32)
        by_key = np.argsort(keys, kind="stable")
        found = by_key[np.searchsorted(keys[by_key], game * span + number)]
        round_reward = table[found, where]
    action = action.astype(np.int32)
    return {
        "game": np.array(indices, dtype=np.int64)[game],
        "round": number.astype(np.int32),
        "move": move.astype(np.int32),
        "seat": seat.astype(np.int8),
        "entrant": seats[game, where],
        "observation": observation,
        "legal": legal,
        "action": action,
        "round_reward": round_reward,
        "won": won[game, where],
        "final_score": final[game, where],
        "move_text": _action_texts(rules)[action],
    }


def _too_long(
    rules: RuleSet, games: Any, indices: tuple[int, ...], at: int, round_number: int, bound: int
) -> None:
    """
    Raise :class:`MatchTooLongError` for the batch's game ``at``, cut at ``bound`` moves
    in round ``round_number`` (its seeds: the game's seed stream in the batch).
    """
    stream = int(games.seeds[at])
    scores = tuple(int(x) for x in games.final_scores[at])
    raise MatchTooLongError(repr(rules), bound, stream, stream, round_number, scores, indices[at])


class _Rows:
    """
    The rows of a batch's output array (``source``) at each step, gathered into a
    buffer of a few MB and packed (:func:`_pack`) a buffer at a time.
    """

    #: Bytes of the buffer of rows not yet packed.
    BUFFER_BYTES = 4 << 20

    def __init__(self, source: Any, games: int, values: int, bits: int) -> None:
        np = _numpy()
        self.source = source
        self.values, self.bits = values, bits
        capacity = max(games, self.BUFFER_BYTES // max(1, source[:1].nbytes))
        self.buffer = np.empty((capacity, source.shape[1]), dtype=source.dtype)
        self.used = 0
        self.parts: list[Any] = []

    def add(self, index: Any, every: bool) -> None:
        """Gather the rows ``index`` (all of them when ``every``)."""
        if self.used + len(index) > len(self.buffer):
            self._flush()
        into = self.buffer[self.used : self.used + len(index)]
        if every:
            into[...] = self.source
        else:
            self.source.take(index, axis=0, out=into, mode="clip")
        self.used += len(index)

    def _flush(self) -> None:
        if self.used:
            self.parts.append(_pack(self.buffer[: self.used], self.values, self.bits))
            self.used = 0

    def packed(self, order: Any) -> Any:
        """Every row gathered, packed, row ``order[i]`` at row ``i``."""
        np = _numpy()
        self._flush()
        if not self.parts:
            return np.zeros((0, _packed_width(self.values, self.bits)), dtype=np.uint8)
        rows = np.concatenate(self.parts) if len(self.parts) > 1 else self.parts[0]
        self.parts = []
        whole = np.dtype((np.void, rows.shape[1]))  # a row as one item: moved by one copy
        return rows.view(whole).reshape(-1)[order].view(np.uint8).reshape(len(order), -1)


@functools.lru_cache(maxsize=16)
def _action_texts(rules: RuleSet) -> Any:
    """
    The move text (``str(move)``) of each action of a chain rule set, as a read-only
    NumPy string array: there, an action number names one move whatever the board.
    """
    np = _numpy()
    _, ends, values, turns = encoding_dimensions(rules)
    geometry: Any = rules.geometry  # a chain geometry: it has opening()
    out = [str(geometry.opening(tile, tile.a)[1]) for tile in rules.tileset.tiles]
    wild = rules.wild_faces
    for tile in rules.tileset.tiles:
        for end in range(ends):
            for side in (0, 1):
                inward = tile.a if side == 0 else tile.b
                outward = inward if tile.is_double else tile.other(inward)
                for named in range(values):
                    shows = named if outward in wild else outward
                    for turn in range(turns):
                        bend = (RIGHT if turn else LEFT) if turns == 2 else STRAIGHT
                        out.append(str(Place(tile, end, inward, shows, bend)))
    out += [str(DRAW), str(PASS), str(NEXT_ROUND)]
    assert len(out) == action_count(rules)
    texts = np.array(out, dtype=str)
    texts.flags.writeable = False
    return texts


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


def _shards(games: int, shard_games: int) -> list[tuple[int, int]]:
    """The games ``[start, end)`` of each shard of a run, once the run is within limits."""
    _check_size(games, shard_games)
    return [(s, min(s + shard_games, games)) for s in range(0, games, shard_games)]


def _check_size(games: object, shard_games: object) -> None:
    """SelfplayError unless the run's size is within :data:`MAX_GAMES` and :data:`MAX_SHARDS`."""
    for name, value, low in (("games", games, 0), ("shard_games", shard_games, 1)):
        if type(value) is not int:
            raise SelfplayError(f"{name} is an int, not {shown(value)}")
        if not low <= value <= MAX_GAMES:
            raise SelfplayError(f"{name} is from {low} to {MAX_GAMES:,}, not {shown(value)}")
    assert isinstance(games, int) and isinstance(shard_games, int)
    count = -(-games // shard_games)
    if count > MAX_SHARDS:
        raise SelfplayError(
            f"{games:,} games of {shard_games:,} per shard make {count:,} shards; a run has "
            f"at most {MAX_SHARDS:,} (MAX_SHARDS): raise shard_games"
        )


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


def _atomic_write(path: Path, write: Callable[[Any], None]) -> bytes:
    """
    Write ``path`` through ``write(handle)`` to a temporary file renamed into place, and
    return the bytes written; nothing is left behind if writing fails or is interrupted.
    The temporary file's name starts with ``.``: Parquet readers skip it.
    """
    written: list[bytes] = []

    def keep(stream: BinaryIO) -> None:
        write(stream)
        stream.flush()
        stream.seek(0)
        written.append(stream.read())

    try:  # (not synced to disk: a shard lost to a power cut is played again on resume)
        write_atomically(
            str(path), keep, prefix="." + path.name + ".", suffix=".partial", durable=False
        )
    except OSError as exc:
        raise SelfplayError(f"cannot write {path}: {exc.strerror or exc}") from None
    return written[0]


def _write_manifest(path: Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=1) + "\n"
    _atomic_write(path / MANIFEST, lambda stream: stream.write(text.encode("utf-8")))
    with contextlib.suppress(FileNotFoundError):
        (path / OLD_MANIFEST).unlink()  # a directory of an older version, now resumed


def _write_shard(
    path: Path, data: dict[str, Any], fmt: str, manifest: dict[str, Any], texts: Any = None
) -> dict[str, Any]:
    """
    Write one shard atomically; its manifest entry (games, rows, bytes, SHA-256).
    ``data``'s ``observation`` and ``legal`` are the encodings or already packed
    (:func:`_pack`); ``texts``: the move text of each action, when ``move_text`` is
    ``texts[action]`` (see :func:`_arrow_table`).
    """

    def write(stream: Any) -> None:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            table = _arrow_table(data, manifest, texts)
            flat = [name for name in COLUMNS if name not in ("observation", "legal")]
            # the packed columns: no dictionary nor statistics (of bytes nobody filters on)
            pq.write_table(
                table,
                stream,
                compression="zstd",
                use_dictionary=flat,
                write_statistics=flat,
            )
        else:
            _numpy().savez_compressed(stream, **_unpack(data, manifest))

    content = _atomic_write(path, write)
    first, last = (int(n) for n in _name_parts(path.name)[:2])
    return {
        "games": last - first + 1,
        "rows": len(data["action"]),
        "bytes": len(content),
        "sha256": hashlib.sha256(content).hexdigest(),
    }


def _widths(manifest: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """
    Per packed column: the values of a row, and how many of them are bits (the others
    are int32), from a run's manifest (its ``observation_size``, ``action_count`` and
    ``layout``).
    """
    size, actions = manifest["observation_size"], manifest["action_count"]
    bits = 0
    for name, _, length in manifest["layout"]:
        if name not in BIT_FIELDS:
            break
        bits += length
    return {"observation": (size, bits), "legal": (actions, actions)}


def _packed_width(values: int, bits: int) -> int:
    """Bytes of a packed row: the bits 8 to a byte, then 4 bytes a value."""
    return -(-bits // 8) + 4 * (values - bits)


def _pack(rows: Any, values: int, bits: int) -> Any:
    """
    The rows (``values`` ints each, the first ``bits`` of them 0 or 1) packed: a uint8
    array of :func:`_packed_width` columns (see :func:`schema_metadata`).
    """
    np = _numpy()
    head = -(-bits // 8)
    out = np.empty((len(rows), _packed_width(values, bits)), dtype=np.uint8)
    flags = rows[:, :bits]
    # packbits is 8 times faster on bools than on int32 (and a 0/1 byte is a bool)
    flags = flags.view(np.bool_) if flags.dtype.itemsize == 1 else flags.astype(np.bool_)
    out[:, :head] = np.packbits(flags, axis=1, bitorder="little")
    if bits < values:
        out[:, head:].view("<i4")[...] = rows[:, bits:]
    return out


def _unpack_rows(raw: Any, values: int, bits: int, kind: str) -> Any:
    """The inverse of :func:`_pack`: rows of ``values`` values of NumPy type ``kind``."""
    np = _numpy()
    head = -(-bits // 8)
    out = np.empty((len(raw), values), dtype=kind)
    out[:, :bits] = np.unpackbits(raw[:, :head], axis=1, count=bits, bitorder="little")
    if bits < values:
        out[:, bits:] = raw[:, head:].view("<i4")
    return out


def _unpack(data: dict[str, Any], manifest: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its packed columns (uint8 rows of packed bytes) unpacked."""
    out = dict(data)
    for name, (values, bits) in _widths(manifest).items():
        if data[name].dtype != COLUMNS[name] or data[name].shape[1:] != (values,):
            out[name] = _unpack_rows(data[name], values, bits, COLUMNS[name])
    return out


def schema_metadata(manifest: dict[str, Any]) -> dict[str, Any]:
    """
    What the Parquet schema metadata of a run's shards says (under :data:`SCHEMA_KEY`,
    as JSON): the run's rule set, players, bots and seed, the observation's size and
    fields (``layout``: name, offset, length), the number of actions, how the
    ``observation`` and ``legal`` columns are packed (``observation_bits``, ``packing``)
    and what each column holds (``columns``).

    A packed row is fixed-size binary: its first values that are only 0 or 1 (the first
    ``observation_bits`` of an observation, :data:`BIT_FIELDS`; every value of ``legal``)
    8 to a byte, least significant bit first (``numpy.packbits(..., bitorder="little")``),
    the last byte padded with zeros, then the other values as little-endian int32.
    """
    keys = ("rules", "players", "bots", "seed", "observation_size", "action_count")
    widths = _widths(manifest)
    return {
        "format": "bendolib-selfplay",
        "version": VERSION,
        **{key: manifest[key] for key in keys},
        "layout": [
            {"name": name, "offset": offset, "length": length}
            for name, offset, length in manifest["layout"]
        ],
        "observation_bits": widths["observation"][1],
        "packing": {
            "observation": (
                "fixed-size binary: the first observation_bits values (0/1) packed 8 to a "
                "byte, least significant bit first, then the others as little-endian int32"
            ),
            "legal": (
                "fixed-size binary: the action_count values (0/1) packed 8 to a byte, "
                "least significant bit first"
            ),
            "decode": "bendolib.selfplay.decode(table)",
        },
        "columns": COLUMN_DOCS,
    }


def _arrow_schema(manifest: dict[str, Any]) -> Any:
    """The Arrow schema of a run's shards: the same in every shard."""
    import pyarrow as pa

    widths = _widths(manifest)
    fields = []
    for name, kind in COLUMNS.items():
        if name in widths:
            value = pa.binary(_packed_width(*widths[name]))
        else:
            value = pa.string() if kind == "str" else pa.from_numpy_dtype(_numpy().dtype(kind))
        fields.append(pa.field(name, value, nullable=False))
    text = json.dumps(schema_metadata(manifest), separators=(",", ":"))
    return pa.schema(fields, metadata={SCHEMA_KEY: text})


def _arrow_table(data: dict[str, Any], manifest: dict[str, Any], texts: Any = None) -> Any:
    """
    The shard's table: the NumPy columns without a copy, the wide ones packed;
    ``move_text`` taken from ``texts`` by action when given (20 times faster than
    converting NumPy strings).
    """
    import pyarrow as pa

    np = _numpy()
    schema = _arrow_schema(manifest)
    widths = _widths(manifest)
    arrays = []
    for field in schema:
        column = data[field.name]
        if field.name in widths:
            if column.dtype != np.uint8 or column.shape[1:] != (field.type.byte_width,):
                column = _pack(column, *widths[field.name])
            buffer = pa.py_buffer(np.ascontiguousarray(column))
            arrays.append(
                pa.FixedSizeBinaryArray.from_buffers(field.type, len(column), [None, buffer])
            )
        elif field.name == "move_text" and texts is not None:
            arrays.append(pa.array(texts.tolist(), type=field.type).take(data["action"]))
        else:
            arrays.append(pa.array(column, type=field.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def decode(table: Any) -> dict[str, Any]:
    """
    The columns of a table of self-play rows read from Parquet shards (one file,
    ``pyarrow.parquet.read_table(directory)``, a ``pyarrow.dataset``'s table, any
    columns of them) as NumPy arrays of the types of :data:`COLUMNS`: ``observation``
    exactly the rows of ``encoding.encode`` (int32), ``legal`` those of
    ``encoding.action_mask`` (uint8), ``move_text`` a string array.  The table's schema
    metadata (:data:`SCHEMA_KEY`) says how they are packed; a shard of before version 4
    (lists) is read too.  :class:`SelfplayError` for a table without that metadata.
    """
    np = _numpy()
    import pyarrow as pa

    if not isinstance(table, pa.Table):
        raise TypeError(f"decode takes a pyarrow.Table, not {type(table).__name__}")
    raw = (table.schema.metadata or {}).get(SCHEMA_KEY.encode(), b"")
    try:
        meta = json.loads(raw)
    except (ValueError, RecursionError):
        meta = None
    meta = meta if isinstance(meta, dict) else {}
    size, actions = meta.get("observation_size"), meta.get("action_count")
    bits = meta.get("observation_bits", size)  # before version 4: lists, no bits
    if not (type(size) is type(actions) is type(bits) is int and 0 <= bits <= size):
        raise SelfplayError(
            f"the table has no {SCHEMA_KEY} schema metadata of self-play shards: "
            "read it from the files selfplay wrote"
        )
    widths = {"observation": (size, bits), "legal": (actions, actions)}
    out: dict[str, Any] = {}
    for name, kind in COLUMNS.items():
        if name not in table.column_names:
            continue
        column = table.column(name)
        if name in widths and pa.types.is_fixed_size_binary(column.type):
            values, ones = widths[name]
            width = column.type.byte_width
            if width != _packed_width(values, ones):
                raise SelfplayError(
                    f"the column {name} holds {width}-byte values, not "
                    f"{_packed_width(values, ones)} (the schema metadata's layout)"
                )
            parts = []
            for chunk in column.chunks:
                if chunk.null_count:
                    raise SelfplayError(f"the column {name} has null values")
                start = chunk.offset * width
                data = np.frombuffer(chunk.buffers()[1], dtype=np.uint8)
                rows = data[start : start + len(chunk) * width].reshape(-1, width)
                parts.append(_unpack_rows(rows, values, ones, kind))
            empty = np.zeros((0, values), dtype=kind)
            out[name] = np.concatenate(parts) if parts else empty
        elif name in widths:  # a list column (before version 4)
            flat = column.combine_chunks().flatten().to_numpy()
            out[name] = flat.astype(kind).reshape(-1, widths[name][0])
        elif kind == "str":
            out[name] = np.array(column.to_pylist(), dtype=str).reshape(-1)
        else:
            out[name] = column.to_numpy().astype(kind)
    return out


def _name_parts(name: str) -> tuple[str, ...]:
    match = SHARD_NAME.fullmatch(name)
    return match.groups() if match else ()


def _read_bytes(path: Path, limit: int | None = None) -> bytes | None:
    """
    The content of ``path`` (None when there is no such file); SelfplayError when it is
    longer than ``limit`` bytes (checked before it is read).
    """
    try:
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if limit is not None and size > limit:
                raise SelfplayError(
                    f"{path} is longer than {limit:,} bytes: not a file of this run"
                )
            return stream.read()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise SelfplayError(f"cannot read {path}: {exc.strerror or exc}") from None


def _trusted(path: Path, entry: dict[str, Any]) -> bytes | None:
    """The shard's bytes when the file matches its manifest entry (size and SHA-256)."""
    try:
        if path.stat().st_size != entry["bytes"]:
            return None
    except OSError:  # no such file, or none that can be read
        return None
    try:
        content = _read_bytes(path, entry["bytes"])
    except SelfplayError:  # it grew in between
        return None
    if content is None or hashlib.sha256(content).hexdigest() != entry["sha256"]:
        return None
    return content


def _decode(content: bytes, fmt: str, manifest: dict[str, Any]) -> dict[str, Any]:
    """
    The columns of a shard's bytes, as NumPy arrays of the types of :data:`COLUMNS`
    (``move_text`` a string array; empty strings in a shard of before version 3).
    """
    np = _numpy()
    width = {"observation": manifest["observation_size"], "legal": manifest["action_count"]}
    out: dict[str, Any] = {}
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pq.read_table(pa.BufferReader(content))
        missing = [name for name in COLUMNS if name not in table.column_names]
        if missing and missing != ["move_text"]:
            raise ValueError(f"no column {missing[0]}")
        if SCHEMA_KEY.encode() not in (table.schema.metadata or {}):
            # before version 3: list columns, described by the manifest alone
            sizes = {"observation_size": width["observation"], "action_count": width["legal"]}
            table = table.replace_schema_metadata({SCHEMA_KEY: json.dumps(sizes)})
        out = decode(table)
    else:
        with np.load(io.BytesIO(content), allow_pickle=False) as stored:
            out = {name: stored[name] for name in COLUMNS if name in stored}
    if "move_text" not in out and manifest["version"] < 3:
        out["move_text"] = np.full(len(out["action"]), "", dtype=str)
    for name, kind in COLUMNS.items():
        dtype = out[name].dtype
        if dtype.kind != "U" if kind == "str" else dtype != np.dtype(kind):
            raise ValueError(f"column {name} holds {dtype}, not {kind}")
        shape = (len(out[name]), width[name]) if name in width else (len(out[name]),)
        if out[name].shape != shape:
            raise ValueError(f"column {name} has the shape {out[name].shape}")
    return out


def _read_shard(path: Path, manifest: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """A shard's columns, checked against its manifest entry; SelfplayError if it differs."""
    content = _trusted(path, entry)
    if content is None:
        raise SelfplayError(
            f"the shard {path} is missing or does not match its size and SHA-256 in "
            f"{MANIFEST} (truncated or replaced?): delete it and run selfplay again to "
            "play its games again"
        )
    try:
        data = _decode(content, manifest["file_format"], manifest)
    except Exception as exc:  # whatever the file format's reader raises for a bad file
        message = shown(str(exc), 200)
        raise SelfplayError(f"cannot read the shard {path}: {message}") from None
    rows = {len(column) for column in data.values()}
    if len(rows) != 1 or (entry["rows"] is not None and rows != {entry["rows"]}):
        wanted = "the same number" if entry["rows"] is None else entry["rows"]
        raise SelfplayError(f"the shard {path} has columns of {sorted(rows)} rows, not {wanted}")
    return data


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
    """The manifest of ``directory``, checked field by field; None when there is none."""
    path = directory / MANIFEST
    content = _read_bytes(path, MAX_MANIFEST_BYTES)
    if content is None:
        path = directory / OLD_MANIFEST  # a directory written before version 3
        content = _read_bytes(path, MAX_MANIFEST_BYTES)
    if content is None:
        return None
    try:
        data = json.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise SelfplayError(f"cannot read {path}: {shown(str(exc), 200)}") from None
    if not isinstance(data, dict) or data.get("format") != "bendolib-selfplay":
        raise SelfplayError(f"{path} is not a bendolib self-play manifest")
    if data.get("version") not in range(1, VERSION + 1) or type(data["version"]) is not int:
        raise SelfplayError(
            f"{path} is of version {shown(data.get('version'))}, not 1 to {VERSION}"
        )
    try:
        _check_manifest(data)
    except SelfplayError as exc:
        raise SelfplayError(f"bad manifest {path}: {exc}") from None
    return data


def _check_manifest(data: dict[str, Any]) -> None:
    """SelfplayError naming the first field of a manifest that is missing or out of range."""
    if not nests_within(data, MAX_DEPTH):
        raise SelfplayError(f"lists and objects nest more than {MAX_DEPTH} deep")
    _check_size(data.get("games"), data.get("shard_games"))
    if data.get("file_format") not in ("parquet", "npz"):
        raise SelfplayError(
            f"file_format is 'parquet' or 'npz', not {shown(data.get('file_format'))}"
        )
    for name in ("observation_size", "action_count"):
        value = data.get(name)
        if type(value) is not int or not 0 <= value <= 2**31 - 1:
            raise SelfplayError(f"{name} is an int from 0 to 2**31 - 1, not {shown(value)}")
    table = data.setdefault("shards", {})
    if not isinstance(table, dict) or len(table) > MAX_SHARDS:
        raise SelfplayError(f"shards is an object of at most {MAX_SHARDS:,} entries")
    for name, entry in table.items():
        parts = _name_parts(name)
        if not parts or parts[2] != data["file_format"] or not isinstance(entry, dict):
            raise SelfplayError(f"the shard entry {shown(name)} is not a shard of this run")
        for key in ("games", "rows", "bytes"):
            if type(entry.get(key)) is not int or not 0 <= entry[key] <= 2**62:
                raise SelfplayError(f"the shard entry {shown(name)} has a bad {key}")
        digest = entry.get("sha256")
        if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise SelfplayError(f"the shard entry {shown(name)} has a bad sha256")


def _directory(directory: object, create: bool) -> Path:
    """``directory`` as a Path (made when ``create``); SelfplayError for a bad one."""
    if not isinstance(directory, str | os.PathLike):
        raise TypeError(f"a self-play directory is a str or a path, not {type(directory).__name__}")
    text = os.fspath(directory)
    if not isinstance(text, str) or not text:
        raise SelfplayError("a self-play directory needs a name (an empty path was given)")
    if "\0" in text:
        raise SelfplayError(f"a path has no NUL character: {shown(text)}")
    path = Path(text)
    try:
        if create:
            path.mkdir(parents=True, exist_ok=True)
        elif not path.exists():
            raise SelfplayError(f"there is no {path}: not a self-play directory")
        elif not path.is_dir():
            raise SelfplayError(f"{path} is a file, not a self-play directory")
    except OSError as exc:
        raise SelfplayError(
            f"cannot use {path} as a self-play directory: {exc.strerror or exc}"
        ) from None
    return path


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
    max_moves: int = MAX_MOVES,
) -> SelfplaySummary:
    """
    Play ``games`` matches between ``bots`` (one per seat, seats rotated as in a
    tournament) and write every decision to shard files in ``directory``.

    ``file_format`` is ``"parquet"`` (the default when pyarrow is installed) or
    ``"npz"``.  A directory that already holds shards of the same run (same rules, bots,
    seed, shard size and format, recorded in its ``_selfplay.json``) is resumed: the
    shards that match their entry in the manifest (size and SHA-256) are kept and the
    others played.  A run beyond :data:`MAX_GAMES` or :data:`MAX_SHARDS`, or a
    directory that cannot be made or used, raises :class:`SelfplayError`.  ``executor`` and
    ``progress(games_done, games)`` work as in :func:`~bendolib.tournament.run_tournament`;
    Ctrl-C raises :class:`SelfplayInterrupted` once the finished shards are written.
    ``batch=True`` plays the games in the kernel's batched games (see the module's
    docstring; every bot ``random`` or ``greedy``, a chain rule set the kernel plays),
    whole shards together (up to :data:`BATCH_GAMES` games) in the calling process
    (``executor`` is not used).  A match still going after ``max_moves`` moves (some
    configured rules never end one) raises
    :class:`~bendolib.tournament.MatchTooLongError` naming the game, once the shards
    finished before it are written.
    """
    _numpy()
    check_max_moves(max_moves)
    ruleset = rules_registry.get(rules) if isinstance(rules, str) else rules
    entrants = tuple(bot_registry.get(b) if isinstance(b, str) else b for b in bots)
    if len(entrants) not in ruleset.player_counts:
        raise SelfplayError(
            f"{ruleset.name} is for {ruleset.player_counts} players, not {len(entrants)} bots"
        )
    for name, value in (("games", games), ("shard_games", shard_games)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} is an int, not {type(value).__name__}")
    shards = _shards(games, shard_games)
    fmt: str = file_format or ("parquet" if _has_pyarrow() else "npz")
    if fmt not in ("parquet", "npz"):
        raise SelfplayError(f"file_format is 'parquet' or 'npz', not {shown(fmt)}")
    if fmt == "parquet" and not _has_pyarrow():
        raise SelfplayError("Parquet files need pyarrow: pip install 'bendolib[selfplay]'")
    path = _directory(directory, create=True)
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
    table: dict[str, Any] = {}
    if found is not None:
        differ = sorted(k for k in manifest if k != "version" and found.get(k) != manifest[k])
        if differ:
            raise SelfplayError(
                f"{path} holds another self-play run (it differs in {', '.join(differ)}): "
                "use another directory"
            )
        table = found["shards"] if found["version"] == VERSION else {}
    # a shard is kept only when it matches its entry (count and checksum); any other
    # file of the layout is played again and replaced
    names = {_shard_name(*shard, fmt): shard for shard in shards}
    kept = {
        name: entry
        for name, entry in table.items()
        if name in names
        and entry["games"] == names[name][1] - names[name][0]
        and _trusted(path / name, entry) is not None
    }
    rejected = tuple(sorted(n for n in names if n not in kept and (path / n).exists()))
    state = {**manifest, "games": games, "shards": kept}
    _write_manifest(path, state)

    todo = [s for s in shards if _shard_name(*s, fmt) not in kept]
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
                finish(start, end, _concatenate([shard[i] for i in range(start, end)], manifest))
                del pending[start]

    saved = {"at": time.monotonic(), "behind": False}

    def finish(start: int, end: int, data: dict[str, Any], texts: Any = None) -> None:
        name = _shard_name(start, end, fmt)
        kept[name] = _write_shard(path / name, data, fmt, manifest, texts)
        # the manifest at most every MANIFEST_SECONDS (a long run's is long), and at the end
        saved["behind"] = True
        if time.monotonic() - saved["at"] >= MANIFEST_SECONDS:
            _write_manifest(path, state)
            saved.update(at=time.monotonic(), behind=False)
        written["games"] += end - start
        written["decisions"] += len(data["action"])

    def summary(interrupted: bool) -> SelfplaySummary:
        return SelfplaySummary(
            str(path), fmt, written["games"], written["decisions"], before, interrupted, rejected
        )

    report = None if progress is None else (lambda done, _: progress(before + done, games))
    try:
        if policies is not None:
            # whole shards, up to BATCH_GAMES games, played together in this process (the
            # batch is the speed-up; it steps until its longest match ends)
            done = 0
            try:
                for group in _groups(todo, BATCH_GAMES):
                    chunk = tuple(i for start, end in group for i in range(start, end))
                    data = _play_batch(ruleset, policies, seed, chunk, max_moves)
                    firsts = [start for start, _ in group] + [group[-1][1]]
                    bounds = _numpy().searchsorted(data["game"], firsts).tolist()
                    for k, (start, end) in enumerate(group):
                        rows = slice(bounds[k], bounds[k + 1])
                        part = {name: data[name][rows] for name in data}
                        finish(start, end, part, _action_texts(ruleset))
                        done += end - start
                        if report is not None:
                            report(done, len(todo))
            except KeyboardInterrupt:
                raise SelfplayInterrupted(summary(True)) from None
            return summary(False)
        own = executor is None
        pool: Executor = SerialExecutor()
        task = partial(_play_games, ruleset, entrants, seed, max_moves)
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
    finally:  # done, stopped or failed: the manifest lists every shard written
        if saved["behind"]:
            _write_manifest(path, state)


def load(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """
    The shards of a self-play directory's last run (a run stopped early has some
    missing), concatenated in game order: a dict of NumPy arrays named as
    :data:`COLUMNS` (one row per decision).

    Only the shards the manifest lists are read, each checked against its size and
    SHA-256; a file that does not match raises :class:`SelfplayError`.  (A version-1
    directory lists none: its shard files are read as they are.)
    """
    path = _directory(directory, create=False)
    manifest = _read_manifest(path)
    if manifest is None:
        raise SelfplayError(f"{path} has no {MANIFEST}: not a self-play directory")
    games, size, fmt = manifest["games"], manifest["shard_games"], manifest["file_format"]
    parts = []
    for start, end in _shards(games, size):
        name = _shard_name(start, end, fmt)
        entry = manifest["shards"].get(name)
        if entry is None and manifest["version"] == 1:
            content = _read_bytes(path / name)
            if content is None:
                continue
            entry = {
                "bytes": len(content),
                "sha256": hashlib.sha256(content).hexdigest(),
                "rows": None,
            }
        if entry is not None:
            parts.append(_read_shard(path / name, manifest, entry))
    return _concatenate(parts, manifest)


__all__ = [
    "BATCH_GAMES",
    "BIT_FIELDS",
    "COLUMNS",
    "COLUMN_DOCS",
    "MANIFEST",
    "MANIFEST_SECONDS",
    "MAX_GAMES",
    "MAX_MANIFEST_BYTES",
    "MAX_SHARDS",
    "OLD_MANIFEST",
    "SCHEMA_KEY",
    "SHARD_GAMES",
    "SelfplayError",
    "SelfplayInterrupted",
    "SelfplaySummary",
    "decode",
    "load",
    "schema_metadata",
    "selfplay",
]
