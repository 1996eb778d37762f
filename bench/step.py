"""Random playouts through the step API, this source tree against another, interleaved.

    python bench/step.py --previous /path/to/other/checkout/src [--pairs 7]
    python bench/step.py --previous ../old/src --rules basic:2,domino-pairs:4 --rounds 300

Each measurement is a fresh process (``PYTHONPATH`` = one tree's ``src``) that plays
``--rounds`` random rounds through ``legal_moves`` + ``apply`` (seeds 0, 1, ...; moves
chosen by ``random.Random(7)``, so both trees play the very same moves) after a warm-up
of as many rounds, and reports its CPU time.  The two trees run alternately, A B A B
..., ``--pairs`` times per rule set; the script prints playouts per CPU second of each
(min / median / max) and the ratio new / previous of each pair (min / median / max).
``--previous`` may be omitted: then only this tree is timed.  Set
``BENDOLIB_PURE_PYTHON=1`` to time both without the compiled kernel.  Plain script: it
asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"


def child(name: str, players: int, rounds: int, warmup: int) -> None:
    """Play the rounds and print {"cpu": seconds, "moves": n} (run in a fresh process)."""
    import random

    import bendolib

    rules = bendolib.rules.get(name)
    legal_moves, apply = bendolib.legal_moves, bendolib.apply

    def play(first: int, rounds: int) -> int:
        rng = random.Random(7)
        moves = 0
        for seed in range(first, first + rounds):
            state = bendolib.new_game(rules, players, seed)
            while not state.is_round_over:
                legal = legal_moves(state)
                state = apply(state, legal[rng.randrange(len(legal))])
                moves += 1
        return moves

    play(10_000, warmup)  # other deals, so that the memo tables are as in a long run
    start = time.process_time()
    moves = play(0, rounds)
    print(json.dumps({"cpu": time.process_time() - start, "moves": moves}))


def measure(
    src: Path, name: str, players: int, rounds: int, instructions: bool
) -> tuple[float, int]:
    """
    Playouts per CPU second of one fresh process on the tree ``src`` (or, with
    ``instructions``, user-space instructions per playout), and its moves.
    """
    env = dict(os.environ, PYTHONPATH=str(src))
    args = [sys.executable, __file__, "--child", name, str(players)]
    if not instructions:
        out = subprocess.run(
            [*args, str(rounds), str(rounds)], env=env, check=True, capture_output=True, text=True
        ).stdout
        found = json.loads(out.strip().splitlines()[-1])
        return rounds / found["cpu"], found["moves"]
    # perf counts the whole process: the same process without the timed rounds is
    # subtracted
    counts = []
    moves = 0
    for timed in (0, rounds):
        perf = ["perf", "stat", "-x", ",", "-e", "instructions:u"]
        run = subprocess.run(
            [*perf, *args, str(timed), str(rounds)],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        line = next(x for x in run.stderr.splitlines() if "instructions" in x)
        counts.append(int(line.split(",")[0]))
        moves = json.loads(run.stdout.strip().splitlines()[-1])["moves"]
    return (counts[1] - counts[0]) / rounds, moves


def spread(values: list[float], digits: int = 0) -> str:
    """min / median / max."""
    return " / ".join(
        f"{v:.{digits}f}" for v in (min(values), statistics.median(values), max(values))
    )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
        return
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--previous", type=Path, help="the other tree's src directory")
    parser.add_argument("--rules", default="basic:2,domino-pairs:4")
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count user-space instructions per playout with Linux perf instead of CPU time",
    )
    args = parser.parse_args()
    pure = os.environ.get("BENDOLIB_PURE_PYTHON", "") not in ("", "0")
    unit = "instructions per playout" if args.instructions else "playouts per CPU second"
    print(
        f"step API {unit}, {args.rounds} rounds a process"
        f"{' (BENDOLIB_PURE_PYTHON=1)' if pure else ''}; min / median / max"
    )
    for item in args.rules.split(","):
        name, _, count = item.partition(":")
        players = int(count or 2)
        new: list[float] = []
        old: list[float] = []
        for _ in range(args.pairs):
            rate, moves = measure(HERE, name, players, args.rounds, args.instructions)
            new.append(rate)
            if args.previous is not None:
                before, moves_before = measure(
                    args.previous, name, players, args.rounds, args.instructions
                )
                if moves_before != moves:
                    sys.exit(
                        f"{name}: the trees played other games ({moves_before}, {moves} moves)"
                    )
                old.append(before)
        line = f"{name} {players}p: this tree {spread(new)}"
        if old:
            pairs = zip(new, old, strict=True)
            ratios = [b / a if args.instructions else a / b for a, b in pairs]
            line += f"; previous {spread(old)}; ratio {spread(ratios, 2)}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
