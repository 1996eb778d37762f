"""The public API driven step by step by a hypothesis state machine, for every rule set.

One machine per registered rule set (``bendolib.testing.api_state_machine``): deal, play
legal moves and runs of them, try illegal moves (IllegalMoveError, state unchanged), read
notation back, look at observations (no leak; a sampled state observes the same), and
round-trip records and position texts; every move is checked as ``check_ruleset`` checks
it (fields, tiles, turn order, scores and what they mean, termination bounds, apply never
mutating), and the rule set's policies after every step.  Each machine gets a quarter of
the profile's examples (the "ci" profile keeps the whole file to a few seconds).

The second half plants bugs (``tests/planted_bugs.py``) and checks that the machine
names them (issue 18, point 4), printing its steps in move notation.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

import bendolib
from bendolib.testing import api_state_machine, invariants
from bendolib.testing.machine import MACHINE_PHASES
from planted_bugs import Planted, planted


@pytest.mark.parametrize("name", bendolib.rules.names())
def test_public_api_state_machine(name: str) -> None:
    machine = api_state_machine(bendolib.rules.get(name))
    current = settings()
    machine.TestCase.settings = settings(
        machine.TestCase.settings,
        max_examples=max(1, current.max_examples // 4),
        stateful_step_count=20,
    )
    machine.TestCase().runTest()


def test_a_machine_skips_hypothesis_explain_phase() -> None:
    """The explain phase multiplies the time to report a failure (bench/planted_bugs.py)."""
    machine = api_state_machine(bendolib.rules.get("basic"))
    assert tuple(machine.TestCase.settings.phases) == MACHINE_PHASES


#: Bugs the machine reaches within a few steps: the first move, or a round's end.
QUICK = (
    "a double skips a seat",
    "last_placer=-7",
    "points to the next seat",
    "the placer steals a tile",
    "the match target creeps up during play",
    "a policy holding a list",
)
BUGS = [p for p in planted() if p.name in QUICK]


@pytest.mark.parametrize("bug", BUGS, ids=[p.name for p in BUGS])
def test_the_machine_names_a_planted_bug(bug: Planted) -> None:
    machine = api_state_machine(bug.rules)
    machine.TestCase.settings = settings(
        machine.TestCase.settings,
        max_examples=100,
        stateful_step_count=10,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    with pytest.raises(AssertionError) as caught:
        machine.TestCase().runTest()
    error = caught.value
    assert str(error).startswith(bug.invariant), str(error)
    if bug.invariant != invariants.POLICIES:
        assert "reproduce: bendolib.testing.check_game(rules, players=" in str(error)
        assert "the state: bendolib.testing.replay_choices(rules, players=" in str(error)
    steps = "\n".join(getattr(error, "__notes__", []))
    assert "state.deal(" in steps
    assert "Place(" not in steps and "Tile(" not in steps  # moves print in notation
    if bug.name == "points to the next seat":
        assert "state.play_run(moves='" in steps or "state.play(move='" in steps
