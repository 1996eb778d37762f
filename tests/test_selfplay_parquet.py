"""
Self-play folders as one Parquet dataset (issue 23 point 3: "the output folder readable as
one Parquet dataset, the observation layout in the schema metadata, a move-text column"),
for the scalar path and the batched one (``batch=True``).
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

np: Any = pytest.importorskip("numpy", reason="self-play needs numpy")

import bendolib  # noqa: E402
from bendolib import rules, selfplay  # noqa: E402
from bendolib._rng import derive_seed  # noqa: E402
from bendolib.encoding import action_count, action_index, encoding_size, layout, move_of  # noqa: E402
from bendolib.records import rules_from_spec  # noqa: E402
from bendolib.runner import SerialExecutor  # noqa: E402
from bendolib.tournament import match_seed  # noqa: E402

SHORT = rules.get("basic", target=30)


def _batch_reason() -> str | None:
    from bendolib.vector import unsupported_reason

    return unsupported_reason(SHORT, 2)


def needs(batch: bool) -> None:
    if batch and _batch_reason() is not None:
        pytest.skip(f"no batched games: {_batch_reason()}")


def play(folder: Path, batch: bool, fmt: str = "parquet", games: int = 5) -> None:
    if fmt == "parquet":
        pytest.importorskip("pyarrow", reason="Parquet needs the selfplay extra")
    needs(batch)
    selfplay.selfplay(
        SHORT,
        ["greedy", "random"],
        games,
        folder,
        seed=7,
        shard_games=2,
        file_format=fmt,  # type: ignore[arg-type]
        executor=SerialExecutor(),
        batch=batch,
    )


@pytest.mark.parametrize("batch", [False, True], ids=["scalar", "batch"])
def test_the_folder_reads_as_one_parquet_dataset(tmp_path: Path, batch: bool) -> None:
    """The one-line reads of docs/bots.md: every shard, the manifest and temp files skipped."""
    play(tmp_path, batch)
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    (tmp_path / ".games-00000006-00000007.parquet.x.partial").write_bytes(b"half a file")
    assert (tmp_path / selfplay.MANIFEST).is_file()
    whole = selfplay.load(tmp_path)
    dataset = ds.dataset(tmp_path, format="parquet")
    assert len(dataset.files) == 3  # the shards only
    # one schema in every shard (the dataset's is the first file's)
    assert all(f.physical_schema == dataset.schema for f in dataset.get_fragments())
    for table in (pq.read_table(tmp_path), dataset.to_table()):
        assert table.column_names == list(selfplay.COLUMNS)
        table = table.sort_by([("game", "ascending")])  # files in name order: already so
        assert table.column("game").to_pylist() == whole["game"].tolist()
        assert table.column("move_text").to_pylist() == whole["move_text"].tolist()
        assert table.column("action").to_numpy().tolist() == whole["action"].tolist()
        # decode: every column back, observation and legal unpacked (several row groups)
        decoded = selfplay.decode(table)
        assert list(decoded) == list(selfplay.COLUMNS)
        for name in selfplay.COLUMNS:
            assert decoded[name].dtype == whole[name].dtype, name
            assert np.array_equal(decoded[name], whole[name]), name
        assert decoded["observation"].shape == (table.num_rows, encoding_size(SHORT, 2))
        # a slice of the table (chunks with an offset), some columns only
        part = selfplay.decode(table.slice(3, 7).select(["legal", "observation"]))
        assert list(part) == ["observation", "legal"]
        assert np.array_equal(part["observation"], whole["observation"][3:10])
        assert np.array_equal(part["legal"], whole["legal"][3:10])


@pytest.mark.parametrize("batch", [False, True], ids=["scalar", "batch"])
def test_the_schema_metadata_holds_the_observation_layout(tmp_path: Path, batch: bool) -> None:
    play(tmp_path, batch)
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pq.read_schema(tmp_path / "games-00000000-00000001.parquet")
    meta = json.loads(schema.metadata[selfplay.SCHEMA_KEY.encode()])
    assert meta["format"] == "bendolib-selfplay" and meta["version"] == selfplay.VERSION
    assert meta["players"] == 2 and meta["bots"] == ["greedy", "random"] and meta["seed"] == 7
    assert rules_from_spec(meta["rules"]) == SHORT
    size = encoding_size(SHORT, 2)
    assert meta["observation_size"] == size
    fields = layout(SHORT, 2)
    assert meta["layout"] == [
        {"name": f.name, "offset": f.offset, "length": f.length} for f in fields
    ]
    # version 4: the wide columns are packed fixed-size binary values (the bits 8 to a
    # byte, the other values int32), as the metadata says
    bits = sum(f.length for f in fields if f.name in ("hand", "drawn", "board", "possible"))
    assert [f.name for f in fields[:4]] == list(selfplay.BIT_FIELDS)
    assert meta["observation_bits"] == bits == 2 * 28 + 28 + 28
    assert schema.field("observation").type == pa.binary(-(-bits // 8) + 4 * (size - bits))
    assert schema.field("legal").type == pa.binary(-(-meta["action_count"] // 8))
    assert meta["action_count"] == action_count(SHORT)
    assert set(meta["packing"]) == {"observation", "legal", "decode"}
    assert set(meta["columns"]) == set(selfplay.COLUMNS)
    other = pq.read_schema(tmp_path / "games-00000004-00000004.parquet")
    assert other.equals(schema, check_metadata=True)


def replay_texts(data: dict[str, Any], batch: bool, seed: int, players: int = 2) -> int:
    """
    Replay each game of ``data`` on the scalar engine from its deal, playing each row's
    action (and the only move where there is one), and check each row's move text is
    ``str`` of the move played.  The number of rows checked.
    """
    checked = 0
    for index in sorted(set(data["game"].tolist())):
        rows = np.flatnonzero(data["game"] == index)
        deal = derive_seed(derive_seed(seed, index), 0) if batch else match_seed(seed, index, 2)
        state = bendolib.new_game(SHORT, players, deal)
        for row in rows:
            while len(bendolib.legal_moves(state)) == 1:
                state = bendolib.apply(state, bendolib.legal_moves(state)[0])
            legal = bendolib.legal_moves(state)
            assert int(data["move"][row]) == len(state.history)
            move = move_of(int(data["action"][row]), legal, SHORT, state.board)
            assert data["move_text"][row] == str(move)
            state = bendolib.apply(state, move)
            checked += 1
    return checked


@pytest.mark.parametrize("fmt", ["parquet", "npz"])
@pytest.mark.parametrize("batch", [False, True], ids=["scalar", "batch"])
def test_move_text_is_the_move_played(tmp_path: Path, batch: bool, fmt: str) -> None:
    play(tmp_path, batch, fmt, games=3)
    data = selfplay.load(tmp_path)
    assert data["move_text"].dtype.kind == "U"
    assert replay_texts(data, batch, seed=7) == len(data["action"]) > 0


@pytest.mark.parametrize(
    "name", ["basic", "all-five", "bendo-all-in-actions", "classic-draw", "domino-pairs"]
)
def test_the_batch_text_of_each_action_is_str_of_its_move(name: str) -> None:
    """
    The batched path names a move by its action alone (``_action_texts``): on a chain
    rule set, every legal move of random playouts is ``str`` of its table entry.
    """
    ruleset = rules.get(name)
    texts = selfplay._action_texts(ruleset)
    rng = random.Random(name)
    players = ruleset.player_counts[-1]
    seen = 0
    for seed in range(3):
        state = bendolib.new_game(ruleset, players, seed)
        for _ in range(300):
            legal = bendolib.legal_moves(state)
            if not legal:
                break
            for move in legal:
                assert texts[action_index(move, ruleset, state.board)] == str(move)
                seen += 1
            state = bendolib.apply(state, rng.choice(legal))
    assert seen > 100


def test_a_folder_of_version_2_is_read_and_played_again(tmp_path: Path) -> None:
    """Before version 3: ``selfplay.json``, no move_text (read as ""), resumed in full."""
    play(tmp_path, False, "npz", games=2)
    whole = selfplay.load(tmp_path)
    manifest = json.loads((tmp_path / selfplay.MANIFEST).read_text())
    manifest["version"] = 2
    for name, entry in manifest["shards"].items():
        with np.load(tmp_path / name) as stored:
            old = {k: stored[k] for k in stored.files if k != "move_text"}
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **old)
        content = buffer.getvalue()
        (tmp_path / name).write_bytes(content)
        entry.update(bytes=len(content), sha256=hashlib.sha256(content).hexdigest())
    (tmp_path / selfplay.MANIFEST).unlink()
    (tmp_path / selfplay.OLD_MANIFEST).write_text(json.dumps(manifest))
    data = selfplay.load(tmp_path)
    assert data["move_text"].tolist() == [""] * len(data["action"])
    assert np.array_equal(data["observation"], whole["observation"])
    play(tmp_path, False, "npz", games=2)
    assert not (tmp_path / selfplay.OLD_MANIFEST).exists()
    assert selfplay.load(tmp_path)["move_text"].tolist() == whole["move_text"].tolist()


@pytest.mark.parametrize("batch", [False, True], ids=["scalar", "batch"])
def test_the_packing_the_metadata_describes_reads_with_numpy_alone(
    tmp_path: Path, batch: bool
) -> None:
    """
    The packed columns read as the schema metadata says (``packing``: bits 8 to a byte,
    least significant first, then little-endian int32), without bendolib's decode.
    """
    play(tmp_path, batch)
    import pyarrow.parquet as pq

    table = pq.read_table(tmp_path)
    meta = json.loads(table.schema.metadata[selfplay.SCHEMA_KEY.encode()])
    size, bits, actions = meta["observation_size"], meta["observation_bits"], meta["action_count"]
    whole = selfplay.load(tmp_path)
    raw = b"".join(table.column("observation").to_pylist())
    rows = np.frombuffer(raw, np.uint8).reshape(table.num_rows, -1)
    head = (bits + 7) // 8
    packed_bits = np.unpackbits(rows[:, :head], axis=1, bitorder="little")
    assert not packed_bits[:, bits:].any()  # the padding is zeros
    ints = np.frombuffer(rows[:, head:].tobytes(), "<i4").reshape(-1, size - bits)
    assert np.array_equal(np.hstack([packed_bits[:, :bits], ints]), whole["observation"])
    raw = b"".join(table.column("legal").to_pylist())
    legal = np.unpackbits(
        np.frombuffer(raw, np.uint8).reshape(table.num_rows, -1), axis=1, bitorder="little"
    )
    assert not legal[:, actions:].any()
    assert np.array_equal(legal[:, :actions], whole["legal"])


def test_decode_needs_a_table_with_the_metadata() -> None:
    pa = pytest.importorskip("pyarrow", reason="Parquet needs the selfplay extra")
    with pytest.raises(TypeError, match=r"pyarrow\.Table"):
        selfplay.decode({"observation": []})
    with pytest.raises(selfplay.SelfplayError, match=r"no bendolib\.selfplay schema metadata"):
        selfplay.decode(pa.table({"action": [1, 2]}))


def test_a_folder_of_version_3_is_read_and_played_again(tmp_path: Path) -> None:
    """Version 3 wrote ``observation`` and ``legal`` as fixed-size lists: still read."""
    play(tmp_path, False, games=2)
    import pyarrow as pa
    import pyarrow.parquet as pq

    whole = selfplay.load(tmp_path)
    manifest = json.loads((tmp_path / selfplay.MANIFEST).read_text())
    manifest["version"] = 3
    for name, entry in manifest["shards"].items():
        table = pq.read_table(tmp_path / name)
        meta = json.loads(table.schema.metadata[selfplay.SCHEMA_KEY.encode()])
        del meta["observation_bits"], meta["packing"]
        meta["version"] = 3
        columns = selfplay.decode(table)
        for wide in ("observation", "legal"):
            flat = pa.array(columns[wide].reshape(-1))
            lists = pa.FixedSizeListArray.from_arrays(flat, columns[wide].shape[1])
            table = table.set_column(table.schema.get_field_index(wide), wide, lists)
        table = table.replace_schema_metadata({selfplay.SCHEMA_KEY: json.dumps(meta)})
        buffer = io.BytesIO()
        pq.write_table(table, buffer)
        content = buffer.getvalue()
        (tmp_path / name).write_bytes(content)
        entry.update(bytes=len(content), sha256=hashlib.sha256(content).hexdigest())
    (tmp_path / selfplay.MANIFEST).write_text(json.dumps(manifest))
    assert pa.types.is_fixed_size_list(pq.read_schema(tmp_path / name).field("legal").type)
    data = selfplay.load(tmp_path)
    assert all(np.array_equal(data[k], whole[k]) for k in selfplay.COLUMNS)
    assert data["observation"].dtype == np.int32 and data["legal"].dtype == np.uint8
    play(tmp_path, False, games=2)  # resumed: played again, in the new layout
    assert pa.types.is_fixed_size_binary(pq.read_schema(tmp_path / name).field("legal").type)
    data = selfplay.load(tmp_path)
    assert all(np.array_equal(data[k], whole[k]) for k in selfplay.COLUMNS)


def _chain_cases() -> list[tuple[str, int]]:
    from bendolib.encoding import on_cells

    return [
        (name, players)
        for name in rules.names()
        if not on_cells(rules.get(name))
        for players in rules.get(name).player_counts
    ]


@pytest.mark.parametrize(("name", "players"), _chain_cases())
def test_batch_rows_read_back_exactly_for_every_rule_set(
    tmp_path: Path, name: str, players: int
) -> None:
    """
    Every chain rule set and player count the batch serves: the Parquet shards (packed
    columns, finished games standing still) read back as the rows the batched games
    show when every game is stepped to its end, decision by decision.
    """
    pytest.importorskip("pyarrow", reason="Parquet needs the selfplay extra")
    needs(True)
    from bendolib.tournament import match_seats
    from bendolib.vector import POLICIES, VectorGames

    ruleset = rules.get(name, target=min(rules.get(name).match.target, 20))
    bots = ["greedy", "random", "random", "greedy"][:players]
    games = 3
    selfplay.selfplay(ruleset, bots, games, tmp_path, seed=2, shard_games=2, batch=True)
    data = selfplay.load(tmp_path)
    batch = VectorGames(
        ruleset,
        games,
        players,
        seeds=np.array([derive_seed(2, i) for i in range(games)], dtype=np.uint64),
        episode="match",
        skip_forced=True,
    )
    codes = np.array(
        [[POLICIES.index(bots[e]) for e in match_seats(i, players)] for i in range(games)]
    )
    rows: dict[int, list[tuple[Any, ...]]] = {i: [] for i in range(games)}
    playing = np.ones(games, dtype=bool)
    while playing.any():
        actions = batch.core_actions(codes)
        for g in np.flatnonzero(playing):
            rows[g].append((batch.obs[g].copy(), batch.action_mask[g].copy(), actions[g]))
        batch.step(actions)  # every game: the finished ones play on, unrecorded
        playing &= ~batch.terminated
    expected = [row for g in range(games) for row in rows[g]]
    assert len(expected) == len(data["action"]) > 0
    assert data["game"].tolist() == [g for g in range(games) for _ in rows[g]]
    assert np.array_equal(data["observation"], np.array([r[0] for r in expected]))
    assert np.array_equal(data["legal"], np.array([r[1] for r in expected], dtype=np.uint8))
    assert data["action"].tolist() == [int(r[2]) for r in expected]


@pytest.mark.parametrize("name", ["triominoes", "triangle-dominoes"])
def test_triangle_rows_read_back_exactly(tmp_path: Path, name: str) -> None:
    """
    The scalar path on the triangle games (cells and sites: negative ints after the
    bits): the Parquet shards read back as the ``.npz`` ones, which hold the arrays as
    they are.
    """
    pytest.importorskip("pyarrow", reason="Parquet needs the selfplay extra")
    ruleset = rules.get(name, target=min(rules.get(name).match.target, 20))
    for fmt in ("parquet", "npz"):
        selfplay.selfplay(
            ruleset,
            ["greedy", "random"],
            2,
            tmp_path / fmt,
            seed=3,
            file_format=fmt,
            executor=SerialExecutor(),
        )
    parquet, npz = selfplay.load(tmp_path / "parquet"), selfplay.load(tmp_path / "npz")
    assert (npz["observation"] < 0).any()  # the int32 part holds negatives
    for column in selfplay.COLUMNS:
        assert parquet[column].dtype == npz[column].dtype, column
        assert np.array_equal(parquet[column], npz[column]), column


def test_batch_rows_are_the_same_whatever_the_packing_buffer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows gathered are packed a buffer at a time: a buffer of one step gives the same."""
    play(tmp_path / "one", True, games=5)
    monkeypatch.setattr(selfplay._Rows, "BUFFER_BYTES", 1)  # room for one step's rows
    play(tmp_path / "many", True, games=5)
    one, many = selfplay.load(tmp_path / "one"), selfplay.load(tmp_path / "many")
    assert all(np.array_equal(one[k], many[k]) for k in selfplay.COLUMNS)
    assert (tmp_path / "one" / "games-00000000-00000001.parquet").read_bytes() == (
        tmp_path / "many" / "games-00000000-00000001.parquet"
    ).read_bytes()


