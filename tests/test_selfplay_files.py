"""
Self-play files are verified before they are trusted (issue 22, N2): "resume accepts a
truncated, random, empty or foreign shard as done; load() then raises non-library
errors; a 941-byte manifest with games=10**7 costs 78 s and 1.2 GB; bad directories raise
raw OSError; --out "" writes into the current directory; Ctrl-C with --jobs 1 leaves a
.partial file. Shards are verified (count and checksum in the manifest) before being
trusted, the manifest is bounded, and nothing is left half-written."
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np: Any = pytest.importorskip("numpy", reason="self-play needs numpy")

from bendolib import BendolibError, rules, selfplay  # noqa: E402
from bendolib.runner import SerialExecutor  # noqa: E402
from cli_driver import child_env, run  # noqa: E402

SHORT = rules.get("basic", target=30)


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def play(
    folder: Path, games: int = 4, fmt: str = "npz", **options: Any
) -> selfplay.SelfplaySummary:
    """The 2-game-shard run of these tests, in ``folder``."""
    if fmt == "parquet" and not _has_pyarrow():
        pytest.skip("Parquet needs the selfplay extra (pyarrow)")
    return selfplay.selfplay(
        SHORT,
        ["greedy", "random"],
        games,
        folder,
        seed=5,
        shard_games=2,
        file_format=fmt,  # type: ignore[arg-type]
        executor=SerialExecutor(),
        **options,
    )


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(np.array_equal(a[k], b[k]) for k in selfplay.COLUMNS)


def foreign_npz() -> bytes:
    """A well-formed .npz of other arrays."""
    stream = io.BytesIO()
    np.savez_compressed(stream, weights=np.arange(10))
    return stream.getvalue()


#: What a bad shard can hold, made from the good shard's bytes.
DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "truncated": lambda good: good[: len(good) // 2],
    "random": lambda good: os.urandom(len(good)),
    "empty": lambda good: b"",
    "foreign": lambda good: foreign_npz(),
    "one byte changed": lambda good: good[:-40] + bytes([good[-40] ^ 1]) + good[-39:],
}


@pytest.mark.parametrize("fmt", ["npz", "parquet"])
@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_resume_plays_a_bad_shard_again(tmp_path: Path, damage: str, fmt: str) -> None:
    """A shard that does not match its size and SHA-256 is not trusted: it is played again."""
    whole = tmp_path / "whole"
    play(whole, fmt=fmt)
    folder = tmp_path / "damaged"
    play(folder, fmt=fmt)
    shard = sorted(folder.glob("games-*"))[1]
    shard.write_bytes(DAMAGE[damage](shard.read_bytes()))
    with pytest.raises(selfplay.SelfplayError, match="does not match its size and SHA-256"):
        selfplay.load(folder)
    summary = play(folder, fmt=fmt)
    assert summary.rejected == (shard.name,)
    assert summary.games_before == 2 and summary.games == 2
    assert same(selfplay.load(folder), selfplay.load(whole))


def rewrite_entry(folder: Path, shard: Path, content: bytes, rows: int | None = None) -> None:
    """Replace ``shard`` by ``content`` and make the manifest's entry match it."""
    shard.write_bytes(content)
    manifest = json.loads((folder / selfplay.MANIFEST).read_text())
    entry = manifest["shards"][shard.name]
    entry["bytes"], entry["sha256"] = len(content), hashlib.sha256(content).hexdigest()
    if rows is not None:
        entry["rows"] = rows
    (folder / selfplay.MANIFEST).write_text(json.dumps(manifest))


@pytest.mark.parametrize("fmt", ["npz", "parquet"])
@pytest.mark.parametrize("damage", ["truncated", "random", "empty", "foreign"])
def test_load_raises_only_library_errors_for_a_bad_shard_listed_as_good(
    tmp_path: Path, damage: str, fmt: str
) -> None:
    """Even with its checksum in the manifest, a shard that is not one is a SelfplayError."""
    play(tmp_path, fmt=fmt)
    shard = sorted(tmp_path.glob("games-*"))[0]
    rewrite_entry(tmp_path, shard, DAMAGE[damage](shard.read_bytes()))
    with pytest.raises(selfplay.SelfplayError, match="cannot read the shard"):
        selfplay.load(tmp_path)


def test_load_checks_the_count_of_rows(tmp_path: Path) -> None:
    play(tmp_path)
    shard = sorted(tmp_path.glob("games-*"))[0]
    rows = len(selfplay.load(tmp_path)["action"])
    rewrite_entry(tmp_path, shard, shard.read_bytes(), rows=rows + 1)
    with pytest.raises(selfplay.SelfplayError, match="rows"):
        selfplay.load(tmp_path)


