"""The compiled playout kernel against its specification, the Python engine.

The differential tests play the same playouts (same state, policy and seed) in the kernel
and in :func:`bendolib.playouts.reference_playouts` and compare every move and
outcome; they call the kernel directly, so a silent fallback cannot pass them.  CI plays a
few hundred playouts per built-in rule set and player count; the long profile plays
``BENDOLIB_DIFFERENTIAL`` (e.g. 10000) random playouts of each, and proportionally more of
the rest (heaviest and greedy from 50 positions, 10 whole matches per policy):

    BENDOLIB_DIFFERENTIAL=10000 pytest -q tests/test_playouts_kernel.py -k differential

Without the kernel (``BENDOLIB_PURE_PYTHON=1``, or no compiler) these tests are skipped
and the rest of the suite runs on the Python engine.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bendolib
from bendolib import GameState, Move, Place, apply, legal_moves, new_game
from bendolib import playouts as kernel_api
from bendolib._kernel_input import spec_tuple, state_tuple
from bendolib._playouts_reference import Outcome, PlayoutError, reference_playouts
from bendolib._rng import SplitMix64
from bendolib.moves import Draw, NextRound, Pass, PlaceInCell
from bendolib.rules.ruleset import RuleSet
from bendolib.testing import strategies

sys.path.insert(0, str(Path(__file__).resolve().parent / "perft"))

from perft_core import ALONG, perft, rules_named, start_position

from large_sets import HUGE_CONFIGS, LARGE_CONFIGS, VAST_CONFIGS, on_double

needs_kernel = pytest.mark.skipif(not kernel_api.KERNEL, reason="the compiled kernel is not loaded")
#: The wide build (65 to 128 tiles) is not compiled where the compiler has no 128-bit integer.
needs_wide = pytest.mark.skipif(
    kernel_api._kernel_wide is None, reason="the wide build of the kernel is not loaded"
)
#: The huge build (129 to 256 tiles) is made by gcc only (setup.py).
needs_huge = pytest.mark.skipif(
    kernel_api._kernel_huge is None, reason="the huge build of the kernel is not loaded"
)
#: The vast build (257 to 1,024 tiles) likewise.
needs_vast = pytest.mark.skipif(
    kernel_api._kernel_vast is None, reason="the vast build of the kernel is not loaded"
)

#: Playouts per built-in rule set and player count: a few hundred in CI.
PER_CONFIG = int(os.environ.get("BENDOLIB_DIFFERENTIAL", "200"))

#: The built-in rule sets the kernel plays: every one, on a chain (straight or bend) or on
#: the triangles (issue 24 point 1).
KERNEL_GAMES = tuple(bendolib.rules.names())
#: The triangle games (src/bendolib/_kernel.d/tri.c).
TRIANGLE_GAMES = tuple(
    name for name in KERNEL_GAMES if bendolib.rules.get(name).geometry.name == "triangles"
)

CONFIGS = [
    (name, players) for name in KERNEL_GAMES for players in bendolib.rules.get(name).player_counts
]


def kernel_playouts(
    state: GameState,
    count: int,
    policy: str = "random",
    seed: int = 0,
    until: str = "round",
    first: tuple[int, ...] | None = None,
) -> tuple[Outcome, ...]:
    """The kernel's playouts, called directly (no fallback), every move recorded."""
    spec, reason, kernel = kernel_api._compiled_in(state.rules, state.players)
    assert spec is not None and kernel is not None, reason
    return tuple(
        kernel.run(
            spec,
            state_tuple(state),
            count,
            kernel_api.POLICIES.index(policy),
            seed & (2**64 - 1),
            until == "match",
            True,
            first,
            Outcome,
        )
    )


def kernel_of(rules: RuleSet, players: int) -> Any:
    """The build of the kernel that plays ``rules``: ``_kernel``, or ``_kernel_wide``."""
    spec, reason, kernel = kernel_api._compiled_in(rules, players)
    assert spec is not None and kernel is not None, reason
    return kernel


