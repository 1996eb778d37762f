"""
Scenarios from the rule text: "from this position, after this move, these are the
scores / the next player / the outcome", each with the sentence it comes from.

A :class:`Scenario` is a position text (:mod:`bendolib.position_text`), a move in
notation and the expectations; :func:`check_scenarios` plays each one and reports every
expectation that does not hold, quoting the sentence.  ``rules=`` plays the scenarios
under a variant of one's own (the position's rule set replaced): copy the library's own
(:data:`bendolib.testing.rule_scenarios.SCENARIOS`) and check them against a variant
that should keep those rules.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from bendolib import position_text
from bendolib.engine import apply
from bendolib.errors import BendolibError
from bendolib.notation import parse_move
from bendolib.rules.ruleset import RuleSet
from bendolib.state import GAME_OVER, PLAYING, GameState

#: The outcomes a scenario may expect, as :func:`outcome` names them.
OUTCOMES = ("play", "round over", "match over")


def outcome(state: GameState) -> str:
    """``'play'``, ``'round over'`` or ``'match over'``."""
    if state.phase == PLAYING:
        return "play"
    return "match over" if state.phase == GAME_OVER else "round over"


def _ints(value: Iterable[int] | None) -> tuple[int, ...] | None:
    return None if value is None else tuple(value)


@attrs.frozen
class Scenario:
    """
    One rule, as a position, a move and what must follow.

    ``sentence`` is the rule as written and ``source`` where (a seed file, a rule
    page); ``position`` a position text and ``move`` a move in notation legal there.
    Each expectation left ``None`` is not checked: ``scores`` the match scores after
    the move, ``gained`` what the move changed each seat's score by, ``next_player``
    the player to move after it, ``outcome`` one of :data:`OUTCOMES`, ``blocked``
    whether the round ended blocked, ``winners`` the round's winners.
    """

    sentence: str
    source: str
    position: str
    move: str
    scores: tuple[int, ...] | None = attrs.field(default=None, converter=_ints)
    gained: tuple[int, ...] | None = attrs.field(default=None, converter=_ints)
    next_player: int | None = None
    outcome: str | None = attrs.field(default=None)
    blocked: bool | None = None
    winners: tuple[int, ...] | None = attrs.field(default=None, converter=_ints)
    name: str = ""

    @outcome.validator
    def _check_outcome(self, attribute: object, value: str | None) -> None:
        if value is not None and value not in OUTCOMES:
            raise ValueError(f"outcome is one of {OUTCOMES}, not {value!r}")


@attrs.frozen
class ScenarioFailure:
    """A scenario whose expectation did not hold: what was expected and what came."""

    scenario: Scenario
    rules: str
    problems: tuple[str, ...]

    def __str__(self) -> str:
        s = self.scenario
        label = f" ({s.name})" if s.name else ""
        lines = [
            f'scenario{label} from {s.source}: "{s.sentence}"',
            f"  rule set {self.rules}, move {s.move} from: {s.position}",
        ]
        lines.extend(f"  {p}" for p in self.problems)
        return "\n".join(lines)


@attrs.frozen
class ScenarioReport:
    """The scenarios played and the ones that failed."""

    played: int
    failures: tuple[ScenarioFailure, ...]

    @property
    def ok(self) -> bool:
        """True when every scenario held."""
        return not self.failures

    def raise_for_violation(self) -> None:
        """Raise ``AssertionError`` with every failure, if any."""
        if self.failures:
            raise AssertionError(str(self))

    def __str__(self) -> str:
        head = f"{self.played} scenarios, {len(self.failures)} failed"
        return "\n".join([head, *(str(f) for f in self.failures)])


def _load(scenario: Scenario, rules: RuleSet | None) -> GameState:
    state = position_text.loads(scenario.position)
    return state if rules is None else state.replace(rules=rules)


def run_scenario(scenario: Scenario, rules: RuleSet | None = None) -> ScenarioFailure | None:
    """Play one scenario (under ``rules`` instead of the position's rule set, if given)."""
    if not isinstance(scenario, Scenario):
        raise TypeError(f"scenario must be a Scenario, not {type(scenario).__name__}")
    try:
        before = _load(scenario, rules)
    except BendolibError as exc:
        return ScenarioFailure(
            scenario, "?", (f"the position does not load: {type(exc).__name__}: {exc}",)
        )
    name = before.rules.name
    try:
        move = parse_move(scenario.move, before)
        after = apply(before, move)
    except BendolibError as exc:
        return ScenarioFailure(
            scenario, name, (f"the move cannot be played: {type(exc).__name__}: {exc}",)
        )
    except Exception as exc:
        return ScenarioFailure(
            scenario, name, (f"playing the move raised {type(exc).__name__}: {exc}",)
        )
    problems: list[str] = []

    def expect(what: str, wanted: object, got: object) -> None:
        if wanted is not None and wanted != got:
            problems.append(f"{what}: expected {wanted!r}, got {got!r}")

    gained = tuple(a - b for a, b in zip(after.scores, before.scores, strict=False))
    ended = after.phase != PLAYING and before.phase == PLAYING and after.results
    result = after.results[-1] if ended else None
    expect("scores", scenario.scores, after.scores)
    expect("scores gained", scenario.gained, gained)
    expect("next player", scenario.next_player, after.current_player)
    expect("outcome", scenario.outcome, outcome(after))
    if scenario.blocked is not None or scenario.winners is not None:
        if result is None:
            problems.append("the round did not end")
        else:
            expect("round blocked", scenario.blocked, result.blocked)
            expect("round winners", scenario.winners, tuple(result.winners))
    return ScenarioFailure(scenario, name, tuple(problems)) if problems else None


def check_scenarios(scenarios: Iterable[Scenario], rules: RuleSet | None = None) -> ScenarioReport:
    """
    Play every scenario (under ``rules`` if given) and report those that failed, each
    with its sentence, its source and every expectation that did not hold.
    """
    played = 0
    failures: list[ScenarioFailure] = []
    for scenario in scenarios:
        played += 1
        failure = run_scenario(scenario, rules)
        if failure is not None:
            failures.append(failure)
    return ScenarioReport(played, tuple(failures))
