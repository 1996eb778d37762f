"""
``check_ruleset``: play random games of any rule set and report the first broken invariant.

The games are reproducible: game ``i`` of a run with ``seed`` is dealt with its own seed
(reported with any violation) and its moves are chosen by a SplitMix64 generator seeded
from it, so :func:`check_game` with the reported ``players`` and ``seed`` replays it
exactly, on any machine and Python version.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import partial
from types import MappingProxyType

import attrs

from bendolib.engine import apply, legal_moves, new_game
from bendolib.moves import Move, NextRound, Pass
from bendolib.rng import SplitMix64, derive_seed
from bendolib.rules.ruleset import RuleSet
from bendolib.state import PLAYING, STATE_FIELDS, GameState
from bendolib.testing import invariants as inv

#: Every invariant :func:`check_ruleset` can check, by name.
ALL_INVARIANTS: tuple[str, ...] = (
    inv.TILE_CONSERVATION,
    inv.NO_OVERLAP,
    inv.LEGAL_MOVES,
    inv.APPLY_PURE,
    inv.TERMINATION,
    inv.SCORES,
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


@attrs.frozen
class Violation:
    """
    A broken invariant and how to reach it again.

    ``moves`` are the moves played from the deal, in notation, up to and including
    the one after which ``invariant`` was found broken (none when the deal itself broke
    it); ``choices`` are their indices in ``legal_moves`` of each state, which replay
    the game even when the notation is what broke.  The game is
    ``new_game(rules, players, seed)``.
    """

    invariant: str
    message: str
    rules: str
    players: int
    seed: int
    game: int
    moves: tuple[str, ...]
    choices: tuple[int, ...]

    def replay(self, rules: RuleSet, count: int | None = None) -> GameState:
        """The state after the first ``count`` moves (all of them by default)."""
        state = new_game(rules, self.players, self.seed)
        for index in self.choices[: len(self.choices) if count is None else count]:
            state = apply(state, legal_moves(state)[index])
        return state

    def state_before(self, rules: RuleSet) -> GameState:
        """The state in which the last move was chosen (the deal if there was none)."""
        return self.replay(rules, max(0, len(self.choices) - 1))

    def __str__(self) -> str:
        shown = ", ".join(self.moves[-40:])
        if len(self.moves) > 40:
            shown = f"... ({len(self.moves) - 40} earlier moves), " + shown
        return (
            f"{self.invariant}: {self.message}\n"
            f"  rule set {self.rules!r}, game {self.game}, players={self.players}, "
            f"seed={self.seed}\n"
            f"  after {len(self.moves)} move{'' if len(self.moves) == 1 else 's'}: "
            f"{shown or '(the deal)'}\n"
            f"  reproduce: bendolib.testing.check_game(rules, players={self.players}, "
            f"seed={self.seed})"
        )


@attrs.frozen
class CheckReport:
    """
    What :func:`check_ruleset` played and the first violation found (``None``: all held).

    ``games``, ``rounds`` and ``moves`` count what was played, the failing game included;
    ``checks`` how many times each invariant was checked.
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
        if self.violation is None:
            return f"{head}: every invariant held"
        return f"{head}: VIOLATION\n{self.violation}"


#: GameState fields holding the history: immutable cons lists, compared by identity only.
_HISTORY_FIELDS = ("log", "past")


def _fingerprint(state: GameState) -> tuple[tuple[object, ...], int | None]:
    """The state's field values (compared by identity) and a hash of the non-history ones."""
    refs = tuple(getattr(state, name) for name in STATE_FIELDS)
    values = tuple(getattr(state, name) for name in STATE_FIELDS if name not in _HISTORY_FIELDS)
    try:
        digest: int | None = hash(values)
    except TypeError:
        digest = None
    return refs, digest


def _same(
    a: tuple[tuple[object, ...], int | None], b: tuple[tuple[object, ...], int | None]
) -> bool:
    return (
        a[1] == b[1]
        and len(a[0]) == len(b[0])
        and all(x is y for x, y in zip(a[0], b[0], strict=True))
    )


def _pickled(value: object) -> bytes | None:
    try:
        return pickle.dumps(value)
    except Exception:  # a user's policy that cannot be pickled: that check is skipped
        return None


