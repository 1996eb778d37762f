"""The value-type contract, stated once over every public value type (whenever-style).

Every attrs class defined in a public module of bendolib is a value: frozen (assigning
any field raises), hashable, equal to its copies and to its pickle round trip, and
slotted (no ``__dict__``).  The classes are discovered, not listed, so a new value type
is covered the day it is added; the instances are harvested from real games of every
registered rule set (a class with no harvested instance fails
``test_every_value_type_has_an_example``: add a way to reach one to ``harvest``).
"""

from __future__ import annotations

import copy
import importlib
import inspect
import pickle
import pkgutil
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import bendolib
from bendolib import bots, position_text, records
from bendolib._inference import deck_layout, deduce, hidden_deal
from bendolib._rng import SplitMix64
from bendolib.blocking import classify_ends
from bendolib.bots.endgame import applies, solve
from bendolib.bots.infoset import heavier_evidence
from bendolib.cell_notation import parse_cell_pattern
from bendolib.encoding import layout
from bendolib.league import Rating, run_league
from bendolib.notation import parse_pattern
from bendolib.rules.scoring import RoundOutcome
from bendolib.rules.triangles import TRIANGLE_RULESETS
from bendolib.selfplay import SelfplaySummary
from bendolib.state import PLAYING, GameState
from bendolib.testing import check_ruleset, check_scenarios, check_variant, rule_scenarios
from bendolib.testing.machine import Moves, Shown, illegal_move
from bendolib.tournament import SerialExecutor, play_match, run_tournament


def public_modules() -> list[Any]:
    modules = [bendolib]
    for info in pkgutil.walk_packages(bendolib.__path__, "bendolib."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        try:
            modules.append(importlib.import_module(info.name))
        except ModuleNotFoundError:  # an adapter without its extra (see the summary)
            if not info.name.startswith("bendolib.adapters."):
                raise
    return modules


def value_types() -> list[type]:
    found: dict[str, type] = {}
    for module in public_modules():
        for name, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and not name.startswith("_")
                and obj.__module__ == module.__name__
                and attrs.has(obj)
            ):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[k] for k in sorted(found)]


def _walk(obj: Any, seen: set[int]) -> Iterator[Any]:
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if attrs.has(type(obj)):
        yield obj
        for field in attrs.fields(type(obj)):
            yield from _walk(getattr(obj, field.name), seen)
    elif isinstance(obj, tuple | list | frozenset | set):
        for item in obj:
            yield from _walk(item, seen)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from _walk(item, seen)


def _games() -> Iterator[GameState]:
    """States of a short match of every rule set: dealt, mid-round, round over, game over."""
    for name in bendolib.rules.names():
        rules = bendolib.rules.get(name)
        state = bendolib.new_game(rules, rules.player_counts[-1], 5)
        yield state
        rng = SplitMix64(5)
        moves = 0
        while not state.is_game_over and moves < 400:
            if moves == 3 or state.is_round_over:
                yield state
            legal = bendolib.legal_moves(state)
            state = bendolib.apply(state, legal[rng.below(len(legal))])
            moves += 1
        yield state


def _endgame_values() -> list[Any]:
    """A solved empty-stock position and a round's opponent-model evidence (issue 26)."""
    state = bendolib.new_game(bendolib.rules.get("basic"), 2, 5)
    rng = SplitMix64(5)
    found: list[Any] = []
    while state.phase == PLAYING:
        observation = state.observation(state.current_player)
        evidence = heavier_evidence(observation)
        if evidence is not None and len(found) < 1:
            found.append(evidence)
        if applies(state):
            found.append(solve(state))
            break
        legal = bendolib.legal_moves(state)
        state = bendolib.apply(state, legal[rng.below(len(legal))])
    return found


