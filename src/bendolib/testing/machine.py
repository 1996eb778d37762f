"""
A hypothesis state machine that drives the public API of one rule set.

``api_state_machine(rules)`` returns a :class:`~hypothesis.stateful.RuleBasedStateMachine`
class whose steps are the things a user of the library does: deal a new game, play a
legal move (or a run of them), try an illegal move (which must raise
:class:`~bendolib.IllegalMoveError` and change nothing), read the move notation back,
look at a player's observation (which must not leak hidden tiles, and which a sampled
state must reproduce) and round-trip the record and the position text (when those can
carry the rule set: see :func:`~bendolib.testing.invariants.writable`).  Every move is
checked as :func:`~bendolib.testing.check_ruleset` checks it (fields, tiles, the order of
play, scores and what they mean, termination bounds, ``apply`` never mutating), and after
every step the rule set's policies must be unchanged.  Steps print their moves in
notation (``state.play(move='6-6*')``), and a failure says how to reproduce its state
in one line.  Run it in a test module::

    TestBasic = api_state_machine(bendolib.rules.get("basic")).TestCase
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

import attrs
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from bendolib import engine
from bendolib._rng import SplitMix64
from bendolib.errors import BendolibError, IllegalMoveError
from bendolib.moves import DRAW, NEXT_ROUND, PASS, Move, Place
from bendolib.notation import parse_move
from bendolib.rules.bendomino import BASIC
from bendolib.rules.ruleset import RuleSet
from bendolib.state import GameState
from bendolib.testing import invariants as inv
from bendolib.testing.checker import (
    MAX_ROUNDS,
    _fingerprint,
    _policies_digest,
    _same,
    _Snapshot,
    rules_expression,
)
from bendolib.tiles import LEFT, RIGHT, STRAIGHT


@attrs.frozen(repr=False)
class Moves:
    """
    Moves drawn for a step: their indices in ``legal_moves`` of each state (``choices``)
    and their notation (``text``), which is how the step prints.
    """

    choices: tuple[int, ...]
    text: str

    def __repr__(self) -> str:
        return repr(self.text)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """How hypothesis prints a step's moves: their notation."""
        printer.text(repr(self))


def _shown(move: Move) -> str:
    try:
        return str(move)
    except Exception:  # a malformed move may have no notation
        return repr(move)


def _run(state: GameState, count: int, seed: int) -> Moves:
    """``count`` moves from ``state`` chosen by a SplitMix64 stream (fewer if the match ends)."""
    chooser = SplitMix64(seed)
    choices: list[int] = []
    texts: list[str] = []
    for _ in range(count):
        legal = engine.legal_moves(state)
        if not legal:
            break
        index = chooser.below(len(legal))
        choices.append(index)
        texts.append(_shown(legal[index]))
        state = engine.apply(state, legal[index])
    return Moves(tuple(choices), " ".join(texts))


def move_runs(most: int) -> st.SearchStrategy[Moves]:
    """
    In a state machine with a ``state`` attribute: between 1 and ``most`` legal moves
    played in turn from the machine's state (fewer if the match ends), as
    :class:`Moves`.  Only their number and a seed are drawn, the same whatever the
    state, so a failing run shrinks fast: to fewer moves (a prefix) and to seed 0.
    """
    return st.tuples(st.runner(), st.integers(1, most), st.integers(0, 255)).map(
        lambda t: _run(t[0].state, t[1], t[2])
    )


def _pick(state: GameState, choice: int) -> Moves:
    legal = engine.legal_moves(state)
    index = choice % len(legal)
    return Moves((index,), _shown(legal[index]))


def one_move() -> st.SearchStrategy[Moves]:
    """
    In a state machine with a ``state`` attribute: one legal move of the machine's state
    as :class:`Moves` (a number drawn whatever the state; shrinks to the first listed).
    """
    return st.tuples(st.runner(), st.integers(0, 255)).map(lambda t: _pick(t[0].state, t[1]))


def illegal_move(state: GameState, seed: int) -> Move:
    """
    A move that is not legal in ``state``, chosen by ``seed``: draw / pass / next when
    they are not legal, a legal placement with one field changed, or any tile anywhere.
    """
    legal = engine.legal_moves(state)
    rng = SplitMix64(seed)
    tileset = state.rules.tileset
    places = [m for m in legal if isinstance(m, Place)]
    for _ in range(64):
        kind = rng.below(3)
        if kind == 0:
            move: Move = (DRAW, PASS, NEXT_ROUND)[rng.below(3)]
        else:
            position = places[rng.below(len(places))].position if places else None
            anywhere = Place(
                tileset.tiles[rng.below(len(tileset))],
                rng.below(len(state.board.ends) + 3) - 1,
                rng.below(tileset.top + 5) - 3,
                rng.below(tileset.top + 5) - 3,
                (STRAIGHT, LEFT, RIGHT)[rng.below(3)],
                position,
            )
            move = anywhere
            if kind == 1 and places:
                field = ("tile", "end", "inward", "shows", "turn")[rng.below(5)]
                changed: dict[str, Any] = {field: getattr(anywhere, field)}
                move = attrs.evolve(places[rng.below(len(places))], **changed)
        if move not in legal:
            return move
    return next(m for m in (DRAW, PASS, NEXT_ROUND) if m not in legal)


