"""Bounded memo tables for the immutable values the engine builds again and again."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

#: A memo table is emptied when it holds this many entries (a long-running program's
#: memory stays bounded; the entries are rebuilt as needed).
LIMIT = 1 << 16


def remember(memo: dict[K, V], key: K, value: V, limit: int = LIMIT) -> V:
    """
    Store ``value`` under ``key`` in ``memo`` (emptied first when it holds ``limit``
    entries) and return it.
    """
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
    return value
