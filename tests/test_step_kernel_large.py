"""The huge and vast builds' step paths (129 to 1,024 tiles) against the Python engine.

Issue 24, point 2 ("Any tile set the library accepts ... in the core"): the compiled
``legal_moves`` and ``apply`` serve double-15 through ``bendolib._kernel_huge`` (256-bit
masks) and double-22 and double-30 through ``bendolib._kernel_vast`` (1,024-bit masks),
move for move equal to the Python engine (the specification), from dealt states and
from states read back from a position text; each build declines the sets a smaller one
takes, and states with masks past the tile set are left to the Python engine.  Skipped
where a build is not built (gcc on Linux builds them).
"""

from __future__ import annotations

import os
import random
from types import ModuleType
from typing import Any

import attrs
import pytest

from bendolib import GameState, apply, engine, legal_moves, new_game, position_text
from bendolib._kernel_abi import load_build
from large_sets import CHAIN_GAMES, on_double
from step_compare import play_against_the_engine

#: The builds by name, None where not built (or without the kernel).
BUILDS: dict[str, ModuleType | None] = {
    name: load_build(name) if engine._step_kernel is not None else None
    for name in ("_kernel_huge", "_kernel_vast")
}
#: The double-N sets each build serves here.
TOPS = {15: "_kernel_huge", 22: "_kernel_vast", 30: "_kernel_vast"}
#: basic, classic rule sets and one with action tiles.
NAMES = ["basic", "classic-draw", "classic-block", "domino-pairs", "bendo-all-in-actions"]


def _build(top: int) -> ModuleType:
    build = BUILDS[TOPS[top]]
    if build is None:
        pytest.skip(f"bendolib.{TOPS[top]} is not built")
    return build


def _pure(patch: pytest.MonkeyPatch) -> None:
    for name in ("_step_legal", "_step_apply"):
        patch.setattr(engine, name, None)
    patch.setattr(engine, "_step_legal_larger", ())
    patch.setattr(engine, "_step_apply_larger", ())


def _play(
    build: ModuleType,
    state: GameState,
    rng: random.Random,
    monkeypatch: pytest.MonkeyPatch,
    steps: int,
) -> tuple[int, int]:
    """Random moves, each compared with the Python engine: (moves, the build's listings
    and applies)."""
    return play_against_the_engine(
        state, rng, monkeypatch, steps, _pure, build.step_legal, build.step_apply
    )


@pytest.mark.parametrize("top", sorted(TOPS))
@pytest.mark.parametrize("name", NAMES)
def test_large_sets_same_as_python(name: str, top: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dealt rounds on double-15, 22 and 30: the same listings and states as the engine."""
    build = _build(top)
    rules = on_double(name, top)
    rng = random.Random(f"{name}/{top}")
    moves = used = 0
    for seed in range(2):
        done, served = _play(
            build, new_game(rules, rules.player_counts[0], seed), rng, monkeypatch, 30
        )
        moves, used = moves + done, used + served
    if name != "bendo-all-in-actions":  # (effects and play scoring: the Python engine's)
        assert used > moves // 2, (used, moves)


@pytest.mark.parametrize("top", [15, 30])
def test_loaded_same_as_python(top: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """States read back from a position text: the same listings and states."""
    build = _build(top)
    rules = on_double("classic-draw", top)
    state = new_game(rules, rules.player_counts[-1], 3)
    for _ in range(6):
        state = apply(state, legal_moves(state)[0])
    loaded = position_text.loads(position_text.dumps(state))
    done, used = _play(build, loaded, random.Random(top), monkeypatch, 20)
    assert done and used


def test_each_build_declines_the_smaller_builds_sets() -> None:
    """The huge build lists no set of 128 tiles or fewer, the vast one none of 256 or fewer."""
    if None in BUILDS.values():
        pytest.skip("the huge and vast builds are not both built")
    for name, below in (("_kernel_huge", (6, 12)), ("_kernel_vast", (12, 15, 21))):
        build = BUILDS[name]
        assert build is not None
        for top in below:
            state = new_game(on_double("basic", top), 2, 1)
            assert build.step_legal(state) is None, (name, top)


def _forced(state: GameState, **changes: Any) -> GameState:
    """``state`` with own fields changed past the checks of ``replace`` (as a bug might)."""
    return attrs.evolve(state, **changes)


@pytest.mark.parametrize("top", [15, 30])
def test_hostile_masks_left_to_python(top: int) -> None:
    """Masks past the tile set, past the build's bits, negative or shared: the paths decline."""
    build = _build(top)
    rules = on_double("basic", top)
    state = new_game(rules, 2, 5)
    state = apply(state, legal_moves(state)[0])
    moves = legal_moves(state)
    assert build.step_legal(state) is not None
    hands = state.hand_masks
    count = len(rules.tileset)
    # hands beyond one word (double-15), two (double-30), read in full
    assert max(h.bit_length() for h in hands) > {15: 64, 30: 128}[top]
    for bad in (1 << count, 1 << max(count, 600), 1 << 1024, 1 << 1100, -1, -(1 << 300), True, 2.0):
        high = hands[0] | bad if type(bad) is int and bad > 0 else bad
        broken = _forced(state, hand_masks=(high, hands[1]))
        assert build.step_legal(broken) is None, bad
        assert build.step_apply(broken, moves[0], broken, moves) is None, bad
    shared = _forced(state, hand_masks=(hands[0] | hands[1], hands[1]))
    assert build.step_legal(shared) is None
    for drawn in (1 << count, 1 << 1024, -1):
        assert build.step_legal(_forced(state, drawn=drawn)) is None


@pytest.mark.skipif(not os.environ.get("BENDOLIB_LONG"), reason="long profile: BENDOLIB_LONG=1")
@pytest.mark.parametrize("top", [15, 22, 30])
@pytest.mark.parametrize("name", CHAIN_GAMES)
def test_every_chain_game_long(name: str, top: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every chain rule set on double-15, 22 and 30, every player count."""
    build = _build(top)
    rules = on_double(name, top)
    for players in rules.player_counts:
        for seed in range(2):
            _play(build, new_game(rules, players, seed), random.Random(seed), monkeypatch, 300)
