"""
``check_ruleset``: play random games of any rule set and report the first broken invariant.

The games are reproducible: game ``i`` of a run with ``seed`` is dealt with its own seed
(reported with any violation) and its moves are chosen by a SplitMix64 generator seeded
from it, so :func:`check_game` with the reported ``players`` and ``seed`` replays it
exactly, on any machine and Python version.  :func:`minimise` turns a violation into a
shorter one (fewer moves, fewer rounds, a smaller target), replayed from a list of
choices that a one-line call reproduces (:attr:`Violation.reproduction`).
"""

from __future__ import annotations

import copy
import pickle
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from functools import partial
from types import MappingProxyType
from typing import Any

import attrs

from bendolib._memo import remember
from bendolib._rng import SplitMix64, derive_seed
from bendolib._rule_spec import rules_to_spec
from bendolib.engine import apply, legal_moves, new_game
from bendolib.errors import BendolibError
from bendolib.moves import Move, NextRound
from bendolib.rules.ruleset import RuleSet
from bendolib.state import PLAYING, STATE_FIELDS, GameState
from bendolib.testing import invariants as inv
from bendolib.testing.determinism import (
    first_difference,
    in_subprocess,
    pickles_equal,
    replay_digests,
    state_digest,
)

#: Every invariant :func:`check_ruleset` can check, by name, in the order they are checked.
ALL_INVARIANTS: tuple[str, ...] = (
    inv.POLICIES,
    inv.DEALS,
    inv.FIELDS,
    inv.TILE_CONSERVATION,
    inv.NO_OVERLAP,
    inv.LEGAL_MOVES,
    inv.APPLY_PURE,
    inv.REPLAYS,
    inv.TERMINATION,
    inv.MOVES,
    inv.TURN_ORDER,
    inv.POINT_TYPES,
    inv.SCORES,
    inv.ROUND_POINTS,
    inv.MATCH_WINNER,
    inv.OBSERVATION,
    inv.SAMPLING,
    inv.NOTATION,
    inv.RECORD,
    inv.POSITION_TEXT,
    inv.ERRORS,
)


_CHOOSER = 0x5EED

#: How often the costlier invariants are checked by default: in every n-th state of a
#: game (the record round trip also at every round's end).  Every other invariant is
#: checked in every state and after every move.
DEFAULT_SPACING: Mapping[str, int] = MappingProxyType(
    {inv.POSITION_TEXT: 1, inv.OBSERVATION: 8, inv.SAMPLING: 32, inv.RECORD: 200}
)

#: The fewest rounds a match may last before it counts as not terminating, when
#: ``max_rounds`` is not given (the bound is computed from the rules:
#: :func:`~bendolib.testing.invariants.round_limit`).
MAX_ROUNDS = inv.MIN_ROUNDS


def rules_expression(rules: RuleSet) -> str:
    """
    Python text that rebuilds ``rules``: ``bendolib.rules.get('basic', target=50)`` for
    a registered rule set with scalar changes, else ``rules`` (the caller's variable).
    """
    try:
        spec = rules_to_spec(rules)
    except BendolibError:
        return "rules"
    params = spec.get("parameters", {})
    if "base" in spec or not all(
        v is None or isinstance(v, bool | int | str) for v in params.values()
    ):
        return "rules"
    args = "".join(f", {k}={v!r}" for k, v in params.items())
    return f"bendolib.rules.get({rules.name!r}{args})"


@attrs.frozen
class Violation:
    """
    A broken invariant and how to reach it again.

    ``moves`` are the moves played from the deal, in notation, up to and including
    the one after which ``invariant`` was found broken (none when the deal itself broke
    it); ``choices`` are their indices in ``legal_moves`` of each state, which replay
    the game even when the notation is what broke.  The game is
    ``new_game(rules.configure(**dict(changes)), players, seed)``: ``changes`` are
    parameters :func:`minimise` changed (a smaller target), none otherwise.
    :attr:`reproduction` is a line of Python that finds the violation again (with
    :func:`check_game`, or ``call``: :func:`~bendolib.testing.check_bot_game` for a bot;
    ``rerun`` when only the whole run finds it again: a cache filled by earlier games).
    ``extra`` are more keyword arguments of the reproduction (``time_budget=0.5``);
    ``policies`` are the policies to suspect (:func:`~bendolib.testing.invariants.suspects`).
    """

    invariant: str
    message: str
    rules: str
    players: int
    seed: int
    game: int
    moves: tuple[str, ...]
    choices: tuple[int, ...]
    rules_expr: str = "rules"
    changes: tuple[tuple[str, Any], ...] = ()
    replayed: bool = False
    checked: tuple[str, ...] = ()
    spacing: tuple[tuple[str, int], ...] = ()
    max_rounds: int | None = None
    call: str = "check_game"
    rerun: str = ""
    policies: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()

    def rules_of(self, rules: RuleSet) -> RuleSet:
        """``rules`` with this violation's :attr:`changes` made."""
        return rules.configure(**dict(self.changes)) if self.changes else rules

    def replay(self, rules: RuleSet, count: int | None = None) -> GameState:
        """The state after the first ``count`` moves (all of them by default)."""
        chosen = self.choices[: len(self.choices) if count is None else count]
        return replay_choices(self.rules_of(rules), self.players, self.seed, chosen)

    def state_before(self, rules: RuleSet) -> GameState:
        """The state in which the last move was chosen (the deal if there was none)."""
        return self.replay(rules, max(0, len(self.choices) - 1))

    @property
    def reproduction(self) -> str:
        """
        One line of Python that finds this violation again (``rules`` stands for the
        rule set checked when it cannot be written as ``bendolib.rules.get(...)``, and
        ``bot`` for the bot checked).
        """
        if self.rerun:
            return self.rerun
        rules = self.rules_expr
        if self.changes:
            rules += ".configure(" + ", ".join(f"{k}={v!r}" for k, v in self.changes) + ")"
        args = [rules, f"players={self.players}", f"seed={self.seed}"]
        if self.call != "check_game":
            args.insert(0, "bot")
        if self.replayed and self.invariant != inv.TERMINATION:
            args.append(f"choices={list(self.choices)}")
        if self.checked:
            args.append(f"invariants={list(self.checked)!r}")
        if self.spacing:
            args.append(f"spacing={dict(self.spacing)!r}")
        if self.max_rounds is not None:
            args.append(f"max_rounds={self.max_rounds}")
        args.extend(self.extra)
        return f"bendolib.testing.{self.call}({', '.join(args)}).raise_for_violation()"

    def __str__(self) -> str:
        if self.invariant == inv.TERMINATION:
            # a match that never ends: its moves would fill pages; the seed replays them
            changed = "".join(f", {k}={v!r}" for k, v in self.changes)
            return (
                f"{self.invariant}: {self.message}\n"
                f"  rule set {self.rules!r}{changed}, game {self.game}, players={self.players}, "
                f"seed={self.seed}, after {len(self.moves)} moves\n{self._policies()}"
                f"  reproduce: {self.reproduction}"
            )
        shown = ", ".join(self.moves[-40:])
        if len(self.moves) > 40:
            shown = f"... ({len(self.moves) - 40} earlier moves), " + shown
        changed = "".join(f", {k}={v!r}" for k, v in self.changes)
        return (
            f"{self.invariant}: {self.message}\n"
            f"  rule set {self.rules!r}{changed}, game {self.game}, players={self.players}, "
            f"seed={self.seed}\n"
            f"  after {len(self.moves)} move{'' if len(self.moves) == 1 else 's'}: "
            f"{shown or '(the deal)'}\n{self._policies()}"
            f"  reproduce: {self.reproduction}"
        )

    def _policies(self) -> str:
        return f"  suspect: {'; '.join(self.policies)}\n" if self.policies else ""