def test_a_shard_whose_columns_have_other_shapes_is_refused(tmp_path: Path) -> None:
    play(tmp_path)
    shard = sorted(tmp_path.glob("games-*"))[0]
    with np.load(shard) as stored:
        columns = {name: stored[name] for name in selfplay.COLUMNS}
    columns["observation"] = columns["observation"][:, :5]
    stream = io.BytesIO()
    np.savez_compressed(stream, **columns)
    rewrite_entry(tmp_path, shard, stream.getvalue())
    with pytest.raises(selfplay.SelfplayError, match="shape"):
        selfplay.load(tmp_path)


def test_a_huge_game_count_is_refused_at_once(tmp_path: Path) -> None:
    """The 941-byte manifest with games=10**7 that took 78 s: refused in milliseconds."""
    play(tmp_path)
    manifest = json.loads((tmp_path / selfplay.MANIFEST).read_text())
    for games, shard_games, limit in (
        (10**7, 2, "at most 10,000"),
        (10**9, 10**6, "from 0 to 100,000,000"),
        (10**4000, 1, "from 0 to 100,000,000"),
    ):
        manifest.update(games=games, shard_games=shard_games)
        (tmp_path / selfplay.MANIFEST).write_text(json.dumps(manifest))
        started = time.process_time()
        with pytest.raises(selfplay.SelfplayError, match=limit):
            selfplay.load(tmp_path)
        assert time.process_time() - started < 0.5
    with pytest.raises(selfplay.SelfplayError, match="at most 10,000"):
        play(tmp_path / "new", games=10**7)


def test_a_manifest_longer_than_the_limit_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / selfplay.MANIFEST).write_bytes(b" " * (selfplay.MAX_MANIFEST_BYTES + 1))
    with pytest.raises(selfplay.SelfplayError, match="longer than 4,194,304 bytes"):
        selfplay.load(tmp_path)
    (tmp_path / selfplay.MANIFEST).write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(selfplay.SelfplayError, match="cannot read"):
        selfplay.load(tmp_path)


#: Values a manifest's fields might hold.
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=60)
@given(
    st.sampled_from(
        [
            "games",
            "shard_games",
            "file_format",
            "observation_size",
            "action_count",
            "shards",
            "version",
            "format",
            "layout",
        ]
    ),
    ANY_JSON,
)
def test_any_manifest_field_gives_data_or_a_library_error(
    tmp_path_factory: pytest.TempPathFactory, field: str, value: Any
) -> None:
    folder = good_run(tmp_path_factory)
    manifest = json.loads((folder / selfplay.MANIFEST).read_text())
    manifest[field] = value
    changed = tmp_path_factory.mktemp("changed")
    for shard in folder.glob("games-*"):
        (changed / shard.name).write_bytes(shard.read_bytes())
    (changed / selfplay.MANIFEST).write_text(json.dumps(manifest))
    try:
        data = selfplay.load(changed)
    except BendolibError:
        return
    assert set(data) == set(selfplay.COLUMNS)


_GOOD: list[Path] = []


def good_run(factory: pytest.TempPathFactory) -> Path:
    """One run shared by the examples of the property above."""
    if not _GOOD:
        _GOOD.append(factory.mktemp("good"))
        play(_GOOD[0])
    return _GOOD[0]


def test_bad_directories_are_library_errors(tmp_path: Path) -> None:
    """A file, a path through a file, an empty path, a NUL: SelfplayError, never OSError."""
    file = tmp_path / "file"
    file.write_text("x")
    for bad, message in (
        (file, "cannot use"),
        (file / "inside", "cannot use"),
        ("", "needs a name"),
        (str(tmp_path / "a\0b"), "NUL"),
    ):
        with pytest.raises(selfplay.SelfplayError, match=message):
            play(bad)  # type: ignore[arg-type]
    for bad, message in (
        (file, "is a file"),
        (file / "inside", "cannot use|no "),
        (tmp_path / "missing", "there is no"),
        ("", "needs a name"),
    ):
        with pytest.raises(selfplay.SelfplayError, match=message):
            selfplay.load(bad)
    (tmp_path / "run" / selfplay.MANIFEST).mkdir(parents=True)  # the manifest a directory
    with pytest.raises(selfplay.SelfplayError, match="cannot read"):
        selfplay.load(tmp_path / "run")
    with pytest.raises(TypeError, match="a str or a path"):
        selfplay.load(5)  # type: ignore[arg-type]


