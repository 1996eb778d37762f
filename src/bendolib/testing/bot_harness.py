"""
``check_bot``: play a bot on every rule set and player count and check what it does.

A bot (anything with the :class:`~bendolib.bots.Bot` method ``choose(observation,
legal_moves, rng)``) plays every seat of random matches.  At every decision it must
return one of the legal moves, choose the same move again for the same ``rng`` seed,
leave the observation, the list of legal moves and the rule set as they were, and
raise nothing; it is also asked in positions written with ``position_text.dumps`` and
read back with ``position_text.loads`` (and one move later), as a player resuming a
saved game would.  Violations are reported as :func:`~bendolib.testing.check_ruleset`
reports them, with a one-line reproduction (:func:`check_bot_game`).

``bot_state_machine(bot, rules)`` drives the same checks step by step under hypothesis.
"""

from __future__ import annotations

import copy
import random
import time
import traceback
from collections.abc import Collection, Sequence
from typing import Any

import attrs
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from bendolib import engine, position_text
from bendolib import rules as registry
from bendolib._rng import derive_seed
from bendolib.errors import BendolibError
from bendolib.moves import Draw, Move, NextRound, Pass, Place, PlaceInCell
from bendolib.observation import Observation
from bendolib.rules.ruleset import RuleSet
from bendolib.state import PLAYING, GameState
from bendolib.testing import invariants as inv
from bendolib.testing.checker import (
    CheckReport,
    Violation,
    _Snapshot,
    _wanted,
    game_seed,
    rules_expression,
)
from bendolib.testing.machine import (
    _SEEDS,
    KitFinding,
    Moves,
    kit_test_case,
    machine_settings,
    move_runs,
    placeholder,
)

BOT_ERRORS = "bot raises nothing"
BOT_LEGAL = "bot plays legal moves"
BOT_DETERMINISTIC = "bot deterministic per seed"
BOT_PURE = "bot never mutates its inputs"
BOT_LOADED = "bot plays from loaded positions"
BOT_TIME = "bot decides in time"

#: Every check :func:`check_bot` makes, by name.
BOT_INVARIANTS: tuple[str, ...] = (
    BOT_ERRORS,
    BOT_LEGAL,
    BOT_DETERMINISTIC,
    BOT_PURE,
    BOT_LOADED,
    BOT_TIME,
)

_BOT_RNG = 0xB075EED

#: Why a check from a loaded position may be impossible today (the library's limit).
LOADED_LIMIT = (
    "the library raised {error} for a position loaded with position_text.loads "
    "({where}): observations and sampling of loaded positions are limited until "
    "issue 14 is fixed, so the bot was not judged there"
)

_MOVE_TYPES = (Place, PlaceInCell, Draw, Pass, NextRound)


def _text(move: object) -> str:
    """A move in notation (anything else by its repr, cut short)."""
    if isinstance(move, _MOVE_TYPES):
        try:
            return str(move)
        except Exception:  # a malformed move has no notation
            pass
    return repr(move)[:80]


def _in_library(exc: BaseException) -> bool:
    """True when ``exc`` is a library error raised inside bendolib's own code."""
    if not isinstance(exc, BendolibError):
        return False
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and "bendolib" in frames[-1].filename.replace("\\", "/").split("/")


@attrs.frozen
class _Verdict:
    """What asking the bot once gave: its move, a broken check, or a library limit."""

    move: Move | None = None
    broken: tuple[str, str] | None = None
    limit: str | None = None
    seconds: float = 0.0


#: The default time a bot may take for one decision, in seconds (``time_budget``).
DEFAULT_TIME_BUDGET = 5.0