def test_batch_files_are_the_same_however_shards_are_grouped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """
    ``batch=True`` plays whole shards together, up to ``BATCH_GAMES`` games: the shards
    are the same bytes whether played together, one by one, or resumed around kept ones.
    """
    play(tmp_path / "together", True, games=7)  # 4 shards, one batch
    monkeypatch.setattr(selfplay, "BATCH_GAMES", 1)  # one shard a batch
    play(tmp_path / "apart", True, games=7)
    names = sorted(p.name for p in (tmp_path / "together").glob("games-*"))
    assert len(names) == 4
    for name in names:
        together = (tmp_path / "together" / name).read_bytes()
        assert (tmp_path / "apart" / name).read_bytes() == together, name
    monkeypatch.setattr(selfplay, "BATCH_GAMES", 5)  # shards 0 and 2 (games 0, 1, 4, 5)
    for name in (names[0], names[2]):
        (tmp_path / "apart" / name).unlink()
    play(tmp_path / "apart", True, games=7)
    for name in names:
        together = (tmp_path / "together" / name).read_bytes()
        assert (tmp_path / "apart" / name).read_bytes() == together, name
    assert selfplay.load(tmp_path / "apart")["game"].tolist() == sorted(
        selfplay.load(tmp_path / "apart")["game"].tolist()
    )
