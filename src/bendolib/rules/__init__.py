"""Rule sets: the policies, the variants composed from them, and a registry by name."""

from __future__ import annotations

from typing import Any

import attrs

from bendolib.errors import RuleSetError, UnknownRuleSetError
from bendolib.limits import MAX_DIGITS, quoted, shown
from bendolib.rules.bendomino import ACTION_SET, BASIC, BENDOMINO_RULESETS, with_actions
from bendolib.rules.classic import CLASSIC_RULESETS
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.effects import EffectPolicy, FaceEffects, NextDraws, Reverse
from bendolib.rules.match import Match
from bendolib.rules.penalties import DrawPenalties, Penalties
from bendolib.rules.ruleset import _REGISTRY, RuleSet
from bendolib.rules.scoring import (
    EndsMultiple,
    FinishingOrder,
    HighestPlayScore,
    MoveScoring,
    PlayScoring,
    RoundOutcome,
    RoundScore,
    RoundScoring,
    WinnerTakesPips,
)
from bendolib.rules.starting import (
    FixedSeat,
    HighestDouble,
    HolderOf,
    StartDecision,
    StartPolicy,
)
from bendolib.rules.triangles import (
    TRIANGLE_DOMINOES,
    TRIANGLE_RULESETS,
    TRIOMINOES,
    HighestTriple,
    MostPlayPoints,
    TriangleScoring,
    TriominoesRoundScoring,
)


def register(rules: RuleSet, *, replace: bool = False) -> RuleSet:
    """Make ``rules`` available by its name; a name is registered once unless ``replace``."""
    if not isinstance(rules, RuleSet):
        raise TypeError(f"register takes a RuleSet, not {type(rules).__name__}")
    if rules.name in _REGISTRY and not replace:
        raise RuleSetError(f"a rule set named {quoted(rules.name)} is already registered")
    _REGISTRY[rules.name] = rules
    return rules


def get(name: str, **params: Any) -> RuleSet:
    """
    The rule set registered as ``name``, with optional parameters changed (see
    :meth:`RuleSet.configure`); :class:`~bendolib.errors.UnknownRuleSetError` for a name
    not registered, :class:`~bendolib.errors.RuleSetError` for a bad parameter.
    """
    if not isinstance(name, str):
        raise TypeError(f"a rule set's name is a str, not {type(name).__name__}")
    try:
        rules = _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownRuleSetError(f"unknown rule set {quoted(name)}; known: {known}") from None
    if not params:
        return rules
    current = rules.parameters()
    for key, value in params.items():
        _check_kind(key, current.get(key), value)
    return rules.configure(**params)


def _check_kind(key: str, current: Any, value: Any) -> None:
    """
    Raise RuleSetError when a plain parameter (an int, bool or str) gets another kind,
    or a policy-valued one (``fallback=HighestDouble()``) something that is no policy.
    """
    if attrs.has(type(current)):
        methods = [n for n in dir(type(current)) if not n.startswith("_")]
        needed = [n for n in methods if callable(getattr(current, n))]
        if not all(callable(getattr(value, n, None)) for n in needed):
            policy = type(current).__name__
            raise RuleSetError(
                f"parameter {key} is a policy like {policy}() (with {', '.join(needed)}), "
                f"not {shown(value)}"
            )
    for kind in (bool, int, str):
        if type(current) is kind:
            if type(value) is not kind:
                raise RuleSetError(
                    f"parameter {key} is {'an' if kind is int else 'a'} {kind.__name__}, "
                    f"not {shown(value)}"
                )
            if kind is int and abs(value) >= 10**MAX_DIGITS:
                raise RuleSetError(f"parameter {key} has at most {MAX_DIGITS} digits")
            return


def names() -> tuple[str, ...]:
    """The registered rule-set names, in registration order."""
    return tuple(_REGISTRY)


for _bendomino in BENDOMINO_RULESETS:
    register(_bendomino)
for _classic in CLASSIC_RULESETS:
    register(_classic)
for _triangle in TRIANGLE_RULESETS:
    register(_triangle)

__all__ = [
    "ACTION_SET",
    "BASIC",
    "TRIANGLE_DOMINOES",
    "TRIOMINOES",
    "Deal",
    "DrawPenalties",
    "DrawPolicy",
    "EffectPolicy",
    "FaceEffects",
    "NextDraws",
    "Reverse",
    "EndsMultiple",
    "FinishingOrder",
    "FixedSeat",
    "HighestDouble",
    "HighestPlayScore",
    "HighestTriple",
    "HolderOf",
    "Match",
    "MostPlayPoints",
    "MoveScoring",
    "Penalties",
    "PlayScoring",
    "RoundOutcome",
    "RoundScore",
    "RoundScoring",
    "RuleSet",
    "StartDecision",
    "StartPolicy",
    "TriangleScoring",
    "TriominoesRoundScoring",
    "WinnerTakesPips",
    "get",
    "names",
    "register",
    "with_actions",
]
