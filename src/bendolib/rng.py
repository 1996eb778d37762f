"""
A small deterministic random generator, identical on every platform and Python.

bendolib does not use :mod:`random` for dealing, because its algorithms are not
guaranteed to stay the same across Python versions.  SplitMix64 is tiny, fast and
fully specified.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

_T = TypeVar("_T")
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix64(value: int) -> int:
    """SplitMix64's finaliser: a bijective scramble of a 64-bit integer."""
    z = value & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def derive_seed(seed: int, *labels: int) -> int:
    """A 64-bit seed derived from ``seed`` and integer labels (round number...)."""
    value = mix64(seed & _MASK)
    for label in labels:
        value = mix64(value ^ ((label + 1) * _GOLDEN & _MASK))
    return value


def _limit(bound: int) -> int:
    """Draws at or above this are rejected, so that ``value % bound`` is unbiased."""
    return (1 << 64) - ((1 << 64) % bound)


#: :func:`_limit` of the bounds below ``_TABLED`` (index 0 unused).
_TABLED = 256
_LIMITS = (0, *(_limit(bound) for bound in range(1, _TABLED)))


class SplitMix64:
    """SplitMix64 generator with unbiased integer draws and Fisher-Yates shuffles."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + _GOLDEN) & _MASK
        return mix64(self._state)

    def below(self, bound: int) -> int:
        """A uniform integer in ``range(bound)`` (rejection sampling, no bias)."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = _limit(bound)
        while True:
            value = self.next64()
            if value < limit:
                return value % bound

    def shuffled(self, items: Sequence[_T]) -> tuple[_T, ...]:
        """A shuffled copy of ``items`` (Fisher-Yates from the end)."""
        out = list(items)
        state = self._state
        golden, mask, c1, c2 = _GOLDEN, _MASK, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
        limits = _LIMITS
        for i in range(len(out) - 1, 0, -1):
            # self.below(i + 1), inlined: this runs for every tile of every deal
            state = (state + golden) & mask
            z = ((state ^ (state >> 30)) * c1) & mask
            z = ((z ^ (z >> 27)) * c2) & mask
            value = z ^ (z >> 31)
            bound = i + 1
            limit = limits[bound] if bound < _TABLED else _limit(bound)
            if value >= limit:  # about once in 2**59 draws: draw again
                self._state = state
                value = self.below(bound)
                state = self._state
            j = value % bound
            out[i], out[j] = out[j], out[i]
        self._state = state
        return tuple(out)

    def choice(self, items: Sequence[_T]) -> _T:
        """One element of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]