@attrs.frozen(repr=False)
class Shown:
    """A value drawn for a step that prints as ``text`` (an illegal move's notation)."""

    value: Move
    text: str

    def __repr__(self) -> str:
        return self.text

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """How hypothesis prints the value: ``text``."""
        printer.text(self.text)


def illegal_steps() -> st.SearchStrategy[Shown]:
    """In a state machine with a ``state`` attribute: an illegal move, shown in notation."""
    return st.tuples(st.runner(), st.integers(0, 255)).map(
        lambda t: _shown_move(illegal_move(t[0].state, t[1]))
    )


def _shown_move(move: Move) -> Shown:
    return Shown(move, repr(_shown(move)))


#: The hypothesis phases the machines run: all but ``explain``, which re-runs a failing
#: machine with every step varied to say which ones matter, and so multiplies the time to
#: report a failure (a failure at a round's end: 2.7 s of CPU without it, 57 s with it;
#: bench/planted_bugs.py).  Keep it when changing a machine's settings:
#: ``settings(machine.TestCase.settings, max_examples=...)``.
MACHINE_PHASES = tuple(phase for phase in Phase if phase is not Phase.explain)

#: Deal seeds of the machines: few enough bits that shrinking one takes few steps (a
#: 64-bit seed costs the shrinker dozens of whole replays of the failing example).
_SEEDS = st.integers(0, 1023)


def placeholder(rules: RuleSet, players: int) -> GameState:
    """
    A machine's state before its first deal: a game of ``rules`` if it deals, else of
    basic Bendominoes (the deal step then reports why ``rules`` does not deal).
    """
    try:
        return engine.new_game(rules, players, 0)
    except Exception:
        return engine.new_game(BASIC, 2, 0)


#: The state checks made after every move (no overlap is checked move by move).
_MOVE_STATE_CHECKS = tuple((n, c) for n, c in inv.STATE_CHECKS if n != inv.NO_OVERLAP)


def _first_broken(state: GameState) -> tuple[str, str] | None:
    for name, check in _MOVE_STATE_CHECKS:
        problem = check(state)
        if problem is not None:
            return name, problem
    return None


