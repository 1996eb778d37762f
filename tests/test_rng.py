"""The dealing generator is fixed forever: golden outputs guard against any drift."""

from __future__ import annotations

import pytest

from bendolib import _rng as rng_module
from bendolib._rng import SplitMix64, derive_seed


def test_splitmix64_reference_outputs() -> None:
    """SplitMix64 seeded with 0 gives the published reference sequence."""
    rng = SplitMix64(0)
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_shuffle_is_a_fixed_permutation() -> None:
    deck = SplitMix64(derive_seed(42, 1, 0)).shuffled(range(10))
    assert sorted(deck) == list(range(10))
    assert deck == SplitMix64(derive_seed(42, 1, 0)).shuffled(range(10))
    assert deck != SplitMix64(derive_seed(42, 2, 0)).shuffled(range(10))


def test_below_is_in_range_and_rejects_bad_bounds() -> None:
    rng = SplitMix64(7)
    assert all(0 <= rng.below(3) < 3 for _ in range(200))
    with pytest.raises(ValueError):
        rng.below(0)


def _serial_shuffle(rng: SplitMix64, items: range) -> tuple[int, ...]:
    """Fisher-Yates from the end with ``below``: the definition the fast shuffle must match."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


@pytest.mark.parametrize("size", [0, 1, 2, 7, 8, 9, 28, 55, 91, 300])
def test_shuffle_equals_the_serial_definition(size: int) -> None:
    """The all-draws-at-once shuffle gives the serial one's deck and leaves the same state."""
    for seed in [*range(200), (1 << 64) - 1, 1 << 63]:
        fast, serial = SplitMix64(seed), SplitMix64(seed)
        assert fast.shuffled(range(size)) == _serial_shuffle(serial, range(size))
        assert fast.next64() == serial.next64()


def test_shuffle_redraws_a_rejected_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """A draw above the rejection limit is drawn again, and every later draw moves on."""
    low = 1 << 63  # reject about half the draws instead of one in 2**59
    monkeypatch.setattr(rng_module, "_LIMITS", (low,) * rng_module._TABLED)
    monkeypatch.setattr(rng_module, "_limit", lambda bound: low)
    rng_module._packing.cache_clear()  # its lowest limit comes from _limit
    for seed in range(100):
        fast, serial = SplitMix64(seed), SplitMix64(seed)
        assert fast.shuffled(range(28)) == _serial_shuffle(serial, range(28))
        assert fast.next64() == serial.next64()
    monkeypatch.undo()
    rng_module._packing.cache_clear()
