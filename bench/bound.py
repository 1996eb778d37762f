"""The compiled kernel's random playouts against a plain C port of the Basic rules.

    python bench/bound.py [--rounds 7] [--count 20000] [--fresh 3000] [--players 2,4]
    python bench/bound.py --check [--deals 300] [--playouts 10]

``bench/cbound/basic.c`` plays Basic Bendominoes in plain C (the same deal, the same
order of the legal moves and the same random draws as bendolib), compiled here with
``gcc -O2``: the bound a playout engine for these rules can reach on this machine.
``--check`` first compares it move for move with ``bendolib.playouts.playouts``
(``record=True``: every choice, the move count and the scores of every playout, on
``--deals`` deals x ``--playouts`` playouts each, per player count) and stops.

The timing takes turns, round after round, so that both sides see the same load:

* ``many``: ``--count`` playouts from one dealt position in one call;
* ``fresh``: for each of ``--fresh`` seeds, a fresh deal (``new_game``) and one call that
  plays one playout from it (the C side deals and plays the same).

Each round gives the ratio C time / bendolib time per playout (1.0: at the bound); the
script prints min / median / max over the rounds, with the microseconds per playout
(CPU time: ``time.process_time`` here, ``CLOCK_PROCESS_CPUTIME_ID`` in C).  Plain
script: asserts nothing, except in ``--check``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bendolib import new_game
from bendolib.playouts import playouts
from bendolib.rules import BASIC

SOURCE = Path(__file__).resolve().parent / "cbound" / "basic.c"


def build() -> Path:
    """The C port, compiled with gcc -O2 into a temporary directory."""
    out = Path(tempfile.mkdtemp(prefix="cbound-")) / "basic"
    subprocess.run(["gcc", "-O2", "-o", str(out), str(SOURCE)], check=True)
    return out


def check(binary: Path, players: int, deals: int, count: int) -> int:
    """Compare every playout with bendolib's; the number of playouts compared."""
    lines = subprocess.run(
        [str(binary), "check", str(players), str(deals), str(count)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    assert len(lines) == deals * count, (len(lines), deals * count)
    at = 0
    for deal in range(deals):
        state = new_game(BASIC, players, seed=deal)
        for j, out in enumerate(playouts(state, count, seed=deal, record=True)):
            fields = [int(x) for x in lines[at].split()]
            at += 1
            ours = [deal, j, out.moves, *out.scores, *(out.choices or ())]
            assert fields == ours, f"deal {deal} playout {j}: C {fields} bendolib {ours}"
    return at


def c_time(binary: Path, mode: str, players: int, seed: int, count: int) -> float:
    """Microseconds per playout of the C port (its own CPU clock)."""
    text = subprocess.run(
        [str(binary), mode, str(players), str(seed), str(count)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return float(text.split()[0]) / 1000.0


def kernel_time(mode: str, players: int, seed: int, count: int) -> float:
    """Microseconds per playout of bendolib.playouts.playouts."""
    if mode == "many":
        state = new_game(BASIC, players, seed=seed)
        start = time.process_time()
        playouts(state, count, seed=seed)
        return (time.process_time() - start) * 1e6 / count
    start = time.process_time()
    for i in range(count):
        playouts(new_game(BASIC, players, seed=seed + i), 1, seed=seed + i)
    return (time.process_time() - start) * 1e6 / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--fresh", type=int, default=3000)
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--playouts", type=int, default=10)
    args = parser.parse_args()
    binary = build()
    counts = [int(p) for p in args.players.split(",")]
    if args.check:
        for players in counts:
            n = check(binary, players, args.deals, args.playouts)
            print(f"basic {players}p: {n} playouts equal move for move (choices, moves, scores)")
        return
    print("players mode   C µs/playout  bendolib µs/playout  C/bendolib min  median  max")
    for players in counts:
        for mode, count in (("many", args.count), ("fresh", args.fresh)):
            ratios, ours, theirs = [], [], []
            for r in range(args.rounds):
                seed = 1000 * r
                c = c_time(binary, mode, players, seed, count)
                k = kernel_time(mode, players, seed, count)
                ratios.append(c / k)
                ours.append(c)
                theirs.append(k)
            print(
                f"{players:7} {mode:6} {statistics.median(ours):12.2f}  "
                f"{statistics.median(theirs):19.2f}  {min(ratios):14.2f}  "
                f"{statistics.median(ratios):6.2f}  {max(ratios):4.2f}"
            )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