def api_state_machine(
    rules: RuleSet,
    players: Sequence[int] | None = None,
    *,
    max_rounds: int = MAX_ROUNDS,
    run_length: int = 60,
) -> type[RuleBasedStateMachine]:
    """
    A state machine over the public API for ``rules`` (games of every allowed player
    count unless ``players`` is given); use its ``TestCase`` attribute as a test.
    A match longer than ``max_rounds`` rounds counts as not terminating; a run plays
    up to ``run_length`` moves in one step.
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
    counts = tuple(players if players is not None else rules.player_counts)
    if not counts:
        raise ValueError("no player count to test")
    recordable = inv.writable(rules)
    expression = rules_expression(rules)
    unhashable = inv.policies_hashable(rules)

    class APIStateMachine(RuleBasedStateMachine):
        """The public API of one rule set, step by step."""

        def __init__(self) -> None:
            super().__init__()
            self.snapshot = _Snapshot(rules)
            self._begin(placeholder(rules, counts[0]), 0)

        def _begin(self, state: GameState, seed: int) -> None:
            self.state = state
            self.seed = seed
            self.choices: list[int] = []
            self.moves: list[str] = []
            self.bounds = inv.Termination(state.players, len(rules.tileset), max_rounds)

        def _fail(self, name: str, message: str) -> NoReturn:
            """Fail with the invariant's name, the moves and a one-line reproduction."""
            shown = " ".join(self.moves[-30:])
            if len(self.moves) > 30:
                shown = f"... ({len(self.moves) - 30} earlier) {shown}"
            args = f"{expression}, players={self.state.players}, seed={self.seed}"
            raise AssertionError(
                f"{name}: {message}\n"
                f"  after {len(self.moves)} moves: {shown or '(the deal)'}\n"
                f"  reproduce: bendolib.testing.check_game({args}, "
                f"choices={self.choices}).raise_for_violation()\n"
                f"  the state: bendolib.testing.replay_choices({args}, choices={self.choices})"
            )

        def _play(self, index: int) -> None:
            """Play the move at ``index`` of the legal moves and check it as the checker does."""
            before = self.state
            try:
                legal = engine.legal_moves(before)
            except Exception as exc:
                self._fail(inv.ERRORS, f"legal_moves raised {type(exc).__name__}: {exc}")
            index %= len(legal)
            move = legal[index]
            self.moves.append(_shown(move))
            self.choices.append(index)
            fingerprint = _fingerprint(before)
            policies = _policies_digest(rules)
            try:
                after = engine.apply(before, move)
            except Exception as exc:
                self._fail(inv.ERRORS, f"apply raised {type(exc).__name__} on a legal move: {exc}")
            if _policies_digest(rules) != policies:
                self._fail(inv.APPLY_PURE, "playing changed the rule set's policies")
            if not _same(_fingerprint(before), fingerprint):
                self._fail(inv.APPLY_PURE, "apply changed the state it was given")
            broken = inv.first_broken_move(before, move, after) or _first_broken(after)
            if broken is not None:
                self._fail(*broken)
            problem = self.bounds.after(before, move, after)
            if problem is not None:
                self._fail(inv.TERMINATION, problem)
            self.state = after

        @initialize(count=st.sampled_from(counts), seed=_SEEDS)
        def deal(self, count: int, seed: int) -> None:
            """Start a match."""
            if unhashable is not None:
                self._fail(inv.POLICIES, unhashable)
            try:
                state = engine.new_game(rules, count, seed)
            except BendolibError as exc:
                self._fail(inv.DEALS, f"new_game raised {type(exc).__name__}: {exc}")
            assert engine.new_game(rules, count, seed) == state, "new_game is not repeatable"
            self._begin(state, seed)

        @rule(count=st.sampled_from(counts), seed=_SEEDS)
        def new_game(self, count: int, seed: int) -> None:
            """Abandon the match and start another."""
            self.deal(count, seed)

        @precondition(lambda self: not self.state.is_game_over)
        @rule(move=one_move())
        def play(self, move: Moves) -> None:
            """Play one legal move, checked as the checker checks every move."""
            for index in move.choices:
                self._play(index)

        @precondition(lambda self: not self.state.is_game_over)
        @rule(moves=move_runs(run_length))
        def play_run(self, moves: Moves) -> None:
            """Play a run of legal moves (to reach round ends and the match's end)."""
            for index in moves.choices:
                if self.state.is_game_over:
                    break
                self._play(index)

        @rule(move=illegal_steps())
        def illegal(self, move: Shown) -> None:
            """An illegal move raises IllegalMoveError and leaves the state unchanged."""
            illegal = move.value
            fingerprint = _fingerprint(self.state)
            try:
                engine.apply(self.state, illegal)
            except IllegalMoveError as exc:
                assert exc.move == illegal
                assert exc.legal == engine.legal_moves(self.state)
            else:
                self._fail("illegal moves", f"apply accepted the illegal move {illegal!r}")
            if not _same(_fingerprint(self.state), fingerprint):
                self._fail(inv.APPLY_PURE, "a refused move changed the state")
            try:
                back = parse_move(str(illegal), self.state)
            except BendolibError:
                return
            assert back in engine.legal_moves(self.state)

        @precondition(lambda self: not self.state.is_game_over)
        @rule()
        def notation(self) -> None:
            """Every legal move's notation reads back as the same move."""
            problem = inv.notation_round_trip(self.state)
            if problem is not None:
                self._fail(inv.NOTATION, problem)

        @rule(seat=st.integers(0, 15), seed=st.integers(0, 255))
        def observation(self, seat: int, seed: int) -> None:
            """A seat's observation is the same whatever the tiles hidden from it."""
            player = seat % self.state.players
            problem = inv.observation_leak_free(self.state, player, seed)
            if problem is not None:
                self._fail(inv.OBSERVATION, problem)
            problem = inv.sampling_consistent(self.state, player, seed)
            if problem is not None:
                self._fail(inv.SAMPLING, problem)

        @precondition(lambda self: recordable)
        @rule()
        def record_round_trip(self) -> None:
            """The match's record and position text read back and replay to this state."""
            for name, check in (
                (inv.RECORD, inv.record_round_trip),
                (inv.POSITION_TEXT, inv.position_text_round_trip),
            ):
                problem = check(self.state)
                if problem is not None:
                    self._fail(name, problem)

        @invariant()
        def state_invariants(self) -> None:
            """Fields in range, tile conservation, no overlap, consistent legal moves."""
            broken = inv.first_broken(self.state)
            if broken is not None:
                self._fail(*broken)

        @invariant()
        def policies_unchanged(self) -> None:
            """Playing never changes the rule set's policies."""
            if self.snapshot.changed():
                self._fail(inv.APPLY_PURE, "playing changed the rule set's policies")

    APIStateMachine.__name__ = APIStateMachine.__qualname__ = "APIStateMachine_" + "".join(
        c if c.isalnum() else "_" for c in rules.name
    )
    APIStateMachine.TestCase.settings = settings(phases=MACHINE_PHASES)
    return APIStateMachine
