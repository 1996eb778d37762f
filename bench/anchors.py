"""bendolib against the anchor engines on verified-same games, interleaved in one process.

    python bench/anchors.py [--slice 0.5] [--rounds 5] [--verify 300]

Installs nothing.  Every pair of engines is first *verified* to play the same game: on
``--verify`` deals (bendolib deals, the same hands given to the anchor) both engines are
played in lock-step, a seeded random move at a time, checking at every turn the player to
move and the set of legal moves (a move as (tile, value laid against)), and at the end
the round's scores.  A pair that disagrees is reported and left out of the timings; no
ratio is printed for a pair that was not verified.

The pairs (when the ``dominoes`` package and OpenSpiel are importable):

* OpenSpiel ``python_block_dominoes`` (2 players) and ``AS_OPENSPIEL_BLOCK``;
* OpenSpiel ``python_team_dominoes`` (4 players) and ``AS_OPENSPIEL_TEAM``;
* the ``dominoes`` package's ``Game.new(starting_domino=Domino(6, 6))`` (the 6-6's holder
  opens with it) and ``AS_DOMINOES_PACKAGE``;
* the ``dominoes`` package's ``Game.new()`` (seat 0 opens with any tile) and
  ``AS_DOMINOES_NEW`` below (domino-pairs with ``FixedSeat(0)``, the package's scoring).

Timed (each a random playout: a fresh deal played to the end of the round, every move
uniform among the legal ones): bendolib's step API (``legal_moves`` + ``apply``, a new
immutable state each move); bendolib's playouts (``bendolib.playouts``, the compiled
kernel when it is built; 200 playouts per deal); the anchors mutating their state in
place, and copying it before every move (``state.clone()`` / ``copy.deepcopy(game)``).
Every round gives each engine one slice of CPU time in turn; the figures are the median
over the rounds and the min - max range, in playouts per CPU second
(``time.process_time``).  Plain script: asserts nothing.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bendolib import GameState, Move, Place, apply, legal_moves, new_game
from bendolib import playouts as kernel_api
from bendolib._rng import SplitMix64
from bendolib.moves import OPENING, PASS
from bendolib.rules.classic import AS_DOMINOES_PACKAGE, AS_OPENSPIEL_BLOCK, AS_OPENSPIEL_TEAM
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.starting import FixedSeat

#: domino-pairs as the ``dominoes`` package's ``Game.new()`` plays it: seat 0 opens with
#: any tile; the winners take every point on the table, a locked tie scores nothing.
AS_DOMINOES_NEW = AS_DOMINOES_PACKAGE.configure("domino-pairs/dominoes-new", start=FixedSeat(0))

Playout = Callable[[int], int]
Key = tuple[int, int, int | None]


# -- verification: the same game, in lock-step ----------------------------------------


def _keys(state: GameState) -> dict[Key, Move]:
    keys: dict[Key, Move] = {}
    for move in legal_moves(state):
        if isinstance(move, Place):
            value = None if move.end == OPENING else move.inward
            keys.setdefault((move.tile.a, move.tile.b, value), move)
    return keys


def lock_step(rules: RuleSet, players: int, seed: int, anchor: Any) -> tuple[GameState, str | None]:
    """Play one deal in bendolib and in ``anchor`` together; the final state, or a mismatch."""
    state = new_game(rules, players, seed)
    rng = SplitMix64(seed)
    while not state.is_round_over:
        if anchor.over():
            return state, "the anchor ended the round first"
        ours = _keys(state)
        if not ours:
            if legal_moves(state) != (PASS,):
                return state, "bendolib lists neither a placement nor a lone pass"
            state = apply(state, PASS)
            continue
        if anchor.player() != state.current_player:
            return state, f"player to move: {anchor.player()} against {state.current_player}"
        theirs = anchor.keys()
        if set(ours) != set(theirs):
            return state, f"legal moves: {sorted(theirs)} against {sorted(ours)}"
        key = rng.choice(sorted(ours, key=lambda k: (k[0], k[1], -1 if k[2] is None else k[2])))
        state = apply(state, ours[key])
        anchor.play(theirs[key])
    if not anchor.over():
        return state, "bendolib ended the round, the anchor did not"
    return state, None


class OpenSpielAnchor:
    """An OpenSpiel dominoes game dealt bendolib's hands."""

    def __init__(self, name: str, dealt: GameState) -> None:
        import pyspiel
        from open_spiel.python.games import block_dominoes, team_dominoes

        self.module = block_dominoes if name == "python_block_dominoes" else team_dominoes
        deck = [(int(a), int(b)) for a, b in self.module._DECK]
        if dealt.players == 2:  # block dominoes deals seat 0's seven tiles, then seat 1's
            order = [tile for hand in dealt.hands for tile in hand]
        else:  # team dominoes deals one tile to each seat in turn
            order = [hand[k] for k in range(7) for hand in dealt.hands]
        self.state = pyspiel.load_game(name).new_initial_state()
        for tile in order:
            self.state.apply_action(deck.index((tile.a, tile.b)))

    def over(self) -> bool:
        return bool(self.state.is_terminal())

    def player(self) -> int:
        return int(self.state.current_player())

    def keys(self) -> dict[Key, Any]:
        out: dict[Key, Any] = {}
        for action in self.state.legal_actions():
            act = self.module._ACTIONS[action]
            edge = None if act.edge is None else int(act.edge)
            out[(int(act.tile[0]), int(act.tile[1]), edge)] = action
        return out

    def play(self, action: Any) -> None:
        self.state.apply_action(action)

    def scores_match(self, points: tuple[int, ...]) -> bool:
        if len(points) == 2:
            ours = [points[0] - points[1], points[1] - points[0]]
        else:
            team0 = points[0] + points[2] - points[1] - points[3]
            ours = [team0, -team0, team0, -team0]
        return [int(r) for r in self.state.returns()] == ours