@attrs.frozen
class CheckReport:
    """
    What :func:`check_ruleset` played and the first violation found (``None``: all held).

    ``games``, ``rounds`` and ``moves`` count what was played, the failing game included;
    ``checks`` how many times each invariant was checked; ``skipped`` the checks that
    could not be made, with the reason; ``notes`` what else the user should know (a
    policy that cannot be pickled).  After :func:`minimise`, ``violation`` is the
    short one and ``found`` the one first found.
    """

    rules: str
    seed: int
    games: int
    rounds: int
    moves: int
    players: tuple[int, ...]
    invariants: tuple[str, ...]
    violation: Violation | None = None
    checks: tuple[tuple[str, int], ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()
    found: Violation | None = None
    notes: tuple[str, ...] = ()

    def checked(self, invariant: str) -> int:
        """How many times ``invariant`` was checked."""
        return dict(self.checks).get(invariant, 0)

    @property
    def ok(self) -> bool:
        """True when no invariant was broken."""
        return self.violation is None

    def raise_for_violation(self) -> None:
        """Raise ``AssertionError`` with the violation's description, if there is one."""
        if self.violation is not None:
            raise AssertionError(str(self.violation))

    def __str__(self) -> str:
        head = (
            f"{self.rules}: {self.games} games, {self.rounds} rounds, {self.moves} moves "
            f"(players {', '.join(map(str, self.players))}; seed {self.seed})"
        )
        skipped = "".join(f"\n  skipped {name}: {why}" for name, why in self.skipped)
        skipped += "".join(f"\n  note: {note}" for note in self.notes)
        if self.violation is None:
            return f"{head}: every invariant held{skipped}"
        first = ""
        if self.found is not None and self.found != self.violation:
            first = f"\n  (minimised from {len(self.found.moves)} moves)"
        return f"{head}: VIOLATION{skipped}\n{self.violation}{first}"


#: GameState fields compared by identity only: the history (immutable cons lists) and the
#: rule set (whose policies are compared with a snapshot of their own, :class:`_Snapshot`;
#: hashing its tile set after every move would double the cost of a check).
_IDENTITY_ONLY = ("log", "past", "rules")


def _fingerprint(state: GameState) -> tuple[tuple[object, ...], int | None]:
    """The state's field values (compared by identity) and a hash of the other ones."""
    refs = tuple(getattr(state, name) for name in STATE_FIELDS)
    values = tuple(getattr(state, name) for name in STATE_FIELDS if name not in _IDENTITY_ONLY)
    try:
        digest: int | None = hash(values)
    except TypeError:
        digest = None
    return refs, digest


#: The RuleSet fields holding policies (small values, cheap to hash after every move).
_POLICY_PARTS = tuple(p for p in inv.PARTS if p not in ("tileset", "geometry"))


def _policies_digest(rules: RuleSet) -> int | None:
    """A hash of the rule set's policies (None when one cannot be hashed)."""
    try:
        return hash(tuple(getattr(rules, part) for part in _POLICY_PARTS))
    except TypeError:
        return None


def _same(
    a: tuple[tuple[object, ...], int | None], b: tuple[tuple[object, ...], int | None]
) -> bool:
    return (
        a[1] == b[1]
        and len(a[0]) == len(b[0])
        and all(x is y for x, y in zip(a[0], b[0], strict=True))
    )


class _Snapshot:
    """The rule set as it was: its pickle, else a deep copy; ``None`` when neither works."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.kind = "pickle"
        self.value: object = None
        try:
            self.value = pickle.dumps(rules)
            return
        except Exception:
            self.kind = "copy"
        try:
            self.value = copy.deepcopy(rules)
            if self.value != rules:
                self.kind, self.value = "none", None
        except Exception:
            self.kind, self.value = "none", None

    def changed(self) -> bool:
        """True when the rule set now differs from the snapshot."""
        if self.kind == "pickle":
            return pickle.dumps(self.rules) != self.value
        if self.kind == "copy":
            return bool(self.value != self.rules)
        return False


def _seen(name: str, state: GameState, count: int, spacing: Mapping[str, int]) -> str | None:
    """
    Observation leak-freedom or sampling consistency in the state after ``count`` moves:
    for one seat in turn (every seat when checked in every state, ``spacing`` 1).
    """
    every = spacing[name]
    seats = range(state.players) if every == 1 else (count // every % state.players,)
    check = inv.observation_leak_free if name == inv.OBSERVATION else inv.sampling_consistent
    for seat in seats:
        problem = check(state, seat, count)
        if problem is not None:
            return problem
    return None


class _Chooser:
    """The move indices of a game: a SplitMix64 stream, or a given list (then stop)."""

    def __init__(self, seed: int, players: int, choices: Sequence[int] | None) -> None:
        self.random = SplitMix64(derive_seed(seed, players, _CHOOSER))
        self.choices = choices
        self.taken = 0

    def next(self, count: int) -> int | None:
        """An index below ``count``, or None when the given choices are used up."""
        if self.choices is None:
            return self.random.below(count)
        if self.taken >= len(self.choices):
            return None
        index = self.choices[self.taken] % count
        self.taken += 1
        return index


@attrs.define
class _Game:
    """The bookkeeping of one game being checked."""

    rules: RuleSet
    players: int
    seed: int
    game: int
    wanted: frozenset[str]
    max_rounds: int | None
    spacing: Mapping[str, int]
    counts: dict[str, int]
    given: Sequence[int] | None = None
    moves: list[str] = attrs.Factory(list)
    choices: list[int] = attrs.Factory(list)
    rounds: int = 0
    rules_expr: str = "rules"
    changes: tuple[tuple[str, Any], ...] = ()
    checked: tuple[str, ...] = ()
    max_moves: int | None = None
    sampled: bool = False
    digests: list[str] = attrs.Factory(list)
    last: GameState | None = None

    def due(self, name: str, offset: int = 0) -> bool:
        """True when ``name`` is wanted and due in the current state."""
        every = self.spacing[name]
        return name in self.wanted and (len(self.moves) + offset) % every == 0

    def violation(self, invariant: str, message: str) -> Violation:
        spacing = tuple(
            (k, v) for k, v in self.spacing.items() if v != DEFAULT_SPACING[k] and k in self.wanted
        )
        return Violation(
            invariant,
            message,
            self.rules.name,
            self.players,
            self.seed,
            self.game,
            tuple(self.moves),
            tuple(self.choices),
            self.rules_expr,
            self.changes,
            self.given is not None,
            self.checked,
            spacing,
            self.max_rounds,
            policies=inv.suspects(self.rules, invariant),
        )

    def play(self, snapshot: _Snapshot | None) -> Violation | None:
        """Play the game to its end (or to the end of the given choices), checking it."""
        wanted = self.wanted
        try:
            state = new_game(self.rules, self.players, self.seed)
        except BendolibError as exc:
            name = inv.DEALS if inv.DEALS in wanted else inv.ERRORS
            return self.violation(name, f"new_game raised {type(exc).__name__}: {exc}")
        except Exception as exc:
            return self.violation(inv.ERRORS, f"new_game raised {type(exc).__name__}: {exc}")
        if inv.DEALS in wanted:
            self._count(inv.DEALS)
        if inv.FIELDS in wanted:
            problem = self._run(inv.FIELDS, partial(inv.fields_in_range, state))
            if problem is not None:
                return problem
        self.last = state
        if self.sampled:
            self.digests.append(state_digest(state))
        chooser = _Chooser(self.seed, self.players, self.given)
        bounds = inv.Termination(self.players, len(self.rules.tileset), self.max_rounds, self.rules)
        while True:
            legal_or_problem = self._check_state(state)
            if isinstance(legal_or_problem, Violation):
                return legal_or_problem
            if state.is_game_over:
                return self._check_rules_unchanged(snapshot)
            legal = legal_or_problem
            index = chooser.next(len(legal))
            if index is None or (self.max_moves is not None and len(self.moves) >= self.max_moves):
                return self._check_rules_unchanged(snapshot)
            move = legal[index]
            self.moves.append(str(move))
            self.choices.append(index)
            before = _fingerprint(state) if inv.APPLY_PURE in wanted else None
            policies = _policies_digest(self.rules) if before is not None else None
            try:
                after = apply(state, move)
            except Exception as exc:
                return self.violation(
                    inv.raised_by_state(exc),
                    f"apply raised {type(exc).__name__} on a legal move: {exc}",
                )
            if inv.ERRORS in wanted:
                self._count(inv.ERRORS)
            if before is not None:
                self._count(inv.APPLY_PURE)
                if _policies_digest(self.rules) != policies:
                    return self.violation(inv.APPLY_PURE, "playing changed the rule set's policies")
                if not _same(_fingerprint(state), before):
                    return self.violation(inv.APPLY_PURE, "apply changed the state it was given")
            round_end = after.phase != PLAYING and state.phase == PLAYING
            self.rounds += round_end
            problem = self._check_transition(state, move, after)
            if problem is not None:
                return problem
            if round_end:
                unchanged = self._check_rules_unchanged(snapshot)
                if unchanged is not None:
                    return unchanged
            if inv.RECORD in wanted and (round_end or self.due(inv.RECORD)):
                problem = self._run(inv.RECORD, partial(inv.record_round_trip, after))
                if problem is not None:
                    return problem
            if inv.TERMINATION in wanted:
                problem = self._run(inv.TERMINATION, partial(bounds.after, state, move, after))
                if problem is not None:
                    return problem
            state = self.last = after
            if self.sampled:
                self.digests.append(state_digest(after))

    def violation_at(self, invariant: str, message: str, count: int) -> Violation:
        """A violation found in the state after the first ``count`` moves (replayed)."""
        found = self.violation(invariant, message)
        return attrs.evolve(
            found,
            moves=found.moves[:count],
            choices=found.choices[:count],
            replayed=True,
            checked=(invariant,),
        )

    def replays_the_same(self) -> Violation | None:
        """
        A sampled game, replayed twice from its deal and moves, passes through the same
        states as when it was played; its last state and the rule set pickle equal.
        """
        if not self.sampled or inv.REPLAYS not in self.wanted:
            return None
        self._count(inv.REPLAYS)
        for attempt in ("again", "a third time"):
            again = replay_digests(self.rules, self.players, self.seed, self.choices)
            at = first_difference(self.digests, again)
            if at is not None:
                return self.violation_at(
                    inv.REPLAYS,
                    f"the game replayed {attempt} from its deal and moves reaches another "
                    f"state after {at} moves: a policy depends on more than the state it is "
                    "given (the global random, a cache kept between calls, the clock)",
                    at,
                )
        if self.last is not None and inv.policies_picklable(self.rules) is None:
            problem = pickles_equal(self.last, "the last state")
            if problem is not None:
                return attrs.evolve(self.violation(inv.REPLAYS, problem), checked=(inv.REPLAYS,))
        return None

    def _check_rules_unchanged(self, snapshot: _Snapshot | None) -> Violation | None:
        if snapshot is not None and snapshot.changed():
            return self.violation(inv.APPLY_PURE, "playing changed the rule set's policies")
        return None

    def _check_state(self, state: GameState) -> Violation | tuple[Move, ...]:
        """The state's legal moves once its invariants held, else the violation."""
        wanted = self.wanted
        try:
            legal = legal_moves(state)
        except Exception as exc:
            return self.violation(inv.ERRORS, f"legal_moves raised {type(exc).__name__}: {exc}")
        checks: tuple[tuple[str, Callable[[], str | None]], ...] = (
            (inv.TILE_CONSERVATION, lambda: inv.tile_conservation(state)),
            (inv.LEGAL_MOVES, lambda: inv.legal_moves_consistent(state, legal)),
            (inv.MATCH_WINNER, lambda: inv.match_won_at_target(state)),
            (inv.NOTATION, lambda: inv.notation_round_trip(state, legal)),
            (inv.POSITION_TEXT, lambda: inv.position_text_round_trip(state)),
        )
        count = len(self.moves)
        due = {
            inv.POSITION_TEXT: self.due(inv.POSITION_TEXT),
            inv.OBSERVATION: self.due(inv.OBSERVATION),
            inv.SAMPLING: self.due(inv.SAMPLING, self.spacing[inv.SAMPLING] // 2),
        }
        seen = any(n in wanted and due[n] for n in (inv.OBSERVATION, inv.SAMPLING))
        due[inv.REPLAYS] = seen
        checks += (
            # the observation checks replay the round with other decks: first, with its own
            # (a policy that does not replay is not a leak of the observation)
            (inv.REPLAYS, partial(inv.round_replays, state)),
            (inv.OBSERVATION, partial(_seen, inv.OBSERVATION, state, count, self.spacing)),
            (inv.SAMPLING, partial(_seen, inv.SAMPLING, state, count, self.spacing)),
        )
        for name, check in checks:
            if (name in wanted or (name == inv.REPLAYS and seen)) and due.get(name, True):
                problem = self._run(name, check)
                if problem is not None:
                    return problem
        return legal

    def _count(self, name: str) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1

    def _run(self, name: str, check: Callable[[], str | None]) -> Violation | None:
        """Run one check; a check that raises counts as broken."""
        self._count(name)
        try:
            problem = check()
        except Exception as exc:
            problem = f"checking raised {type(exc).__name__}: {exc}"
        return None if problem is None else self.violation(name, problem)

    def _check_transition(
        self, before: GameState, move: Move, after: GameState
    ) -> Violation | None:
        if inv.FIELDS in self.wanted:
            problem = self._run(inv.FIELDS, partial(inv.fields_in_range, after))
            if problem is not None:
                return problem
        for name, check in inv.TRANSITION_CHECKS:
            if name in self.wanted:
                problem = self._run(name, partial(check, before, move, after))
                if problem is not None:
                    return problem
        return None


def _counts(rules: RuleSet, players: int | Sequence[int] | None) -> tuple[int, ...]:
    if players is None:
        return tuple(rules.player_counts)
    if isinstance(players, int):
        return (players,)
    return tuple(players)


def _wanted(
    invariants: Collection[str] | None,
    known: Sequence[str] = ALL_INVARIANTS,
    what: str = "invariants",
) -> frozenset[str]:
    """The checks asked for (all of ``known`` by default); ``what`` names them in errors."""
    if invariants is None:
        return frozenset(known)
    if isinstance(invariants, str):
        raise TypeError(f"invariants is a collection of names, not the string {invariants!r}")
    unknown = set(invariants) - set(known)
    if unknown:
        raise ValueError(f"unknown {what} {sorted(unknown)}; known: {list(known)}")
    return frozenset(invariants)


def _applicable(
    rules: RuleSet, wanted: frozenset[str]
) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """The wanted invariants that apply, and the skipped ones with the reason."""
    if inv.writable(rules):
        return wanted, ()
    why = "a record and a position text cannot carry the rule set's own policy classes"
    skipped = tuple((name, why) for name in (inv.RECORD, inv.POSITION_TEXT) if name in wanted)
    return wanted - {inv.RECORD, inv.POSITION_TEXT}, skipped


#: The round length (moves) that :data:`DEFAULT_SPACING` is made for: a rule set whose
#: rounds are longer has the spacings it is not given multiplied by its round length
#: over this, rounded (:func:`round_scale`; Triominoes: 3, every other registered rule
#: set: 1).
ROUND_MOVES = 30

#: The round scales measured, by the id of the rule set (held beside it).
_SCALES: dict[int, tuple[RuleSet, int]] = {}


def round_scale(rules: RuleSet) -> int:
    """
    How many times :data:`DEFAULT_SPACING` is spread for ``rules``: the mean length of
    a first round (one unchecked game of each player count, seed 0, moves chosen as the
    kit chooses them) over :data:`ROUND_MOVES`, rounded; at least 1.  It is 1 for a
    rule set with policies of the user's own (playing them beforehand could change
    what a policy that keeps state between games does in the checked games) and when
    those games cannot be played.
    """
    held = _SCALES.get(id(rules))
    if held is not None and held[0] is rules:
        return held[1]
    scale = 1
    try:
        if not inv.writable(rules):
            raise BendolibError("policies of the user's own")
        counts = rules.player_counts
        moves = 0
        for players in counts:
            state = new_game(rules, players, 0)
            chooser = _Chooser(0, players, None)
            while state.phase == PLAYING and moves < 100_000:
                legal = legal_moves(state)
                state = apply(state, legal[chooser.next(len(legal)) or 0])
                moves += 1
        if counts:
            rounds = len(counts)
            scale = max(1, (moves + rounds * ROUND_MOVES // 2) // (rounds * ROUND_MOVES))
    except Exception:  # a rule set that cannot play is reported by the checks themselves
        scale = 1
    remember(_SCALES, id(rules), (rules, scale))
    return scale


def _spacing(spacing: Mapping[str, int] | None, scale: int = 1) -> Mapping[str, int]:
    given = dict(spacing or {})
    merged = {**{k: v * scale for k, v in DEFAULT_SPACING.items()}, **given}
    unknown = set(merged) - set(DEFAULT_SPACING)
    if unknown:
        raise ValueError(f"no spacing for {sorted(unknown)}; spaced: {list(DEFAULT_SPACING)}")
    if any(not isinstance(n, int) or n < 1 for n in merged.values()):
        raise ValueError(f"spacings are positive integers: {merged}")
    return merged


@attrs.frozen
class _Plan:
    """What to check and how: shared by every game of a run."""

    rules: RuleSet
    wanted: frozenset[str]
    skipped: tuple[tuple[str, str], ...]
    spacing: Mapping[str, int]
    max_rounds: int | None
    checked: tuple[str, ...]
    rules_expr: str
    max_moves: int | None = None


def _plan(
    rules: RuleSet,
    invariants: Collection[str] | None,
    spacing: Mapping[str, int] | None,
    max_rounds: int | None,
    max_moves: int | None = None,
) -> _Plan:
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
    wanted, skipped = _applicable(rules, _wanted(invariants))
    checked = () if invariants is None else tuple(i for i in ALL_INVARIANTS if i in wanted)
    if max_moves is not None and max_moves < 0:
        raise ValueError(f"max_moves must be None or at least 0, not {max_moves}")
    return _Plan(
        rules,
        wanted,
        skipped,
        _spacing(spacing, round_scale(rules) if len(spacing or {}) < len(DEFAULT_SPACING) else 1),
        max_rounds,
        checked,
        rules_expression(rules),
        max_moves,
    )


def _start(
    plan: _Plan, seed: int, players: int
) -> tuple[Violation | None, _Snapshot | None, tuple[tuple[str, str], ...], tuple[str, ...]]:
    """
    The checks of the rule set made once per run: a violation, the rule set's snapshot
    (to compare after play), the skipped checks and the notes for the report.
    """
    skipped = plan.skipped
    notes: tuple[str, ...] = ()
    if inv.POLICIES in plan.wanted:
        problem = inv.policies_hashable(plan.rules)
        if problem is not None:
            game = _new_game(plan, players, seed, 0)
            game.counts[inv.POLICIES] = 1
            return game.violation(inv.POLICIES, problem), None, skipped, notes
    if inv.POINT_TYPES in plan.wanted:
        problem = inv.bonuses_declared(plan.rules)
        if problem is not None:
            game = _new_game(plan, players, seed, 0)
            game.counts[inv.POINT_TYPES] = 1
            return game.violation(inv.POINT_TYPES, problem), None, skipped, notes
    if inv.REPLAYS in plan.wanted and inv.policies_picklable(plan.rules) is None:
        problem = pickles_equal(plan.rules, "the rule set")
        if problem is not None:
            game = _new_game(plan, players, seed, 0)
            game.counts[inv.REPLAYS] = 1
            return game.violation(inv.REPLAYS, problem), None, skipped, notes
    snapshot = None
    if inv.APPLY_PURE in plan.wanted:
        snapshot = _Snapshot(plan.rules)
        unpicklable = inv.policies_picklable(plan.rules)
        if unpicklable is not None:
            notes += (
                f"{unpicklable} (tournaments cannot send it to worker processes; "
                f"'{inv.APPLY_PURE}' compares a deep copy of the rule set instead)",
            )
        if snapshot.kind == "none":
            why = "the rule set can be neither pickled nor deep-copied to compare it after play"
            skipped += ((inv.APPLY_PURE + " (the policies)", why),)
    return None, snapshot, skipped, notes


def _new_game(
    plan: _Plan, players: int, seed: int, number: int, given: Sequence[int] | None = None
) -> _Game:
    return _Game(
        plan.rules,
        players,
        seed,
        number,
        plan.wanted,
        plan.max_rounds,
        plan.spacing,
        {},
        given,
        rules_expr=plan.rules_expr,
        checked=plan.checked,
        max_moves=plan.max_moves,
    )


def _report(
    plan: _Plan,
    seed: int,
    games: list[_Game],
    counts: tuple[int, ...],
    violation: Violation | None,
    skipped: tuple[tuple[str, str], ...],
    notes: tuple[str, ...],
) -> CheckReport:
    tally: dict[str, int] = {}
    for game in games:
        for name, n in game.counts.items():
            tally[name] = tally.get(name, 0) + n
    return CheckReport(
        plan.rules.name,
        seed,
        len(games),
        sum(g.rounds for g in games),
        sum(len(g.moves) for g in games),
        counts,
        tuple(i for i in ALL_INVARIANTS if i in plan.wanted),
        violation,
        tuple((i, tally[i]) for i in ALL_INVARIANTS if i in tally),
        skipped,
        violation,
        notes,
    )


def check_game(
    rules: RuleSet,
    players: int,
    seed: int,
    *,
    choices: Sequence[int] | None = None,
    max_rounds: int | None = None,
    max_moves: int | None = None,
    invariants: Collection[str] | None = None,
    spacing: Mapping[str, int] | None = None,
) -> CheckReport:
    """
    Play and check the single game ``new_game(rules, players, seed)`` (a reported one).

    With ``choices`` the game plays those moves (indices into each state's
    ``legal_moves``, taken modulo their number) and stops after them; without, its
    moves are chosen as :func:`check_ruleset` chooses them (up to ``max_moves``).  The
    game is replayed in another process only when ``invariants`` names "plays the same
    every time" (as the reproductions of its findings do).
    """
    plan = _plan(rules, invariants, spacing, max_rounds, max_moves)
    violation, snapshot, skipped, notes = _start(plan, seed, players)
    game = _new_game(plan, players, seed, 0, None if choices is None else tuple(choices))
    game.sampled = True
    if violation is None:
        violation = game.play(snapshot) or game.replays_the_same()
    if violation is None and invariants is not None:
        # the other process (half a second) only when asked by name: a reproduction
        # of a finding of "plays the same every time" names it
        violation, why = _other_process(plan, [game])
        skipped += why
    return _report(plan, seed, [game], (players,), violation, skipped, notes)


def _other_process(
    plan: _Plan, games: Sequence[_Game]
) -> tuple[Violation | None, tuple[tuple[str, str], ...]]:
    """
    The sampled games replayed in another process (another ``PYTHONHASHSEED``): the
    first that reaches another state, or what was skipped and why.
    """
    sampled = [g for g in games if g.sampled and g.digests]
    if inv.REPLAYS not in plan.wanted or not sampled:
        return None, ()
    there, why = in_subprocess(plan.rules, [(g.players, g.seed, g.choices) for g in sampled])
    if there is None:
        return None, ((inv.REPLAYS + " (in another process)", str(why)),)
    for game, digests in zip(sampled, there, strict=True):
        game._count(inv.REPLAYS)
        at = first_difference(game.digests, digests)
        if at is not None:
            return (
                game.violation_at(
                    inv.REPLAYS,
                    f"the game replayed in another Python process (PYTHONHASHSEED differs) "
                    f"reaches another state after {at} moves: a policy depends on hash() of "
                    "a string, the order of a set of strings, or state of this process",
                    at,
                ),
                (),
            )
    return None, ()


def game_seed(seed: int, game: int) -> int:
    """The deal seed of game number ``game`` of a run started with ``seed``."""
    return derive_seed(seed, game)


def replay_choices(rules: RuleSet, players: int, seed: int, choices: Sequence[int]) -> GameState:
    """
    The state reached from ``new_game(rules, players, seed)`` by playing, in each state,
    the move at index ``choices[i]`` (modulo their number) of its ``legal_moves``; the
    replay stops early at the end of the match.
    """
    state = new_game(rules, players, seed)
    for index in choices:
        legal = legal_moves(state)
        if not legal:
            break
        state = apply(state, legal[index % len(legal)])
    return state


#: Violations not replayed to confirm them: found by replaying, before any move, or
#: by a rule set that play changes (a replay would differ for that reason).
_UNCONFIRMED = (inv.REPLAYS, inv.POLICIES, inv.APPLY_PURE, inv.TERMINATION, inv.POINT_TYPES)


def _confirmed(plan: _Plan, violation: Violation, snapshot: _Snapshot | None) -> Violation:
    """
    ``violation``, once its game replayed from the deal with its moves breaks the same
    invariant again (twice); else a finding of nondeterminism that quotes it: its
    reproduction would not reproduce (a random tie-break, a stale cache).
    """
    if violation.invariant in _UNCONFIRMED or not violation.choices or violation.rerun:
        return violation
    for _ in range(2):
        game = _new_game(plan, violation.players, violation.seed, violation.game, violation.choices)
        try:
            again = game.play(snapshot)
        except Exception:  # the replay raising is a difference too
            again = None
        if again is None or _kind(again) != _kind(violation):
            message = (
                f"'{violation.invariant}' broke ({violation.message}), but not when the game "
                "was replayed from its deal and moves: a policy depends on more than the "
                "state it is given (the global random, a cache kept between calls)"
            )
            return attrs.evolve(
                violation,
                invariant=inv.REPLAYS,
                message=message,
                policies=inv.suspects(plan.rules, inv.REPLAYS),
                checked=(inv.REPLAYS,),
            )
    return violation


def check_ruleset(
    rules: RuleSet,
    games: int = 20,
    seed: int = 0,
    players: int | Sequence[int] | None = None,
    *,
    max_rounds: int | None = None,
    max_moves: int | None = None,
    invariants: Collection[str] | None = None,
    spacing: Mapping[str, int] | None = None,
    minimise: bool = False,
) -> CheckReport:
    """
    Play ``games`` random games of ``rules`` and check every invariant after every move.

    Games cycle through ``players`` (every count the rule set allows by default).
    ``invariants`` restricts the checks to some of :data:`ALL_INVARIANTS` (the record
    and position-text round trips are left out for a rule set with policies of the
    user's own, which those formats cannot carry: see
    :func:`~bendolib.testing.invariants.writable`; the report lists what was skipped).
    The costlier invariants run in every n-th state only (:data:`DEFAULT_SPACING`, times
    :func:`round_scale` for a rule set with long rounds; ``spacing`` changes n).  A match
    longer than ``max_rounds`` rounds counts as not terminating; ``max_moves`` stops
    each game after that many moves (a quick check).
    The report names the first violation, with the seed and moves that reproduce it;
    with ``minimise`` it is shortened first (see :func:`minimise`; the report's
    ``found`` keeps the original).
    """
    counts = _counts(rules, players)
    if not counts:
        raise ValueError("no player count to check")
    plan = _plan(rules, invariants, spacing, max_rounds, max_moves)
    violation, snapshot, skipped, notes = _start(plan, game_seed(seed, 0), counts[0])
    played: list[_Game] = []
    if violation is None:
        for number in range(games):
            count = counts[number % len(counts)]
            game = _new_game(plan, count, game_seed(seed, number), number)
            game.sampled = number < len(counts)
            played.append(game)
            violation = game.play(snapshot) or game.replays_the_same()
            if violation is not None:
                break
        if violation is None:
            violation, why = _other_process(plan, played)
            skipped += why
            sampled = sum(g.sampled for g in played)
            if violation is not None and sampled > 1:
                # the other games of the run may fill a cache: rerun them too
                shown = "" if players is None else f", players={players!r}"
                rerun = (
                    f"bendolib.testing.check_ruleset({plan.rules_expr}, games="
                    f"{sampled}, seed={seed}{shown}, "
                    f"invariants=[{inv.REPLAYS!r}]).raise_for_violation()"
                )
                violation = attrs.evolve(violation, rerun=rerun)
    if violation is not None:
        violation = _confirmed(plan, violation, snapshot)
    report = _report(plan, seed, played, counts, violation, skipped, notes)
    if minimise and violation is not None:
        report = attrs.evolve(report, violation=_minimise(rules, violation))
    return report


# -- minimising a violation ---------------------------------------------------------------

#: Invariants too costly to check in every state of every candidate: a candidate game
#: is replayed without checks and the invariant checked in its last state only.
_AT_THE_END = (inv.OBSERVATION, inv.SAMPLING, inv.RECORD, inv.POSITION_TEXT, inv.NOTATION)


def _kind(violation: Violation) -> tuple[str, str]:
    """What must stay the same while shrinking: the invariant (and for errors, which)."""
    detail = violation.message.split(":")[0] if violation.invariant == inv.ERRORS else ""
    return violation.invariant, detail


def _check_last(name: str, state: GameState, count: int) -> str | None:
    """``name`` checked in ``state``, reached after ``count`` moves, as :class:`_Game` does."""
    if name in (inv.OBSERVATION, inv.SAMPLING):
        return _seen(name, state, count, {name: 1})
    if name == inv.RECORD:
        return inv.record_round_trip(state)
    if name == inv.POSITION_TEXT:
        return inv.position_text_round_trip(state)
    return inv.notation_round_trip(state)


class _Trials:
    """Replays candidate games checking one invariant, within a budget of replays and time."""

    def __init__(self, rules: RuleSet, violation: Violation, replays: int, seconds: float) -> None:
        self.base = rules
        self.violation = violation
        self.kind = _kind(violation)
        name = violation.invariant
        spacing = dict(DEFAULT_SPACING)
        if name in spacing:
            spacing[name] = 1
        self.wanted = frozenset({name})
        self.spacing = MappingProxyType(spacing)
        self.left = replays
        self.deadline = time.perf_counter() + seconds
        self.expr = rules_expression(rules)

    @property
    def spent(self) -> bool:
        """True when no replay is left."""
        return self.left <= 0 or time.perf_counter() > self.deadline

    def _game(
        self,
        rules: RuleSet,
        changes: tuple[tuple[str, Any], ...],
        seed: int,
        game: int,
        choices: Sequence[int] | None,
    ) -> _Game:
        return _Game(
            rules,
            self.violation.players,
            seed,
            game,
            self.wanted,
            self.violation.max_rounds,
            self.spacing,
            {},
            choices,
            rules_expr=self.expr,
            changes=changes,
            checked=(self.violation.invariant,),
        )

    def run(
        self,
        changes: tuple[tuple[str, Any], ...],
        seed: int,
        choices: Sequence[int] | None,
        game: int = 0,
        *,
        limit: int | None = None,
    ) -> Violation | None:
        """
        The violation of the same kind found in this game, if any (within ``limit``
        moves: a longer one would not be shorter than the best found).
        """
        self.left -= 1
        rules = self.base.configure(**dict(changes)) if changes else self.base
        played = self._game(rules, changes, seed, game, choices)
        played.max_moves = limit
        if choices is not None and self.violation.invariant in _AT_THE_END:
            found = self._at_the_end(played)
        else:
            snapshot = _Snapshot(rules) if inv.APPLY_PURE in self.wanted else None
            found = played.play(snapshot)
        if found is None or _kind(found) != self.kind:
            return None
        return attrs.evolve(found, replayed=True)

    def run_checked(
        self, changes: tuple[tuple[str, Any], ...], seed: int, choices: Sequence[int]
    ) -> Violation | None:
        """:meth:`run`, checking the invariant in every state however costly."""
        self.left -= 1
        rules = self.base.configure(**dict(changes)) if changes else self.base
        found = self._game(rules, changes, seed, 0, choices).play(None)
        if found is None or _kind(found) != self.kind:
            return None
        return attrs.evolve(found, replayed=True)

    def _at_the_end(self, game: _Game) -> Violation | None:
        """Replay the game's choices unchecked, then check the last state."""
        assert game.given is not None
        try:
            state = new_game(game.rules, game.players, game.seed)
            for index in game.given:
                legal = legal_moves(state)
                if not legal:
                    break
                index %= len(legal)
                game.moves.append(str(legal[index]))
                game.choices.append(index)
                state = apply(state, legal[index])
        except Exception:  # another failure than the one being minimised
            return None
        name = self.violation.invariant
        return game._run(name, partial(_check_last, name, state, len(game.choices)))


def _targets(rules: RuleSet) -> Iterator[int]:
    """Smaller match targets to try, smallest first."""
    target = rules.parameters().get("target")
    if not isinstance(target, int) or isinstance(target, bool):
        return
    for value in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        if value < target:
            yield value


def _shorter(a: Violation, b: Violation | None) -> Violation:
    """The shorter of two violations (fewer rule changes on a tie)."""
    if b is None:
        return a
    return min(a, b, key=lambda v: (len(v.choices), len(v.changes)))


def minimise(
    rules: RuleSet,
    violation: Violation,
    *,
    replays: int = 300,
    seconds: float = 60.0,
    games: int = 8,
) -> Violation:
    """
    A shorter game that breaks the same invariant as ``violation`` (found in a game of
    ``rules``), or ``violation`` itself.

    Tries shorter prefixes of the moves, removes runs of moves (halves, quarters...
    down to single moves) and lowers move indices to 0, keeping every change after
    which the invariant still breaks; then, for a violation that comes after a round or
    late in one, tries a smaller match ``target`` (fewer rounds) and ``games`` other
    games, shortened the same way; the shortest wins (with fewer rule changes on a
    tie).  Each candidate is replayed checking that invariant in every state (the costly
    ones, such as sampling consistency, in its last state, for every seat); at most
    ``replays`` replays and ``seconds`` seconds are spent.  The
    result's :attr:`Violation.reproduction` replays its ``choices`` (and ``changes``).
    A termination violation stays at least ``max_rounds`` rounds long: check with a
    smaller ``max_rounds`` for a shorter one.
    """
    if not violation.choices or violation.invariant == inv.TERMINATION:
        # a match that never ends cannot be shown shorter than its bound: its seed
        # replays it (the choices would be thousands of numbers)
        return violation
    trials = _Trials(rules, violation, replays, seconds)
    first = trials.run(violation.changes, violation.seed, violation.choices, violation.game)
    if first is None and violation.invariant in _AT_THE_END:
        # checked in another seat's view than in the run: check every state of the game
        first = trials.run_checked(violation.changes, violation.seed, violation.choices)
    if first is None:
        return violation
    best = _shrink_choices(trials, _prefix(trials, first))
    if str(NextRound()) in best.moves or len(best.choices) > _LONG:
        configured = rules.configure(**dict(violation.changes)) if violation.changes else rules
        candidates: list[Violation] = []
        for target in _targets(configured):
            if trials.spent:
                break
            changes = (*[(k, v) for k, v in violation.changes if k != "target"], ("target", target))
            try:
                rules.configure(**dict(changes))
            except BendolibError:
                continue
            found = _shortest_game(trials, changes, violation.seed, games, len(best.choices))
            if found is not None:
                candidates.append(found)
                break
        found = _shortest_game(trials, violation.changes, violation.seed, games, len(best.choices))
        if found is not None:
            candidates.append(found)
        for candidate in sorted(candidates, key=lambda v: len(v.choices)):
            if trials.spent or len(candidate.choices) >= len(best.choices):
                break
            best = _shorter(best, _shrink_choices(trials, _prefix(trials, candidate)))
    return best


#: A violation longer than this many moves is worth looking for in other games.
_LONG = 40


def _shortest_game(
    trials: _Trials, changes: tuple[tuple[str, Any], ...], seed: int, games: int, longest: int
) -> Violation | None:
    """The shortest of the violations found in ``games`` fresh games (each cut short)."""
    shortest = None
    for number in range(games):
        if trials.spent:
            break
        limit = longest - 1 if shortest is None else len(shortest.choices) - 1
        found = trials.run(changes, game_seed(seed, 1000 + number), None, number, limit=limit)
        if found is not None and (shortest is None or len(found.choices) < len(shortest.choices)):
            shortest = found
    return shortest


def _prefixes(length: int) -> Iterator[int]:
    """Prefix lengths to try, shortest first: every one up to 32, then growing by half."""
    size = 1
    while size < length:
        yield size
        size = size + 1 if size < 32 else size + size // 2


def _prefix(trials: _Trials, best: Violation) -> Violation:
    """
    The shortest prefix of the moves that still breaks the invariant (for those checked
    at the end only: a full check stops at the first broken state by itself).
    """
    if best.invariant not in _AT_THE_END:
        return best
    for size in _prefixes(len(best.choices)):
        if trials.spent:
            break
        found = trials.run(best.changes, best.seed, best.choices[:size], best.game)
        if found is not None:
            return found
    return best


def _shrink_choices(trials: _Trials, best: Violation) -> Violation:
    """Remove runs of moves, then lower move indices, while the violation stays."""
    chunk = max(1, len(best.choices) // 2)
    while chunk >= 1 and not trials.spent:
        start = 0
        while start < len(best.choices) and not trials.spent:
            choices = best.choices[:start] + best.choices[start + chunk :]
            found = trials.run(best.changes, best.seed, choices, best.game)
            if found is not None and len(found.choices) < len(best.choices):
                best = found
            else:
                start += chunk
        chunk //= 2
    for at in range(len(best.choices)):
        if trials.spent:
            break
        if at >= len(best.choices) or best.choices[at] == 0:
            continue
        choices = (*best.choices[:at], 0, *best.choices[at + 1 :])
        found = trials.run(best.changes, best.seed, choices, best.game)
        if found is not None and len(found.choices) <= len(best.choices):
            best = found
    return best


_minimise = minimise  # check_ruleset's own ``minimise`` parameter hides the name
