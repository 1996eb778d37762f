"""
Issue 25, classes 2 to 4: nondeterminism and cross-process identity, bots (time,
mutation, chosen checks), and reports a user can act on (kit findings only, the right
attribution, reproductions that reproduce, a short report for a match that never ends,
a termination bound computed from the rules).

Each planted bug (``tests/planted_bugs.py``) is caught under the right check, and a
legitimate policy of the same kind passes.
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.errors import Flaky

import bendolib
from bendolib import engine
from bendolib.bots import RandomBot
from bendolib.notation import parse_move
from bendolib.testing import (
    DEFAULT_TIME_BUDGET,
    KitFinding,
    api_state_machine,
    check_bot,
    check_ruleset,
    invariants,
    minimise,
)
from bendolib.testing.bot_harness import BOT_LEGAL, BOT_PURE, BOT_TIME
from bendolib.testing.determinism import pickles_equal
from bendolib.testing.machine import _as_finding, _run
from planted_bugs import (
    BASIC,
    TRIOMINOES,
    Crashes,
    ForgetsItsHand,
    GlobalRandomStarter,
    HalfPoints,
    ListPenalties,
    NobodyScores,
    PlainScoringWithEquality,
    Planted,
    SeatByRound,
    SlowBot,
    SortsACopy,
    WritesIntoMoves,
    WritesIntoTheBoard,
    WritesLater,
    planted,
)

NONDETERMINISTIC = [p for p in planted() if p.area == "nondeterminism"]


# -- 2. nondeterminism and cross-process identity ---------------------------------------------


@pytest.mark.parametrize("bug", NONDETERMINISTIC, ids=[p.name for p in NONDETERMINISTIC])
def test_a_policy_that_does_not_replay_is_caught_and_its_line_reproduces(bug: Planted) -> None:
    random.seed(25)  # the global-random starter: the same draws on every run of the test
    report = check_ruleset(bug.rules, games=3)
    violation = report.violation
    assert violation is not None and violation.invariant == invariants.REPLAYS, str(report)
    assert any("your class" in p for p in violation.policies), str(violation)
    # the printed line finds it again (the whole run when a cache may carry across games)
    with pytest.raises(AssertionError, match=invariants.REPLAYS):
        eval(violation.reproduction, {"bendolib": bendolib, "rules": bug.rules})


def test_deterministic_policies_of_ones_own_pass_in_and_out_of_process() -> None:
    rules = BASIC.configure(
        "turning", start=SeatByRound(), round_scoring=PlainScoringWithEquality()
    )
    report = check_ruleset(rules, games=3, max_moves=80)
    assert report.ok, str(report)
    # each sampled game: twice in this process and once in another one
    assert report.checked(invariants.REPLAYS) >= 6
    assert not report.skipped or all("another process" not in n for n, _ in report.skipped)


@pytest.mark.parametrize("name", ["basic", "all-five", "bendo-all-in-actions", "triominoes"])
def test_rule_sets_and_states_come_back_from_pickle_equal(name: str) -> None:
    rules = bendolib.rules.get(name)
    state = engine.new_game(rules, rules.player_counts[0], 5)
    for _ in range(10):
        state = engine.apply(state, engine.legal_moves(state)[0])
    assert pickles_equal(rules, "the rule set") is None
    assert pickles_equal(state, "the state") is None


# -- 3. bots -----------------------------------------------------------------------------------


def test_a_slow_decision_is_reported_with_where_it_was_made() -> None:
    report = check_bot(SlowBot(), BASIC, games=1, max_moves=5, time_budget=0.01)
    violation = report.violation
    assert violation is not None and violation.invariant == BOT_TIME, str(report)
    assert "the decision of player" in violation.message and "over the budget" in violation.message
    assert "time_budget=0.01" in violation.reproduction
    assert DEFAULT_TIME_BUDGET == 5.0  # documented in docs/testing.md
    assert check_bot(RandomBot(), BASIC, games=1, max_moves=30).ok


def test_a_bot_writing_into_the_legal_moves_is_mutation_and_the_library_stays_whole() -> None:
    report = check_bot(WritesIntoMoves(), BASIC, games=2, max_moves=20)
    violation = report.violation
    assert violation is not None and violation.invariant == BOT_PURE
    assert violation.message.startswith("mutation: the bot wrote into the legal move")
    # the library's memoised moves were never handed out: every move still reads back
    state = engine.new_game(BASIC, 2, violation.seed)
    for move in engine.legal_moves(state):
        assert parse_move(str(move), state) == move
    assert check_ruleset(BASIC, games=1, max_moves=40).ok


def test_a_bot_writing_into_the_observation_is_mutation_not_nondeterminism() -> None:
    report = check_bot(WritesIntoTheBoard(), BASIC, games=2, max_moves=20)
    assert report.violation is not None and report.violation.invariant == BOT_PURE, str(report)
    assert "observation's board" in report.violation.message
    assert check_bot(SortsACopy(), BASIC, games=2, max_moves=30).ok


def test_a_write_into_a_copy_given_decisions_ago_is_mutation() -> None:
    """
    The harness copies each part of a game once (a game's copies are shared between its
    decisions): a bot that writes into a tile on the table it was shown earlier is
    caught at the decision it writes in (the harness before the shared copies missed
    it); with that check not asked for, the game plays on.
    """
    report = check_bot(WritesLater(), BASIC, games=1, max_moves=60)
    violation = report.violation
    assert violation is not None and violation.invariant == BOT_PURE, str(report)
    assert "observation's board" in violation.message
    others = [n for n in check_bot(RandomBot(), BASIC, games=1).invariants if n != BOT_PURE]
    assert check_bot(WritesLater(), BASIC, games=1, max_moves=60, invariants=others).ok


def test_checks_left_out_never_crash_the_harness() -> None:
    report = check_bot(ForgetsItsHand(), BASIC, games=2, max_moves=30, invariants=[BOT_LEGAL])
    assert report.ok, str(report)


# -- 4. reports a user can act on ----------------------------------------------------------------


def _machine_finding(rules: bendolib.RuleSet) -> str:
    machine = api_state_machine(rules)
    machine.TestCase.settings = settings(
        machine.TestCase.settings,
        max_examples=60,
        stateful_step_count=8,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    with pytest.raises(KitFinding) as caught:
        machine.TestCase().runTest()
    return str(caught.value)


@pytest.mark.parametrize(
    ("rules", "invariant"),
    [
        (BASIC.configure("crashes", effects=Crashes()), invariants.ERRORS),
        (BASIC.configure("halves", round_scoring=HalfPoints()), invariants.POINT_TYPES),
        (BASIC.configure("random-starter", start=GlobalRandomStarter()), invariants.REPLAYS),
        (TRIOMINOES.configure("list", penalties=ListPenalties()), invariants.POLICIES),
    ],
    ids=["a plain exception", "float points", "the global random", "unhashable penalties"],
)
def test_the_state_machine_reports_every_failure_as_a_kit_finding(
    rules: bendolib.RuleSet, invariant: str
) -> None:
    text = _machine_finding(rules)
    assert text.startswith(invariant), text
    assert "reproduce: bendolib.testing." in text
    if invariant != invariants.POLICIES:
        assert "suspect: " in text and "your class" in text


def test_an_exception_group_or_a_flaky_error_becomes_the_finding() -> None:
    finding = KitFinding("turn order: ...")

    class GroupError(Exception):
        """An exception group as hypothesis raises one for two bugs (3.10 has no builtin)."""

        exceptions = (ValueError("x"), finding)

    assert _as_finding(GroupError("two bugs")) is finding
    flaky = _as_finding(Flaky("did not reproduce"))
    assert isinstance(flaky, KitFinding) and str(flaky).startswith(invariants.REPLAYS)
    assert str(_as_finding(KeyError("k"))).startswith(invariants.ERRORS)


def test_the_machines_move_generation_never_raises() -> None:
    rules = BASIC.configure("crashes", effects=Crashes())
    state = engine.new_game(rules, 2, 1)
    moves = _run(state, 60, 3)  # stops where a move raises; the step reports it
    assert len(moves.choices) <= 60


def test_attribution_unhashable_penalties_and_a_bad_replay() -> None:
    report = check_ruleset(TRIOMINOES.configure("list", penalties=ListPenalties()), games=1)
    assert report.violation is not None and report.violation.invariant == invariants.POLICIES
    assert "penalties" in report.violation.message
    # a deal that does not replay is not a leak of the observation
    random.seed(3)
    rules = BASIC.configure("random-starter", start=GlobalRandomStarter())
    watched = [invariants.OBSERVATION, invariants.SAMPLING]
    found = check_ruleset(rules, games=2, invariants=watched, spacing={invariants.OBSERVATION: 1})
    assert found.violation is not None and found.violation.invariant == invariants.REPLAYS


def test_a_machine_reproduction_carries_the_spacing_it_needs() -> None:
    machine = api_state_machine(BASIC)
    instance = machine()
    text = instance._reproduction(invariants.OBSERVATION)  # type: ignore[attr-defined]
    assert f"spacing={{{invariants.OBSERVATION!r}: 1}}" in text
    assert f"invariants=[{invariants.OBSERVATION!r}]" in text


def test_a_match_that_never_ends_is_reported_in_a_short_line_and_minimised_at_once() -> None:
    rules = BASIC.configure("endless", match=NobodyScores(target=100))
    report = check_ruleset(rules, games=1, players=2, invariants=[invariants.TERMINATION])
    violation = report.violation
    assert violation is not None and violation.invariant == invariants.TERMINATION
    assert len(str(violation)) < 700 and "choices=" not in violation.reproduction, str(violation)
    assert f"after {len(violation.moves)} moves" in str(violation)
    started = time.perf_counter()
    assert minimise(rules, violation) == violation
    assert time.perf_counter() - started < 5


def test_the_termination_bound_is_computed_from_the_rules_and_passes_a_long_match() -> None:
    assert invariants.round_limit(BASIC, 2) == 400  # 2 sides x target 100 x 2
    assert invariants.round_limit(BASIC.configure(target=1000), 4) == 8000
    # a correct variant with a far target: many rounds, no false alarm
    long_match = BASIC.configure("long", target=600)
    report = check_ruleset(long_match, games=1, players=2, invariants=[invariants.TERMINATION])
    assert report.ok, str(report)
    assert report.rounds > 5  # the old advice of max_rounds=5 would have flagged it