def _copies(
    observation: Observation, legal: Sequence[Move], memo: dict[int, Any]
) -> tuple[Observation, list[Move]]:
    """
    Deep copies of what the bot is given (the rule set shared): the bot cannot write into
    the library's own objects (a state's board, the memoised legal moves), and what it
    writes into its copies is found by comparing them with the originals.

    ``memo`` (``copy.deepcopy``'s, kept for a game) holds the copies made for earlier
    decisions: the parts of a state that the next state shares (the board's placements,
    the history) are copied once a game, not once a decision.  (A game's copies were
    most of the harness's time: 0.4 ms a decision 20 moves into a round, growing with
    the game.)  A copy the bot wrote into is reported at the decision it was given in;
    the observation itself is a new object each time.
    """
    memo.setdefault(id(observation.rules), observation.rules)
    seen = copy.deepcopy(observation, memo)
    del memo[id(observation)]
    return seen, [copy.deepcopy(m, memo) for m in legal]


def _written(observation: Observation, seen: Observation) -> str:
    """The fields of the observation the bot wrote into ('' when none)."""
    changed = [
        f.name
        for f in attrs.fields(Observation)
        if getattr(seen, f.name) != getattr(observation, f.name)
    ]
    return ", ".join(changed)


def _moves_written(legal: Sequence[Move], given: Sequence[Move]) -> str:
    """The first legal move the bot wrote into, as 'was -> now' ('' when none)."""
    for before, after in zip(legal, given, strict=False):
        if type(before) is not type(after) or before != after:
            return f"{_text(before)} (now {_text(after)})"
    return ""


def _mutation(
    observation: Observation,
    seen: Observation,
    legal: Sequence[Move],
    moves: Sequence[Move],
    given: Sequence[Move],
) -> str:
    """
    What the bot wrote into the copies it was given (``seen``, ``moves`` as the list
    ``given``), or '' when nothing.
    """
    if len(given) != len(moves) or any(a is not b for a, b in zip(given, moves, strict=True)):
        return "the bot changed the list of legal moves it was given"
    written = _moves_written(legal, moves)
    if written:
        return f"the bot wrote into the legal move {written}"
    fields = _written(observation, seen)
    if fields:
        return f"the bot wrote into the observation's {fields}"
    return ""


def _ask_bot(
    bot: Any,
    state: GameState,
    rng_seed: int,
    *,
    loaded: bool = False,
    time_budget: float | None = DEFAULT_TIME_BUDGET,
    memo: dict[int, Any] | None = None,
) -> _Verdict:
    """
    Ask ``bot`` for the move of the player to move in ``state`` (twice, with
    ``random.Random(rng_seed)`` each time) and check its answer.  ``loaded`` marks a
    position read back from a position text: a library error there is a limit of the
    library, not a fault of the bot.  The bot is given copies of the observation and of
    the legal moves, so what it writes into them stays with it and is reported as
    mutation; a decision slower than ``time_budget`` seconds is reported as such.
    ``memo``: the game's copies so far (:func:`_copies`).
    """
    where = " from a loaded position" if loaded else ""
    seat = state.current_player
    legal = tuple(engine.legal_moves(state))
    try:
        observation = state.observation(seat)
    except BendolibError as exc:
        if loaded:
            return _Verdict(
                limit=LOADED_LIMIT.format(error=type(exc).__name__, where="observation")
            )
        raise
    answers: list[Move] = []
    slowest = 0.0
    if memo is None:
        memo = {}
    for _ in range(2):
        seen, moves = _copies(observation, legal, memo)
        given = list(moves)
        started = time.perf_counter()
        try:
            answers.append(bot.choose(seen, given, random.Random(rng_seed)))
        except Exception as exc:
            memo.clear()  # (the copies may hold what the bot wrote before it raised)
            if loaded and _in_library(exc):
                limit = LOADED_LIMIT.format(error=type(exc).__name__, where="inside the bot")
                return _Verdict(limit=f"{limit}: {exc}")
            return _Verdict(
                broken=(BOT_ERRORS, f"the bot raised {type(exc).__name__}{where}: {exc}")
            )
        slowest = max(slowest, time.perf_counter() - started)
        mutation = _mutation(observation, seen, legal, moves, given)
        if mutation:
            memo.clear()  # (the game goes on with fresh copies when purity was not asked)
            return _Verdict(broken=(BOT_PURE, f"mutation: {mutation}{where}"))
    move, again = answers
    if not isinstance(move, _MOVE_TYPES) or move not in legal:
        shown = _text(move)
        return _Verdict(
            broken=(
                BOT_LEGAL,
                f"the bot returned {shown}, not one of the {len(legal)} legal moves{where}",
            )
        )
    if again != move:
        return _Verdict(
            move=move,
            broken=(
                BOT_DETERMINISTIC,
                f"with the same rng seed the bot chose {move}, then {_text(again)}{where}",
            ),
        )
    if time_budget is not None and slowest > time_budget:
        return _Verdict(
            move=move,
            broken=(
                BOT_TIME,
                f"the decision of player {seat} in round {state.round_number} took "
                f"{slowest:.2f} s, over the budget of {time_budget:g} s{where}",
            ),
            seconds=slowest,
        )
    return _Verdict(move=move, seconds=slowest)


