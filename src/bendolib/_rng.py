"""
A small deterministic random generator, identical on every platform and Python.

bendolib does not use :mod:`random` for dealing, because its algorithms are not
guaranteed to stay the same across Python versions.  SplitMix64 is tiny, fast and
fully specified.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from functools import lru_cache
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


#: Shuffles of at least this many draws compute them all at once, in 128-bit lanes of
#: one integer (each 64-bit product fits its lane); shorter ones draw one at a time.
_PACKED_FROM = 8


@lru_cache(maxsize=64)
def _packing(draws: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]], int]:
    """
    Lane constants for ``draws`` draws: ones, the state steps, the lane mask, an
    unpacker, and the lowest rejection limit of the draws' bounds.
    """
    ones = sum(1 << (128 * lane) for lane in range(draws))
    steps = sum((((lane + 1) * _GOLDEN) & _MASK) << (128 * lane) for lane in range(draws))
    lowest = min(_limit(bound) for bound in range(2, draws + 2))
    return ones, steps, _MASK * ones, struct.Struct(f"<{2 * draws}Q").unpack, lowest


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
        draws = len(out) - 1
        if draws < _PACKED_FROM:
            return self._shuffled_serially(out)
        # every draw of the shuffle at once: lane t of a big integer mixes state t + 1
        ones, steps, lanes, unpack, lowest = _packing(draws)
        x = (self._state * ones + steps) & lanes
        z = (((x ^ (x >> 30)) & lanes) * 0xBF58476D1CE4E5B9) & lanes
        z = (((z ^ (z >> 27)) & lanes) * 0x94D049BB133111EB) & lanes
        values = unpack((z ^ (z >> 31)).to_bytes(16 * draws, "little"))[::2]
        if max(values) >= lowest:
            # about once in 2**59 draws: a draw is rejected and the later ones move
            return self._shuffled_serially(out)
        i = draws
        for value in values:
            j = value % (i + 1)
            out[i], out[j] = out[j], out[i]
            i -= 1
        self._state = (self._state + draws * _GOLDEN) & _MASK
        return tuple(out)

    def _shuffled_serially(self, out: list[_T]) -> tuple[_T, ...]:
        """:meth:`shuffled`, one draw after the other (with rejections)."""
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def choice(self, items: Sequence[_T]) -> _T:
        """One element of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]
