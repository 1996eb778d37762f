"""Random-playout throughput of every registered rule set.

    python bench/playouts.py [--seconds 2] [--rules basic,classic-block] [--json]

For each rule set and allowed player count: full random playouts from a fresh deal to the
end of the round (playouts/s, moves/s), and the median latency of ``legal_moves`` and
``apply`` on the positions met.  Rates are per CPU second (``time.process_time``, robust
to other load on the machine); the wall-clock playouts/s is printed beside them.
Plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import bendolib
from bendolib import GameState, apply, legal_moves, new_game


def playouts(rules: bendolib.RuleSet, players: int, seconds: float) -> dict[str, float]:
    """Playouts and moves per CPU second over ``seconds`` of random play (median of 5 slices)."""
    rates: list[float] = []
    move_rates: list[float] = []
    wall_rates: list[float] = []
    rng = random.Random(1)
    seed = 0
    for _ in range(5):
        count = moves = 0
        start = time.process_time()
        wall = time.perf_counter()
        while time.process_time() - start < seconds / 5:
            state = new_game(rules, players=players, seed=seed)
            seed += 1
            while not state.is_round_over:
                legal = legal_moves(state)
                state = apply(state, legal[rng.randrange(len(legal))])
                moves += 1
            count += 1
        elapsed = time.process_time() - start
        rates.append(count / elapsed)
        move_rates.append(moves / elapsed)
        wall_rates.append(count / (time.perf_counter() - wall))
    return {
        "playouts_per_s": statistics.median(rates),
        "moves_per_s": statistics.median(move_rates),
        "wall_playouts_per_s": statistics.median(wall_rates),
    }


def positions(rules: bendolib.RuleSet, players: int, count: int) -> list[GameState]:
    """Mid-round positions met in random play (every fifth state, not over)."""
    out: list[GameState] = []
    rng = random.Random(2)
    seed = 10_000
    while len(out) < count:
        state = new_game(rules, players=players, seed=seed)
        seed += 1
        k = 0
        while not state.is_round_over and len(out) < count:
            if k % 5 == 4:
                out.append(state)
            legal = legal_moves(state)
            state = apply(state, legal[rng.randrange(len(legal))])
            k += 1
    return out


def latencies(rules: bendolib.RuleSet, players: int) -> dict[str, float]:
    """CPU microseconds of legal_moves and of apply (first legal move) per position.

    The median over the positions of each one's mean over 5 repetitions.
    """
    states = positions(rules, players, 2000)
    legal = [legal_moves(s) for s in states]
    clock = time.process_time
    per_l: list[float] = []
    per_a: list[float] = []
    for s, moves in zip(states, legal, strict=True):
        move = moves[0]
        t = clock()
        for _ in range(5):
            legal_moves(s)
        t1 = clock()
        for _ in range(5):
            apply(s, move)
        t2 = clock()
        per_l.append((t1 - t) / 5 * 1e6)
        per_a.append((t2 - t1) / 5 * 1e6)
    return {
        "legal_moves_us": statistics.median(per_l),
        "apply_us": statistics.median(per_a),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rules", default=",".join(bendolib.rules.names()))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for name in args.rules.split(","):
        rules = bendolib.rules.get(name)
        for players in rules.player_counts:
            row: dict[str, object] = {"rules": name, "players": players}
            row.update(playouts(rules, players, args.seconds))
            row.update(latencies(rules, players))
            rows.append(row)
            if not args.json:
                print(
                    f"{name:24} {players}p  {row['playouts_per_s']:9.0f} playouts/s "
                    f"{row['moves_per_s']:9.0f} moves/s (CPU; wall "
                    f"{row['wall_playouts_per_s']:6.0f} playouts/s)  legal_moves "
                    f"{row['legal_moves_us']:6.2f} us  apply {row['apply_us']:6.2f} us",
                    flush=True,
                )
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
