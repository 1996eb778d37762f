"""Bad rule parameters raise only bendolib's own errors, and accepted ones give playable games.

Random names and parameter values of every kind go to ``rules.get(name, **params)`` and
``RuleSet.configure``, and random JSON to ``records.rules_from_spec``: each raises a
``BendolibError`` (RuleSetError, UnknownRuleSetError, ParseError) or returns a rule set,
and a rule set that was accepted deals and plays its first moves without any other
exception.  The generous ``deadline`` guards against a hang only.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import bendolib
from bendolib import BendolibError, RuleSet
from bendolib._rng import SplitMix64
from bendolib._rule_spec import rules_from_spec
from bendolib.testing import strategies as bst

HANG_GUARD = settings(deadline=timedelta(seconds=20))

ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**65), 2**65),
    st.integers(-3, 12),
    st.floats(),
    st.text(max_size=10),
    st.tuples(st.integers(-2, 8), st.integers(-2, 8)),
    st.lists(st.tuples(st.integers(-1, 6), st.integers(-1, 9)), max_size=3),
    st.frozensets(st.integers(-4, 8), max_size=3),
    bst.tilesets(max_top=4),
    st.builds(object),
)


def parameter_names(rules: RuleSet) -> st.SearchStrategy[str]:
    known = sorted(rules.parameters()) + ["geometry", "start", "draw", "match", "effects"]
    return st.one_of(st.sampled_from(known), st.text(max_size=8))


def _plays(rules: RuleSet) -> None:
    """Deal every allowed player count and play a few random moves."""
    for players in rules.player_counts:
        state = bendolib.new_game(rules, players, 1)
        rng = SplitMix64(players)
        for _ in range(30):
            if state.is_game_over:
                break
            moves = bendolib.legal_moves(state)
            state = bendolib.apply(state, moves[rng.below(len(moves))])


@HANG_GUARD
@given(st.data())
def test_configure_raises_only_library_errors(data: st.DataObject) -> None:
    rules = data.draw(bst.rulesets())
    names = parameter_names(rules)
    params = data.draw(st.dictionaries(names, ANY_VALUE, max_size=3), label="params")
    try:
        changed = rules.configure(**params)
    except BendolibError:
        return
    with contextlib.suppress(BendolibError):
        _plays(changed)


@HANG_GUARD
@given(st.one_of(bst.ruleset_names(), st.text(max_size=12)), st.data())
def test_rules_get_raises_only_library_errors(name: str, data: st.DataObject) -> None:
    params = data.draw(st.dictionaries(st.text(max_size=10), ANY_VALUE, max_size=2))
    with contextlib.suppress(BendolibError):
        bendolib.rules.get(name, **params)


@HANG_GUARD
@given(bst.rulesets(configured=True))
def test_valid_parameters_give_playable_games(rules: RuleSet) -> None:
    _plays(rules)


SPEC_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.text(max_size=10)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=8,
)


@st.composite
def specs(draw: st.DrawFn) -> Any:
    name = draw(st.one_of(bst.ruleset_names(), st.text(max_size=8)))
    keys = st.one_of(st.sampled_from(sorted(bendolib.rules.get("basic").parameters())), st.text())
    parameters = draw(st.dictionaries(keys, SPEC_VALUES, max_size=3))
    return draw(
        st.sampled_from(
            [{"name": name, "parameters": parameters}, {"name": name}, parameters, name]
        )
    )


@HANG_GUARD
@given(st.one_of(specs(), SPEC_VALUES))
def test_rules_from_spec_raises_only_library_errors(spec: Any) -> None:
    try:
        rules = rules_from_spec(spec)
    except BendolibError:
        return
    _plays(rules)
