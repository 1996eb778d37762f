"""The compiled kernel's triangle games against the Python engine (issue 24 point 1).

"Triangle games in the core: playouts ... for ``triangle-dominoes`` and ``triominoes``
(every player count, every rule option of their pages, the bonuses and penalties), the
Python engine staying the specification: the same move-for-move differential tests as the
chain games (every listing, state, score, outcome)".  tests/test_playouts_kernel.py plays
the registered rule sets (and the perft vectors, tests/perft/triangles.perft); this file
plays every option of docs/rules/triangle-dominoes.md and docs/rules/triominoes.md, and
checks that a part or parameter the kernel does not know falls back.
"""

from __future__ import annotations

import os
from contextlib import nullcontext
from typing import Any

import attrs
import pytest

import bendolib
from bendolib import _kernel_tri_input, legal_moves, new_game
from bendolib import playouts as kernel_api
from bendolib._kernel_input import state_tuple
from bendolib._playouts_reference import reference_playouts
from bendolib.errors import KernelFallbackWarning
from bendolib.rules.scoring import FinishingOrder, HighestPlayScore, WinnerTakesPips
from bendolib.rules.starting import FixedSeat
from bendolib.rules.triangles import TriangleScoring
from large_sets import (
    EVERY_LARGE_TRIANGLE_SET,
    HUGE_TRIANGLE_SETS,
    LARGE_TRIANGLE_SETS,
    on_triangles,
)
from test_playouts_kernel import assert_same, code, compile_for, kernel_playouts, starts

needs_kernel = pytest.mark.skipif(not kernel_api.KERNEL, reason="the compiled kernel is not loaded")

#: Every parameter of the two pages' decision tables, and a few combinations.
OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("triangle-dominoes", {"opens": False}),
    ("triangle-dominoes", {"no_triple": "highest_sum"}),
    ("triangle-dominoes", {"no_triple": "redeal"}),
    ("triangle-dominoes", {"voluntary": True}),
    ("triangle-dominoes", {"must_play": True}),
    ("triangle-dominoes", {"opening_bonus": 10, "bridge_bonus": 40, "hexagon_bonus": (50, 60, 70)}),
    ("triangle-dominoes", {"target": 100}),
    ("triangle-dominoes", {"hand_sizes": {2: 6, 3: 6, 4: 6, 5: 6}}),
    ("triominoes", {"hand_sizes": {2: 8, 3: 8, 4: 6}}),
    ("triominoes", {"opening_bonus": 5, "zero_triple_bonus": 0}),
    ("triominoes", {"no_triple": "redeal"}),
    ("triominoes", {"start": FixedSeat(1)}),
    ("triominoes", {"hexagon_bonus": (1, 2, 3), "bridge_bonus": 7}),
    ("triominoes", {"per_draw": 3, "max_per_turn": 2, "pass_after_draws": 4}),
    ("triominoes", {"pass_when_empty": 10}),
    ("triominoes", {"voluntary": False}),
    ("triominoes", {"must_play": True}),
    ("triominoes", {"out_bonus": 50}),
    ("triominoes", {"blocked": "lowest_collects"}),
    ("triominoes", {"target": 500}),
    ("triominoes", {"target": 150, "target_check": "at_once"}),
    ("triominoes", {"after_voluntary": "pass"}),
    ("triominoes", {"when_blocked": "one_each"}),
    ("triominoes", {"when_stuck": "once", "batch": 2, "max_per_turn": None}),
    ("triominoes", {"penalties": None, "play_scoring": None, "target": 60}),
    ("triominoes", {"finish": "last_one_left"}),
    ("triominoes", {"teams": ((0, 2), (1, 3)), "hand_sizes": {4: 7}}),
    # Triangle Dominoes' other reading (issue 21 point 4): the player out collects, the
    # lowest blocked hand collects; and the chain games' other round scorings
    (
        "triangle-dominoes",
        {
            "when_stuck": "until_fits",
            "play_scoring": None,
            "round_scoring": WinnerTakesPips(
                blocked_winner="lowest_seat", tie="nobody", minus_own=True
            ),
            "target": 100,
        },
    ),
    ("triominoes", {"round_scoring": WinnerTakesPips(takes="all", out_wins=False)}),
    (
        "triominoes",
        {
            "teams": ((0, 2), (1, 3)),
            "hand_sizes": {4: 7},
            "round_scoring": WinnerTakesPips(blocked_winner="lowest_side", tie="locker_loses"),
        },
    ),
    ("triominoes", {"round_scoring": WinnerTakesPips(win_points=30)}),
    ("triangle-dominoes", {"round_scoring": HighestPlayScore(), "target": 150}),
    (
        "triangle-dominoes",
        {
            "round_scoring": FinishingOrder(
                table={2: (20, 0), 3: (25, 10, 0), 4: (30, 20, 10, 0)}, tie="share"
            )
        },
    ),
]


