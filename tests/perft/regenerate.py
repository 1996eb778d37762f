"""Regenerate the frozen perft vectors (run only when a rule change is intended).

PYTHONPATH=src python tests/perft/regenerate.py > tests/perft/basic.perft
PYTHONPATH=src python tests/perft/regenerate.py triangles > tests/perft/triangles.perft
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from perft_core import (
    ALONG,
    POSITIONS,
    TRIANGLE_ALONG,
    TRIANGLE_POSITIONS,
    along_counts,
    perft,
    start_position,
)


def main() -> None:
    triangles = sys.argv[1:] == ["triangles"]
    positions, along = (TRIANGLE_POSITIONS, TRIANGLE_ALONG) if triangles else (POSITIONS, ALONG)
    print("# bendolib perft vectors: move-tree sizes from fixed seeded positions.")
    print("# Regenerate with tests/perft/regenerate.py only for an intended rule change.")
    for rules, players, seed, prefix, depth in positions:
        state = start_position(rules, players, seed, prefix)
        print()
        print(f"id {rules}-{players}p-seed{seed}-after{prefix}")
        print(f"position {rules} {players} {seed} {prefix}")
        for d in range(1, depth + 1):
            print(f"perft {d} {perft(state, d)}")
    for rules, players, seed, moves in along:
        counts = along_counts(rules, players, seed, moves)
        print()
        print(f"id {rules}-{players}p-seed{seed}-along")
        print(f"along {rules} {players} {seed} {' '.join(map(str, counts))}")


if __name__ == "__main__":
    main()