@attrs.define
class _BotGame:
    """The bookkeeping of one game played by the bot."""

    bot: Any
    rules: RuleSet
    players: int
    seed: int
    game: int
    wanted: frozenset[str]
    loaded_every: int
    max_moves: int
    rules_expr: str
    time_budget: float | None = DEFAULT_TIME_BUDGET
    counts: dict[str, int] = attrs.Factory(dict)
    moves: list[str] = attrs.Factory(list)
    choices: list[int] = attrs.Factory(list)
    limits: list[str] = attrs.Factory(list)
    rounds: int = 0
    #: what the bot was given, for the game (_copies' memo)
    copies: dict[int, Any] = attrs.field(factory=dict, repr=False, eq=False)

    def violation(self, name: str, message: str) -> Violation:
        return Violation(
            name,
            message,
            self.rules.name,
            self.players,
            self.seed,
            self.game,
            tuple(self.moves),
            tuple(self.choices),
            self.rules_expr,
            replayed=True,
            call="check_bot_game",
            checked=()
            if self.wanted == frozenset(BOT_INVARIANTS)
            else tuple(n for n in BOT_INVARIANTS if n in self.wanted),
            extra=()
            if self.time_budget == DEFAULT_TIME_BUDGET
            else (f"time_budget={self.time_budget!r}",),
        )

    def judge(self, verdict: _Verdict) -> Violation | None:
        if verdict.limit is not None:
            self.limits.append(verdict.limit)
            return None
        for name in BOT_INVARIANTS:
            if name in self.wanted:
                self.counts[name] = self.counts.get(name, 0) + 1
        if verdict.broken is not None and verdict.broken[0] in self.wanted:
            return self.violation(*verdict.broken)
        return None

    def decide(self, state: GameState, number: int) -> tuple[Move | None, Violation | None]:
        """
        The bot's move in ``state`` (checked), and from its loaded copy when due.  When
        the bot broke a check that was not asked for, the game goes on with its move if
        it was legal, else with the first legal move.
        """
        rng_seed = derive_seed(self.seed, _BOT_RNG, number)
        verdict = _ask_bot(
            self.bot, state, rng_seed, time_budget=self.time_budget, memo=self.copies
        )
        problem = self.judge(verdict)
        if problem is not None:
            return None, problem
        if verdict.move is None:
            return engine.legal_moves(state)[0], None
        if BOT_LOADED in self.wanted and self.loaded_every and number % self.loaded_every == 0:
            problem = self.from_loaded(state, rng_seed)
        return verdict.move, problem

    def from_loaded(self, state: GameState, rng_seed: int) -> Violation | None:
        """Ask the bot in ``state`` read back from its position text, and one move later."""
        if not inv.writable(self.rules):
            return None
        loaded = position_text.loads(position_text.dumps(state))
        verdict = _ask_bot(self.bot, loaded, rng_seed, loaded=True, time_budget=self.time_budget)
        problem = self.judge(verdict)
        if problem is not None or verdict.move is None:
            return problem
        after = engine.apply(loaded, verdict.move)
        if after.phase != PLAYING:
            return None
        return self.judge(
            _ask_bot(self.bot, after, rng_seed, loaded=True, time_budget=self.time_budget)
        )

    def play(self, snapshot: _Snapshot, given: Sequence[int] | None) -> Violation | None:
        """Play the game with the bot at every seat (or replay ``given``, then ask it once)."""
        state = engine.new_game(self.rules, self.players, self.seed)
        number = 0
        if given is not None:
            for index in given:
                legal = engine.legal_moves(state)
                if not legal:
                    break
                index %= len(legal)
                self.moves.append(str(legal[index]))
                self.choices.append(index)
                state = engine.apply(state, legal[index])
            if state.phase != PLAYING:
                return None
            move, problem = self.decide(state, len(given))
            return problem or self._unchanged(snapshot)
        while not state.is_game_over and number < self.max_moves:
            legal = engine.legal_moves(state)
            if state.phase == PLAYING:
                chosen, problem = self.decide(state, number)
                if problem is not None:
                    return problem
                move = chosen if chosen is not None else legal[0]
            else:
                move = legal[0]
            index = legal.index(move)
            self.moves.append(str(move))
            self.choices.append(index)
            # (the listed move, not the bot's copy: the history holds nothing of the bot's)
            after = engine.apply(state, legal[index])
            if state.phase == PLAYING and after.phase != PLAYING:
                self.rounds += 1
            state = after
            number += 1
        return self._unchanged(snapshot)

    def _unchanged(self, snapshot: _Snapshot) -> Violation | None:
        if BOT_PURE in self.wanted and snapshot.changed():
            return self.violation(BOT_PURE, "the bot changed the rule set's policies")
        return None