def compile_for(rules: RuleSet, players: int) -> Any:
    return kernel_of(rules, players).compile(spec_tuple(rules, players))


def code(rules: RuleSet, move: Move) -> tuple[int, ...]:
    """
    A move as the kernel lists it: (kind, end, tile, inward, shows, turn) on a chain,
    (kind, x, y, down, tile, rotation) on the triangles.
    """
    if isinstance(move, PlaceInCell):
        index = rules.tileset.index(move.tile)
        return (0, move.cell.x, move.cell.y, int(move.cell.down), index, move.rotation)
    if isinstance(move, Place):
        index = rules.tileset.index(move.tile)
        return (0, move.end, index, move.inward, move.shows, move.turn)
    kind = {Draw: 1, Pass: 2, NextRound: 3}[type(move)]
    return (kind, 0, 0, 0, 0, 0)


def starts(name: str | RuleSet, players: int, count: int) -> list[GameState]:
    """Fresh deals and positions along random games (every round phase included)."""
    rules = bendolib.rules.get(name) if isinstance(name, str) else name
    out = []
    for seed in range(count):
        state = new_game(rules, players, seed=seed)
        rng = SplitMix64(seed)
        for _ in range(rng.below(40)):
            legal = legal_moves(state)
            if not legal:
                break
            state = apply(state, legal[rng.below(len(legal))])
        out.append(state)
    return out


def assert_same(expected: tuple[Outcome, ...], got: tuple[Outcome, ...], what: str) -> None:
    assert len(expected) == len(got), what
    for i, (a, b) in enumerate(zip(expected, got, strict=True)):
        if a != b:
            ca, cb = a.choices or (), b.choices or ()
            k = next((j for j in range(min(len(ca), len(cb))) if ca[j] != cb[j]), None)
            pytest.fail(f"{what}, playout {i}: first different move {k}\n{a}\n{b}")


# -- the differential test ---------------------------------------------------------------


