"""Soak run: millions of random moves of every rule set and player count, every invariant checked.

Runs :func:`bendolib.testing.check_ruleset` in batches over every registered rule set and
every player count it allows, sharing ``--moves`` equally between those combinations,
on ``--jobs`` worker processes, until each has played its share.  Stops at the first
violated invariant and prints it with the seed and moves that reproduce it (exit 1).

Each batch also plays ``--forged-games`` more games and, in every state, offers ``apply``
forged moves: moves of other states, a legal placement with its end, turn, inward face
or named value changed, tiles the player does not hold, a draw, pass or next that is not
legal.  Every one must be refused with ``IllegalMoveError`` (one accepted is a violation).
The workers' resident memory (RSS) is printed as the run goes, to show that the engine's
memo tables reach a plateau.

    PYTHONPATH=src python bench/soak.py --moves 1000000 --jobs 2

The triangle games (``--rules triangle-dominoes triominoes``) are found by name in
``bendolib.rules.triangles`` too, and their forged moves are placements in cells (a cell
or a rotation changed, a tile not held); ``--skip`` leaves invariants out (spaces
written as '-').

Not part of the test suite (it takes a while); docs/testing.md records the last run.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

import attrs

import bendolib
from bendolib import DRAW, NEXT_ROUND, PASS, GameState, IllegalMoveError, Move, Place
from bendolib._rng import derive_seed
from bendolib.geometry.trilattice import Cell as LatticeCell
from bendolib.moves import PlaceInCell
from bendolib.rules.triangles import TRIANGLE_RULESETS
from bendolib.testing import ALL_INVARIANTS, CheckReport, check_ruleset
from bendolib.testing.checker import DEFAULT_SPACING
from bendolib.tiles import LEFT, RIGHT


@attrs.frozen
class Cell:
    """One rule set and player count, and its share of the moves."""

    index: int
    rules: str
    players: int


@attrs.define
class Tally:
    games: int = 0
    rounds: int = 0
    moves: int = 0
    batches: int = 0
    forged: int = 0


@attrs.frozen
class BatchResult:
    """A batch's check report, its forged moves (all refused, or the first accepted) and RSS."""

    report: CheckReport
    forged: int
    accepted: str | None
    pid: int
    rss: int
    memo: int


def memo_entries() -> int:
    """Entries in the engine's memo tables (each bounded by ``bendolib._memo.LIMIT``)."""
    from bendolib import _inference, _placing
    from bendolib.geometry import bend, straight

    tilesets = {id(r.tileset): r.tileset for r in map(bendolib.rules.get, bendolib.rules.names())}
    tables: list[dict[Any, Any]] = [ts._memo for ts in tilesets.values()]
    tables += [bend._SLOTS, bend._STEPS, bend._ENDS, bend._PLACEMENTS, straight._PLACEMENTS]
    tables += [_placing._OPENINGS]
    tables += [held[1] for held in _placing._CLOSINGS.values()]
    tables += [held[1] for held in _inference._FITS.values()]
    return sum(len(table) for table in tables)


def get_rules(name: str) -> bendolib.RuleSet:
    """A registered rule set, or a triangle rule set by name (before it is registered)."""
    for rules in TRIANGLE_RULESETS:
        if rules.name == name and name not in bendolib.rules.names():
            return rules
    return bendolib.rules.get(name)


def cell_forgeries(state: GameState, legal: tuple[Move, ...], rng: random.Random) -> Iterator[Move]:
    """Placements in cells forged from legal ones: moved, turned, or a tile not held."""
    cells = [m for m in legal if isinstance(m, PlaceInCell)]
    tiles = state.rules.tileset.tiles
    held = state.hand_masks[state.current_player]
    for move in rng.sample(cells, min(2, len(cells))):
        x, y, down = move.cell.x, move.cell.y, move.cell.down
        yield attrs.evolve(move, cell=LatticeCell(x + rng.choice((-1, 1)), y, down))
        yield attrs.evolve(move, cell=LatticeCell(x, y, not down))
        yield attrs.evolve(move, rotation=(move.rotation + 1) % 3)
        i = rng.randrange(len(tiles))
        if not held >> i & 1:
            yield attrs.evolve(move, tile=tiles[i])