def _rule_sets(rules: RuleSet | Sequence[RuleSet] | None) -> tuple[RuleSet, ...]:
    if rules is None:
        return tuple(registry.get(name) for name in registry.names())
    if isinstance(rules, RuleSet):
        return (rules,)
    chosen = tuple(rules)
    for item in chosen:
        if not isinstance(item, RuleSet):
            raise TypeError(f"rules must be RuleSets, not {type(item).__name__}")
    return chosen


def _limits(games: Sequence[_BotGame]) -> tuple[tuple[str, str], ...]:
    seen: dict[str, int] = {}
    for game in games:
        for limit in game.limits:
            seen[limit] = seen.get(limit, 0) + 1
    return tuple((BOT_LOADED, f"{limit} ({n} times)") for limit, n in seen.items())


def _bot_report(
    name: str,
    seed: int,
    games: Sequence[_BotGame],
    counts: tuple[int, ...],
    wanted: frozenset[str],
    violation: Violation | None,
    skipped: tuple[tuple[str, str], ...],
) -> CheckReport:
    tally: dict[str, int] = {}
    for game in games:
        for key, n in game.counts.items():
            tally[key] = tally.get(key, 0) + n
    return CheckReport(
        name,
        seed,
        len(games),
        sum(g.rounds for g in games),
        sum(len(g.moves) for g in games),
        counts,
        tuple(i for i in BOT_INVARIANTS if i in wanted),
        violation,
        tuple((i, tally[i]) for i in BOT_INVARIANTS if i in tally),
        skipped + _limits(games),
        violation,
    )


