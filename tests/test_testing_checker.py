"""``bendolib.testing.check_ruleset``: every registered rule set passes, and broken ones fail.

The second half builds rule sets that are wrong on purpose (a geometry that lets tiles
overlap, policies that score or deal wrongly, a match that never ends...) and checks
that the checker names the broken invariant, with a seed and moves that reproduce it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import bendolib
from bendolib import GameState, Place
from bendolib.geometry import BEND, Board
from bendolib.geometry.lattice import Position
from bendolib.rules import RoundOutcome, RoundScore, WinnerTakesPips
from bendolib.rules.starting import StartDecision
from bendolib.testing import ALL_INVARIANTS, CheckReport, check_game, check_ruleset, invariants
from bendolib.testing import strategies as bst
from bendolib.tiles import BOTH, LEFT, RIGHT, Tile, TileSet

BASIC = bendolib.rules.get("basic")


@pytest.mark.parametrize("name", bendolib.rules.names())
def test_every_registered_rule_set_keeps_every_invariant(name: str) -> None:
    rules = bendolib.rules.get(name)
    report = check_ruleset(rules, games=len(rules.player_counts), seed=2024)
    report.raise_for_violation()
    assert report.ok and report.violation is None
    assert report.games == len(rules.player_counts)
    assert report.moves > 0 and report.rounds >= report.games
    assert report.invariants == ALL_INVARIANTS


def test_a_users_own_valid_rule_set_passes() -> None:
    """A custom RuleSet (a user's own scoring policy and bend table) is checked too."""

    @attrs.frozen
    class DoublePoints:
        def score(self, outcome: RoundOutcome) -> RoundScore:
            base = WinnerTakesPips().score(outcome)
            return RoundScore(tuple(2 * p for p in base.points), base.winners)

    odd_left = TileSet.double(6, bends=lambda a, b: LEFT if (a + b) % 2 else RIGHT)
    rules = BASIC.configure("double-points", round_scoring=DoublePoints(), tileset=odd_left)
    report = check_ruleset(rules, games=3, seed=1)
    assert report.ok, str(report)
    assert report.rules == "double-points"
    # a record cannot carry a policy class of the user's own: those round trips are skipped
    assert invariants.RECORD not in report.invariants
    assert invariants.SCORES in report.invariants


# -- rule sets broken on purpose ------------------------------------------------------


def _all_free(board: Board) -> Board:
    return attrs.evolve(board, ends=tuple(attrs.evolve(e, free=BOTH) for e in board.ends))


@attrs.frozen
class OverlappingGeometry:
    """The bend geometry, except that it never marks a position beyond an end as taken."""

    name: str = "overlapping"
    uses_bends: bool = True

    def open(self, tiles: Sequence[tuple[Tile, int]]) -> Board:
        return _all_free(BEND.open(tiles))

    def opening_position(self, tile: Tile, first: int) -> tuple[int, Position | None]:
        return BEND.opening_position(tile, first)

    def place(
        self, board: Board, end: int, tile: Tile, inward: int, shows: int, turn: int
    ) -> Board:
        return _all_free(BEND.place(board, end, tile, inward, shows, turn))

    def connected(self, board: Board, end: int) -> bool:
        return False


@attrs.frozen
class BonusEffect:
    """Awards points straight into the scores on every placement (no play scoring)."""

    def after_place(self, state: GameState, move: Place) -> GameState:
        seat = state.current_player
        return state.replace(scores=tuple(s + 5 * (i == seat) for i, s in enumerate(state.scores)))


@attrs.frozen
class DiscardEffect:
    """Throws away the placer's lowest tile after each placement: tiles vanish."""

    def after_place(self, state: GameState, move: Place) -> GameState:
        seat = state.current_player
        hand = state.hand_masks[seat]
        if not hand:
            return state
        hands = list(state.hand_masks)
        hands[seat] = hand & (hand - 1)
        return attrs.evolve(state, hand_masks=tuple(hands))


@attrs.frozen
class TargetChanger:
    """Changes the rule set's match target behind the engine's back (a mutation)."""

    def after_place(self, state: GameState, move: Place) -> GameState:
        object.__setattr__(state.rules.match, "target", state.rules.match.target + 1)
        return state


class CountingScoring:
    """A round scoring that remembers how often it was asked: its answers drift."""

    def __init__(self) -> None:
        self.calls = 0

    def score(self, outcome: RoundOutcome) -> RoundScore:
        self.calls += 1
        base = WinnerTakesPips().score(outcome)
        return RoundScore(tuple(p + self.calls for p in base.points), base.winners)


@attrs.frozen
class NoPoints:
    """Nobody ever scores: the match cannot end."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        return RoundScore((0,) * len(outcome.hand_points), ())


@attrs.frozen
class ShortScoring:
    """Returns one score too few."""

    def score(self, outcome: RoundOutcome) -> RoundScore:
        return RoundScore((1,) * (len(outcome.hand_points) - 1), ())


@attrs.frozen
class WrongOpener:
    """Seat 0 starts with a tile dealt to seat 1."""

    def choose(self, tileset: TileSet, hands: tuple[int, ...], round_number: int) -> StartDecision:
        return StartDecision(0, (hands[1] & -hands[1]).bit_length() - 1)


def broken_rule_sets() -> Iterator[tuple[str, bendolib.RuleSet, str]]:
    yield "overlap", BASIC.configure(geometry=OverlappingGeometry()), invariants.NO_OVERLAP
    yield "bonus", BASIC.configure(effects=BonusEffect()), invariants.SCORES
    yield "discard", BASIC.configure(effects=DiscardEffect()), invariants.MOVES
    # its own Match object (target=99, not the shared one), so the mutation stays local
    yield "mutation", BASIC.configure(effects=TargetChanger(), target=99), invariants.APPLY_PURE
    # a plain class whose answers drift: it does not play the same twice (issue 25, 2),
    # which the kit now finds before the drifted scores
    yield "drifting", BASIC.configure(round_scoring=CountingScoring()), invariants.REPLAYS
    yield "endless", BASIC.configure(round_scoring=NoPoints()), invariants.TERMINATION
    yield "short", BASIC.configure(round_scoring=ShortScoring()), invariants.ERRORS
    yield "opener", BASIC.configure(start=WrongOpener()), invariants.DEALS


@pytest.mark.parametrize(
    ("rules", "invariant"),
    [(r, i) for _, r, i in broken_rule_sets()],
    ids=[n for n, _, _ in broken_rule_sets()],
)
def test_a_broken_rule_set_is_caught(rules: bendolib.RuleSet, invariant: str) -> None:
    report = check_ruleset(rules, games=10, seed=3, max_rounds=4)
    assert not report.ok
    violation = report.violation
    assert violation is not None
    assert violation.invariant == invariant, str(violation)
    assert violation.rules == rules.name
    assert len(violation.moves) == len(violation.choices)
    assert invariant in str(report) and f"seed={violation.seed}" in str(violation)
    with pytest.raises(AssertionError, match=invariant):
        report.raise_for_violation()


def test_a_violation_is_reproduced_by_its_seed_and_moves() -> None:
    rules = BASIC.configure(geometry=OverlappingGeometry())
    violation = check_ruleset(rules, games=10, seed=3).violation
    assert violation is not None
    again = check_game(rules, players=violation.players, seed=violation.seed).violation
    assert again is not None
    assert (again.invariant, again.message, again.moves) == (
        violation.invariant,
        violation.message,
        violation.moves,
    )
    after = violation.replay(rules)
    before = violation.state_before(rules)
    assert invariants.no_overlap(after) is not None
    assert invariants.no_overlap(before) is None
    last = bendolib.legal_moves(before)[violation.choices[-1]]
    assert str(last) == violation.moves[-1]
    assert bendolib.apply(before, last) == after


def test_a_leaky_observation_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """An observation that shows the other hands during play breaks leak-freedom."""
    from bendolib import observation
    from bendolib.state import _VIEWS

    honest = observation.observe

    def leaky(state: GameState, player: int) -> observation.Observation:
        return attrs.evolve(honest(state, player), revealed=state.hand_masks)

    monkeypatch.setattr(observation, "observe", leaky)
    # state.observation(p) calls the function bendolib.observation installed in the
    # state's hook when imported (docs/architecture.md, "Layers"): replace it there too
    monkeypatch.setattr(_VIEWS, "observe", leaky)
    report = check_ruleset(BASIC, games=3, seed=5, invariants=[invariants.OBSERVATION])
    assert report.violation is not None
    assert report.violation.invariant == invariants.OBSERVATION
    assert "revealed" in report.violation.message


def test_invariants_can_be_chosen() -> None:
    rules = BASIC.configure(geometry=OverlappingGeometry())
    chosen = [invariants.TILE_CONSERVATION, invariants.SCORES, invariants.TERMINATION]
    report = check_ruleset(rules, games=2, seed=3, invariants=chosen)
    assert report.ok, str(report)
    assert set(report.invariants) == set(chosen)
    assert {name for name, _ in report.checks} == set(chosen)
    with pytest.raises(ValueError, match="unknown invariants"):
        check_ruleset(BASIC, games=1, invariants=["no such thing"])


def test_report_counts_and_text() -> None:
    report = check_ruleset(BASIC, games=2, seed=9, players=3)
    assert isinstance(report, CheckReport)
    assert report.players == (3,)
    assert (report.games, report.seed) == (2, 9)
    assert str(report).startswith("basic: 2 games") and "every invariant held" in str(report)
    single = check_game(BASIC, players=2, seed=11)
    assert single.ok and single.games == 1 and single.players == (2,)


# -- every invariant over configured rule sets (the pattern that found two library bugs) ---


@settings(
    max_examples=max(1, settings().max_examples // 2),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # each example is a whole check
)
@given(bst.rulesets(configured=True), st.data())
def test_check_ruleset_over_configured_rule_sets(rules: bendolib.RuleSet, data: Any) -> None:
    """A game of a configured rule set, its first 150 moves checked (half the profile's
    examples: about 8 s in the "ci" profile)."""
    count = data.draw(st.sampled_from(rules.player_counts), label="players")
    seed = data.draw(bst.seeds(), label="seed")
    report = check_ruleset(
        rules, games=1, seed=seed, players=count, invariants=ALL_INVARIANTS, max_moves=150
    )
    report.raise_for_violation()
