"""bendolib against the anchor engines, interleaved in one process.

    python bench/anchors.py [--slice 0.5] [--rounds 5]

Installs nothing.  When the ``dominoes`` package and OpenSpiel (``pyspiel`` with its
python games) are importable, runs full random playouts (a fresh deal to the end of the
round, each move chosen uniformly among the legal ones) of:

* OpenSpiel ``python_block_dominoes`` (2 players) and bendolib ``classic-block`` as
  OpenSpiel plays it (``AS_OPENSPIEL_BLOCK``);
* OpenSpiel ``python_team_dominoes`` (4 players) and bendolib ``domino-pairs`` as
  OpenSpiel plays it (``AS_OPENSPIEL_TEAM``);
* the ``dominoes`` package's 4-player partnership ``Game`` and bendolib ``domino-pairs``
  as that package scores it (``AS_DOMINOES_PACKAGE``).

The anchors run mutating their state in place and, separately, copying it before every
move (``state.clone()`` / ``copy.deepcopy(game)``); bendolib's ``apply`` always returns a
new immutable state.  Every round gives each engine one slice of CPU time in turn, so
they share the same machine load; the figures are medians over the rounds, in CPU time
(``time.process_time``).  Prints playouts/s and the ratios the issue sets as targets.
Plain script: asserts nothing.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time
from collections.abc import Callable

from bendolib import apply, legal_moves, new_game
from bendolib.rules.classic import AS_DOMINOES_PACKAGE, AS_OPENSPIEL_BLOCK, AS_OPENSPIEL_TEAM
from bendolib.rules.ruleset import RuleSet

Playout = Callable[[int], int]


def bendolib_playout(rules: RuleSet, players: int) -> Playout:
    """One bendolib playout from deal ``seed``; returns the number of moves."""

    rng = random.Random(1)

    def run(seed: int) -> int:
        state = new_game(rules, players=players, seed=seed)
        moves = 0
        while not state.is_round_over:
            legal = legal_moves(state)
            state = apply(state, legal[rng.randrange(len(legal))])
            moves += 1
        return moves

    return run


def openspiel_playout(name: str, copying: bool) -> Playout:
    """One OpenSpiel playout (chance nodes deal at random), in place or cloning each move."""
    import pyspiel
    from open_spiel.python import games  # noqa: F401 - registers the python games

    game = pyspiel.load_game(name)
    rng = random.Random(2)

    def run(seed: int) -> int:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                actions = state.legal_actions()
                action = actions[rng.randrange(len(actions))]
                moves += 1
            if copying:
                state = state.clone()
            state.apply_action(action)
        return moves

    return run


def dominoes_playout(copying: bool) -> Playout:
    """One ``dominoes`` package game (4 players, partnership), in place or deep-copying."""
    import dominoes

    rng = random.Random(3)

    def run(seed: int) -> int:
        game = dominoes.Game.new()
        moves = 0
        while game.result is None:
            valid = game.valid_moves
            move = valid[rng.randrange(len(valid))]
            if copying:
                game = copy.deepcopy(game)
            game.make_move(*move)
            moves += 1
        return moves

    return run


def available() -> dict[str, bool]:
    """Which anchors can be imported here."""
    found = {}
    for module in ("dominoes", "pyspiel"):
        try:
            __import__(module)
            found[module] = True
        except ImportError:
            found[module] = False
    return found


def engines(found: dict[str, bool]) -> dict[str, Playout]:
    """The engines to compare, by label."""
    out: dict[str, Playout] = {
        "bendolib classic-block 2p": bendolib_playout(AS_OPENSPIEL_BLOCK, 2),
        "bendolib domino-pairs 4p (OpenSpiel rules)": bendolib_playout(AS_OPENSPIEL_TEAM, 4),
        "bendolib domino-pairs 4p (dominoes rules)": bendolib_playout(AS_DOMINOES_PACKAGE, 4),
    }
    if found["pyspiel"]:
        out["OpenSpiel python_block_dominoes 2p, in place"] = openspiel_playout(
            "python_block_dominoes", False
        )
        out["OpenSpiel python_block_dominoes 2p, copying"] = openspiel_playout(
            "python_block_dominoes", True
        )
        out["OpenSpiel python_team_dominoes 4p, in place"] = openspiel_playout(
            "python_team_dominoes", False
        )
        out["OpenSpiel python_team_dominoes 4p, copying"] = openspiel_playout(
            "python_team_dominoes", True
        )
    if found["dominoes"]:
        out["dominoes 4p partnership, in place"] = dominoes_playout(False)
        out["dominoes 4p partnership, copying"] = dominoes_playout(True)
    return out


def measure(runs: dict[str, Playout], slice_s: float, rounds: int) -> dict[str, float]:
    """Median playouts per CPU second of each engine, the engines taking turns."""
    rates: dict[str, list[float]] = {label: [] for label in runs}
    seed = 0
    for _ in range(rounds):
        for label, run in runs.items():
            count = 0
            start = time.process_time()
            while time.process_time() - start < slice_s:
                run(seed)
                seed += 1
                count += 1
            rates[label].append(count / (time.process_time() - start))
    return {label: statistics.median(values) for label, values in rates.items()}


RATIOS = (
    ("bendolib classic-block 2p", "OpenSpiel python_block_dominoes 2p, in place", 5.0),
    (
        "bendolib domino-pairs 4p (OpenSpiel rules)",
        "OpenSpiel python_team_dominoes 4p, in place",
        5.0,
    ),
    ("bendolib domino-pairs 4p (dominoes rules)", "dominoes 4p partnership, in place", 1.0),
    ("bendolib domino-pairs 4p (dominoes rules)", "dominoes 4p partnership, copying", None),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--slice", type=float, default=0.5, help="CPU seconds per turn")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    found = available()
    for module, ok in found.items():
        if not ok:
            print(f"({module} is not importable: its rows are skipped; see bench/README.md)")
    rates = measure(engines(found), args.slice, args.rounds)
    print(f"playouts per CPU second, median of {args.rounds} interleaved slices:")
    for label, rate in rates.items():
        print(f"  {label:46} {rate:9.0f}")
    print("ratios (target in brackets):")
    for ours, theirs, target in RATIOS:
        if theirs in rates:
            wanted = f"[>= {target:.1f}x]" if target else ""
            print(f"  {ours} / {theirs}: {rates[ours] / rates[theirs]:6.2f}x {wanted}")


if __name__ == "__main__":
    main()