@attrs.define
class _Game:
    """The bookkeeping of one game being checked."""

    rules: RuleSet
    players: int
    seed: int
    game: int
    wanted: frozenset[str]
    max_rounds: int
    spacing: Mapping[str, int]
    counts: dict[str, int]
    moves: list[str] = attrs.Factory(list)
    choices: list[int] = attrs.Factory(list)
    rounds: int = 0

    def due(self, name: str, offset: int = 0) -> bool:
        """True when ``name`` is wanted and due in the current state."""
        every = self.spacing[name]
        return name in self.wanted and (len(self.moves) + offset) % every == 0

    def violation(self, invariant: str, message: str) -> Violation:
        return Violation(
            invariant,
            message,
            self.rules.name,
            self.players,
            self.seed,
            self.game,
            tuple(self.moves),
            tuple(self.choices),
        )

    def play(self) -> Violation | None:
        """Play the game to its end, checking every state and transition."""
        wanted = self.wanted
        try:
            state = new_game(self.rules, self.players, self.seed)
        except Exception as exc:
            return self.violation(inv.ERRORS, f"new_game raised {type(exc).__name__}: {exc}")
        rules_bytes = _pickled(self.rules) if inv.APPLY_PURE in wanted else None
        chooser = SplitMix64(derive_seed(self.seed, self.players, _CHOOSER))
        round_bound = (2 * len(self.rules.tileset) + 2) * (self.players + 1)
        round_moves = 0
        passes = 0
        while True:
            problem = self._check_state(state)
            if problem is not None:
                return problem
            if state.is_game_over:
                return self._check_rules_unchanged(rules_bytes)
            legal = legal_moves(state)
            index = chooser.below(len(legal))
            move = legal[index]
            self.moves.append(str(move))
            self.choices.append(index)
            before = _fingerprint(state) if inv.APPLY_PURE in wanted else None
            try:
                after = apply(state, move)
            except Exception as exc:
                return self.violation(
                    inv.ERRORS, f"apply raised {type(exc).__name__} on a legal move: {exc}"
                )
            if inv.ERRORS in wanted:
                self._count(inv.ERRORS)
            if before is not None:
                self._count(inv.APPLY_PURE)
                if not _same(_fingerprint(state), before):
                    return self.violation(inv.APPLY_PURE, "apply changed the state it was given")
            problem = self._check_transition(state, move, after)
            if problem is not None:
                return problem
            if isinstance(move, NextRound):
                round_moves = 0
                passes = 0
            else:
                round_moves += 1
                passes = passes + 1 if isinstance(move, Pass) else 0
            round_end = after.phase != PLAYING and state.phase == PLAYING
            if round_end:
                self.rounds += 1
                unchanged = self._check_rules_unchanged(rules_bytes)
                if unchanged is not None:
                    return unchanged
            if inv.RECORD in wanted and (round_end or self.due(inv.RECORD)):
                problem = self._run(inv.RECORD, partial(inv.record_round_trip, after))
                if problem is not None:
                    return problem
            if inv.TERMINATION in wanted:
                self._count(inv.TERMINATION)
                if passes > self.players:
                    return self.violation(
                        inv.TERMINATION, f"{passes} passes in a row and the round goes on"
                    )
                if round_moves > round_bound:
                    return self.violation(
                        inv.TERMINATION, f"the round lasts more than {round_bound} moves"
                    )
                if self.rounds > self.max_rounds:
                    return self.violation(
                        inv.TERMINATION, f"the match lasts more than {self.max_rounds} rounds"
                    )
            state = after

    def _check_rules_unchanged(self, rules_bytes: bytes | None) -> Violation | None:
        if rules_bytes is not None and _pickled(self.rules) != rules_bytes:
            return self.violation(inv.APPLY_PURE, "playing changed the rule set's policies")
        return None

    def _check_state(self, state: GameState) -> Violation | None:
        wanted = self.wanted
        try:
            legal = legal_moves(state)
        except Exception as exc:
            return self.violation(inv.ERRORS, f"legal_moves raised {type(exc).__name__}: {exc}")
        checks: tuple[tuple[str, Callable[[], str | None]], ...] = (
            (inv.TILE_CONSERVATION, lambda: inv.tile_conservation(state)),
            (inv.LEGAL_MOVES, lambda: inv.legal_moves_consistent(state, legal)),
            (inv.NOTATION, lambda: inv.notation_round_trip(state, legal)),
            (inv.POSITION_TEXT, lambda: inv.position_text_round_trip(state)),
        )
        count = len(self.moves)
        seat = count // self.spacing[inv.OBSERVATION] % state.players
        other = count // self.spacing[inv.SAMPLING] % state.players
        due = {
            inv.POSITION_TEXT: self.due(inv.POSITION_TEXT),
            inv.OBSERVATION: self.due(inv.OBSERVATION),
            inv.SAMPLING: self.due(inv.SAMPLING, self.spacing[inv.SAMPLING] // 2),
        }
        checks += (
            (inv.OBSERVATION, lambda: inv.observation_leak_free(state, seat, count)),
            (inv.SAMPLING, lambda: inv.sampling_consistent(state, other, count)),
        )
        for name, check in checks:
            if name in wanted and due.get(name, True):
                problem = self._run(name, check)
                if problem is not None:
                    return problem
        return None

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
        checks: tuple[tuple[str, Callable[[], str | None]], ...] = (
            (inv.TILE_CONSERVATION, lambda: inv.tiles_kept(before, move, after)),
            (inv.NO_OVERLAP, lambda: inv.placement_fits(before, move, after)),
            (inv.SCORES, lambda: inv.scores_as_declared(before, move, after)),
        )
        for name, check in checks:
            if name in self.wanted:
                problem = self._run(name, check)
                if problem is not None:
                    return problem
        return None


def _counts(rules: RuleSet, players: int | Sequence[int] | None) -> tuple[int, ...]:
    if players is None:
        return tuple(rules.player_counts)
    if isinstance(players, int):
        return (players,)
    return tuple(players)


def _wanted(invariants: Collection[str] | None) -> frozenset[str]:
    if invariants is None:
        return frozenset(ALL_INVARIANTS)
    unknown = set(invariants) - set(ALL_INVARIANTS)
    if unknown:
        raise ValueError(f"unknown invariants {sorted(unknown)}; known: {list(ALL_INVARIANTS)}")
    return frozenset(invariants)


def _applicable(rules: RuleSet, wanted: frozenset[str]) -> frozenset[str]:
    """The wanted invariants that apply: no record checks for rules a record cannot carry."""
    if inv.writable(rules):
        return wanted
    return wanted - {inv.RECORD, inv.POSITION_TEXT}


def _spacing(spacing: Mapping[str, int] | None) -> Mapping[str, int]:
    merged = {**DEFAULT_SPACING, **(spacing or {})}
    unknown = set(merged) - set(DEFAULT_SPACING)
    if unknown:
        raise ValueError(f"no spacing for {sorted(unknown)}; spaced: {list(DEFAULT_SPACING)}")
    if any(not isinstance(n, int) or n < 1 for n in merged.values()):
        raise ValueError(f"spacings are positive integers: {merged}")
    return merged


def _report(
    rules: RuleSet,
    seed: int,
    games: list[_Game],
    counts: tuple[int, ...],
    wanted: frozenset[str],
    violation: Violation | None,
) -> CheckReport:
    tally: dict[str, int] = {}
    for game in games:
        for name, n in game.counts.items():
            tally[name] = tally.get(name, 0) + n
    return CheckReport(
        rules.name,
        seed,
        len(games),
        sum(g.rounds for g in games),
        sum(len(g.moves) for g in games),
        counts,
        tuple(i for i in ALL_INVARIANTS if i in wanted),
        violation,
        tuple((i, tally[i]) for i in ALL_INVARIANTS if i in tally),
    )


def check_game(
    rules: RuleSet,
    players: int,
    seed: int,
    *,
    max_rounds: int = 200,
    invariants: Collection[str] | None = None,
    spacing: Mapping[str, int] | None = None,
) -> CheckReport:
    """Play and check the single game ``new_game(rules, players, seed)`` (a reported one)."""
    wanted = _applicable(rules, _wanted(invariants))
    game = _Game(rules, players, seed, 0, wanted, max_rounds, _spacing(spacing), {})
    violation = game.play()
    return _report(rules, seed, [game], (players,), wanted, violation)


def game_seed(seed: int, game: int) -> int:
    """The deal seed of game number ``game`` of a run started with ``seed``."""
    return derive_seed(seed, game)


def check_ruleset(
    rules: RuleSet,
    games: int = 20,
    seed: int = 0,
    players: int | Sequence[int] | None = None,
    *,
    max_rounds: int = 200,
    invariants: Collection[str] | None = None,
    spacing: Mapping[str, int] | None = None,
) -> CheckReport:
    """
    Play ``games`` random games of ``rules`` and check every invariant after every move.

    Games cycle through ``players`` (every count the rule set allows by default).
    ``invariants`` restricts the checks to some of :data:`ALL_INVARIANTS` (the record
    and position-text round trips are left out for a rule set with policies of the
    user's own, which those formats cannot carry: see
    :func:`~bendolib.testing.invariants.writable`).  The costlier
    invariants run in every n-th state only (:data:`DEFAULT_SPACING`; ``spacing``
    changes n).  A match longer than ``max_rounds`` rounds counts as not terminating.
    The report names the first violation, with the seed and moves that reproduce it.
    """
    counts = _counts(rules, players)
    if not counts:
        raise ValueError("no player count to check")
    wanted = _applicable(rules, _wanted(invariants))
    every = _spacing(spacing)
    played: list[_Game] = []
    violation = None
    for number in range(games):
        count = counts[number % len(counts)]
        game = _Game(rules, count, game_seed(seed, number), number, wanted, max_rounds, every, {})
        played.append(game)
        violation = game.play()
        if violation is not None:
            break
    return _report(rules, seed, played, counts, wanted, violation)