def check_bot_game(
    bot: Any,
    rules: RuleSet,
    players: int,
    seed: int,
    *,
    choices: Sequence[int] | None = None,
    max_moves: int = 200,
    loaded_every: int = 10,
    invariants: Collection[str] | None = None,
    time_budget: float | None = DEFAULT_TIME_BUDGET,
) -> CheckReport:
    """
    Check ``bot`` in the single game ``new_game(rules, players, seed)``: it plays every
    seat for up to ``max_moves`` moves.  With ``choices`` the game instead replays those
    moves (indices into ``legal_moves``) and asks the bot once, in the state reached
    (and in that state loaded from its position text).
    """
    wanted = _wanted(invariants, BOT_INVARIANTS, "bot checks")
    game = _BotGame(
        bot,
        rules,
        players,
        seed,
        0,
        wanted,
        1 if choices is not None else loaded_every,
        max_moves,
        rules_expression(rules),
        time_budget,
    )
    violation = game.play(_Snapshot(rules), None if choices is None else tuple(choices))
    return _bot_report(rules.name, seed, [game], (players,), wanted, violation, ())


def check_bot(
    bot: Any,
    rules: RuleSet | Sequence[RuleSet] | None = None,
    games: int | None = None,
    seed: int = 0,
    players: int | Sequence[int] | None = None,
    *,
    max_moves: int = 200,
    loaded_every: int = 10,
    invariants: Collection[str] | None = None,
    time_budget: float | None = DEFAULT_TIME_BUDGET,
) -> CheckReport:
    """
    Play ``bot`` at every seat of random matches and check every decision.

    ``rules`` is one rule set, several, or every registered one (the default); each
    plays ``games`` games (one per player count it allows by default), cycling through
    its player counts (or ``players``), for up to ``max_moves`` moves each.  At every
    decision the bot must return a legal move, return it again for the same rng seed,
    leave its observation, the list of legal moves (given as a list) and the rule set
    unchanged, and raise nothing; every ``loaded_every``-th decision it is also asked in
    the position read back from its position text, and one move later (rule sets a
    position text can carry).  A library error in a loaded position is listed in the
    report's ``skipped``, not held against the bot.  A decision slower than
    ``time_budget`` seconds (:data:`DEFAULT_TIME_BUDGET`; None: no limit) is reported
    with the round and seat.  The bot is handed copies of the observation and the legal
    moves: what it writes into them is reported as mutation and never reaches the
    library.  Checks left out of ``invariants`` are not reported (the game goes on
    with the bot's move when legal, else the first legal move).  The report names the
    first violation with a one-line reproduction.
    """
    wanted = _wanted(invariants, BOT_INVARIANTS, "bot checks")
    chosen = _rule_sets(rules)
    played: list[_BotGame] = []
    skipped: tuple[tuple[str, str], ...] = ()
    violation: Violation | None = None
    all_counts: list[int] = []
    for number, ruleset in enumerate(chosen):
        counts = (
            tuple(ruleset.player_counts)
            if players is None
            else ((players,) if isinstance(players, int) else tuple(players))
        )
        counts = tuple(c for c in counts if c in ruleset.player_counts)
        all_counts.extend(c for c in counts if c not in all_counts)
        if not inv.writable(ruleset) and BOT_LOADED in wanted:
            skipped += (
                (BOT_LOADED, f"{ruleset.name}: a position text cannot carry its own policies"),
            )
        snapshot = _Snapshot(ruleset)
        expr = rules_expression(ruleset)
        for game_number in range(len(counts) if games is None else games):
            count = counts[game_number % len(counts)]
            game = _BotGame(
                bot,
                ruleset,
                count,
                game_seed(derive_seed(seed, number), game_number),
                game_number,
                wanted,
                loaded_every,
                max_moves,
                expr,
                time_budget,
            )
            played.append(game)
            violation = game.play(snapshot, None)
            if violation is not None:
                break
        if violation is not None:
            break
    name = chosen[0].name if len(chosen) == 1 else f"{len(chosen)} rule sets"
    return _bot_report(name, seed, played, tuple(all_counts), wanted, violation, skipped)


