"""The adapters' checks of what a framework hands them: player counts and action numbers."""

from __future__ import annotations

import operator
from typing import Any

from bendolib.errors import ArgumentError
from bendolib.limits import shown
from bendolib.rules.ruleset import RuleSet


def player_count(rules: RuleSet, players: object) -> int:
    """
    ``players`` when ``rules`` is played by that many: TypeError for what is not an int,
    ArgumentError naming the counts allowed otherwise.
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players is an int, not {type(players).__name__}")
    if players not in rules.player_counts:
        counts = ", ".join(map(str, rules.player_counts))
        raise ArgumentError(f"{rules.name} is for {counts} players, not {shown(players)}")
    return players


def action_number(action: Any) -> int:
    """
    ``action`` as an int: an int, a NumPy integer or a 0-dimensional integer array.
    TypeError for anything else that is not an integer; ArgumentError for an array
    holding more than one number (one action is one number).
    """
    shape = getattr(action, "shape", None)
    if shape is not None and shape != ():
        raise ArgumentError(
            f"an action is one number, not an array of shape {tuple(shape)}: {shown(action)}"
        )
    kind = getattr(getattr(action, "dtype", None), "kind", "i")  # NumPy's: i, u integers
    if isinstance(action, bool) or kind not in ("i", "u"):
        raise TypeError(f"an action is an int, not {type(action).__name__} {shown(action)}")
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(
            f"an action is an int, not {type(action).__name__} {shown(action)}"
        ) from None