class DominoesAnchor:
    """A ``dominoes`` package Game dealt bendolib's hands, as ``Game.new`` would start it."""

    def __init__(self, dealt: GameState, six_six_opens: bool) -> None:
        import dominoes

        hands = [dominoes.Hand([dominoes.Domino(t.a, t.b) for t in hand]) for hand in dealt.hands]
        if six_six_opens:
            # what Game.new(starting_domino=6-6) builds before it plays the 6-6 itself
            six = dominoes.Domino(6, 6)
            starter = next(p for p, hand in enumerate(hands) if six in hand)
            valid: tuple[Any, ...] = ((six, True),)
        else:
            # what Game.new() builds: seat 0 opens with any tile of its hand
            starter = 0
            valid = tuple((d, True) for d in hands[0])
        self.game = dominoes.Game(dominoes.Board(), hands, [], starter, valid, starter, None)

    def over(self) -> bool:
        return self.game.result is not None

    def player(self) -> int:
        return int(self.game.turn)

    def keys(self) -> dict[Key, Any]:
        out: dict[Key, Any] = {}
        for d, left in self.game.valid_moves:
            low, high = sorted((d.first, d.second))
            if not len(self.game.board):
                out[(low, high, None)] = (d, left)
            else:
                end = self.game.board.left_end() if left else self.game.board.right_end()
                out[(low, high, end)] = (d, left)
        return out

    def play(self, move: Any) -> None:
        self.game.make_move(*move)

    def scores_match(self, points: tuple[int, ...]) -> bool:
        return bool(self.game.result.points == points[0] + points[2] - points[1] - points[3])


def verify(
    rules: RuleSet, players: int, make: Callable[[GameState], Any], deals: int
) -> str | None:
    """None when ``rules`` and the anchor play the same game on ``deals`` deals, else why not."""
    for seed in range(deals):
        anchor = make(new_game(rules, players, seed))
        final, problem = lock_step(rules, players, seed, anchor)
        if problem is None:
            result = final.last_result
            if result is None or not anchor.scores_match(result.points):
                problem = "the round's scores differ"
        if problem is not None:
            return f"deal {seed}: {problem}"
    return None


# -- timed playouts ----------------------------------------------------------------------


def step_playout(rules: RuleSet, players: int) -> Playout:
    """One bendolib playout from deal ``seed`` on the step API; returns 1 (one playout)."""
    rng = random.Random(1)

    def run(seed: int) -> int:
        state = new_game(rules, players, seed=seed)
        while not state.is_round_over:
            legal = legal_moves(state)
            state = apply(state, legal[rng.randrange(len(legal))])
        return 1

    return run


def batch_playouts(rules: RuleSet, players: int, per_deal: int = 200) -> Playout:
    """``per_deal`` playouts of deal ``seed`` with bendolib.playouts; returns the playouts."""

    def run(seed: int) -> int:
        state = new_game(rules, players, seed=seed)
        return len(kernel_api.playouts(state, per_deal, seed=seed))

    return run


def openspiel_playout(name: str, copying: bool) -> Playout:
    """One OpenSpiel playout (chance nodes deal at random), in place or cloning each move."""
    import pyspiel
    from open_spiel.python import games  # noqa: F401 - registers the python games

    game = pyspiel.load_game(name)
    rng = random.Random(2)

    def run(seed: int) -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                actions = state.legal_actions()
                action = actions[rng.randrange(len(actions))]
            if copying:
                state = state.clone()
            state.apply_action(action)
        return 1

    return run