def _plays_as_the_engine(
    kernel: Any, spec: object, state: bendolib.GameState, k: int, count: int, firsts: int, what: str
) -> None:
    """From ``state``, move for move the engine's: the listing, ``count`` random playouts
    (seed ``k``) to the end of the round and of the match, and the heaviest and greedy
    policies with each of the first ``firsts`` moves."""
    rules = state.rules
    listed = tuple(code(rules, m) for m in legal_moves(state))
    assert kernel.listing(spec, state_tuple(state)) == listed
    for until in ("round", "match"):
        expected = reference_playouts(state, count, seed=k, until=until, record=True)
        got = kernel_playouts(state, count, seed=k, until=until)
        assert_same(expected, got, f"{what} {until}")
    if state.is_round_over:
        return
    first = tuple(range(len(listed)))[:firsts]
    for policy in ("heaviest", "greedy"):
        expected = reference_playouts(state, policy=policy, record=True, first=first)
        got = kernel_playouts(state, len(first), policy=policy, first=first)
        assert_same(expected, got, f"{what} {policy}")


def _rules(name: str, params: dict[str, Any]) -> bendolib.RuleSet:
    return bendolib.rules.get(name).configure(f"{name}-option", **params)


@needs_kernel
@pytest.mark.parametrize(("name", "params"), OPTIONS, ids=lambda v: str(v)[:50])
def test_every_option_plays_as_the_engine(name: str, params: dict[str, Any]) -> None:
    """Listings, random playouts to the end of the round and of the match, and the
    deterministic policies with every first move: move for move the engine's."""
    rules = _rules(name, params)
    for players in sorted({rules.player_counts[0], rules.player_counts[-1]}):
        assert kernel_api.kernel_reason(rules, players) is None
        spec = compile_for(rules, players)
        kernel = kernel_api._kernel
        assert kernel is not None
        for k, state in enumerate(_starts(rules, players)):
            _plays_as_the_engine(kernel, spec, state, k, 4, 6, f"{rules.name} {params} {players}p")


def _starts(rules: bendolib.RuleSet, players: int) -> list[bendolib.GameState]:
    """A fresh deal and two positions along random games."""
    out = [new_game(rules, players, seed=3)]
    for seed in (1, 2):
        state = new_game(rules, players, seed=seed)
        for step in range(12 + 9 * seed):
            legal = legal_moves(state)
            if not legal or state.is_round_over:
                break
            state = bendolib.apply(state, legal[(7 * step + seed) % len(legal)])
        out.append(state)
    return out


@needs_kernel
@pytest.mark.parametrize(("top", "mirrors"), LARGE_TRIANGLE_SETS + HUGE_TRIANGLE_SETS)
@pytest.mark.parametrize("name", ["triangle-dominoes", "triominoes"])
def test_larger_triangle_sets_play_as_the_engine(name: str, top: int, mirrors: bool) -> None:
    """Every player count on a set of more than 64 triangles: the wide build (65 to 128
    tiles) or the huge build (129 to 256) plays it, listings, random playouts to the end
    of the round and of the match, and the deterministic policies with every first move
    move for move the engine's."""
    rules = on_triangles(name, top, mirrors)
    tiles = len(rules.tileset)
    assert tiles > 64
    build = kernel_api._kernel_wide if tiles <= 128 else kernel_api._kernel_huge
    for players in rules.player_counts:
        assert kernel_api.kernel_reason(rules, players) is None
        spec, _, kernel = kernel_api._compiled_in(rules, players)
        assert kernel is build and kernel is not None
        for k, state in enumerate(_starts(rules, players)[1:]):
            # (beyond 128 tiles the engine has no compiled step paths: fewer playouts)
            count = 2 if tiles <= 128 else 1
            _plays_as_the_engine(kernel, spec, state, k, count, 2, f"{rules.name} {players}p")