def harvest() -> dict[type, list[Any]]:
    roots: list[Any] = []
    for state in _games():
        roots.append(state)
        roots.append(bendolib.legal_moves(state))
        roots.append(state.history)
        roots.append(classify_ends(state))
        rules = state.rules
        roots.append(rules.start.choose(rules.tileset, state.hand_masks, state.round_number))
        if state.is_round_over:
            sides = rules.match.sides(state.players)
            points = tuple(rules.tileset.mask_points(h) for h in state.hand_masks)
            outcome = RoundOutcome(
                sides, points, state.out, False, state.last_placer, state.play_points
            )
            roots.append(outcome)
            roots.append(rules.round_scoring.score(outcome))
            record = records.record_of(state)
            roots.append(record)
            roots.append(next(records.steps(record)))
        for seat in range(state.players):
            observation = state.observation(seat)
            roots.append(observation)
            if state.phase == 0 and seat == state.current_player:
                roots.append(deduce(observation))
                roots.append(hidden_deal(observation))
                roots.append(deck_layout(observation))
        if state.phase == 0:
            loaded = position_text.loads(position_text.dumps(state))
            roots.append(loaded.observation(loaded.current_player))
        roots.append(layout(rules, state.players))
    # Issue 26: ismcts (OpenSpiel's, not a value type) needs an extra; process a command.
    roots.append([bots.get(name) for name in bots.names() if name not in ("ismcts", "process")])
    roots.append(play_match("basic", ["random", "greedy"], seed=3))
    tournament = run_tournament(
        "basic", ["random", "greedy"], matches=4, seed=1, executor=SerialExecutor()
    )
    roots.append(tournament)
    roots.append(tournament.standings)
    league = run_league(
        "basic", ["random", "greedy", "greedy"], 6, seed=1, executor=SerialExecutor()
    )
    roots.extend([league, league.standings, league.ratings])
    roots.append(Rating(0, "random", 25.0, 8.3, 8.7, 41.3))  # also without openskill
    roots.append(SelfplaySummary("data", "npz", games=2, decisions=80, games_before=1))
    roots.append(parse_pattern("5-3@1L"))
    roots.append(parse_cell_pattern("3-4-5@0,-1d"))
    for rules in TRIANGLE_RULESETS:  # not registered by name yet (issue 15)
        state = bendolib.new_game(rules, rules.player_counts[-1], 5)
        rng = SplitMix64(5)
        for _ in range(40):
            legal = bendolib.legal_moves(state)
            state = bendolib.apply(state, legal[rng.below(len(legal))])
        roots.extend([state, bendolib.legal_moves(state), classify_ends(state)])
    roots.append(bendolib.rules.classic.AS_OPENSPIEL_BLOCK)  # FixedSeat, not registered
    roots.append(check_ruleset(bendolib.rules.get("basic"), games=1))
    roots.append(_a_violation())
    # issue 25: a variant's differences, a scenario that failed
    roots.append(check_variant(bendolib.rules.get("basic", target=50), games=1))
    wrong = attrs.evolve(rule_scenarios.SCENARIOS[0], next_player=9)
    roots.append(check_scenarios([wrong, rule_scenarios.SCENARIOS[1]]))
    first = bendolib.new_game(bendolib.rules.get("basic"), 2, 1)
    roots.append(Moves((0,), str(bendolib.legal_moves(first)[0])))
    roots.append(Shown(illegal_move(first, 0), "illegal"))
    roots.extend(_endgame_values())
    seen: set[int] = set()
    found: dict[type, list[Any]] = {}
    for obj in _walk(roots, seen):
        examples = found.setdefault(type(obj), [])
        if len(examples) < 3 and obj not in examples:
            examples.append(obj)
    return found


def _a_violation() -> Any:
    """A Violation, from a rule set whose round scoring never lets the match end."""

    @attrs.frozen
    class Nothing:
        def score(self, outcome: RoundOutcome) -> bendolib.rules.RoundScore:
            return bendolib.rules.RoundScore((0,) * len(outcome.hand_points), ())

    rules = bendolib.rules.get("basic").configure(round_scoring=Nothing())
    report = check_ruleset(rules, games=1, max_rounds=2)
    assert report.violation is not None
    return report.violation


VALUE_TYPES = value_types()
EXAMPLES = harvest()
#: Classes that are not values by design, with the reason.  (None today.)
NOT_VALUES: dict[type, str] = {}


def examples_of(cls: type) -> list[Any]:
    return [obj for t, objs in EXAMPLES.items() if t is cls for obj in objs]


def test_every_value_type_has_an_example() -> None:
    missing = [c.__qualname__ for c in VALUE_TYPES if c not in NOT_VALUES and not examples_of(c)]
    assert not missing, f"no example of {missing}: reach one in harvest()"
    assert len(VALUE_TYPES) >= 30


@pytest.fixture(params=[c for c in VALUE_TYPES if c not in NOT_VALUES], ids=lambda c: c.__name__)
def value_type(request: pytest.FixtureRequest) -> type:
    cls: type = request.param
    if not examples_of(cls):
        pytest.fail(f"no example of {cls.__qualname__}")
    return cls


def test_frozen(value_type: type) -> None:
    for obj in examples_of(value_type):
        for field in attrs.fields(value_type):
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                setattr(obj, field.name, getattr(obj, field.name))
        with pytest.raises((attrs.exceptions.FrozenInstanceError, AttributeError)):
            obj.not_a_field = 1


def test_slotted(value_type: type) -> None:
    for obj in examples_of(value_type):
        assert not hasattr(obj, "__dict__")
        assert "__slots__" in vars(value_type)


def test_hashable_and_equal_copies(value_type: type) -> None:
    for obj in examples_of(value_type):
        for twin in (copy.copy(obj), copy.deepcopy(obj), attrs.evolve(obj)):
            assert twin == obj
            assert not twin != obj  # noqa: SIM202  (the __ne__ of the contract)
            assert hash(twin) == hash(obj)


def test_pickle_round_trip(value_type: type) -> None:
    for obj in examples_of(value_type):
        for protocol in (2, pickle.HIGHEST_PROTOCOL):
            back = pickle.loads(pickle.dumps(obj, protocol))
            assert back == obj
            assert hash(back) == hash(obj)
            assert type(back) is value_type