@needs_kernel
@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_differential_random_playouts(name: str, players: int) -> None:
    """Random playouts from fresh deals and mid-round positions: the same moves and outcomes."""
    states = starts(name, players, 4)
    per_state = max(1, PER_CONFIG // len(states))
    for k, state in enumerate(states):
        seed = 1000 * k + 7
        expected = reference_playouts(state, per_state, seed=seed, record=True)
        assert_same(expected, kernel_playouts(state, per_state, seed=seed), f"{name} {players}p")


@needs_kernel
@pytest.mark.parametrize("name", ["bendo-all-in-caribbean", "bendo-all-in-teams"])
def test_a_shared_target_goes_to_the_rounds_winner(name: str) -> None:
    """
    ``Match(several="round_winner")`` in the kernel (``rules.c``'s ``match_winner``):
    whole matches on a low target, the kernel's as the engine's, and some of them won by
    the round's winner where ``"highest"`` goes on (found by the step path's test of the
    checker's game, tests/test_step_kernel.py).
    """
    rules = bendolib.rules.get(name).configure(several="round_winner", target=25)
    highest = rules.configure(several="highest")
    decided = 0
    for seed in range(6):
        state = new_game(rules, 4, seed=seed)
        expected = reference_playouts(state, 10, seed=seed, until="match", record=True)
        assert_same(expected, kernel_playouts(state, 10, seed=seed, until="match"), name)
        other = kernel_playouts(new_game(highest, 4, seed=seed), 10, seed=seed, until="match")
        pairs = zip(expected, other, strict=True)
        decided += sum(a.match_winner != b.match_winner for a, b in pairs)
    assert decided > 0


@needs_kernel
@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_differential_heaviest_and_greedy(name: str, players: int) -> None:
    """The deterministic policies, each from several positions, first moves forced."""
    count = max(4, PER_CONFIG // 200)
    for state in starts(name, players, count):
        if state.is_round_over:
            continue
        listed = len(legal_moves(state))
        first = tuple(range(listed))
        for policy in ("heaviest", "greedy"):
            expected = reference_playouts(state, policy=policy, record=True, first=first)
            got = kernel_playouts(state, listed, policy=policy, first=first)
            assert_same(expected, got, f"{name} {players}p {policy}")


@needs_kernel
@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_differential_whole_matches(name: str, players: int) -> None:
    """Playouts to the end of the match: the next rounds' deals and starts too."""
    count = max(2, PER_CONFIG // 1000)
    for k, state in enumerate(starts(name, players, 2)):
        for policy in ("random", "greedy"):
            expected = reference_playouts(
                state, count, policy=policy, seed=k, until="match", record=True
            )
            got = kernel_playouts(state, count, policy=policy, seed=k, until="match")
            assert_same(expected, got, f"{name} {players}p {policy} to the end of the match")
            assert all(o.phase == bendolib.state.GAME_OVER for o in got)


@needs_kernel
@settings(max_examples=60)
@given(st.data())
def test_differential_configured_rule_sets(data: st.DataObject) -> None:
    """Any parameters of the built-in rule sets: the same listing and playouts."""
    rules = data.draw(strategies.rulesets(configured=True))
    state = data.draw(strategies.game_states(rules, max_moves=60))
    if kernel_api.kernel_reason(rules, state.players) is not None:
        return  # more tiles than the kernel holds: the Python engine plays it
    spec = compile_for(rules, state.players)
    kernel = kernel_of(rules, state.players)
    listed = tuple(code(rules, m) for m in legal_moves(state))
    assert kernel.listing(spec, state_tuple(state)) == listed
    for until in ("round", "match"):
        try:
            expected = reference_playouts(state, 3, seed=5, until=until, record=True)
        except PlayoutError:
            # a match that does not end (test_an_endless_match_stops_at_the_bound): the
            # engine stopped at MAX_MOVES, and the kernel must refuse it too
            with pytest.raises(kernel.UnsupportedError):
                kernel_playouts(state, 3, seed=5, until=until)
            continue
        assert_same(expected, kernel_playouts(state, 3, seed=5, until=until), rules.name)


def endless_triominoes() -> RuleSet:
    """
    Triominoes whose draws cost more than random play scores: every score sinks below
    zero and no match reaches the target (the configured rule set that kept
    test_differential_configured_rule_sets in the engine for 16 CPU-minutes).
    """
    return bendolib.rules.get("triominoes").configure(
        per_draw=10, pass_after_draws=20, pass_when_empty=6
    )


@needs_kernel
def test_an_endless_match_stops_at_the_bound() -> None:
    """
    A match that never ends (a configured rule set once kept the configured rule sets'
    test in the engine for 16 CPU-minutes): the kernel stops at MAX_STEPS and refuses it.
    """
    kernel = kernel_api._kernel
    assert kernel is not None
    assert kernel.MAX_STEPS == kernel_api.MAX_MOVES == 200_000
    state = new_game(endless_triominoes(), 2, seed=1)
    with pytest.raises(kernel.UnsupportedError):
        kernel_playouts(state, 1, seed=5, until="match")


@needs_kernel
def test_the_engine_stops_an_endless_match_at_the_same_bound() -> None:
    """
    ``playouts`` hands the match the kernel refused to the Python engine, which stops at
    the same bound and raises, where it used to play for ever (200,000 moves of the
    engine: scripts/sanitize leaves this one out).
    """
    state = new_game(endless_triominoes(), 2, seed=1)
    with pytest.raises(PlayoutError, match=r"still going after 200,000 moves.*match may never end"):
        kernel_api.playouts(state, 1, seed=5, until="match")


@needs_kernel
@settings(max_examples=200)
@given(strategies.game_states(strategies.rulesets(KERNEL_GAMES)))
def test_listing_is_the_engines(state: GameState) -> None:
    """On any reachable state the kernel lists legal_moves, in its order."""
    spec = compile_for(state.rules, state.players)
    kernel = kernel_of(state.rules, state.players)
    listed = tuple(code(state.rules, m) for m in legal_moves(state))
    assert kernel.listing(spec, state_tuple(state)) == listed


# -- tile sets of more than 64 tiles: the wide build (issue 24 point 2) ---------------


@needs_wide
@pytest.mark.parametrize(("name", "players"), LARGE_CONFIGS)
def test_differential_double_twelve(name: str, players: int) -> None:
    """
    Issue 24 point 2 ("double-12 ... and the action-tile sets in the core ... with the same
    differential tests"): each chain rule set on double-12 (91 tiles, 97 with the action
    tiles) plays in the wide build (``bendolib._kernel_wide``), and its random, heaviest
    and greedy playouts, to the end of the round and of the match, are the engine's.
    """
    assert kernel_of(on_double(name, 12), players) is kernel_api._kernel_wide
    differential_on_double(name, 12, players)


@needs_huge
@pytest.mark.parametrize(("name", "players"), HUGE_CONFIGS)
def test_differential_double_fifteen(name: str, players: int) -> None:
    """
    Issue 24 point 2, double-15 (136 tiles, 142 with the action tiles): in the huge build
    (``bendolib._kernel_huge``, 256-bit masks), the same playouts as the engine's.
    """
    assert kernel_of(on_double(name, 15), players) is kernel_api._kernel_huge
    differential_on_double(name, 15, players)


def differential_on_double(name: str, top: int, players: int) -> None:
    """Random, heaviest and greedy playouts of ``name`` on double-``top``: the engine's."""
    rules = on_double(name, top)
    for k, state in enumerate(starts(rules, players, 2)):
        what = f"{name} double-{top} {players}p"
        expected = reference_playouts(state, 4, seed=k, record=True)
        assert_same(expected, kernel_playouts(state, 4, seed=k), what)
        if not state.is_round_over:
            first = tuple(range(min(4, len(legal_moves(state)))))
            for policy in ("heaviest", "greedy"):
                expected = reference_playouts(state, policy=policy, record=True, first=first)
                got = kernel_playouts(state, len(first), policy=policy, first=first)
                assert_same(expected, got, f"{what} {policy}")
        policy = ("random", "greedy")[k % 2]
        expected = reference_playouts(state, 1, policy=policy, seed=k, until="match", record=True)
        got = kernel_playouts(state, 1, policy=policy, seed=k, until="match")
        assert_same(expected, got, f"{what} {policy} to the end of the match")


@needs_wide
@pytest.mark.parametrize("top", [12, 15, 20])
@pytest.mark.parametrize("name", ["basic", "bendo-all-in-actions", "classic-draw", "all-five"])
def test_wide_listing_and_perft_are_the_engines(name: str, top: int) -> None:
    """
    Along random games on double-12 (the wide build), double-15 and double-20 (231 tiles,
    237 with the action tiles: the huge build; the action set's wild star naming 0 to
    ``top`` included), the kernel lists ``legal_moves`` in its order at every step, and its
    perft counts at depth 2 are the engine's.
    """
    if top > 12 and kernel_api._kernel_huge is None:
        pytest.skip("the huge build of the kernel is not loaded")
    rules = on_double(name, top)
    players = rules.player_counts[0]
    kernel = kernel_of(rules, players)
    spec = compile_for(rules, players)
    for seed in range(2):
        state = new_game(rules, players, seed=seed)
        rng = SplitMix64(seed)
        for step in range(60):
            legal = legal_moves(state)
            listed = tuple(code(rules, m) for m in legal)
            assert kernel.listing(spec, state_tuple(state)) == listed, (name, seed, step)
            if step % 20 == 0:
                assert kernel.perft(spec, state_tuple(state), 2) == perft(state, 2)
            if not legal:
                break
            state = apply(state, legal[rng.below(len(legal))])


@needs_vast
@pytest.mark.parametrize(
    ("name", "players", "top"),
    [(name, players, 22) for name, players in VAST_CONFIGS]
    + [
        (name, players, 30)
        for name, players in VAST_CONFIGS
        if name in ("basic", "bendo-all-in-actions", "classic-draw", "all-five")
    ],
)
def test_differential_double_twenty_two_and_thirty(name: str, players: int, top: int) -> None:
    """
    Issue 24 point 2 ("Any tile set the library accepts ... in the core (no 64-tile
    ceiling)"): beyond the huge build's 256 tiles, double-22 (276 tiles, 282 with the
    action tiles; every chain rule set) and double-30 (496; four of them) play in the vast
    build (``bendolib._kernel_vast``, 1,024-bit masks, two-byte tile indices), the same
    playouts as the engine's.
    """
    assert kernel_of(on_double(name, top), players) is kernel_api._kernel_vast
    differential_on_double(name, top, players)


@needs_vast
@pytest.mark.skipif(not os.environ.get("BENDOLIB_LONG"), reason="long profile: BENDOLIB_LONG=1")
@pytest.mark.parametrize("top", [22, 30, 43])
@pytest.mark.parametrize(("name", "players"), LARGE_CONFIGS)
def test_differential_vast_every_config_long(name: str, players: int, top: int) -> None:
    """The vast build's long profile: every chain rule set and player count on double-22,
    double-30 and double-43, each policy, to the end of the round and of the match."""
    assert kernel_of(on_double(name, top), players) is kernel_api._kernel_vast
    differential_on_double(name, top, players)


@needs_vast
@pytest.mark.parametrize("name", ["basic", "classic-draw"])
def test_differential_double_forty_three(name: str) -> None:
    """
    The largest double-N set the library takes, double-43 (990 tiles, tile indices beyond
    a byte, faces up to 43): random playouts in the vast build are the engine's.
    """
    rules = on_double(name, 43)
    assert kernel_of(rules, 2) is kernel_api._kernel_vast
    state = new_game(rules, 2, seed=4)
    expected = reference_playouts(state, 2, seed=4, record=True)
    assert_same(expected, kernel_playouts(state, 2, seed=4), f"{name} double-43")


@pytest.mark.filterwarnings("ignore::bendolib.errors.KernelFallbackWarning")
def test_faces_beyond_the_kernels_fall_back_to_the_engine() -> None:
    """
    The kernel stores faces -8 to 55 (NFACE in _kernel.d/kernel.h; double-43, the largest
    double-N set the library takes, tops at 43): a tile set with a face of 56 plays on the
    Python engine, and ``kernel_reason`` says why.
    """
    from bendolib.tiles import Tile, TileSet

    base = TileSet.double(22)
    tiles = TileSet("double-22 + 56-56", base.tiles + (Tile(56, 56, base.tiles[0].bend),))
    rules = bendolib.rules.get("basic").configure("basic-56", tileset=tiles)
    if kernel_api.KERNEL:
        assert kernel_api.kernel_reason(rules, 2) == "faces beyond -8..55"
    state = new_game(rules, 2, seed=1)
    got = kernel_api.playouts(state, 2, seed=2, record=True)
    assert got == reference_playouts(state, 2, seed=2, record=True)


# -- the perft vectors, replayed in the kernel ----------------------------------------


def perft_vectors() -> list[tuple[str, list[str], list[list[str]]]]:
    """The perft vectors of the rule sets the kernel plays (the triangles' too)."""
    from test_perft import load

    return [
        vector
        for vector in load()
        if kernel_api.kernel_reason(rules_named(vector[1][1]), int(vector[1][2])) is None
    ]


@needs_kernel
@pytest.mark.parametrize(("name", "header", "expected"), perft_vectors(), ids=lambda v: str(v)[:40])
def test_perft_vectors_in_the_kernel(
    name: str, header: list[str], expected: list[list[str]]
) -> None:
    """tests/perft: the kernel's move trees and move counts are the frozen ones."""
    kind, rules, players, seed = header[0], header[1], int(header[2]), int(header[3])
    kernel = kernel_of(rules_named(rules), players)
    spec = compile_for(rules_named(rules), players)
    if kind == "position":
        state = start_position(rules, players, seed, int(header[4]))
        for _, depth, count in expected:
            assert kernel.perft(spec, state_tuple(state), int(depth)) == int(count), name
    else:
        state = new_game(rules_named(rules), players, seed=seed)
        assert kernel.walk(spec, state_tuple(state), 80, 7) == [int(c) for c in header[4:]]


def test_perft_along_vectors_are_listed() -> None:
    """Every walk perft_core plays is frozen in tests/perft (with or without the kernel)."""
    from test_perft import load

    assert {(r, p, s) for r, p, s, _ in ALONG} <= {
        (h[1], int(h[2]), int(h[3])) for _, h, _ in load() if h[0] == "along"
    }


# -- the public API, with or without the kernel ----------------------------------------


@pytest.mark.parametrize("name", ["basic", "all-five", "bendo-all-in-actions", "domino-pairs"])
def test_playouts_agree_with_the_reference(name: str) -> None:
    """playouts() (the kernel when loaded) gives the reference's outcomes."""
    rules = bendolib.rules.get(name)
    state = new_game(rules, rules.player_counts[-1], seed=3)
    for policy in kernel_api.POLICIES:
        got = kernel_api.playouts(state, 5, policy=policy, seed=9, record=True)
        assert got == reference_playouts(state, 5, policy=policy, seed=9, record=True)
        assert all(o.phase != bendolib.state.PLAYING and o.moves > 0 for o in got)


def test_every_built_in_rule_set_runs_in_the_kernel() -> None:
    """No built-in rule set falls back (a new rule parameter must be taught to the kernel)."""
    if not kernel_api.KERNEL:
        pytest.skip("the compiled kernel is not loaded")
    for name, players in CONFIGS:
        assert kernel_api.kernel_reason(bendolib.rules.get(name), players) is None, name
    assert set(TRIANGLE_GAMES) == {"triangle-dominoes", "triominoes"}


def test_outcome_summarises_the_final_state() -> None:
    state = new_game(bendolib.rules.get("basic"), 2, seed=11)
    (outcome,) = kernel_api.playouts(state, seed=4, record=True)
    assert outcome.choices is not None
    final = state
    for k in outcome.choices:
        final = apply(final, legal_moves(final)[k])
    result = final.last_result
    assert result is not None
    assert outcome.scores == final.scores and outcome.phase == final.phase
    assert (outcome.blocked, outcome.order, outcome.points) == (
        result.blocked,
        result.order,
        result.points,
    )
    assert outcome.moves == len(outcome.choices) == len(final.history)


def test_same_seed_same_playouts_other_seed_others() -> None:
    state = new_game(bendolib.rules.get("basic"), 3, seed=2)
    first = kernel_api.playouts(state, 20, seed=1, record=True)
    assert first == kernel_api.playouts(state, 20, seed=1, record=True)
    assert first != kernel_api.playouts(state, 20, seed=2, record=True)
    assert len({o.choices for o in first}) > 10


def test_first_moves_are_played_first() -> None:
    state = new_game(bendolib.rules.get("classic-draw"), 2, seed=4)
    state = apply(state, legal_moves(state)[0])
    listed = legal_moves(state)
    got = kernel_api.playouts(state, policy="heaviest", first=range(len(listed)), record=True)
    assert [o.choices[0] for o in got if o.choices] == list(range(len(listed)))


def test_the_engines_bound_counts_moves_as_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """
    The engine's playouts stop where the kernel's do (MAXSTEPS, playout.c and tri.c): a
    playout of exactly MAX_MOVES moves is played, one that needs one more raises
    (the endless match of test_an_endless_match_stops_at_the_bound, on a short bound).
    """
    import bendolib._playouts_reference as reference

    state = new_game(endless_triominoes(), 2, seed=1)
    (whole,) = reference_playouts(state, seed=5, until="round")
    monkeypatch.setattr(reference, "MAX_MOVES", whole.moves)
    assert reference_playouts(state, seed=5, until="round") == (whole,)
    monkeypatch.setattr(reference, "MAX_MOVES", whole.moves - 1)
    with pytest.raises(PlayoutError, match="round may never end"):
        reference_playouts(state, seed=5, until="round")
    monkeypatch.setattr(reference, "MAX_MOVES", 3000)
    with pytest.raises(PlayoutError, match=r"playout 0 \(seed 5\) is still going after 3,000"):
        reference_playouts(state, seed=5, until="match")


def test_finished_rounds_play_nothing_or_the_next_round() -> None:
    state = new_game(bendolib.rules.get("first-out"), 2, seed=1)
    while not state.is_round_over:
        state = apply(state, legal_moves(state)[0])
    (done,) = kernel_api.playouts(state, until="round")
    assert done.moves == 0 and done.scores == state.scores
    if not state.is_game_over:
        (later,) = kernel_api.playouts(state, until="match", record=True)
        assert later.choices is not None and later.choices[0] == 0  # next
        assert later.phase == bendolib.state.GAME_OVER


@pytest.mark.filterwarnings("ignore::bendolib.errors.KernelFallbackWarning")
def test_rule_sets_the_kernel_does_not_know_fall_back() -> None:
    """A face beyond the kernel's 55, or a geometry of the user's: the Python engine plays."""
    from bendolib.geometry.straight import StraightGeometry
    from bendolib.tiles import Tile, TileSet

    class Line(StraightGeometry):
        pass

    base = TileSet.double(6, straight=True)
    beyond = TileSet("double-6 + 60-60", base.tiles + (Tile(60, 60, base.tiles[0].bend),))
    big = bendolib.rules.get("classic-draw").configure("face-60", tileset=beyond)
    mine = bendolib.rules.get("classic-block").configure(geometry=Line())
    for rules in (big, mine):
        if kernel_api.KERNEL:
            assert kernel_api.kernel_reason(rules, 2)
        state = new_game(rules, 2, seed=1)
        got = kernel_api.playouts(state, 3, seed=2, record=True)
        assert got == reference_playouts(state, 3, seed=2, record=True)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"policy": "best"}, kernel_api.PlayoutError),
        ({"until": "forever"}, kernel_api.PlayoutError),
        ({"count": -1}, kernel_api.PlayoutError),
        ({"count": 2, "first": [0]}, kernel_api.PlayoutError),
        ({"first": [99]}, kernel_api.PlayoutError),
        ({"count": "3"}, TypeError),
        ({"seed": 1.5}, TypeError),
        ({"first": ["0"]}, TypeError),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], error: type[Exception]) -> None:
    state = new_game(bendolib.rules.get("basic"), 2, seed=1)
    with pytest.raises(error):
        kernel_api.playouts(state, **kwargs)


