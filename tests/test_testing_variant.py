"""
Issue 25, class 1: scoring that agrees with itself.

The kit re-scores with the user's own policy, so it agrees with the bug; these tests
pin what catches such bugs without an oracle of the user's: ``check_variant`` (the
variant against its base, every difference attributed), scenarios from the rule text
(``check_scenarios``, with the library's own rule pages as scenarios) and the declared
ranges and types of points (``points are integers of the declared sign``).  Each
planted bug (``tests/planted_bugs.py``) has a legitimate variant of the same kind that
must pass.
"""

from __future__ import annotations

import pytest

import bendolib
from bendolib.testing import (
    Scenario,
    check_ruleset,
    check_scenarios,
    check_variant,
    invariants,
    rule_scenarios,
)
from bendolib.testing.variant import OUTCOMES, SCORES, TILES
from planted_bugs import (
    BASIC,
    DRAW_GAME,
    TRIOMINOES,
    BlockedHandCountedTwice,
    HalfPoints,
    NoOutBonus,
    PenaltyWrongSign,
)

# -- check_variant ------------------------------------------------------------------------------


def test_a_hand_counted_twice_in_blocked_rounds_shows_as_a_scoring_difference() -> None:
    variant = BASIC.configure("blocked-twice", round_scoring=BlockedHandCountedTwice())
    report = check_variant(variant, games=6)
    assert report.base == "basic" and report.changed == ("round_scoring",)
    scores = report.of(SCORES)
    assert scores, str(report)
    # every scoring difference is in a blocked round, attributed to the changed policy
    assert {d.situation for d in scores} == {"the round ends blocked"}, str(report)
    assert all(d.policies == ("round_scoring",) for d in scores)
    first = scores[0]
    assert "round points" in first.variant and "round points" in first.base
    # the user who says only outcomes may differ sees each scoring difference as a finding
    strict = check_variant(variant, games=6, expect={OUTCOMES})
    assert not strict.ok and strict.findings[0].kind == SCORES
    with pytest.raises(AssertionError, match="FINDING scores"):
        strict.raise_for_violation()
    # the state before the move is rebuilt by the printed line
    state = bendolib.testing.replay_choices(variant, first.players, first.seed, first.choices)
    assert len(state.history) >= 0 and state.phase == bendolib.state.PLAYING


def test_a_legitimate_variant_differs_only_where_its_change_explains() -> None:
    # a lower target: outcomes differ (the match ends sooner), never a move's points
    report = check_variant(BASIC.configure("short", target=50), games=6)
    assert report.ok, str(report)
    assert report.of(OUTCOMES) and not report.of(SCORES)
    assert {d.policies for d in report.differences} == {("match",)}
    # drawing two at a time: other tiles move, explained by the drawing policy alone
    drawing = check_variant(DRAW_GAME.configure("two-draws", batch=2), games=3)
    assert drawing.ok and drawing.changed == ("draw",), str(drawing)
    assert {d.kind for d in drawing.differences} <= {TILES, "listings", OUTCOMES}


def test_only_the_drawing_changed_passes_and_a_scoring_change_not_expected_is_a_finding() -> None:
    doubled = BlockedHandCountedTwice()
    # only the drawing differs from the base: every difference is the drawing's
    variant = DRAW_GAME.configure("mine", batch=2, round_scoring=doubled)
    same = check_variant(variant, DRAW_GAME.configure("base", round_scoring=doubled), games=3)
    assert same.changed == ("draw",) and same.ok, str(same)
    # a user who expects listings and tiles to differ sees a scoring difference as a finding
    changed_scoring = DRAW_GAME.configure("doubled", round_scoring=doubled)
    report = check_variant(changed_scoring, DRAW_GAME, games=8, expect={"listings", TILES})
    assert report.findings and {d.kind for d in report.findings} <= {SCORES, OUTCOMES}


def test_the_base_must_be_known() -> None:
    from bendolib.rules import RuleSet

    fields = {f: getattr(BASIC, f) for f in ("tileset", "geometry", "deal", "start", "draw")}
    plain = RuleSet("own", round_scoring=BASIC.round_scoring, match=BASIC.match, **fields)
    with pytest.raises(ValueError, match="give base="):
        check_variant(plain)
    assert check_variant(plain, BASIC, games=1).ok


