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

from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

import attrs
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.errors import Flaky
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
    ALL_INVARIANTS,
    DEFAULT_SPACING,
    _fingerprint,
    _policies_digest,
    _same,
    _Snapshot,
    replay_choices,
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
    try:
        for _ in range(count):
            legal = engine.legal_moves(state)
            if not legal:
                break
            index = chooser.below(len(legal))
            choices.append(index)
            texts.append(_shown(legal[index]))
            state = engine.apply(state, legal[index])
    except Exception:
        pass
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
    try:
        legal = engine.legal_moves(state)
    except Exception:  # the step lists them again and reports what it raises
        return Moves((choice,), f"move #{choice}")
    if not legal:
        return Moves((), "")
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
        lambda t: _shown_move(_illegal_or_pass(t[0].state, t[1]))
    )


def _illegal_or_pass(state: GameState, seed: int) -> Move:
    """:func:`illegal_move`, or a pass when the legal moves cannot be listed (the step says why)."""
    try:
        return illegal_move(state, seed)
    except Exception:
        return PASS


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


#: What the machine reports when apply does not refuse an illegal move as it should.
ILLEGAL = "illegal moves refused"

#: Findings not checked for a replay that differs (a mutated rule set replays otherwise).
_NOT_REPLAYED = frozenset({inv.REPLAYS, inv.APPLY_PURE, inv.POLICIES, inv.DEALS, inv.ERRORS})

#: Every name a machine's finding may carry that check_game can check again.
ALL_CHECKS: tuple[str, ...] = ALL_INVARIANTS

#: The state checks made after every move (no overlap is checked move by move).
_MOVE_STATE_CHECKS = tuple((n, c) for n, c in inv.STATE_CHECKS if n != inv.NO_OVERLAP)


def _first_broken(state: GameState) -> tuple[str, str] | None:
    for name, check in _MOVE_STATE_CHECKS:
        problem = check(state)
        if problem is not None:
            return name, problem
    return None


class KitFinding(AssertionError):  # noqa: N818 - a finding of the kit, raised as a failure
    """
    A broken invariant found by a state machine: the invariant, what broke, the policies
    to suspect and a line of Python that finds it again.  Every failure of the kit's
    machines is one (never a raw exception or an exception group).
    """


_T = TypeVar("_T", bound=RuleBasedStateMachine)


def _finding_in(exc: BaseException) -> KitFinding | None:
    """The first kit finding inside ``exc`` (an exception group, hypothesis' flaky error)."""
    if isinstance(exc, KitFinding):
        return exc
    for inner in getattr(exc, "exceptions", ()) or ():
        found = _finding_in(inner)
        if found is not None:
            return found
    cause = exc.__cause__ or exc.__context__
    return _finding_in(cause) if cause is not None and cause is not exc else None


def _as_finding(exc: BaseException) -> BaseException:
    """What a machine's test case raises for ``exc``: a kit finding, whatever happened."""
    found = _finding_in(exc)
    if isinstance(exc, Flaky):
        seen = f"\n  the failure seen first:\n{found}" if found is not None else ""
        return KitFinding(
            f"{inv.REPLAYS}: a failure did not happen again when hypothesis replayed the "
            "same steps: a policy depends on more than the state it is given (the global "
            "random, a cache kept between games); check_ruleset(rules, invariants="
            f"[{inv.REPLAYS!r}]) finds which game{seen}"
        )
    if found is not None:
        return found
    if isinstance(exc, AssertionError | Exception):
        name = inv.raised_by_state(exc)
        return KitFinding(f"{name}: the state machine raised {type(exc).__name__}: {exc}")
    return exc


def kit_test_case(machine: type[_T]) -> type[_T]:
    """
    Make ``machine.TestCase`` report every failure as a :class:`KitFinding` (an
    exception group or hypothesis' flaky error becomes the finding inside it).
    """
    plain = machine.TestCase

    class KitTestCase(plain):  # type: ignore[valid-type,misc]
        def runTest(self) -> None:  # noqa: N802 - unittest's name
            try:
                plain.runTest(self)
            except KitFinding:
                raise
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt | SystemExit):
                    raise
                raise _as_finding(exc) from None

    KitTestCase.__name__ = plain.__name__
    KitTestCase.__qualname__ = plain.__qualname__
    setattr(machine, "_to_test_case", classmethod(lambda cls: KitTestCase))  # noqa: B010
    return machine


#: The settings of the kit's machines: no ``explain`` phase, one bug reported.
def machine_settings() -> settings:
    """The hypothesis settings the kit's machines run with (keep them when changing any)."""
    return settings(phases=MACHINE_PHASES, report_multiple_bugs=False)


def _step(method: Callable[..., None]) -> Callable[..., None]:
    """A machine step whose unexpected exceptions become kit findings (only library errors)."""

    def step(self: Any, *args: Any, **kwargs: Any) -> None:
        try:
            method(self, *args, **kwargs)
        except KitFinding:
            raise
        except Exception as exc:
            self._fail(
                inv.raised_by_state(exc),
                f"step {method.__name__} raised {type(exc).__name__}: {exc}",
            )

    step.__name__ = method.__name__
    step.__qualname__ = method.__qualname__
    step.__doc__ = method.__doc__
    return step


