"""
A hypothesis state machine that drives the public API of one rule set.

``api_state_machine(rules)`` returns a :class:`~hypothesis.stateful.RuleBasedStateMachine`
class whose steps are the things a user of the library does: deal a new game, play a
legal move (or a run of them), try an illegal move (which must raise
:class:`~bendolib.IllegalMoveError` and change nothing), read the move notation back,
look at a player's observation (which must not leak hidden tiles, and which a sampled
state must reproduce) and round-trip the
record and the position text (when those can carry the rule set: see
:func:`~bendolib.testing.invariants.writable`); after every step the state invariants of
:mod:`bendolib.testing.invariants` must hold.  Run it in a test module::

    TestBasic = api_state_machine(bendolib.rules.get("basic")).TestCase
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from bendolib import engine
from bendolib.errors import BendolibError, IllegalMoveError
from bendolib.notation import parse_move
from bendolib.rules.ruleset import RuleSet
from bendolib.state import GameState
from bendolib.testing import invariants as inv
from bendolib.testing import strategies as bst


def api_state_machine(
    rules: RuleSet, players: Sequence[int] | None = None
) -> type[RuleBasedStateMachine]:
    """
    A state machine over the public API for ``rules`` (games of every allowed player
    count unless ``players`` is given); use its ``TestCase`` attribute as a test.
    """
    counts = tuple(players if players is not None else rules.player_counts)
    if not counts:
        raise ValueError("no player count to test")
    recordable = inv.writable(rules)

    class APIStateMachine(RuleBasedStateMachine):
        """The public API of one rule set, step by step."""

        def __init__(self) -> None:
            super().__init__()
            self.state: GameState = engine.new_game(rules, counts[0], 0)

        @initialize(count=st.sampled_from(counts), seed=bst.seeds())
        def deal(self, count: int, seed: int) -> None:
            """Start a match."""
            self.state = engine.new_game(rules, count, seed)
            assert engine.new_game(rules, count, seed) == self.state, "new_game is not repeatable"

        @rule(count=st.sampled_from(counts), seed=bst.seeds())
        def new_game(self, count: int, seed: int) -> None:
            """Abandon the match and start another."""
            self.deal(count, seed)

        @precondition(lambda self: not self.state.is_game_over)
        @rule(data=st.data())
        def legal_move(self, data: st.DataObject) -> None:
            """Play one legal move; scores and the board change only as declared."""
            before = self.state
            move = data.draw(bst.legal_moves(before), label="move")
            digest = hash(before)
            after = engine.apply(before, move)
            assert hash(before) == digest, "apply changed the state it was given"
            for name, check in ((inv.SCORES, inv.scores_as_declared),):
                problem = check(before, move, after)
                assert problem is None, f"{name}: {problem}"
            self.state = after

        @precondition(lambda self: not self.state.is_game_over)
        @rule(data=st.data(), steps=st.integers(1, 60))
        def legal_moves_run(self, data: st.DataObject, steps: int) -> None:
            """Play a run of random legal moves (to reach round ends and the match's end)."""
            for _ in range(steps):
                if self.state.is_game_over:
                    break
                moves = engine.legal_moves(self.state)
                index = data.draw(st.integers(0, len(moves) - 1), label="index")
                self.state = engine.apply(self.state, moves[index])

        @rule(data=st.data())
        def illegal_move(self, data: st.DataObject) -> None:
            """An illegal move raises IllegalMoveError and leaves the state unchanged."""
            move = data.draw(bst.illegal_moves(self.state), label="illegal move")
            digest = hash(self.state)
            try:
                engine.apply(self.state, move)
            except IllegalMoveError as exc:
                assert exc.move == move
                assert exc.legal == engine.legal_moves(self.state)
            else:
                raise AssertionError(f"apply accepted the illegal move {move!r}")
            assert hash(self.state) == digest, "a refused move changed the state"
            try:
                back = parse_move(str(move), self.state)
            except BendolibError:
                return
            assert back in engine.legal_moves(self.state)

        @precondition(lambda self: not self.state.is_game_over)
        @rule(data=st.data())
        def notation(self, data: st.DataObject) -> None:
            """A legal move's notation reads back as the same move."""
            move = data.draw(bst.legal_moves(self.state), label="move")
            assert parse_move(str(move), self.state) == move

        @rule(data=st.data())
        def observation(self, data: st.DataObject) -> None:
            """A player's observation is the same whatever the tiles hidden from them."""
            player = data.draw(st.integers(0, self.state.players - 1), label="player")
            seed = data.draw(bst.seeds())
            problem = inv.observation_leak_free(self.state, player, seed)
            assert problem is None, f"{inv.OBSERVATION}: {problem}"
            problem = inv.sampling_consistent(self.state, player, seed)
            assert problem is None, f"{inv.SAMPLING}: {problem}"

        @precondition(lambda self: recordable)
        @rule()
        def record_round_trip(self) -> None:
            """The match's record and position text read back and replay to this state."""
            for name, check in (
                (inv.RECORD, inv.record_round_trip),
                (inv.POSITION_TEXT, inv.position_text_round_trip),
            ):
                problem = check(self.state)
                assert problem is None, f"{name}: {problem}"

        @invariant()
        def state_invariants(self) -> None:
            """Tile conservation, no overlap, consistent legal moves."""
            broken = inv.first_broken(self.state)
            assert broken is None, f"{broken[0]}: {broken[1]}" if broken else ""

    APIStateMachine.__name__ = APIStateMachine.__qualname__ = "APIStateMachine_" + "".join(
        c if c.isalnum() else "_" for c in rules.name
    )
    return APIStateMachine
