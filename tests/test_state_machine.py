"""The public API driven step by step by a hypothesis state machine, for every rule set.

One machine per registered rule set (``bendolib.testing.api_state_machine``): deal, play
legal moves and runs of them, try illegal moves (IllegalMoveError, state unchanged), read
notation back, look at observations (no leak; a sampled state observes the same), and
round-trip records and position texts; tile conservation, no overlap and the legal-move
invariants are checked after every step.  Each machine gets a quarter of the profile's
examples (the "ci" profile keeps the whole file to a few seconds).
"""

from __future__ import annotations

import pytest
from hypothesis import settings

import bendolib
from bendolib.testing import api_state_machine


@pytest.mark.parametrize("name", bendolib.rules.names())
def test_public_api_state_machine(name: str) -> None:
    machine = api_state_machine(bendolib.rules.get(name))
    current = settings()
    machine.TestCase.settings = settings(
        current, max_examples=max(1, current.max_examples // 4), stateful_step_count=20
    )
    machine.TestCase().runTest()
