"""
Honest attribution (issue 18, point 3): a finding names what is at fault, and no check
is skipped without the report saying so.

Built as a user would: policies of their own holding a list, holding a lambda, defined
inside a test function, or mutating the rule set; a start policy naming a missing seat.
"""

from __future__ import annotations

import copy
from typing import Any

import attrs

from bendolib import GameState, Place
from bendolib.rules import Match, RoundOutcome, RoundScore, WinnerTakesPips
from bendolib.testing import check_ruleset, invariants
from planted_bugs import BASIC, GhostSeatStarts, ListWeights, ScribbledLastPlacer, TargetCreep


def test_an_unhashable_policy_is_its_own_finding_naming_policy_and_field() -> None:
    report = check_ruleset(BASIC.configure(round_scoring=ListWeights()), games=2)
    violation = report.violation
    assert violation is not None
    assert violation.invariant == invariants.POLICIES
    assert "policy round_scoring (ListWeights) is not hashable" in violation.message
    assert "field round_scoring.weights (list)" in violation.message
    assert invariants.SAMPLING not in str(report)


@attrs.frozen
class Halving:
    """A round scoring that keeps a function (a lambda cannot be pickled)."""

    shrink: Any = lambda points: points // 2

    def score(self, outcome: RoundOutcome) -> RoundScore:
        base = WinnerTakesPips().score(outcome)
        return RoundScore(tuple(self.shrink(p) for p in base.points), base.winners)


def test_an_unpicklable_policy_is_noted_and_the_mutation_check_still_runs() -> None:
    report = check_ruleset(BASIC.configure(round_scoring=Halving()), games=2, seed=1)
    assert report.ok, str(report)
    assert any(
        "policy round_scoring (Halving) is not picklable (field round_scoring.shrink" in n
        for n in report.notes
    )
    assert "note: policy round_scoring (Halving) is not picklable" in str(report)
    assert report.checked(invariants.APPLY_PURE) > 0


def test_a_local_policy_class_that_mutates_the_rules_is_still_caught() -> None:
    """Defined inside the test, the policy cannot be pickled: a deep copy is compared."""

    @attrs.frozen
    class LocalCreep(TargetCreep):
        pass

    rules = BASIC.configure(effects=LocalCreep(), match=Match(target=99))
    report = check_ruleset(rules, games=2, invariants=[invariants.APPLY_PURE])
    assert report.notes and "LocalCreep" in report.notes[0]
    assert report.violation is not None
    assert report.violation.invariant == invariants.APPLY_PURE


class Opaque:
    """A policy that can be neither pickled nor copied (it refuses both)."""

    def after_place(self, state: GameState, move: Place) -> GameState:
        return state

    def __reduce__(self) -> Any:
        raise TypeError("an Opaque cannot be pickled")

    def __deepcopy__(self, memo: Any) -> Any:
        raise TypeError("an Opaque cannot be copied")


def test_a_check_that_cannot_be_made_is_listed_as_skipped() -> None:
    rules = BASIC.configure(effects=Opaque())
    report = check_ruleset(rules, games=1)
    with_reasons = dict(report.skipped)
    assert (
        "neither pickled nor deep-copied" in with_reasons[invariants.APPLY_PURE + " (the policies)"]
    )
    assert "cannot carry" in with_reasons[invariants.RECORD]
    assert "cannot carry" in with_reasons[invariants.POSITION_TEXT]
    text = str(report)
    assert f"skipped {invariants.RECORD}" in text and "neither pickled" in text
    assert copy.copy(report) == report


def test_a_start_policy_naming_a_missing_seat_is_not_blamed_on_tile_conservation() -> None:
    violation = check_ruleset(BASIC.configure(start=GhostSeatStarts()), games=1).violation
    assert violation is not None
    assert violation.invariant == invariants.DEALS
    assert "start policy chose seat 2 of 2 players" in violation.message
    assert "IndexError" not in violation.message


def test_a_seat_out_of_range_is_not_blamed_on_scoring() -> None:
    """``last_placer=-7`` reaches the round scoring at the round's end: the field is named."""
    violation = check_ruleset(BASIC.configure(effects=ScribbledLastPlacer()), games=1).violation
    assert violation is not None
    assert violation.invariant == invariants.FIELDS
    assert violation.message.startswith("last_placer=-7")