def rss_bytes() -> int:
    """This process's resident memory now (Linux), else its peak."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def forgeries(
    state: GameState, legal: tuple[Move, ...], others: list[Move], rng: random.Random
) -> Iterator[Move]:
    """Moves forged for ``state`` (some may happen to be legal: the caller skips those)."""
    if any(isinstance(m, PlaceInCell) for m in legal):
        yield from rng.sample(others, min(3, len(others)))
        yield from cell_forgeries(state, legal, rng)
        yield from (DRAW, PASS, NEXT_ROUND)
        return
    places = [m for m in legal if isinstance(m, Place)]
    tiles = state.rules.tileset.tiles
    held = state.hand_masks[state.current_player]
    for move in rng.sample(others, min(3, len(others))):
        yield move  # a move of another state
    for move in rng.sample(places, min(2, len(places))):
        yield attrs.evolve(move, end=move.end + rng.choice((-1, 1, len(state.board.ends))))
        yield attrs.evolve(move, turn=LEFT if move.turn == RIGHT else RIGHT)
        yield attrs.evolve(move, inward=move.tile.b if move.inward == move.tile.a else move.tile.a)
        yield attrs.evolve(move, shows=move.shows + 1)
    ends = state.board.ends
    for _ in range(2):
        i = rng.randrange(len(tiles))
        if held >> i & 1:
            continue
        tile = tiles[i]  # a tile the player does not hold, laid where its face fits
        e = rng.randrange(len(ends)) if ends else -1
        inward = ends[e].value if ends and ends[e].value in (tile.a, tile.b) else tile.a
        yield Place(
            tile, e, inward, tile.b if inward == tile.a else tile.a, rng.choice((LEFT, RIGHT))
        )
    yield from (DRAW, PASS, NEXT_ROUND)


def forge(rules: bendolib.RuleSet, players: int, seed: int, games: int) -> tuple[int, str | None]:
    """
    Play ``games`` random games, offering ``apply`` forged moves in every state: the
    number refused, and the first one accepted (None when every one was refused).
    """
    rng = random.Random(seed)
    refused = 0
    others: list[Move] = []
    for game in range(games):
        state = bendolib.new_game(rules, players, derive_seed(seed, game))
        while not state.is_game_over:
            legal = bendolib.legal_moves(state)
            for move in forgeries(state, legal, others, rng):
                if move in legal:
                    continue  # not a forgery after all
                if rng.randrange(2):
                    bendolib.legal_moves(state.origin or bendolib.new_game(rules, players, 0))
                try:
                    bendolib.apply(state, move)
                except IllegalMoveError:
                    refused += 1
                    continue
                return (
                    refused,
                    f"{rules.name}, {players} players: apply accepted {move} in\n{state}",
                )
            others = [*legal[:4], *others[:20]]
            state = bendolib.apply(state, rng.choice(legal))
    return refused, None


def run_batch(
    cell: Cell,
    batch: int,
    seed: int,
    games: int,
    spacing: dict[str, int],
    forged_games: int,
    skip: tuple[str, ...] = (),
) -> BatchResult:
    """Check ``games`` games of one cell, and forge moves in ``forged_games`` more."""
    rules = get_rules(cell.rules)
    batch_seed = derive_seed(seed, cell.index, batch)
    wanted = [name for name in ALL_INVARIANTS if name not in skip] if skip else None
    report = check_ruleset(
        rules,
        games=games,
        seed=batch_seed,
        players=cell.players,
        spacing=spacing,
        invariants=wanted,
    )
    refused, accepted = forge(rules, cell.players, derive_seed(batch_seed, 1), forged_games)
    return BatchResult(report, refused, accepted, os.getpid(), rss_bytes(), memo_entries())


def parse_spacing(items: Sequence[str]) -> dict[str, int]:
    """``name=n`` pairs (names as in DEFAULT_SPACING, spaces written as '-')."""
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        out[name.replace("-", " ")] = int(value)
    return out


def cells(names: Sequence[str]) -> list[Cell]:
    out: list[Cell] = []
    for name in names:
        for players in get_rules(name).player_counts:
            out.append(Cell(len(out), name, players))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1_000_000, help="total moves (default 1e6)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
    parser.add_argument("--games", type=int, default=10, help="games per batch (default 10)")
    parser.add_argument(
        "--forged-games", type=int, default=2, help="games with forged moves per batch (default 2)"
    )
    parser.add_argument("--rules", nargs="*", help="rule sets (default: every registered one)")
    parser.add_argument(
        "--skip", nargs="*", default=[], help="invariants left out, e.g. record-round-trip"
    )
    parser.add_argument(
        "--spacing",
        nargs="*",
        default=[],
        help="check a costly invariant in every n-th state, e.g. sampling-consistency=64 "
        f"(defaults: {dict(DEFAULT_SPACING)})",
    )
    args = parser.parse_args(argv)
    spacing = {**DEFAULT_SPACING, **parse_spacing(args.spacing)}

    names = args.rules or list(bendolib.rules.names())
    todo = cells(names)
    share = -(-args.moves // len(todo))
    tallies = {cell: Tally() for cell in todo}
    print(
        f"soak: {len(names)} rule sets, {len(todo)} (rule set, players) combinations, "
        f"{share} moves each, {args.jobs} jobs, seed {args.seed}, spacing {spacing}",
        flush=True,
    )
    start = time.perf_counter()
    violation = None
    accepted: str | None = None
    checked: dict[str, int] = {}
    pending: dict[Future[BatchResult], Cell] = {}
    rss: dict[int, int] = {}
    memo: dict[int, int] = {}
    curve: list[tuple[int, float, int, int]] = []
    with ProcessPoolExecutor(args.jobs) as pool:

        def submit(cell: Cell) -> None:
            tally = tallies[cell]
            future = pool.submit(
                run_batch,
                cell,
                tally.batches,
                args.seed,
                args.games,
                spacing,
                args.forged_games,
                tuple(name.replace("-", " ") for name in args.skip),
            )
            tally.batches += 1
            pending[future] = cell

        for cell in todo:
            submit(cell)
        last_report = start
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                cell = pending.pop(future)
                result = future.result()
                report = result.report
                tally = tallies[cell]
                tally.games += report.games
                tally.rounds += report.rounds
                tally.moves += report.moves
                tally.forged += result.forged
                rss[result.pid] = result.rss
                memo[result.pid] = result.memo
                for name, n in report.checks:
                    checked[name] = checked.get(name, 0) + n
                if report.violation is not None and violation is None:
                    violation = report
                if result.accepted is not None and accepted is None:
                    accepted = result.accepted
                if violation is None and accepted is None and tally.moves < share:
                    submit(cell)
            if violation is not None or accepted is not None:
                for future in pending:
                    future.cancel()
                break
            now = time.perf_counter()
            if now - last_report > 30:
                total = sum(t.moves for t in tallies.values())
                forged = sum(t.forged for t in tallies.values())
                biggest = max(rss.values()) if rss else 0
                entries = max(memo.values()) if memo else 0
                curve.append((total, now - start, biggest, entries))
                print(
                    f"  {total:>10,} moves  {forged:>11,} forged moves refused  "
                    f"worker RSS {biggest / 2**20:6.1f} MB (largest of {len(rss)}), "
                    f"memo {entries:,} entries  {now - start:7.0f} s",
                    flush=True,
                )
                last_report = now
    elapsed = time.perf_counter() - start

    print(
        f"\n{'rule set':24} {'players':>7} {'games':>7} {'rounds':>7} {'moves':>9} {'forged':>10}"
    )
    for cell, tally in tallies.items():
        print(
            f"{cell.rules:24} {cell.players:>7} {tally.games:>7} {tally.rounds:>7} "
            f"{tally.moves:>9,} {tally.forged:>10,}"
        )
    games = sum(t.games for t in tallies.values())
    rounds = sum(t.rounds for t in tallies.values())
    moves = sum(t.moves for t in tallies.values())
    print(
        f"\ntotal: {moves:,} moves, {rounds:,} rounds, {games:,} games; "
        f"{len(names)} rule sets, {len(todo)} combinations; {elapsed:.0f} s "
        f"({moves / elapsed:,.0f} moves/s on {args.jobs} jobs)"
    )
    print("checks: " + ", ".join(f"{name} {n:,}" for name, n in checked.items()))
    forged = sum(t.forged for t in tallies.values())
    print(f"forged moves refused: {forged:,}; accepted: {0 if accepted is None else 1}")
    if curve:
        print(
            "worker RSS over the run (largest worker, MB; memo entries): "
            + ", ".join(
                f"{moves:,} moves {size / 2**20:.1f} ({entries:,})"
                for moves, _, size, entries in curve
            )
        )
    if rss:
        print(f"final worker RSS: {', '.join(f'{size / 2**20:.1f} MB' for size in rss.values())}")
    if accepted is not None:
        print(f"\nFORGED MOVE ACCEPTED\n{accepted}", file=sys.stderr)
        return 1
    if violation is not None:
        print(f"\nVIOLATION\n{violation}", file=sys.stderr)
        return 1
    print("violations: 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
