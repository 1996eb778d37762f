"""Regression vectors (like chess perft): move-tree sizes from fixed seeded positions and
legal-move counts along fixed games, frozen in tests/perft/*.perft."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "perft"))

from perft_core import along_counts, perft, start_position

VECTORS = Path(__file__).resolve().parent / "perft"


def load() -> list[tuple[str, list[str], list[list[str]]]]:
    """(id, header fields, expectations) of every vector in the .perft files."""
    vectors: list[tuple[str, list[str], list[list[str]]]] = []
    for path in sorted(VECTORS.glob("*.perft")):
        for block in path.read_text().split("\n\n"):
            lines = [ln.split() for ln in block.splitlines() if ln and not ln.startswith("#")]
            if not lines:
                continue
            assert lines[0][0] == "id", f"{path}: a vector starts with 'id'"
            vectors.append((lines[0][1], lines[1], lines[2:]))
    return vectors


@pytest.mark.parametrize(("name", "header", "expected"), load(), ids=lambda v: str(v)[:40])
def test_perft_vector(name: str, header: list[str], expected: list[list[str]]) -> None:
    kind, rules, players, seed = header[0], header[1], int(header[2]), int(header[3])
    if kind == "position":
        state = start_position(rules, players, seed, int(header[4]))
        for _, depth, count in expected:
            assert perft(state, int(depth)) == int(count), f"{name} perft {depth}"
    else:
        assert kind == "along"
        frozen = [int(c) for c in header[4:]]
        assert along_counts(rules, players, seed, 80) == frozen, name


def test_perft_files_are_not_empty() -> None:
    assert len(load()) >= 9
