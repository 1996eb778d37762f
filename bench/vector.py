"""Batched games (bendolib.vector) against the scalar Gymnasium env, interleaved in one process.

    python bench/vector.py                       # Basic 2 players, N = 1,024, 5 rounds
    python bench/vector.py --rounds 7 --slice 0.5
    python bench/vector.py --scaling             # N = 1, 16, 256, 4,096 and other rule sets
    python bench/vector.py --selfplay 200        # bendolib.selfplay with and without batch=True
    python bench/vector.py --selfplay 200 --profile  # where batch=True spends its time

Measured, per CPU second (``time.process_time``), each in slices of ``--slice`` seconds
taken in turn (A B C D A B C D ...) ``--rounds`` times:

* ``step call``: self-play, ``VectorGames.step`` alone (the actions, each game's first
  legal one, are chosen outside the timed call): env steps/s, observations and masks
  included;
* ``self-play loop``: the whole loop, a random legal action per game chosen in NumPy
  (``(rng.random(mask.shape) + mask).argmax(1)``): env steps/s;
* ``core opponents``: the caller plays seat 0 with random legal actions, the kernel's
  ``"random"`` policy the other seats: agent steps/s;
* ``scalar env``: ``gymnasium.make("bendolib/Basic-v0", opponents="random")``, random
  legal actions: agent steps/s;
* ``openspiel loop`` (when pyspiel is installed): OpenSpiel's Python game loop on
  bendolib's pyspiel game (``bendolib.adapters.openspiel``, dealt tile by tile),
  the observation tensor and a random legal action at every decision: steps/s.

Printed: min / median / max of each, and of the ratio of each batched figure to the
scalar env's taken in the same round.  Then bytes per game.  ``--scaling`` adds the
step call and the self-play loop for N = 1, 16, 256, 4,096, and for other rule sets
and player counts at ``--games``.  ``--selfplay GAMES`` times ``bendolib.selfplay`` (greedy
against random, Basic, Parquet files, one shard) on GAMES matches with ``batch=True`` and
without it (serially, in this process), in turn ``--rounds`` times after an untimed round
of as many (the imports, first calls and first use of memory): decisions per CPU second,
and the Parquet file's bytes per decision.
``--selfplay GAMES --profile`` profiles the batched runs alone (``cProfile``, CPU time):
the functions that take most of it, each on its own (not what it calls).
Plain script: it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import bendolib.adapters.gymnasium  # registers the ids
from bendolib.vector import VectorGames

Runner = Callable[[float], tuple[int, float]]


def step_call(rules: str, players: int, games: int) -> Runner:
    batch = VectorGames(rules, games, players, seed=1)

    def run(budget: float) -> tuple[int, float]:
        spent, steps = 0.0, 0
        while spent < budget:
            actions = batch.action_mask.argmax(axis=1)
            start = time.process_time()
            batch.step(actions)
            spent += time.process_time() - start
            steps += games
        return steps, spent

    return run


def selfplay_loop(rules: str, players: int, games: int) -> Runner:
    batch = VectorGames(rules, games, players, seed=2)
    rng = np.random.default_rng(0)

    def run(budget: float) -> tuple[int, float]:
        start = time.process_time()
        steps = 0
        while time.process_time() - start < budget:
            mask = batch.action_mask
            batch.step((rng.random(mask.shape, dtype=np.float32) + mask).argmax(axis=1))
            steps += games
        return steps, time.process_time() - start

    return run


def core_opponents(rules: str, players: int, games: int) -> Runner:
    batch = VectorGames(rules, games, players, seed=3, opponents="random")
    rng = np.random.default_rng(0)

    def run(budget: float) -> tuple[int, float]:
        start = time.process_time()
        steps = 0
        while time.process_time() - start < budget:
            mask = batch.action_mask
            batch.step((rng.random(mask.shape, dtype=np.float32) + mask).argmax(axis=1))
            steps += games
        return steps, time.process_time() - start

    return run


def scalar_env(rules: str, players: int) -> Runner:
    import gymnasium

    ident = bendolib.adapters.gymnasium.env_id(rules)
    env = gymnasium.make(ident, players=players, opponents="random")
    rng = np.random.default_rng(0)
    state: dict[str, Any] = {"obs": env.reset(seed=0)[0]}

    def run(budget: float) -> tuple[int, float]:
        start = time.process_time()
        steps = 0
        while time.process_time() - start < budget:
            legal = np.flatnonzero(state["obs"]["action_mask"])
            obs, _, done, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
            state["obs"] = env.reset()[0] if done or truncated else obs
            steps += 1
        return steps, time.process_time() - start

    return run


def openspiel_loop(rules: str, players: int) -> Runner | None:
    """OpenSpiel's Python game loop on bendolib's pyspiel game (None without pyspiel)."""
    try:
        import pyspiel

        import bendolib.adapters.openspiel as adapter
    except ImportError:
        return None
    game = pyspiel.load_game(adapter.game_name(rules), {"players": players})
    rng = np.random.default_rng(0)
    state: dict[str, Any] = {"state": game.new_initial_state()}

    def run(budget: float) -> tuple[int, float]:
        start = time.process_time()
        steps = 0
        while time.process_time() - start < budget:
            current = state["state"]
            if current.is_terminal():
                current = state["state"] = game.new_initial_state()
            if current.is_chance_node():
                outcomes = current.chance_outcomes()
                current.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            current.observation_tensor(current.current_player())
            legal = current.legal_actions()
            current.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        return steps, time.process_time() - start

    return run


def summary(values: list[float]) -> str:
    return f"{min(values):>12,.0f} {statistics.median(values):>12,.0f} {max(values):>12,.0f}"


def ratios(values: list[float]) -> str:
    return f"{min(values):>8.0f}x {statistics.median(values):>8.0f}x {max(values):>8.0f}x"


def interleaved(runners: dict[str, Runner], rounds: int, budget: float) -> dict[str, list[float]]:
    for run in runners.values():  # warm-up
        run(budget / 4)
    rates: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(rounds):
        for name, run in runners.items():
            steps, spent = run(budget)
            rates[name].append(steps / spent)
    return rates


def selfplay_rates(games: int, rounds: int) -> None:
    import tempfile

    from bendolib.runner import SerialExecutor
    from bendolib.selfplay import selfplay

    rates: dict[bool, list[float]] = {True: [], False: []}
    sizes: dict[bool, float] = {}
    # a first, untimed round of as many matches: the imports, the first calls and the
    # first use of the large arrays' memory
    for timed in (False, *([True] * rounds)):
        for batch in (True, False):
            with tempfile.TemporaryDirectory() as out:
                start = time.process_time()
                done = selfplay(
                    "basic",
                    ["greedy", "random"],
                    games,
                    out,
                    seed=1,
                    batch=batch,
                    executor=SerialExecutor(),
                    shard_games=games,
                )
                if timed:
                    rates[batch].append(done.decisions / (time.process_time() - start))
                    shard = sum(p.stat().st_size for p in Path(out).glob("games-*"))
                    sizes[batch] = shard / done.decisions
    print(f"bendolib.selfplay, Basic, greedy vs random, {games} matches: decisions per CPU second")
    print(f"{'':<12} {'min':>12} {'median':>12} {'max':>12}   Parquet bytes per decision")
    print(f"{'batch=True':<12} {summary(rates[True])}   {sizes[True]:.1f}")
    print(f"{'batch=False':<12} {summary(rates[False])}   {sizes[False]:.1f}")
    print("ratio " + ratios([a / b for a, b in zip(rates[True], rates[False], strict=True)]))


def selfplay_profile(games: int, rounds: int) -> None:
    """Where the batched self-play's CPU time goes: cProfile over ``rounds`` runs."""
    import cProfile
    import pstats
    import tempfile

    from bendolib.selfplay import selfplay

    profile = cProfile.Profile(time.process_time)
    for timed in (False, *([True] * rounds)):  # the first run untimed, as above
        with tempfile.TemporaryDirectory() as out:
            if timed:
                profile.enable()
            selfplay(
                "basic", ["greedy", "random"], games, out, seed=1, batch=True, shard_games=games
            )
            profile.disable()
    stats = pstats.Stats(profile)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"bendolib.selfplay(batch=True), {rounds} runs of {games} matches: {total:.3f} CPU s")
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])  # type: ignore[attr-defined]
    for (path, line, name), (_, _, own, _, _) in rows[:12]:
        where = f"{Path(path).name}:{line}({name})" if line else name
        print(f"{own:8.3f} s {100 * own / total:5.1f}%  {where}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="basic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slice", type=float, default=0.3)
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--selfplay", type=int, default=0, metavar="GAMES")
    parser.add_argument("--profile", action="store_true", help="with --selfplay: cProfile")
    args = parser.parse_args()
    if args.selfplay and args.profile:
        selfplay_profile(args.selfplay, args.rounds)
        return
    if args.selfplay:
        selfplay_rates(args.selfplay, args.rounds)
        return
    rules, players, games = args.rules, args.players, args.games
    runners = {
        "step call": step_call(rules, players, games),
        "self-play loop": selfplay_loop(rules, players, games),
        "core opponents": core_opponents(rules, players, games),
        "scalar env": scalar_env(rules, players),
    }
    spiel = openspiel_loop(rules, players)
    if spiel is not None:
        runners["openspiel loop"] = spiel
    rates = interleaved(runners, args.rounds, args.slice)
    print(f"{rules}, {players} players, N = {games:,}: steps per CPU second, {args.rounds} rounds")
    print(f"{'':<16} {'min':>12} {'median':>12} {'max':>12}   ratio to the scalar env")
    scalar = rates["scalar env"]
    for name, values in rates.items():
        line = f"{name:<16} {summary(values)}"
        if name not in ("scalar env", "openspiel loop"):
            line += "   " + ratios([v / s for v, s in zip(values, scalar, strict=True)])
        print(line)
    batch = VectorGames(rules, games, players)
    print(
        f"bytes per game: {batch.bytes_per_game:,} "
        f"(core state {batch._core_bytes:,}, the rest the NumPy output rows)"
    )
    if not args.scaling:
        return
    print("\nscaling with N (basic, 2 players): steps per CPU second, median")
    print(f"{'N':>6} {'step call':>12} {'self-play loop':>15}")
    for n in (1, 16, 256, 4096):
        found = interleaved(
            {"call": step_call("basic", 2, n), "loop": selfplay_loop("basic", 2, n)},
            args.rounds,
            args.slice,
        )
        print(
            f"{n:>6,} {statistics.median(found['call']):>12,.0f} "
            f"{statistics.median(found['loop']):>15,.0f}"
        )
    print(f"\nrule sets and players, N = {games:,}: steps per CPU second, median")
    print(f"{'rules':<24} {'step call':>12} {'self-play loop':>15} {'core opponents':>15}")
    for name, count in (
        ("basic", 3),
        ("basic", 4),
        ("all-five", 2),
        ("draw-dominoes", 2),
        ("bendo-all-in-actions", 2),
        ("domino-pairs", 4),
    ):
        found = interleaved(
            {
                "call": step_call(name, count, games),
                "loop": selfplay_loop(name, count, games),
                "core": core_opponents(name, count, games),
            },
            args.rounds,
            args.slice,
        )
        print(
            f"{name + ' ' + str(count) + 'p':<24} {statistics.median(found['call']):>12,.0f} "
            f"{statistics.median(found['loop']):>15,.0f} {statistics.median(found['core']):>15,.0f}"
        )


if __name__ == "__main__":
    main()