@needs_kernel
@pytest.mark.skipif(not os.environ.get("BENDOLIB_LONG"), reason="long profile: BENDOLIB_LONG=1")
@pytest.mark.parametrize(("top", "mirrors"), EVERY_LARGE_TRIANGLE_SET)
@pytest.mark.parametrize("name", ["triangle-dominoes", "triominoes"])
def test_every_large_triangle_set_long(name: str, top: int, mirrors: bool) -> None:
    """Every triangle set of 65 to 256 tiles, every player count: random playouts from
    fresh deals and positions along random games, move for move the engine's."""
    rules = on_triangles(name, top, mirrors)
    for players in rules.player_counts:
        assert kernel_api.kernel_reason(rules, players) is None
        for k, state in enumerate(starts(rules, players, 4)):
            expected = reference_playouts(state, 6, seed=k, record=True)
            assert_same(expected, kernel_playouts(state, 6, seed=k), f"{rules.name} {players}p")


@needs_kernel
@pytest.mark.parametrize("name", ["triangle-dominoes", "triominoes"])
def test_many_random_playouts_from_many_positions(name: str) -> None:
    """More random playouts of the registered rule sets, every player count."""
    rules = bendolib.rules.get(name)
    for players in rules.player_counts:
        for k, state in enumerate(starts(name, players, 3)):
            expected = reference_playouts(state, 8, seed=100 + k, record=True)
            assert_same(expected, kernel_playouts(state, 8, seed=100 + k), f"{name} {players}p")


@needs_kernel
def test_an_unknown_parameter_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parameter the kernel does not know is never played silently: the engine plays it."""
    rules = bendolib.rules.get("triominoes").configure("triominoes-new-option")
    fields = dict(_kernel_tri_input.KNOWN_FIELDS)
    fields[TriangleScoring] = fields[TriangleScoring] - {"bridge_bonus"}
    monkeypatch.setattr(_kernel_tri_input, "KNOWN_FIELDS", fields)
    reason = kernel_api.kernel_reason(rules, 2)
    assert reason is not None and "bridge_bonus" in reason
    state = new_game(rules, 2, seed=4)
    with pytest.warns(KernelFallbackWarning, match="bridge_bonus"):
        got = kernel_api.playouts(state, 3, seed=1, record=True)
    assert got == reference_playouts(state, 3, seed=1, record=True)


@attrs.frozen
class _MyScoring(TriangleScoring):
    """A user's subclass: the kernel knows the built-in classes only."""


def test_a_users_part_falls_back() -> None:
    rules = bendolib.rules.get("triangle-dominoes").configure(
        "triangle-dominoes-mine", play_scoring=_MyScoring()
    )
    if kernel_api.KERNEL:
        assert "_MyScoring" in str(kernel_api.kernel_reason(rules, 2))
    state = new_game(rules, 2, seed=4)
    with pytest.warns(KernelFallbackWarning) if kernel_api.KERNEL else nullcontext():
        got = kernel_api.playouts(state, 2, seed=1, record=True)
    assert got == reference_playouts(state, 2, seed=1, record=True)


@needs_kernel
def test_the_public_call_uses_the_kernel_for_the_triangles() -> None:
    """playouts() on a triangle game: the kernel's outcomes, no fallback warning."""
    import warnings

    for name in ("triangle-dominoes", "triominoes"):
        state = new_game(bendolib.rules.get(name), 2, seed=6)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = kernel_api.playouts(state, 20, seed=2, record=True)
        assert got == reference_playouts(state, 20, seed=2, record=True)


@pytest.mark.parametrize(
    ("part", "field", "value"),
    [
        ("round_scoring", "blocked", "lowest_wins"),
        ("start", "no_triple", "anything"),
        ("draw", "when_stuck", "twice"),
        ("match", "target_check", "never"),
    ],
)
def test_an_unknown_value_falls_back(part: str, field: str, value: str) -> None:
    """An option that gains a value (engineers add rule options) is not played as another."""
    rules = bendolib.rules.get("triominoes")
    changed = attrs.evolve(getattr(rules, part))
    object.__setattr__(changed, field, value)  # past the validators: a value added later
    odd = attrs.evolve(rules, **{part: changed})
    if kernel_api.KERNEL:
        assert f"{field}={value!r}" in str(kernel_api.kernel_reason(odd, 2))