def test_repr_names_the_rule_set_a_variant_was_built_from() -> None:
    # issue 25, 4: it said base='classic-draw' for a variant of draw-dominoes
    variant = DRAW_GAME.configure("mine", target=77)
    assert repr(variant).startswith("RuleSet('mine', base='draw-dominoes'")
    assert variant.configure("again", target=78).origin == "draw-dominoes"


# -- scenarios from the rule text ---------------------------------------------------------------


def test_the_librarys_rule_pages_hold_as_scenarios() -> None:
    report = check_scenarios(rule_scenarios.SCENARIOS)
    assert report.ok, str(report)
    assert report.played == len(rule_scenarios.SCENARIOS) >= 10
    for scenario in rule_scenarios.SCENARIOS:
        assert scenario.source.startswith(("seeds/", "docs/rules/")) and scenario.sentence


def test_a_missing_bonus_fails_the_scenario_of_its_sentence() -> None:
    # "Going out. 25 plus the others' hands" (docs/rules/triominoes.md)
    variant = TRIOMINOES.configure("no-bonus", round_scoring=NoOutBonus())
    report = check_scenarios(rule_scenarios.for_rule_set("triominoes"), rules=variant)
    assert not report.ok
    text = str(report)
    assert "Going out. 25 plus the others' hands" in text and "scores gained: expected" in text
    # a legitimate variant (another target) keeps every sentence
    fine = check_scenarios(
        rule_scenarios.for_rule_set("triominoes"), TRIOMINOES.configure(target=300)
    )
    assert fine.ok, str(fine)


def test_a_scenario_written_by_hand_reports_what_it_expected() -> None:
    scenario = rule_scenarios.for_rule_set("basic")[0]
    wrong = Scenario(scenario.sentence, "mine", scenario.position, scenario.move, next_player=9)
    report = check_scenarios([wrong])
    assert "next player: expected 9" in str(report) and scenario.sentence in str(report)
    illegal = Scenario("a sentence", "mine", scenario.position, "6-6@7R")
    assert "cannot be played" in str(check_scenarios([illegal]))
    with pytest.raises(ValueError, match="outcome"):
        Scenario("s", "src", scenario.position, scenario.move, outcome="won")


# -- declared ranges and types -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        (BASIC.configure("halves", round_scoring=HalfPoints()), "float"),
        (TRIOMINOES.configure("earns", penalties=PenaltyWrongSign()), "a penalty is a cost"),
    ],
    ids=["points stop being integers", "a penalty with the wrong sign"],
)
def test_points_of_the_wrong_type_or_sign_are_caught_every_step(
    rules: bendolib.RuleSet, words: str
) -> None:
    report = check_ruleset(rules, games=2, max_moves=200)
    assert report.violation is not None and report.violation.invariant == invariants.POINT_TYPES
    assert words in report.violation.message, str(report)
    assert report.violation.policies, "the suspect policy is named"


def test_a_negative_bonus_is_caught_unless_declared() -> None:
    import attrs

    @attrs.frozen
    class Bonus:
        out_bonus: int = -5
        negative_bonuses: bool = False

        def score(self, outcome: bendolib.rules.RoundOutcome) -> bendolib.rules.RoundScore:
            return bendolib.rules.WinnerTakesPips().score(outcome)

    assert "a bonus is 0 or more" in str(
        invariants.bonuses_declared(BASIC.configure(round_scoring=Bonus()))
    )
    declared = BASIC.configure(round_scoring=Bonus(negative_bonuses=True))
    assert invariants.bonuses_declared(declared) is None


def test_legitimate_negative_scores_pass() -> None:
    # Triominoes' penalties make scores negative: declared, so no alarm
    report = check_ruleset(TRIOMINOES, games=1, max_moves=150, invariants=[invariants.POINT_TYPES])
    assert report.ok, str(report)
    assert check_ruleset(TRIOMINOES.configure(per_draw=0), games=1, max_moves=100).ok
