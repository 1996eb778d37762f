"""The Bendomino variants as rule sets: registered by name, composed from the basic
game's policies (issue 3: 'a variant that copies the basic game's code is a defect'),
their parameters changeable and validated, and match play round after round."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import bendolib
from bendolib import NEXT_ROUND, RuleSet, RuleSetError
from bendolib.rules.bendomino import (
    ACTION_EFFECTS,
    ACTION_SET,
    BENDOMINO_RULESETS,
    OPPOSITE_PARTNERS,
)
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.match import Match
from bendolib.rules.scoring import EndsMultiple, FinishingOrder, HighestPlayScore
from bendolib.rules.starting import HighestDouble
from bendolib.tiles import STAR

BASIC = bendolib.rules.get("basic")
#: Every Bendomino variant (the rule sets of seeds 000-002 other than "basic").
VARIANTS = tuple(r.name for r in BENDOMINO_RULESETS if r.name != "basic")

#: What each variant changes in the basic game, field by field; every other field of
#: the RuleSet must be the basic game's own.
ALL_IN_DRAW = DrawPolicy(when_stuck="until_fits", voluntary=True, must_play=False)
ALL_IN_PLACES = {2: (40, 0), 3: (40, 20, 0), 4: (40, 20, 10, 0)}
TEAM_PLACES = {4: (30, 20, 10, 0)}
CHANGES: dict[str, dict[str, Any]] = {
    "wild-draw": {"draw": ALL_IN_DRAW},
    "no-draw": {"draw": DrawPolicy(when_stuck="never", voluntary=False)},
    "no-draw-teams": {
        "draw": DrawPolicy(when_stuck="never", voluntary=False),
        "deal": Deal({4: 7}),
        "match": Match(100, teams=OPPOSITE_PARTNERS),
    },
    "all-five": {
        "deal": Deal({2: 7, 3: 6, 4: 5}, table_tiles=2),
        "start": HighestDouble(opens=False),
        "play_scoring": EndsMultiple(5),
        "round_scoring": HighestPlayScore(),
        "match": Match(200),
    },
    "bendo-all-in": {
        "draw": ALL_IN_DRAW,
        "finish": "last_one_left",
        "round_scoring": FinishingOrder(ALL_IN_PLACES, tie="share"),
    },
    "bendo-all-in-teams": {
        "draw": ALL_IN_DRAW,
        "finish": "last_one_left",
        "deal": Deal({4: 5}),
        "match": Match(100, teams=OPPOSITE_PARTNERS),
        "round_scoring": FinishingOrder(TEAM_PLACES, tie="share"),
    },
    "bendo-all-in-caribbean": {
        "draw": ALL_IN_DRAW,
        "finish": "last_one_left",
        "deal": Deal({4: 7}),
        "match": Match(100, teams=OPPOSITE_PARTNERS),
        "round_scoring": FinishingOrder(TEAM_PLACES, tie="share"),
    },
    "bendo-all-in-actions": {
        "draw": ALL_IN_DRAW,
        "finish": "last_one_left",
        "round_scoring": FinishingOrder(ALL_IN_PLACES, tie="share"),
        "tileset": ACTION_SET,
        "wild_faces": {STAR},
        "effects": ACTION_EFFECTS,
    },
}


@pytest.mark.parametrize("name", VARIANTS)
def test_variant_is_registered(name: str) -> None:
    """issue 3: each variant reachable as ``bendolib.rules.get(name)``."""
    assert name in bendolib.rules.names()
    rules = bendolib.rules.get(name)
    assert isinstance(rules, RuleSet) and rules.name == name and rules.description


@pytest.mark.parametrize("name", VARIANTS)
def test_variant_is_basic_with_some_policies_changed(name: str) -> None:
    """issue 3: every variant is the basic rule set with only the listed policies
    changed, and those built from the same policy classes."""
    rules = bendolib.rules.get(name)
    changes = CHANGES[name]
    for field, value in changes.items():
        assert getattr(rules, field) == value, field
    rebuilt = attrs.evolve(
        rules, name="basic", **{f: getattr(BASIC, f) for f in changes if f != "name"}
    )
    assert rebuilt == BASIC


@pytest.mark.parametrize(
    ("name", "counts"),
    [
        ("wild-draw", (2, 3, 4)),
        ("no-draw", (2, 3, 4)),
        ("no-draw-teams", (4,)),
        ("all-five", (2, 3, 4)),
        ("bendo-all-in", (2, 3, 4)),
        ("bendo-all-in-teams", (4,)),
        ("bendo-all-in-caribbean", (4,)),
        ("bendo-all-in-actions", (2, 3, 4)),
    ],
)
def test_variant_player_counts(name: str, counts: tuple[int, ...]) -> None:
    """seeds/000-001: 2 to 4 players; the team games are for four."""
    assert bendolib.rules.get(name).player_counts == counts


def test_parameters_are_plain_fields() -> None:
    """issue 3: target score, hand sizes, tie rule, team seating and starting rule are
    plain parameters of ``get(name, **params)``."""
    rules = bendolib.rules.get(
        "bendo-all-in-teams",
        target=150,
        hand_sizes={4: 6},
        tie="seat",
        teams=((0, 1), (2, 3)),
        no_double="redeal",
    )
    params = rules.parameters()
    assert params["target"] == 150
    assert params["hand_sizes"] == ((4, 6),)
    assert params["tie"] == "seat"
    assert params["teams"] == ((0, 1), (2, 3))
    assert params["no_double"] == "redeal"
    state = bendolib.new_game(rules, players=4, seed=1)
    assert state.sides == ((0, 1), (2, 3)) and len(state.hand(0)) == 6
    assert bendolib.rules.get("all-five", opens=False, multiple=10).play_scoring == EndsMultiple(10)


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("bendo-all-in", {"target": 0}, "target must be positive"),
        ("no-draw-teams", {"hand_sizes": {4: 8}}, "need 32 tiles"),
        ("all-five", {"hand_sizes": {4: 7}}, "2 table tiles need 30 tiles"),
        ("bendo-all-in", {"hand_sizes": {5: 4}}, "no place points for 5 players"),
        ("bendo-all-in", {"tie": "coin"}, "unknown tie rule 'coin'"),
        ("no-draw-teams", {"tie": "coin"}, "unknown tie rule 'coin'"),
        ("all-five", {"tie": "split"}, "unknown tie rule 'split'"),
        ("no-draw-teams", {"teams": ((0, 1, 2, 3),)}, "teams must split seats"),
        ("bendo-all-in-teams", {"teams": ((0, 1), (2,))}, "need 4 players"),
        ("bendo-all-in-teams", {"table": {4: (30, 20, 10)}}, "4 players need 4 place points"),
        ("all-five", {"no_double": "coin"}, "unknown no_double"),
        ("wild-draw", {"when_stuck": "always"}, "unknown when_stuck"),
        ("bendo-all-in-actions", {"count": 0}, "no parameter 'count'"),
        ("basic", {"shuffle": True}, "no parameter 'shuffle'"),
    ],
)
def test_parameters_are_validated(name: str, params: dict[str, Any], message: str) -> None:
    """issue 3: parameters 'validated on construction with clear errors'."""
    with pytest.raises(RuleSetError, match=message):
        bendolib.rules.get(name, **params)


@pytest.mark.parametrize("name", VARIANTS)
def test_next_round_starter_is_the_highest_double_of_the_new_deal(name: str) -> None:
    """seeds/000 'At the beginning of each round ... The player with the highest
    Bendomino double starts' (decision: every round, from its own deal; the order of
    play is clockwise again)."""
    rules = bendolib.rules.get(name, target=10_000)
    players = rules.player_counts[-1]
    state = bendolib.new_game(rules, players=players, seed=11)
    while state.round_number == 1:
        state = bendolib.apply(state, bendolib.legal_moves(state)[-1])
    doubles = [(t.a, p) for p, hand in enumerate(state.hands) for t in hand if t.is_double]
    assert doubles, "seed 11 deals a double in round 2"
    assert state.current_player == max(doubles)[1]
    assert state.direction == 1 and state.play_points == (0,) * players


@pytest.mark.parametrize("name", VARIANTS)
def test_match_plays_rounds_to_the_target(name: str) -> None:
    """issue 3 'Match play': round after round to the target, dealing from the match
    seed; per-round scores in ``state.results``, the winner on the state; the same seed
    and moves give the same match."""
    rules = bendolib.rules.get(name)
    players = rules.player_counts[0]

    def match() -> bendolib.GameState:
        state = bendolib.new_game(rules, players=players, seed=5)
        while not state.is_game_over:
            state = bendolib.apply(state, bendolib.legal_moves(state)[0])
        return state

    final = match()
    assert final == match()
    assert [r.round_number for r in final.results] == list(range(1, len(final.results) + 1))
    per_seat = [sum(r.points[s] for r in final.results) for s in range(players)]
    play_points = [s - p for s, p in zip(final.scores, per_seat, strict=True)]
    assert all(p >= 0 for p in play_points)
    if rules.play_scoring is None:
        assert play_points == [0] * players
    target = rules.match.target
    assert final.winner is not None
    assert final.side_scores[final.winner] >= target
    assert final.side_scores[final.winner] == max(final.side_scores)
    assert final.side_scores.count(max(final.side_scores)) == 1
    assert bendolib.legal_moves(final) == ()
    assert NEXT_ROUND not in bendolib.legal_moves(final)