def bot_state_machine(
    bot: Any,
    rules: RuleSet,
    players: Sequence[int] | None = None,
    *,
    run_length: int = 30,
    time_budget: float | None = DEFAULT_TIME_BUDGET,
) -> type[RuleBasedStateMachine]:
    """
    A state machine that checks ``bot`` step by step: deal, let the bot move, play a run
    of other moves, ask the bot in the position read back from its position text; every
    answer is checked as :func:`check_bot` checks it.  Use its ``TestCase`` as a test.
    """
    counts = tuple(players if players is not None else rules.player_counts)
    if not counts:
        raise ValueError("no player count to test")
    recordable = inv.writable(rules)
    expression = rules_expression(rules)

    class BotStateMachine(RuleBasedStateMachine):
        """One bot, asked in the positions of matches of one rule set."""

        def __init__(self) -> None:
            super().__init__()
            self.snapshot = _Snapshot(rules)
            self.state = placeholder(rules, counts[0])
            self.seed = 0
            self.choices: list[int] = []

        def _check(self, verdict: _Verdict) -> None:
            if verdict.broken is not None:
                args = f"bot, {expression}, players={self.state.players}, seed={self.seed}"
                if time_budget != DEFAULT_TIME_BUDGET:
                    args += f", time_budget={time_budget!r}"
                raise KitFinding(
                    f"{verdict.broken[0]}: {verdict.broken[1]}\n"
                    f"  reproduce: bendolib.testing.check_bot_game({args}, "
                    f"choices={self.choices}).raise_for_violation()"
                )
            if self.snapshot.changed():
                raise KitFinding(f"{BOT_PURE}: the bot changed the rule set's policies")

        def _apply(self, move: Move) -> None:
            legal = engine.legal_moves(self.state)
            index = legal.index(move)
            self.choices.append(index)
            self.state = engine.apply(self.state, legal[index])  # (the listed move)

        @initialize(count=st.sampled_from(counts), seed=_SEEDS)
        def deal(self, count: int, seed: int) -> None:
            """Start a match."""
            self.state = engine.new_game(rules, count, seed)
            self.seed = seed
            self.choices = []
            self.copies: dict[int, Any] = {}  # what the bot was given (_copies)

        @rule(count=st.sampled_from(counts), seed=_SEEDS)
        def new_game(self, count: int, seed: int) -> None:
            """Abandon the match and start another."""
            self.deal(count, seed)

        @precondition(lambda self: self.state.phase == PLAYING)
        @rule(rng_seed=st.integers(0, 255))
        def bot_moves(self, rng_seed: int) -> None:
            """The bot chooses the move of the player to move; it is played."""
            verdict = _ask_bot(bot, self.state, rng_seed, time_budget=time_budget, memo=self.copies)
            self._check(verdict)
            if verdict.move is not None:
                self._apply(verdict.move)

        @precondition(lambda self: not self.state.is_game_over)
        @rule(moves=move_runs(run_length))
        def others_move(self, moves: Moves) -> None:
            """Other players (random legal moves) move on."""
            for index in moves.choices:
                legal = engine.legal_moves(self.state)
                if not legal:
                    break
                self._apply(legal[index % len(legal)])

        @precondition(lambda self: recordable and self.state.phase == PLAYING)
        @rule(rng_seed=st.integers(0, 255))
        def bot_from_loaded_position(self, rng_seed: int) -> None:
            """The bot moves in the position read back from its position text."""
            loaded = position_text.loads(position_text.dumps(self.state))
            verdict = _ask_bot(bot, loaded, rng_seed, loaded=True, time_budget=time_budget)
            self._check(verdict)

    BotStateMachine.__name__ = BotStateMachine.__qualname__ = "BotStateMachine_" + "".join(
        c if c.isalnum() else "_" for c in rules.name
    )
    kit_test_case(BotStateMachine)
    BotStateMachine.TestCase.settings = machine_settings()
    return BotStateMachine
