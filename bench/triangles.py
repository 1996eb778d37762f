"""The triangle rule sets' first figures: playouts, move latency, cost as the layout grows.

    python bench/triangles.py [--seconds 2] [--playouts 300] [--json]

1. Random playouts (a fresh deal played to the end of the round) per CPU second (min /
   median / max of 5 slices) and moves per CPU second (median), for Triangle Dominoes and
   Triominoes, every player count; the median ``legal_moves`` and ``apply`` latency on the
   positions met.
2. Cost growth: CPU microseconds of ``legal_moves`` and of ``apply`` (of a placement) by
   the number of tiles on the table, Triominoes, 2 players, over ``--playouts`` rounds
   (after as many rounds of warm-up), with the mean number of open edges and of free
   cells with an open edge at that size.

Plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import defaultdict

from bendolib import RuleSet, apply, legal_moves, new_game
from bendolib.geometry import TriangleBoard
from bendolib.moves import PlaceInCell
from bendolib.rules import TRIANGLE_DOMINOES, TRIOMINOES


def playouts(rules: RuleSet, players: int, seconds: float) -> dict[str, float]:
    """Playouts and moves per CPU second (median of 5 slices), and latencies."""
    rates: list[float] = []
    move_rates: list[float] = []
    per_legal: list[float] = []
    per_apply: list[float] = []
    rng = random.Random(1)
    clock = time.process_time
    seed = 0
    for _ in range(5):
        count = moves = 0
        start = clock()
        while clock() - start < seconds / 5:
            state = new_game(rules, players=players, seed=seed)
            seed += 1
            while not state.is_round_over:
                t0 = clock()
                legal = legal_moves(state)
                t1 = clock()
                state = apply(state, legal[rng.randrange(len(legal))])
                t2 = clock()
                per_legal.append(t1 - t0)
                per_apply.append(t2 - t1)
                moves += 1
            count += 1
        elapsed = clock() - start
        rates.append(count / elapsed)
        move_rates.append(moves / elapsed)
    return {
        "playouts_per_s": statistics.median(rates),
        "playouts_min": min(rates),
        "playouts_max": max(rates),
        "moves_per_s": statistics.median(move_rates),
        "legal_moves_us": statistics.median(per_legal) * 1e6,
        "apply_us": statistics.median(per_apply) * 1e6,
    }


def growth(rules: RuleSet, players: int, rounds: int) -> list[dict[str, float]]:
    """By tiles on the table: median CPU us of legal_moves and of apply (placements)."""
    clock = time.process_time
    legal_at: dict[int, list[float]] = defaultdict(list)
    apply_at: dict[int, list[float]] = defaultdict(list)
    edges_at: dict[int, list[int]] = defaultdict(list)
    sites_at: dict[int, list[int]] = defaultdict(list)
    rng = random.Random(3)
    for seed in range(2 * rounds):
        state = new_game(rules, players=players, seed=50_000 + seed)
        while not state.is_round_over:
            board = state.board
            size = len(board.placements)
            t0 = clock()
            for _ in range(5):
                legal = legal_moves(state)
            t1 = clock()
            move = legal[rng.randrange(len(legal))]
            placing = isinstance(move, PlaceInCell)
            t2 = clock()
            for _ in range(5):
                after = apply(state, move)
            t3 = clock()
            if seed >= rounds:  # the first half warms the memo tables up
                legal_at[size].append((t1 - t0) / 5)
                if placing:
                    apply_at[size].append((t3 - t2) / 5)
                if isinstance(board, TriangleBoard):
                    edges_at[size].append(len(board.edges))
                    sites_at[size].append(len(board.sites))
            state = after
    rows = []
    for size in sorted(legal_at):
        if len(legal_at[size]) < 20 or not apply_at.get(size):
            continue
        rows.append(
            {
                "tiles": size,
                "samples": len(legal_at[size]),
                "legal_moves_us": statistics.median(legal_at[size]) * 1e6,
                "legal_moves_min_us": min(legal_at[size]) * 1e6,
                "legal_moves_max_us": max(legal_at[size]) * 1e6,
                "apply_us": statistics.median(apply_at[size]) * 1e6,
                "open_edges": statistics.fmean(edges_at[size]) if edges_at[size] else 0.0,
                "free_cells": statistics.fmean(sites_at[size]) if sites_at[size] else 0.0,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for rules in (TRIANGLE_DOMINOES, TRIOMINOES):
        for players in rules.player_counts:
            row: dict[str, object] = {"rules": rules.name, "players": players}
            row.update(playouts(rules, players, args.seconds))
            rows.append(row)
            if not args.json:
                print(
                    f"{rules.name:18} {players}p  {row['playouts_min']:5.0f} / "
                    f"{row['playouts_per_s']:5.0f} / {row['playouts_max']:5.0f} playouts/s "
                    f"{row['moves_per_s']:8.0f} moves/s (CPU)  legal_moves "
                    f"{row['legal_moves_us']:6.1f} us  apply {row['apply_us']:6.1f} us",
                    flush=True,
                )
    grown = growth(TRIOMINOES, 2, args.playouts)
    if args.json:
        print(json.dumps({"playouts": rows, "growth": grown}, indent=2))
        return
    print("\ntriominoes 2p, by tiles on the table (CPU us, medians; placements for apply)")
    print("tiles  samples  legal_moves (min / median / max)  apply  open edges  free cells")
    for g in grown:
        print(
            f"{g['tiles']:5.0f}  {g['samples']:7.0f}  {g['legal_moves_min_us']:6.1f} / "
            f"{g['legal_moves_us']:6.1f} / {g['legal_moves_max_us']:7.1f}  "
            f"{g['apply_us']:5.1f}  {g['open_edges']:10.1f}  {g['free_cells']:10.1f}"
        )


if __name__ == "__main__":
    main()
