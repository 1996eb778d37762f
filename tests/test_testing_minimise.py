"""
Short counterexamples and one-line reproductions (issue 18, point 5).

A bug that shows only at the end of a match is found after many moves; ``minimise``
(and ``check_ruleset(minimise=True)``) shortens it: fewer moves, fewer rounds, a smaller
target.  Every violation carries a line of Python that finds it again, and a state drawn
by the strategies notes the line that rebuilds it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

import bendolib
from bendolib import GameState
from bendolib.testing import (
    Violation,
    check_game,
    check_ruleset,
    invariants,
    minimise,
    replay_choices,
)
from bendolib.testing import strategies as bst
from planted_bugs import BASIC, LowestSideWins, PointsToNextSeat, SkipAfterDouble


def _reproduced(violation: Violation, rules: bendolib.RuleSet) -> AssertionError:
    """Run the violation's reproduction line; return the AssertionError it raises."""
    line = violation.reproduction
    assert "\n" not in line
    with pytest.raises(AssertionError) as caught:
        eval(line, {"bendolib": bendolib, "rules": rules})
    return caught.value


def test_an_end_of_match_bug_comes_out_small() -> None:
    rules = BASIC.configure("lowest-wins", match=LowestSideWins(target=100))
    report = check_ruleset(rules, games=5, seed=0, minimise=True)
    found, short = report.found, report.violation
    assert found is not None and short is not None
    assert short.invariant == found.invariant == invariants.MATCH_WINNER
    assert len(short.moves) < len(found.moves) / 2, (len(found.moves), len(short.moves))
    assert "next" not in short.moves  # one round: the smaller target ends the match in it
    assert dict(short.changes).get("target", 100) < 100
    assert f"(minimised from {len(found.moves)} moves)" in str(report)
    error = _reproduced(short, rules)
    assert invariants.MATCH_WINNER in str(error)


def test_a_round_end_bug_comes_out_in_the_first_round() -> None:
    rules = BASIC.configure("next-seat", round_scoring=PointsToNextSeat())
    found = check_ruleset(rules, games=5, seed=3).violation
    assert found is not None
    short = minimise(rules, found)
    assert short.invariant == invariants.ROUND_POINTS
    assert len(short.moves) <= len(found.moves) and "next" not in short.moves
    assert short.replay(rules).results  # the replayed state is the round's end
    _reproduced(short, rules)


def test_a_first_move_bug_stays_one_move() -> None:
    rules = BASIC.configure("skip", effects=SkipAfterDouble())
    found = check_ruleset(rules, games=3).violation
    assert found is not None and len(found.moves) == 1
    assert minimise(rules, found).moves == found.moves


def test_every_violation_has_a_one_line_reproduction() -> None:
    """The seed form (a chooser-played game) and the choices form both find it again."""
    rules = BASIC.configure("skip", effects=SkipAfterDouble())
    found = check_ruleset(rules, games=3, seed=4).violation
    assert found is not None
    assert found.reproduction == (
        f"bendolib.testing.check_game(rules, players={found.players}, seed={found.seed})"
        ".raise_for_violation()"
    )
    assert invariants.TURN_ORDER in str(_reproduced(found, rules))
    again = check_game(rules, found.players, found.seed, choices=found.choices)
    assert again.violation is not None
    assert again.violation.moves == found.moves and again.violation.replayed
    assert "choices=[" in again.violation.reproduction
    _reproduced(again.violation, rules)


def test_a_registered_rule_set_is_written_out_in_the_reproduction() -> None:
    rules = bendolib.rules.get("basic", target=50)
    report = check_game(rules, 2, 7, choices=[0, 0, 0], invariants=[invariants.SCORES])
    assert report.ok
    violation = Violation("x", "y", "basic", 2, 7, 0, (), (), "bendolib.rules.get('basic')")
    assert violation.reproduction.startswith("bendolib.testing.check_game(bendolib.rules.get(")
    assert bendolib.testing.checker.rules_expression(rules) == (
        "bendolib.rules.get('basic', target=50)"
    )


def test_replay_choices_rebuilds_a_state() -> None:
    state = replay_choices(BASIC, 3, 11, [0, 1, 5, 0])
    again = bendolib.new_game(BASIC, 3, 11)
    for index in (0, 1, 5, 0):
        legal = bendolib.legal_moves(again)
        again = bendolib.apply(again, legal[index % len(legal)])
    assert state == again


def test_a_state_drawn_by_the_strategies_notes_its_reproduction() -> None:
    @settings(max_examples=50, database=None, derandomize=True, deadline=None)
    @given(bst.game_states(max_moves=30))
    def placed_three_tiles(state: GameState) -> None:
        assert len(state.history) < 3

    with pytest.raises(AssertionError) as caught:
        placed_three_tiles()
    notes: list[str] = getattr(caught.value, "__notes__", [])
    lines = [n for n in notes if n.startswith("state: bendolib.testing.replay_choices(")]
    assert lines, notes
    state: Any = eval(lines[0].removeprefix("state: "), {"bendolib": bendolib})
    assert isinstance(state, GameState) and len(state.history) == 3
