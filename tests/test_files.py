"""Files written atomically (bendolib._files): permissions, and nothing left on failure."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

import pytest

from bendolib._files import write_atomically


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_file_gets_the_umasks_permissions_not_0600(tmp_path: Path) -> None:
    """A temporary file is 0600; the file it becomes is what ``open`` would have made."""
    old = os.umask(0o022)
    try:
        target = tmp_path / "out.txt"
        write_atomically(str(target), lambda out: out.write(b"hello"))
        assert target.read_bytes() == b"hello"
        assert mode_of(target) == 0o644
    finally:
        os.umask(old)


def test_a_rewritten_file_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")
    target.chmod(0o640)
    write_atomically(str(target), lambda out: out.write(b"new"), durable=False)
    assert (target.read_bytes(), mode_of(target)) == (b"new", 0o640)


@pytest.mark.parametrize("failure", [OSError("disk full"), KeyboardInterrupt()])
def test_a_failed_write_leaves_the_old_file_and_nothing_else(
    tmp_path: Path, failure: BaseException
) -> None:
    """Principle "nothing is lost": an error or Ctrl-C while writing changes nothing."""
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")

    def fail(out: BinaryIO) -> None:
        out.write(b"half")
        raise failure

    with pytest.raises(type(failure)):
        write_atomically(str(target), fail)
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_selfplay_files_are_readable_as_the_umask_allows(tmp_path: Path) -> None:
    """Self-play shards and its manifest were 0600 (from mkstemp)."""
    pytest.importorskip("numpy")
    from bendolib.selfplay import selfplay

    old = os.umask(0o022)
    try:
        selfplay("basic", ["random", "random"], 2, tmp_path / "play", file_format="npz")
        files = [p for p in (tmp_path / "play").iterdir() if p.is_file()]
        assert files and all(mode_of(p) == 0o644 for p in files), [
            (p.name, oct(mode_of(p))) for p in files
        ]
    finally:
        os.umask(old)