def api_state_machine(
    rules: RuleSet,
    players: Sequence[int] | None = None,
    *,
    max_rounds: int | None = None,
    run_length: int = 60,
) -> type[RuleBasedStateMachine]:
    """
    A state machine over the public API for ``rules`` (games of every allowed player
    count unless ``players`` is given); use its ``TestCase`` attribute as a test.
    A match longer than ``max_rounds`` rounds counts as not terminating (by default a
    bound computed from the rules: :func:`~bendolib.testing.invariants.round_limit`); a
    run plays up to ``run_length`` moves in one step.  Every failure is a
    :class:`KitFinding` naming the invariant, the policies to suspect and a reproduction.
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
    counts = tuple(players if players is not None else rules.player_counts)
    if not counts:
        raise ValueError("no player count to test")
    recordable = inv.writable(rules)
    expression = rules_expression(rules)
    unhashable = inv.policies_hashable(rules)
    bonuses = inv.bonuses_declared(rules)

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
            self.bounds = inv.Termination(state.players, len(rules.tileset), max_rounds, rules)

        def _reproduction(self, name: str) -> str:
            args = f"{expression}, players={self.state.players}, seed={self.seed}"
            if name not in ALL_CHECKS:
                return (
                    f"bendolib.testing.replay_choices({args}, choices={self.choices}) "
                    "gives the state"
                )
            extra = f", invariants=[{name!r}]"
            if name in DEFAULT_SPACING and DEFAULT_SPACING[name] != 1:
                extra += f", spacing={{{name!r}: 1}}"
            if max_rounds is not None:
                extra += f", max_rounds={max_rounds}"
            if name == inv.TERMINATION:
                return f"bendolib.testing.check_game({args}{extra}).raise_for_violation()"
            return (
                f"bendolib.testing.check_game({args}, choices={self.choices}{extra})"
                ".raise_for_violation()"
            )

        def _replays_or_raises(self) -> bool:
            """
            True when replaying the moves reaches the same state, or raises again (a
            policy that writes a value the state refuses fails the same way each time).
            """
            try:
                return bool(self._replays())
            except Exception:
                return True

        def _fail(self, name: str, message: str) -> NoReturn:
            """Fail with the invariant's name, the moves and a one-line reproduction."""
            if name not in _NOT_REPLAYED and self.choices and not self._replays_or_raises():
                name, message = (
                    inv.REPLAYS,
                    (
                        f"replaying the moves from the deal reaches another state (while "
                        f"checking '{name}': {message}): a policy depends on more than the "
                        "state it is given"
                    ),
                )
            if name == inv.TERMINATION:
                shown = f"{len(self.moves)} moves"
            else:
                shown = " ".join(self.moves[-30:])
                if len(self.moves) > 30:
                    shown = f"... ({len(self.moves) - 30} earlier) {shown}"
                shown = f"{len(self.moves)} moves: {shown or '(the deal)'}"
            suspects = inv.suspects(rules, name)
            policy = f"  suspect: {'; '.join(suspects)}\n" if suspects else ""
            args = f"{expression}, players={self.state.players}, seed={self.seed}"
            raise KitFinding(
                f"{name}: {message}\n"
                f"  after {shown}\n{policy}"
                f"  reproduce: {self._reproduction(name)}\n"
                f"  the state: bendolib.testing.replay_choices({args}, choices={self.choices})"
            )

        def _replays(self) -> bool:
            """True when the moves replayed from the deal reach the machine's state again."""
            try:
                again = replay_choices(rules, self.state.players, self.seed, self.choices)
            except Exception:
                return False
            return again.replace(log=None, past=None) == self.state.replace(log=None, past=None)

        def _play(self, index: int) -> None:
            """Play the move at ``index`` of the legal moves and check it as the checker does."""
            before = self.state
            try:
                legal = engine.legal_moves(before)
            except Exception as exc:
                self._fail(inv.ERRORS, f"legal_moves raised {type(exc).__name__}: {exc}")
            if not legal:
                self._fail(inv.LEGAL_MOVES, "no legal move although the match is not over")
            index %= len(legal)
            move = legal[index]
            self.moves.append(_shown(move))
            self.choices.append(index)
            fingerprint = _fingerprint(before)
            policies = _policies_digest(rules)
            try:
                after = engine.apply(before, move)
            except Exception as exc:
                self._fail(
                    inv.raised_by_state(exc),
                    f"apply raised {type(exc).__name__} on a legal move: {exc}",
                )
            if _policies_digest(rules) != policies:
                self._fail(inv.APPLY_PURE, "playing changed the rule set's policies")
            if not _same(_fingerprint(before), fingerprint):
                self._fail(inv.APPLY_PURE, "apply changed the state it was given")
            try:
                again = engine.apply(before, move)
            except Exception as exc:
                again = None
                self._fail(inv.REPLAYS, f"apply raised {type(exc).__name__} the second time")
            if again != after:
                self.state = after
                self._fail(
                    inv.REPLAYS,
                    f"{move} applied twice to the same state gives two states: a policy "
                    "depends on more than the state it is given (the global random?)",
                )
            try:
                broken = inv.first_broken_move(before, move, after) or _first_broken(after)
            except Exception as exc:
                broken = (inv.ERRORS, f"checking {move} raised {type(exc).__name__}: {exc}")
            if broken is not None:
                self.state = after
                self._fail(*broken)
            problem = self.bounds.after(before, move, after)
            self.state = after
            if problem is not None:
                self._fail(inv.TERMINATION, problem)

        @initialize(count=st.sampled_from(counts), seed=_SEEDS)
        @_step
        def deal(self, count: int, seed: int) -> None:
            """Start a match."""
            self.seed = seed
            if unhashable is not None:
                self._fail(inv.POLICIES, unhashable)
            if bonuses is not None:
                self._fail(inv.POINT_TYPES, bonuses)
            try:
                state = engine.new_game(rules, count, seed)
            except BendolibError as exc:
                self._fail(inv.DEALS, f"new_game raised {type(exc).__name__}: {exc}")
            if engine.new_game(rules, count, seed) != state:
                self._fail(
                    inv.REPLAYS,
                    "new_game with the same rules, players and seed deals two different "
                    "states: the deal or the start depends on the global random",
                )
            self._begin(state, seed)

        @rule(count=st.sampled_from(counts), seed=_SEEDS)
        @_step
        def new_game(self, count: int, seed: int) -> None:
            """Abandon the match and start another."""
            self.deal(count, seed)

        @precondition(lambda self: not self.state.is_game_over)
        @rule(move=one_move())
        @_step
        def play(self, move: Moves) -> None:
            """Play one legal move, checked as the checker checks every move."""
            for index in move.choices or (0,):
                self._play(index)

        @precondition(lambda self: not self.state.is_game_over)
        @rule(moves=move_runs(run_length))
        @_step
        def play_run(self, moves: Moves) -> None:
            """Play a run of legal moves (to reach round ends and the match's end)."""
            for index in moves.choices or (0,):
                if self.state.is_game_over:
                    break
                self._play(index)

        @rule(move=illegal_steps())
        @_step
        def illegal(self, move: Shown) -> None:
            """An illegal move raises IllegalMoveError and leaves the state unchanged."""
            illegal = move.value
            fingerprint = _fingerprint(self.state)
            legal = engine.legal_moves(self.state)
            if illegal in legal:
                return
            try:
                engine.apply(self.state, illegal)
            except IllegalMoveError as exc:
                if exc.move != illegal or exc.legal != legal:
                    self._fail(ILLEGAL, f"the IllegalMoveError for {move.text} names another move")
            except BendolibError as exc:
                self._fail(
                    ILLEGAL, f"{move.text} raised {type(exc).__name__}, not IllegalMoveError"
                )
            else:
                self._fail(ILLEGAL, f"apply accepted the illegal move {illegal!r}")
            if not _same(_fingerprint(self.state), fingerprint):
                self._fail(inv.APPLY_PURE, "a refused move changed the state")
            try:
                back = parse_move(str(illegal), self.state)
            except BendolibError:
                return
            if back not in legal:
                self._fail(
                    inv.NOTATION, f"parse_move({str(illegal)!r}) gave {back}, which is not legal"
                )

        @precondition(lambda self: not self.state.is_game_over)
        @rule()
        @_step
        def notation(self) -> None:
            """Every legal move's notation reads back as the same move."""
            problem = inv.notation_round_trip(self.state)
            if problem is not None:
                self._fail(inv.NOTATION, problem)

        @rule(seat=st.integers(0, 15))
        @_step
        def observation(self, seat: int) -> None:
            """
            A seat's observation is the same whatever the tiles hidden from it (checked
            as the checker checks the state after as many moves: reproducible).
            """
            problem = inv.round_replays(self.state)
            if problem is not None:
                self._fail(inv.REPLAYS, problem)
            player = seat % self.state.players
            count = len(self.choices)
            problem = inv.observation_leak_free(self.state, player, count)
            if problem is not None:
                self._fail(inv.OBSERVATION, problem)
            problem = inv.sampling_consistent(self.state, player, count)
            if problem is not None:
                self._fail(inv.SAMPLING, problem)

        @precondition(lambda self: recordable)
        @rule()
        @_step
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
        @_step
        def state_invariants(self) -> None:
            """Fields in range, tile conservation, no overlap, consistent legal moves."""
            broken = inv.first_broken(self.state)
            if broken is not None:
                self._fail(*broken)

        @invariant()
        @_step
        def policies_unchanged(self) -> None:
            """Playing never changes the rule set's policies."""
            if self.snapshot.changed():
                self._fail(inv.APPLY_PURE, "playing changed the rule set's policies")

    APIStateMachine.__name__ = APIStateMachine.__qualname__ = "APIStateMachine_" + "".join(
        c if c.isalnum() else "_" for c in rules.name
    )
    kit_test_case(APIStateMachine)
    APIStateMachine.TestCase.settings = machine_settings()
    return APIStateMachine
