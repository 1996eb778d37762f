"""The wide build's step paths (tile sets of 65 to 128 tiles) against the Python engine.

Issue 24, point 2: the compiled ``legal_moves`` and ``apply`` serve double-12 through
``bendolib._kernel_wide`` (128-bit masks), move for move equal to the Python engine (the
specification), from dealt states and from states loaded from a position text; states
with masks past the tile set are left to the Python engine.  Skipped without the wide
build.
"""

from __future__ import annotations

import os
import random
from typing import Any

import attrs
import pytest

import bendolib
from bendolib import GameState, apply, engine, legal_moves, new_game, position_text
from large_sets import CHAIN_GAMES, WIDE, on_double
from step_compare import play_against_the_engine

pytestmark = pytest.mark.skipif(WIDE is None, reason="the wide build of the kernel is not built")

#: basic, a classic rule set and one with action tiles (97 tiles on double-12).
NAMES = ["basic", "classic-draw", "classic-block", "domino-pairs", "bendo-all-in-actions"]


def _pure(patch: pytest.MonkeyPatch) -> None:
    for name in ("_step_legal", "_step_apply"):  # (the larger builds' are tried after these)
        patch.setattr(engine, name, None)
    patch.setattr(engine, "_deal_deck", None)
    patch.setattr(engine, "_deal_hands", None)


def _play(
    state: GameState, rng: random.Random, monkeypatch: pytest.MonkeyPatch, steps: int
) -> tuple[int, int]:
    """Random moves, each compared with the Python engine: (moves, wide listings and applies)."""
    assert WIDE is not None
    wide, wide_apply = WIDE.step_legal, WIDE.step_apply
    return play_against_the_engine(state, rng, monkeypatch, steps, _pure, wide, wide_apply)


def _served(name: str) -> bool:
    """Whether the 64-bit build serves the rule set's own tile set (a state past the deal)."""
    rules = bendolib.rules.get(name)
    state = new_game(rules, rules.player_counts[0], 1)
    for _ in range(3):
        if state.is_game_over:
            return False
        state = apply(state, legal_moves(state)[0])
    assert engine._step_legal is not None
    return engine._step_legal(state) is not None


@pytest.mark.parametrize("name", NAMES)
def test_double_12_same_as_python(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dealt double-12 rounds: the same listings and states as the Python engine."""
    rules = on_double(name, 12)
    assert len(rules.tileset) > 64
    rng = random.Random(name)
    moves = used = 0
    for players in (rules.player_counts[0], rules.player_counts[-1]):
        for seed in range(2):
            done, wide = _play(new_game(rules, players, seed), rng, monkeypatch, 80)
            moves, used = moves + done, used + wide
    if _served(name):  # the wide build serves what the 64-bit one serves
        assert used > moves // 2


@pytest.mark.parametrize("name", NAMES)
def test_double_12_loaded_same_as_python(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """States read back from a position text: the same listings and states."""
    rules = on_double(name, 12)
    rng = random.Random(f"loaded/{name}")
    state = new_game(rules, rules.player_counts[-1], 3)
    for _ in range(6):
        if state.is_game_over:
            break
        state = apply(state, legal_moves(state)[0])
    loaded = position_text.loads(position_text.dumps(state))
    done, used = _play(loaded, rng, monkeypatch, 40)
    if _served(name) and done:
        assert used > 0


def _forced(state: GameState, **changes: Any) -> GameState:
    """``state`` with own fields changed past the checks of ``replace`` (as a bug might)."""
    return attrs.evolve(state, **changes)


def test_hostile_masks_left_to_python() -> None:
    """Masks past the tile set, negative or shared by two hands: the wide paths decline."""
    rules = on_double("basic", 12)
    state = new_game(rules, 2, 5)
    state = apply(state, legal_moves(state)[0])
    assert WIDE is not None
    wide_legal, wide_apply = WIDE.step_legal, WIDE.step_apply
    assert wide_legal(state) is not None
    hands = state.hand_masks
    count = len(rules.tileset)
    high = max(hands, key=lambda h: h.bit_length())
    assert high.bit_length() > 64  # a hand above the 64-bit word is read in full
    for bad in (1 << count, 1 << 127, 1 << 128, 1 << 200, -1, -(1 << 100), True, 2.0):
        broken = _forced(
            state, hand_masks=(hands[0] | bad if type(bad) is int and bad > 0 else bad, hands[1])
        )
        assert wide_legal(broken) is None
        assert wide_apply(broken, legal_moves(state)[0], broken, legal_moves(state)) is None
    shared = _forced(state, hand_masks=(hands[0] | hands[1], hands[1]))
    assert wide_legal(shared) is None
    for drawn in (1 << count, 1 << 128, -1):
        assert wide_legal(_forced(state, drawn=drawn)) is None


def test_wide_hand_masks_written_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """A state written by the wide build keeps the hands' tiles above bit 63."""
    rules = on_double("classic-draw", 12)
    state = new_game(rules, 2, 7)
    seen_high = False
    for _ in range(30):
        if state.is_game_over:
            break
        state = apply(state, legal_moves(state)[-1])
        with monkeypatch.context() as patch:
            _pure(patch)
            assert position_text.loads(position_text.dumps(state)).hand_masks == state.hand_masks
        seen_high |= any(h >> 64 for h in state.hand_masks)
    assert seen_high


@pytest.mark.skipif(not os.environ.get("BENDOLIB_LONG"), reason="long profile: BENDOLIB_LONG=1")
@pytest.mark.parametrize("top", [12, 14])
@pytest.mark.parametrize("name", CHAIN_GAMES)
def test_every_chain_game_long(name: str, top: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every chain rule set on double-12 (91 tiles) and double-14 (120), every player count."""
    rules = on_double(name, top)
    for players in rules.player_counts:
        for seed in range(3):
            _play(new_game(rules, players, seed), random.Random(seed), monkeypatch, 400)
