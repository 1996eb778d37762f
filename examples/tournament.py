"""A three-player tournament of the built-in bots, on worker processes, with progress."""

from __future__ import annotations

import bendolib
from bendolib import bots
from bendolib.tournament import run_tournament


def main() -> None:
    rules = bendolib.rules.get("basic", target=30)
    entrants = [bots.get("random"), bots.get("greedy"), bots.get("search", worlds=2)]
    result = run_tournament(
        rules,
        entrants,
        matches=6,
        seed=42,
        progress=lambda done, total: print(f"{done}/{total} matches"),
    )
    print(result.table())
    print(result.to_dict()["standings"][2]["win_rate"])


if __name__ == "__main__":
    main()
