"""Rule sets: the policies, the variants composed from them, and a registry by name."""

from __future__ import annotations

from typing import Any

from bendolib.errors import UnknownRuleSetError
from bendolib.rules.bendomino import ACTION_SET, BASIC, BENDOMINO_RULESETS, with_actions
from bendolib.rules.classic import CLASSIC_RULESETS
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.effects import EffectPolicy, FaceEffects, NextDraws, Reverse
from bendolib.rules.match import Match
from bendolib.rules.penalties import DrawPenalties, Penalties
from bendolib.rules.ruleset import RuleSet
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
    TRIOMINOES,
    HighestTriple,
    MostPlayPoints,
    TriangleScoring,
    TriominoesRoundScoring,
)

_REGISTRY: dict[str, RuleSet] = {}


def register(rules: RuleSet, *, replace: bool = False) -> RuleSet:
    """Make ``rules`` available by its name; a name is registered once unless ``replace``."""
    if rules.name in _REGISTRY and not replace:
        raise ValueError(f"a rule set named {rules.name!r} is already registered")
    _REGISTRY[rules.name] = rules
    return rules


def get(name: str, **params: Any) -> RuleSet:
    """The rule set registered as ``name``, with optional parameters changed."""
    try:
        rules = _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownRuleSetError(f"unknown rule set {name!r}; known: {known}") from None
    return rules.configure(**params) if params else rules


def names() -> tuple[str, ...]:
    """The registered rule-set names, in registration order."""
    return tuple(_REGISTRY)


for _bendomino in BENDOMINO_RULESETS:
    register(_bendomino)
for _classic in CLASSIC_RULESETS:
    register(_classic)

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
