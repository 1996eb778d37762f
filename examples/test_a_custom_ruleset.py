"""
Test your own bot and your own rule set with ``bendolib.testing``.

    pip install 'bendolib[testing]'
    python examples/test_a_custom_ruleset.py

Three things a user of the library typically wants to test, with the same tools the
library's own test suite uses:

1. a bot: property-based tests over states reached by random play (hypothesis
   strategies from ``bendolib.testing.strategies``), and ``check_bot``, which plays it
   on every rule set and player count and checks every decision;
2. a rule set of one's own (here: basic Bendominoes with a scoring policy and a bend
   table of our own): ``check_ruleset`` plays random games and checks every invariant,
   and ``api_state_machine`` drives the public API step by step;
3. that mistakes are caught: a scoring policy that hands out points for the wrong
   number of seats, and one that credits the winner's points to the next seat, are
   reported with a one-line reproduction (shortened by ``minimise``).

In a real project the ``test_*`` functions below live in a pytest module; here they
are called directly so that the script runs on its own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

import bendolib
from bendolib import GameState, Move, Place, TileSet
from bendolib.observation import Observation
from bendolib.rules import RoundOutcome, RoundScore, WinnerTakesPips
from bendolib.testing import api_state_machine, check_bot, check_ruleset, invariants
from bendolib.testing import strategies as bst
from bendolib.tiles import LEFT, RIGHT

QUICK = settings(max_examples=15, deadline=None)


# -- 1. a bot ---------------------------------------------------------------------------


@attrs.frozen
class HeavyFirstBot:
    """Gets rid of the tile worth most points; draws or passes only when it must."""

    name: str = "heavy-first"

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        places = [m for m in legal_moves if isinstance(m, Place)]
        if not places:
            return legal_moves[0]
        best = max(m.tile.points for m in places)
        return rng.choice([m for m in places if m.tile.points == best])


@QUICK
@given(bst.game_states(max_moves=80, allow_game_over=False), st.integers(0, 2**32))
def test_bot_plays_a_legal_move(state: GameState, seed: int) -> None:
    legal = bendolib.legal_moves(state)
    seat = state.current_player
    move = HeavyFirstBot().choose(state.observation(seat), legal, random.Random(seed))
    assert move in legal
    # the same seed gives the same choice (tournaments rely on it)
    again = HeavyFirstBot().choose(state.observation(seat), legal, random.Random(seed))
    assert again == move


def test_bot_passes_the_bot_harness() -> None:
    """Legal, deterministic per seed, no mutation, every rule set and player count."""
    report = check_bot(HeavyFirstBot(), max_moves=30)
    print(report)
    report.raise_for_violation()


@QUICK
@given(bst.game_states(max_moves=80, allow_game_over=False))
def test_bot_never_keeps_a_heavier_playable_tile(state: GameState) -> None:
    legal = bendolib.legal_moves(state)
    move = HeavyFirstBot().choose(state.observation(state.current_player), legal, random.Random())
    places = [m for m in legal if isinstance(m, Place)]
    if places:
        assert isinstance(move, Place)
        assert move.tile.points == max(m.tile.points for m in places)


# -- 2. a rule set of one's own -------------------------------------------------------


@attrs.frozen
class WinnerTakesPipsPlusTen:
    """The round's winner scores the opponents' pips and a bonus of 10."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = WinnerTakesPips().score(outcome)
        if not base.winners:
            return base
        winner = base.winners[0]
        points = tuple(p + 10 * (seat == winner) for seat, p in enumerate(base.points))
        return RoundScore(points, base.winners)


#: Our own bends: a tile a|b (a < b) turns left read from a to b when a + b is odd.
ODD_LEFT = TileSet.double(6, bends=lambda a, b: LEFT if (a + b) % 2 else RIGHT)

MY_RULES = bendolib.rules.get("basic").configure(
    "basic-plus-ten", tileset=ODD_LEFT, round_scoring=WinnerTakesPipsPlusTen()
)


def test_my_rule_set_keeps_every_invariant() -> None:
    report = check_ruleset(MY_RULES, games=6, seed=1)
    print(report)
    report.raise_for_violation()


@QUICK
@given(bst.game_states(MY_RULES, max_moves=150))
def test_my_rule_set_states(state: GameState) -> None:
    assert invariants.first_broken(state) is None
    assert state.rules.tileset == ODD_LEFT


def test_my_rule_set_through_the_public_api() -> None:
    machine = api_state_machine(MY_RULES)
    machine.TestCase.settings = settings(
        machine.TestCase.settings, max_examples=4, stateful_step_count=15, deadline=None
    )
    machine.TestCase().runTest()


# -- 3. a mistake, caught ---------------------------------------------------------------


@attrs.frozen
class ForgetsTheLastSeat:
    """A bug: one score short (the last seat is forgotten)."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = WinnerTakesPips().score(outcome)
        return RoundScore(base.points[:-1], base.winners)


def test_a_broken_scoring_policy_is_reported() -> None:
    broken = MY_RULES.configure("broken", round_scoring=ForgetsTheLastSeat())
    report = check_ruleset(broken, games=4, seed=1)
    assert report.violation is not None
    print(f"\ncaught, as it should be:\n{report.violation}")
    # replay the game to the move that failed, to debug it
    before = report.violation.state_before(broken)
    hand = " ".join(str(t) for t in before.hand(before.current_player))
    print(f"before the failing move: round {before.round_number}, ", end="")
    print(f"player {before.current_player} to move with {hand}")


@attrs.frozen
class CreditsTheNextSeat:
    """A bug: the winner's points are written in the next seat's column."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = WinnerTakesPips().score(outcome)
        n = len(base.points)
        return RoundScore(tuple(base.points[(s - 1) % n] for s in range(n)), base.winners)


def test_points_to_the_wrong_seat_are_reported_short() -> None:
    broken = MY_RULES.configure("next-seat", round_scoring=CreditsTheNextSeat())
    report = check_ruleset(broken, games=4, seed=1, minimise=True)
    assert report.violation is not None
    assert report.violation.invariant == invariants.ROUND_POINTS
    print(f"\ncaught and shortened:\n{report.violation}")


def main() -> None:
    test_bot_plays_a_legal_move()
    test_bot_passes_the_bot_harness()
    test_bot_never_keeps_a_heavier_playable_tile()
    test_my_rule_set_keeps_every_invariant()
    test_my_rule_set_states()
    test_my_rule_set_through_the_public_api()
    test_a_broken_scoring_policy_is_reported()
    test_points_to_the_wrong_seat_are_reported_short()
    print("\nall checks passed")


if __name__ == "__main__":
    main()