def test_a_state_is_required() -> None:
    with pytest.raises(TypeError, match="GameState"):
        kernel_api.playouts("basic")  # type: ignore[arg-type]


def test_the_environment_variable_forces_the_python_engine() -> None:
    code_ = "import bendolib.playouts as p; print(p.KERNEL)"
    env = dict(os.environ, BENDOLIB_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code_], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


# -- the policies are the bots' ------------------------------------------------------


@settings(max_examples=60)
@given(strategies.game_states(allow_game_over=False))
def test_policies_choose_as_the_bots(state: GameState) -> None:
    """The "heaviest" policy is the search bot's rollout policy, "greedy" the greedy bot's."""
    from bendolib._playouts_reference import greedy_index, heaviest_index
    from bendolib.bots.baseline import GreedyBot
    from bendolib.bots.search import heaviest_move

    legal = legal_moves(state)
    assert legal[heaviest_index(legal)] == heaviest_move(legal)
    if state.is_round_over:
        return
    import random

    chosen = GreedyBot().choose(state.observation(state.current_player), legal, random.Random(0))
    assert legal[greedy_index(state, legal)] == chosen


# -- the search bot's rollouts ----------------------------------------------------------


@settings(max_examples=30)
@given(strategies.game_states(allow_game_over=False), st.integers(0, 2**32))
def test_sampled_worlds_list_the_observed_moves(state: GameState, seed: int) -> None:
    """The search bot plays legal_moves(world)[j] for the observed move j: they are equal."""
    import random

    if state.is_round_over:
        return
    observation = state.observation(state.current_player)
    world = bendolib.sample_state(observation, random.Random(seed), forced_draws=True)
    assert legal_moves(world) == legal_moves(state)