def dominoes_playout(six_six_opens: bool, copying: bool) -> Playout:
    """One ``dominoes`` package game (4 players, partnership), in place or deep-copying."""
    import dominoes

    rng = random.Random(3)
    six = dominoes.Domino(6, 6)

    def run(seed: int) -> int:
        game = dominoes.Game.new(starting_domino=six) if six_six_opens else dominoes.Game.new()
        while game.result is None:
            valid = game.valid_moves
            move = valid[rng.randrange(len(valid))]
            if copying:
                game = copy.deepcopy(game)
            game.make_move(*move)
        return 1

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


#: (label, bendolib rules, players, anchor module, anchor factory for verification,
#: the anchor's in-place and copying playouts)
def pairs(found: dict[str, bool]) -> list[tuple[str, RuleSet, int, Any, Any, Any]]:
    out: list[tuple[str, RuleSet, int, Any, Any, Any]] = []
    if found["pyspiel"]:
        for name, rules, players in (
            ("python_block_dominoes", AS_OPENSPIEL_BLOCK, 2),
            ("python_team_dominoes", AS_OPENSPIEL_TEAM, 4),
        ):
            out.append(
                (
                    f"OpenSpiel {name}",
                    rules,
                    players,
                    lambda dealt, name=name: OpenSpielAnchor(name, dealt),
                    openspiel_playout(name, False),
                    openspiel_playout(name, True),
                )
            )
    if found["dominoes"]:
        for label, rules, six in (
            ("dominoes Game.new(starting_domino=6-6)", AS_DOMINOES_PACKAGE, True),
            ("dominoes Game.new()", AS_DOMINOES_NEW, False),
        ):
            out.append(
                (
                    label,
                    rules,
                    4,
                    lambda dealt, six=six: DominoesAnchor(dealt, six),
                    dominoes_playout(six, False),
                    dominoes_playout(six, True),
                )
            )
    return out


def measure(
    runs: dict[str, Playout], slice_s: float, rounds: int
) -> dict[str, tuple[float, float, float]]:
    """(min, median, max) playouts per CPU second of each engine, the engines taking turns."""
    rates: dict[str, list[float]] = {label: [] for label in runs}
    seed = 0
    for _ in range(rounds):
        for label, run in runs.items():
            count = 0
            start = time.process_time()
            while time.process_time() - start < slice_s:
                count += run(seed)
                seed += 1
            rates[label].append(count / (time.process_time() - start))
    return {
        label: (min(values), statistics.median(values), max(values))
        for label, values in rates.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slice", type=float, default=0.5, help="CPU seconds per turn")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--verify", type=int, default=300, help="deals played in lock-step")
    args = parser.parse_args()
    found = available()
    for module, ok in found.items():
        if not ok:
            print(f"({module} is not importable: its rows are skipped; see bench/README.md)")
    print(f"bendolib playouts: {'compiled kernel' if kernel_api.KERNEL else 'Python engine'}")
    runs: dict[str, Playout] = {}
    ratios: list[tuple[str, str, float | None]] = []
    for label, rules, players, make, in_place, copying in pairs(found):
        problem = verify(rules, players, make, args.verify)
        if problem is not None:
            print(f"NOT THE SAME GAME: {rules.name} and {label}: {problem}; pair left out")
            continue
        print(f"verified: {rules.name} {players}p and {label}, {args.verify} deals in lock-step")
        step, batch = (
            f"bendolib {rules.name} {players}p, step API",
            f"bendolib {rules.name}, playouts",
        )
        runs[step] = step_playout(rules, players)
        runs[batch] = batch_playouts(rules, players)
        runs[f"{label}, in place"] = in_place
        runs[f"{label}, copying"] = copying
        ratios += [
            (step, f"{label}, in place", None),
            (step, f"{label}, copying", None),
            (batch, f"{label}, in place", None),
            (batch, step, None),
        ]
    rates = measure(runs, args.slice, args.rounds)
    print(f"playouts per CPU second over {args.rounds} interleaved slices (median, min - max):")
    for label, (low, mid, high) in rates.items():
        print(f"  {label:62} {mid:9.0f}  ({low:.0f} - {high:.0f})")
    print("ratios of the medians:")
    for ours, theirs, _ in ratios:
        print(f"  {ours} / {theirs}: {rates[ours][1] / rates[theirs][1]:6.2f}x")


if __name__ == "__main__":
    main()
