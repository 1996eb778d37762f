"""How the cost of a move grows: along a round, and with the size of the set.

    python bench/growth.py [--playouts 400] [--plot docs/images/cost-growth.svg]

1. Time per move (``legal_moves`` + ``apply``, CPU time) by move number within a round,
   for Basic Bendomino and classic-draw, 2 players, for the placements (plotted) and for
   every move: it should stay flat.
2. Time per move for double-6, double-9 and double-12 sets (Basic Bendomino's rules on
   curved sets, classic-draw on straight sets, 2 players, hands of 7), next to the mean
   of (tiles in the mover's hand x free open ends): it should grow no faster than that.

Prints both tables and draws the curves: with matplotlib when it is importable
(``--plot`` ending in .png), else as a hand-written SVG.  Plain script: asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from pathlib import Path

import bendolib
from bendolib import apply, legal_moves, new_game
from bendolib.moves import Place
from bendolib.tiles import TileSet

SIZES = (6, 9, 12)
FAMILIES = (("basic", False), ("classic-draw", True))


def _timer_overhead() -> float:
    clock = time.process_time
    samples = []
    for _ in range(5):
        start = clock()
        for _ in range(20_000):
            clock()
        samples.append((clock() - start) / 20_000)
    return min(samples)


def _warm_up(rules: bendolib.RuleSet, playouts: int) -> None:
    """
    Play ``playouts`` other rounds first, as a long-running program would have: the
    engine memoises moves, ends and placements by lattice position, and a far position
    costs more the first time it is met.
    """
    rng = random.Random(7)
    for seed in range(10**6, 10**6 + playouts):
        state = new_game(rules, players=2, seed=seed)
        while not state.is_round_over:
            moves = legal_moves(state)
            state = apply(state, moves[rng.randrange(len(moves))])


def by_move_number(
    rules: bendolib.RuleSet, playouts: int, warm_up: bool = True
) -> tuple[dict[int, float], dict[int, float], float]:
    """
    Median microseconds per move at each move number (moves met in at least 20 rounds;
    the median, so that a garbage-collector pause in one move does not make a spike):
    of the placements, of every move, and of each round's final move, left out of both
    series (it also scores the round, and would weigh more and more in the late move
    numbers, reached only by rounds about to end).  Placements are the moves whose cost
    depends on the board; a draw or a pass costs less, and how many there are changes
    along a round (draws early, passes once the stock is empty), which moves the median
    of every move without any move getting dearer.  ``warm_up`` plays as many other
    rounds first.
    """
    clock = time.process_time
    overhead = _timer_overhead()
    if warm_up:
        _warm_up(rules, playouts)
    spent: dict[int, list[float]] = defaultdict(list)
    placed: dict[int, list[float]] = defaultdict(list)
    final: list[float] = []
    rng = random.Random(5)
    for seed in range(playouts):
        state = new_game(rules, players=2, seed=seed)
        times = []
        while not state.is_round_over:
            start = clock()
            moves = legal_moves(state)
            move = moves[rng.randrange(len(moves))]
            state = apply(state, move)
            times.append((clock() - start - overhead, isinstance(move, Place)))
        final.append(times.pop()[0])
        for k, (spent_k, is_place) in enumerate(times):
            spent[k].append(spent_k)
            if is_place:
                placed[k].append(spent_k)

    def medians(samples: dict[int, list[float]]) -> dict[int, float]:
        return {k: statistics.median(v) * 1e6 for k, v in sorted(samples.items()) if len(v) >= 20}

    return medians(placed), medians(spent), statistics.median(final) * 1e6


def by_set_size(family: str, straight: bool, playouts: int) -> list[dict[str, float]]:
    """Per set size: microseconds per move and mean (hand size x free open ends)."""
    base = bendolib.rules.get(family)
    rows = []
    for top in SIZES:
        rules = base.configure(tileset=TileSet.double(top, straight=straight))
        _warm_up(rules, playouts)
        rng = random.Random(6)
        work: list[int] = []
        # the product first, outside the timed loop
        for seed in range(playouts):
            state = new_game(rules, players=2, seed=seed)
            while not state.is_round_over:
                hand = state.hand_masks[state.current_player].bit_count()
                ends = sum(1 for e in state.board.ends if e.free) or 1
                work.append(hand * ends)
                moves = legal_moves(state)
                state = apply(state, moves[rng.randrange(len(moves))])
        per_move = []
        for _ in range(5):  # the median of 5 timings of the same rounds
            rng = random.Random(6)
            moves_made = 0
            start = time.process_time()
            for seed in range(playouts):
                state = new_game(rules, players=2, seed=seed)
                while not state.is_round_over:
                    moves = legal_moves(state)
                    state = apply(state, moves[rng.randrange(len(moves))])
                    moves_made += 1
            per_move.append((time.process_time() - start) / moves_made)
        rows.append(
            {
                "top": top,
                "tiles": len(rules.tileset),
                "us_per_move": statistics.median(per_move) * 1e6,
                "hand_x_ends": statistics.fmean(work),
                "moves_per_round": moves_made / playouts,
            }
        )
    return rows


def svg_plot(
    along: dict[str, dict[int, float]],
    replayed: dict[str, dict[int, float]],
    sizes: dict[str, list[dict[str, float]]],
    path: Path,
) -> None:
    """Both panels as a plain SVG (no plotting library needed)."""
    width, height, pad = 900, 360, 50
    panel = (width - 3 * pad) / 2
    colours = {"basic": "#1f77b4", "classic-draw": "#d62728"}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
    ]

    def axes(x0: float, title: str, xlabel: str, ymax: float) -> None:
        y0 = height - pad
        out.append(
            f'<line x1="{x0}" y1="{y0}" x2="{x0 + panel}" y2="{y0}" stroke="black"/>'
            f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{pad}" stroke="black"/>'
            f'<text x="{x0 + panel / 2}" y="{pad - 20}" text-anchor="middle" '
            f'font-weight="bold">{title}</text>'
            f'<text x="{x0 + panel / 2}" y="{height - 12}" text-anchor="middle">{xlabel}</text>'
            f'<text x="{x0 - 38}" y="{pad + (y0 - pad) / 2}" text-anchor="middle" '
            f'transform="rotate(-90 {x0 - 38} {pad + (y0 - pad) / 2})">us per move (CPU)</text>'
        )
        for i in range(5):
            value = ymax * i / 4
            y = y0 - (y0 - pad) * i / 4
            out.append(
                f'<text x="{x0 - 5}" y="{y + 4}" text-anchor="end">{value:.1f}</text>'
                f'<line x1="{x0}" y1="{y}" x2="{x0 + panel}" y2="{y}" stroke="#ddd"/>'
            )

    def polyline(
        points: list[tuple[float, float]], colour: str, dashed: bool = False, dotted: bool = False
    ) -> None:
        dash = ' stroke-dasharray="5,4"' if dashed else ' stroke-dasharray="2,3"' if dotted else ""
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        out.append(
            f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>'
        )

    # left: by move number
    ymax = max(max(v.values()) for v in along.values()) * 1.2
    kmax = max(max(v) for v in along.values())
    x0 = pad
    axes(x0, "Placements along a round (2 players, double-6)", "move number", ymax)
    y0 = height - pad
    for family, series in along.items():
        pts = [(x0 + panel * k / kmax, y0 - (y0 - pad) * v / ymax) for k, v in series.items()]
        polyline(pts, colours[family])
        again = replayed[family]
        pts = [(x0 + panel * k / kmax, y0 - (y0 - pad) * v / ymax) for k, v in again.items()]
        polyline(pts, colours[family], dotted=True)
    for i in range(5):
        k = kmax * i / 4
        out.append(
            f'<text x="{x0 + panel * i / 4}" y="{y0 + 15}" text-anchor="middle">{k:.0f}</text>'
        )
    # right: by set size, with hand x ends scaled to the double-6 figure
    x1 = 2 * pad + panel
    ymax = 0.0
    for rows in sizes.values():
        first = rows[0]
        for row in rows:
            scaled = first["us_per_move"] * row["hand_x_ends"] / first["hand_x_ends"]
            ymax = max(ymax, row["us_per_move"], scaled)
    ymax *= 1.2
    axes(x1, "By set size (2 players, hands of 7)", "double-N set", ymax)
    for family, rows in sizes.items():
        first = rows[0]
        xs = [x1 + panel * i / (len(rows) - 1) for i in range(len(rows))]
        measured = [
            (x, y0 - (y0 - pad) * r["us_per_move"] / ymax) for x, r in zip(xs, rows, strict=True)
        ]
        bound = [
            (
                x,
                y0
                - (y0 - pad)
                * first["us_per_move"]
                * r["hand_x_ends"]
                / first["hand_x_ends"]
                / ymax,
            )
            for x, r in zip(xs, rows, strict=True)
        ]
        polyline(measured, colours[family])
        polyline(bound, colours[family], dashed=True)
    for i, top in enumerate(SIZES):
        out.append(
            f'<text x="{x1 + panel * i / (len(SIZES) - 1)}" y="{y0 + 15}" '
            f'text-anchor="middle">{top}</text>'
        )
    # legend of the left panel
    out.append(
        f'<line x1="{x0 + 10}" y1="{pad + 5}" x2="{x0 + 35}" y2="{pad + 5}" stroke="gray" '
        f'stroke-width="2"/><text x="{x0 + 40}" y="{pad + 9}">after other rounds</text>'
        f'<line x1="{x0 + 10}" y1="{pad + 21}" x2="{x0 + 35}" y2="{pad + 21}" stroke="gray" '
        f'stroke-width="2" stroke-dasharray="2,3"/>'
        f'<text x="{x0 + 40}" y="{pad + 25}">the same rounds replayed</text>'
    )
    # legend
    ly = pad + 5
    for family, colour in colours.items():
        out.append(
            f'<line x1="{x1 + 10}" y1="{ly}" x2="{x1 + 35}" y2="{ly}" stroke="{colour}" '
            f'stroke-width="2"/><text x="{x1 + 40}" y="{ly + 4}">{family}</text>'
        )
        ly += 16
    out.append(
        f'<line x1="{x1 + 10}" y1="{ly}" x2="{x1 + 35}" y2="{ly}" stroke="gray" '
        f'stroke-width="2" stroke-dasharray="5,4"/>'
        f'<text x="{x1 + 40}" y="{ly + 4}">hand x open ends, scaled at double-6</text>'
    )
    out.append("</svg>")
    path.write_text("\n".join(out) + "\n")


def png_plot(
    along: dict[str, dict[int, float]],
    replayed: dict[str, dict[int, float]],
    sizes: dict[str, list[dict[str, float]]],
    path: Path,
) -> None:
    """Both panels with matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for family, series in along.items():
        left.plot(list(series), list(series.values()), label=family)
        again = replayed[family]
        left.plot(list(again), list(again.values()), linestyle=":", label=f"{family}, replayed")
    left.set(title="Placements along a round", xlabel="move number", ylabel="us per move (CPU)")
    for family, rows in sizes.items():
        first = rows[0]
        tops = [r["top"] for r in rows]
        right.plot(tops, [r["us_per_move"] for r in rows], marker="o", label=family)
        right.plot(
            tops,
            [first["us_per_move"] * r["hand_x_ends"] / first["hand_x_ends"] for r in rows],
            linestyle="--",
            label=f"{family}: hand x ends (scaled)",
        )
    right.set(title="By set size", xlabel="double-N", ylabel="us per move (CPU)")
    left.legend()
    right.legend()
    fig.tight_layout()
    fig.savefig(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--playouts", type=int, default=400)
    parser.add_argument("--plot", default="docs/images/cost-growth.svg")
    args = parser.parse_args()
    along = {}
    print("us per move by move number (2 players, double-6; median over rounds reaching it;")
    print("each round's final move, which also scores the round, apart):")
    replayed = {}
    for family, _ in FAMILIES:
        rules = bendolib.rules.get(family)
        places, every, final = by_move_number(rules, args.playouts)
        # the same rounds again: every lattice position met is now memoised
        again, _, _ = by_move_number(rules, args.playouts, warm_up=False)
        along[family] = places
        replayed[family] = again
        for label, series in (("placements", places), ("replayed", again), ("every move", every)):
            cells = "  ".join(f"{k}:{v:.1f}" for k, v in series.items())
            print(f"  {family:14} {label:10} {cells}")
        print(f"  {family:14} final move {final:.1f}")
    sizes = {
        family: by_set_size(family, straight, args.playouts // 4) for family, straight in FAMILIES
    }
    print("by set size (2 players, hands of 7):")
    print(f"  {'rules':14} {'set':>9} {'tiles':>5} {'us/move':>8} {'hand x ends':>11} {'ratio':>6}")
    for family, rows in sizes.items():
        for row in rows:
            print(
                f"  {family:14} double-{row['top']:<2} {row['tiles']:5.0f} "
                f"{row['us_per_move']:8.1f} {row['hand_x_ends']:11.1f} "
                f"{row['us_per_move'] / row['hand_x_ends']:6.2f}"
            )
    if args.plot:
        path = Path(args.plot)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".png":
            try:
                png_plot(along, replayed, sizes, path)
            except ImportError:
                path = path.with_suffix(".svg")
                svg_plot(along, replayed, sizes, path)
        else:
            svg_plot(along, replayed, sizes, path)
        print(f"plot: {path}")


if __name__ == "__main__":
    main()