def test_search_bot_chooses_as_with_the_python_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rollouts in the kernel change the bot's speed, never its choices."""
    import random

    from bendolib.bots import search

    bot = search.SearchBot(worlds=3)
    state = new_game(bendolib.rules.get("all-five"), 2, seed=8)
    seen: list[Move] = []
    while not state.is_round_over:
        legal = legal_moves(state)
        observation = state.observation(state.current_player)
        fast = bot.choose(observation, legal, random.Random(len(seen)))
        with monkeypatch.context() as patch:
            patch.setattr(search, "playouts", reference_playouts)
            slow = bot.choose(observation, legal, random.Random(len(seen)))
        assert fast == slow
        seen.append(fast)
        state = apply(state, fast)
    assert len(seen) > 5


@needs_kernel
def test_playouts_in_threads_are_the_serial_ones() -> None:
    """The kernel plays without the GIL: threads at once get what one thread gets."""
    from concurrent.futures import ThreadPoolExecutor

    states = [new_game(bendolib.rules.get(name), 2, seed=5) for name in ("basic", "all-five")]
    jobs = [(state, seed) for state in states for seed in range(6)]
    serial = [kernel_api.playouts(state, 1500, seed=seed, record=True) for state, seed in jobs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(
            pool.map(lambda job: kernel_api.playouts(job[0], 1500, seed=job[1], record=True), jobs)
        )
    assert threaded == serial


def test_a_stale_kernel_build_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """An editable install not rebuilt after a pull keeps an old ``_kernel``: it is ignored
    (the pure-Python engine runs), never half used (the step API crashed at import)."""
    from bendolib import _kernel_abi

    if not kernel_api.KERNEL:
        pytest.skip("the compiled kernel is not loaded")
    assert _kernel_abi.load_kernel() is not None
    monkeypatch.setattr(kernel_api._kernel, "ABI", _kernel_abi.ABI - 1)
    assert _kernel_abi.load_kernel() is None
    monkeypatch.delattr(kernel_api._kernel, "ABI")
    assert _kernel_abi.load_kernel() is None


@needs_kernel
def test_an_end_closing_two_ways_kernel_and_engine_agree() -> None:
    """Issue 21 point 2 (seeds/000 "Each Bendomino must be connected evenly"): from the
    All Five position where end 3 can close onto end 1 (turning left) and onto end 2
    (turning right), the step kernel's listing, the playout kernel's listing and the
    playouts' choices are the engine's, and 2-6@3L (6 against end 1's 2) is in none."""
    from bendolib import position_text

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from positions import ALL_FIVE_TWO_WAY

    state = position_text.loads(ALL_FIVE_TWO_WAY)
    assert [str(m) for m in legal_moves(state)] == ["2-2@1R", "2-2@3L", "draw"]
    spec = compile_for(state.rules, state.players)
    kernel = kernel_of(state.rules, state.players)
    listed = tuple(code(state.rules, m) for m in legal_moves(state))
    assert kernel.listing(spec, state_tuple(state)) == listed
    first = tuple(range(len(listed)))
    for policy in ("random", "heaviest", "greedy"):
        expected = reference_playouts(state, 3, policy=policy, seed=3, record=True, first=first)
        got = kernel_playouts(state, 3, policy=policy, seed=3, first=first)
        assert_same(expected, got, f"two-way closing, {policy}")