def test_out_empty_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bendolib selfplay --out ""`` wrote into the current directory."""
    monkeypatch.chdir(tmp_path)
    argv = ["selfplay", "--bots", "greedy", "--games", "1", "--jobs", "1", "--quiet"]
    status, _out, err = run([*argv, "--format", "npz", "--out", ""], capsys, monkeypatch)
    assert status == 2 and err.startswith("bendolib: ") and "needs a name" in err
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_while_a_shard_is_written_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in the middle of writing (the main process writes with --jobs 1)."""
    real = np.savez_compressed
    calls = {"n": 0}

    def interrupted(stream: Any, **arrays: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 2:  # the second shard: half written, then Ctrl-C
            stream.write(b"PK\x03\x04 half a zip file")
            raise KeyboardInterrupt
        real(stream, **arrays)

    monkeypatch.setattr(np, "savez_compressed", interrupted)
    with pytest.raises(selfplay.SelfplayInterrupted) as caught:
        play(tmp_path)
    assert caught.value.summary.games == 2
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(["games-00000000-00000001.npz", selfplay.MANIFEST])
    monkeypatch.setattr(np, "savez_compressed", real)
    assert play(tmp_path).games_before == 2


def test_the_manifest_lists_each_shard_with_its_count_and_checksum(tmp_path: Path) -> None:
    play(tmp_path, games=3)
    manifest = json.loads((tmp_path / selfplay.MANIFEST).read_text())
    # version 3: the move_text column; 4: packed Parquet columns (issue 23 point 3, speed)
    assert manifest["version"] == 4
    rows = len(selfplay.load(tmp_path)["action"])
    assert sorted(manifest["shards"]) == sorted(p.name for p in tmp_path.glob("games-*"))
    assert sum(e["rows"] for e in manifest["shards"].values()) == rows
    for name, entry in manifest["shards"].items():
        content = (tmp_path / name).read_bytes()
        assert entry["bytes"] == len(content)
        assert entry["sha256"] == hashlib.sha256(content).hexdigest()
    assert [e["games"] for _, e in sorted(manifest["shards"].items())] == [2, 1]


def test_a_version_1_directory_is_read_and_resumed_by_playing_it_again(tmp_path: Path) -> None:
    play(tmp_path)
    whole = selfplay.load(tmp_path)
    manifest = json.loads((tmp_path / selfplay.MANIFEST).read_text())
    manifest["version"] = 1
    del manifest["shards"]
    (tmp_path / selfplay.MANIFEST).write_text(json.dumps(manifest))
    assert same(selfplay.load(tmp_path), whole)
    summary = play(tmp_path)
    assert summary.games_before == 0 and len(summary.rejected) == 2
    assert same(selfplay.load(tmp_path), whole)


def test_ctrl_c_on_the_command_line_leaves_only_whole_files(tmp_path: Path) -> None:
    """``bendolib selfplay --jobs 1`` stopped by SIGINT: every file left is whole and listed."""
    argv = ["selfplay", "--bots", "greedy", "--games", "10000", "--shard-games", "1"]
    argv += ["--jobs", "1", "--format", "npz", "--out", str(tmp_path), "--param", "target=30"]
    child = subprocess.Popen(
        [sys.executable, "-m", "bendolib", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
        start_new_session=True,
    )
    assert child.stderr is not None
    child.stderr.readline()  # the first line of progress: the run has started
    time.sleep(1.0)
    os.killpg(child.pid, signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    manifest = json.loads((tmp_path / selfplay.MANIFEST).read_text())
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted([selfplay.MANIFEST, *manifest["shards"]])  # no .partial, none unlisted
    assert len(selfplay.load(tmp_path)["game"]) > 0


@pytest.mark.parametrize("batch", [False, True], ids=["scalar", "batch"])
@pytest.mark.parametrize("stop", [False, True], ids=["done", "ctrl-c"])
def test_the_manifest_is_rewritten_at_most_every_second_and_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: bool, batch: bool
) -> None:
    """
    A long run rewrote its growing manifest after every shard (quadratic in shards):
    now at most every ``MANIFEST_SECONDS``, and always at the end, Ctrl-C included, so
    that it lists every shard written.
    """
    writes: list[int] = []
    real = selfplay._write_manifest

    def counted(path: Path, manifest: dict[str, Any]) -> None:
        writes.append(len(manifest["shards"]))
        real(path, manifest)

    monkeypatch.setattr(selfplay, "_write_manifest", counted)
    monkeypatch.setattr(selfplay, "MANIFEST_SECONDS", 3600.0)

    def progress(done: int, total: int) -> None:
        if stop and done >= 6:
            raise KeyboardInterrupt  # Ctrl-C once 3 shards are written

    if batch:
        from bendolib.vector import unsupported_reason

        if unsupported_reason(SHORT, 2) is not None:
            pytest.skip(f"no batched games: {unsupported_reason(SHORT, 2)}")
    if stop:
        with pytest.raises(selfplay.SelfplayInterrupted):
            play(tmp_path, games=10, progress=progress, batch=batch)
    else:
        play(tmp_path, games=10, progress=progress, batch=batch)
    listed = json.loads((tmp_path / selfplay.MANIFEST).read_text())["shards"]
    assert sorted(listed) == sorted(p.name for p in tmp_path.glob("games-*"))
    assert len(listed) == (3 if stop else 5)
    assert writes == [0, len(listed)]  # at the start and at the end only
    monkeypatch.setattr(selfplay, "MANIFEST_SECONDS", 0.0)
    writes.clear()
    play(tmp_path / "each", games=6, batch=batch)
    assert writes == [0, 1, 2, 3]  # 0 s: after every shard
