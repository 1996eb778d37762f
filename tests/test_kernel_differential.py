"""
The compiled core against the Python engine on arbitrary states (issue 22): not only
the states that deals and moves reach, but any state ``GameState.replace`` accepts —
the tiles dealt anew among the hands, the stock and the tiles set aside, any seat to
move, either direction, tiles drawn this turn, seats out, scores from small to beyond
64 bits.  For each, the step kernel (``legal_moves``, ``apply``) and the playout kernel
(called directly, so that a silent fallback cannot pass) give what the Python engine
gives, or the same error.

The short profile (CI) tries a few states of each rule set and player count; the long
one, ``BENDOLIB_LONG=1``, fifty times as many (docs/testing.md):

    BENDOLIB_LONG=1 pytest -q tests/test_kernel_differential.py
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

import bendolib
from bendolib import GameState, apply, engine, legal_moves, new_game
from bendolib import playouts as kernel_api
from bendolib._kernel_input import state_tuple
from bendolib._playouts_reference import Outcome, reference_playouts
from bendolib.geometry.chain import ChainGeometry
from bendolib.limits import MAX_PARAM
from bendolib.rules.ruleset import RuleSet
from bendolib.state import PLAYING
from large_sets import CHAIN_GAMES, on_double

LONG = os.environ.get("BENDOLIB_LONG", "") not in ("", "0")
#: Arbitrary states per rule set and player count.
PER_CONFIG = 200 if LONG else 4

CONFIGS = [
    (name, players)
    for name in bendolib.rules.names()
    if isinstance(bendolib.rules.get(name).geometry, ChainGeometry)
    for players in bendolib.rules.get(name).player_counts
]

#: The chain rule sets on double-12 (the wide build), one player count each.
LARGE = [(name, bendolib.rules.get(name).player_counts[-1]) for name in CHAIN_GAMES]

_STEP = ("_step_legal", "_step_apply", "_deal_deck", "_deal_hands")


def _tiles(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _score(rng: random.Random, target: int) -> int:
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice((2**63 - 6, 2**63 + 5, -(2**63), 2**70, MAX_PARAM))
    if kind == 1:
        return target - rng.randrange(0, 12)
    if kind == 2:
        return -rng.randrange(0, 200)
    return rng.randrange(0, max(1, target))


def arbitrary_state(rng: random.Random, name: str | RuleSet, players: int) -> GameState:
    """A state of ``name`` for ``players`` that ``replace`` accepts, drawn from ``rng``."""
    rules = bendolib.rules.get(name) if isinstance(name, str) else name
    state = new_game(rules, players, rng.randrange(2**64))
    for _ in range(rng.randrange(0, 40)):
        if state.phase != PLAYING:
            break
        moves = legal_moves(state)
        state = apply(state, moves[rng.randrange(len(moves))])
    if state.phase != PLAYING or not state.board.placements or rng.random() < 0.1:
        return state
    count = len(rules.tileset)
    on_board = {rules.tileset.index(p.tile) for p in state.board.placements}
    free = [i for i in range(count) if i not in on_board]
    rng.shuffle(free)
    hands = []
    for _ in range(players):
        size = rng.randrange(0, min(9, len(free) + 1))
        hands.append(free[:size])
        free = free[size:]
    stock = free[: rng.randrange(0, len(free) + 1)]
    aside = free[len(stock) :]
    dealt = [*sorted(on_board), *(i for hand in hands for i in hand), *aside]
    seats = [s for s in range(players) if hands[s]] or list(range(players))
    current = rng.choice(seats)
    hand_masks = tuple(sum(1 << i for i in hand) for hand in hands)
    changes: dict[str, Any] = {
        "deck": (*dealt, *stock),
        "stock_pos": len(dealt),
        "hand_masks": hand_masks,
        "current_player": current,
        "direction": rng.choice((1, -1)),
        "last_placer": rng.randrange(-1, players),
        "drawn": 0,
        "drawn_count": 0,
        "opening": -1,
    }
    target = rules.match.target
    if rng.random() < 0.5:
        changes["scores"] = tuple(_score(rng, target) for _ in range(players))
    if rng.random() < 0.3:
        changes["play_points"] = tuple(_score(rng, target) for _ in range(players))
    empty = [s for s in range(players) if not hand_masks[s]]
    if empty and rng.random() < 0.5:
        rng.shuffle(empty)
        changes["out"] = tuple(empty[: rng.randrange(1, len(empty) + 1)])
    else:
        changes["out"] = ()
    limit = rules.draw.max_per_turn
    if hands[current] and rules.draw.draws and rng.random() < 0.3:
        drawn = [i for i in hands[current] if rng.random() < 0.5] or hands[current][:1]
        drawn = drawn[: limit or len(drawn)]
        changes["drawn"] = sum(1 << i for i in drawn)
        changes["drawn_count"] = len(drawn)
    return state.replace(**changes)


def _answer(call: Callable[[], Any]) -> Any:
    """What ``call`` returns, or the type of the exception it raises."""
    try:
        return call()
    except Exception as exc:  # compared with the Python engine's own
        return type(exc)


class _Pure:
    """Inside a ``with``: the Python engine alone (the step kernel switched off)."""

    def __enter__(self) -> None:
        self.saved = [getattr(engine, name) for name in _STEP]
        for name in _STEP:
            setattr(engine, name, None)

    def __exit__(self, *exc: object) -> None:
        for name, value in zip(_STEP, self.saved, strict=True):
            setattr(engine, name, value)


def _rules(name: str) -> RuleSet:
    """Rule set ``name``, or "NAME dN": rule set NAME on double-N."""
    base, _, top = name.partition(" d")
    return on_double(base, int(top)) if top else bendolib.rules.get(name)


def _states(name: str, players: int) -> Iterator[GameState]:
    """Arbitrary states of ``name`` (see :func:`_rules`)."""
    rules = _rules(name)
    rng = random.Random(f"differential {name} {players}")
    for _ in range(PER_CONFIG):
        yield arbitrary_state(rng, rules, players)


@pytest.mark.skipif(engine._step_kernel is None, reason="the kernel is not built")
@pytest.mark.parametrize(("name", "players"), CONFIGS + [(f"{n} d12", p) for n, p in LARGE])
def test_step_kernel_on_arbitrary_states(name: str, players: int) -> None:
    """
    legal_moves and apply of each listed move: the step kernel's are the engine's (on
    double-12, "NAME d12", it leaves every call to the engine: its masks are 64 bits).
    """
    for state in _states(name, players):
        fast = _answer(partial(legal_moves, state))
        with _Pure():
            slow = _answer(partial(legal_moves, state))
        assert fast == slow, state
        if not isinstance(slow, tuple):
            continue
        for move in slow[:6]:
            with _Pure():
                expected = _answer(partial(apply, state, move))
            listed = fast[slow.index(move)]
            legal_moves(state)  # apply knows the move it has just listed: the fast path
            got = _answer(partial(apply, state, listed))
            assert got == expected, (state, move)
            if isinstance(got, GameState):
                assert got.history == expected.history


@pytest.mark.skipif(not kernel_api.KERNEL, reason="the compiled kernel is not loaded")
@pytest.mark.parametrize(
    ("name", "players"),
    CONFIGS
    + [(f"{n} d{top}", p) for n, p in LARGE for top in (12, 15)]
    + [(f"{n} d22", p) for n, p in LARGE if n in ("basic", "bendo-all-in-actions", "first-out")],
)
def test_playout_kernel_on_arbitrary_states(name: str, players: int) -> None:
    """
    Recorded playouts of each policy: the kernel's moves and outcomes are the engine's;
    "NAME d12", "NAME d15" and "NAME d22": the rule set on double-12 in the wide build, on
    double-15 in the huge build, on double-22 in the vast build (issue 24 point 2).
    """
    rules = _rules(name)
    build: dict[int, Any] = {
        64: kernel_api._kernel,
        128: kernel_api._kernel_wide,
        256: kernel_api._kernel_huge,
        1024: kernel_api._kernel_vast,
    }
    limit = min(n for n in build if n >= len(rules.tileset))
    if build[limit] is None:
        pytest.skip("this build of the kernel is not loaded")
    spec, reason, kernel = kernel_api._compiled_in(rules, players)
    assert spec is not None and kernel is not None, reason
    assert kernel is build[limit]
    played = 0
    for k, state in enumerate(_states(name, players)):
        within = all(abs(s) < rules.match.target for s in state.scores)
        for policy, until in ((0, "round"), (1 + k % 2, "round"), (0, "match")):
            if until == "match" and not within:
                continue  # a match from scores beyond 2**63 may never end
            args = (3, policy, k, until == "match", True)
            try:
                got = kernel.run(spec, state_tuple(state), *args, None, Outcome)
            except kernel.UnsupportedError:
                continue  # left to the Python engine (playouts falls back)
            played += 1
            expected = _answer(
                partial(
                    reference_playouts,
                    state,
                    3,
                    policy=kernel_api.POLICIES[policy],
                    seed=k,
                    until=until,
                    record=True,
                )
            )
            assert tuple(got) == expected, (state, policy, until)
    assert played >= PER_CONFIG  # most of them in the kernel
