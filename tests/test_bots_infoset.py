"""
Strong reference bots (issue 26 point 3): the exact endgame solver and the
information-set search bot.
"""

from __future__ import annotations

import random
import time

import pytest

import bendolib
from bendolib import bots
from bendolib.bots.endgame import (
    EndgameError,
    SolveTimeoutError,
    applies,
    perfect_information,
    solve,
)
from bendolib.bots.infoset import InfoSetBot, heavier_evidence, rollout_policy
from bendolib.bots.search import scores_value
from bendolib.engine import apply, legal_moves
from bendolib.sampling import sample_state
from bendolib.state import PLAYING, GameState
from bendolib.testing import check_bot


def empty_stock(seed: int, rules: str = "basic", left: int = 99) -> GameState | None:
    """A two-player position of ``rules`` in play with an empty stock, at most ``left``
    tiles in the hands (random play from deal ``seed``), or None."""
    state = bendolib.new_game(bendolib.rules.get(rules), 2, seed)
    rng = random.Random(seed)
    while state.phase == PLAYING:
        if applies(state) and sum(h.bit_count() for h in state.hand_masks) <= left:
            return state
        state = apply(state, rng.choice(legal_moves(state)))
    return None


def minimax(state: GameState, root: GameState) -> int:
    """The value for ``root``'s mover by plain minimax (no pruning, no table)."""
    if state.phase != PLAYING:
        return scores_value(root, state.scores, root.current_player)
    values = [minimax(apply(state, m), root) for m in legal_moves(state)]
    mine = state.current_player in next(s for s in root.sides if root.current_player in s)
    return max(values) if mine else min(values)


def test_the_solver_agrees_with_plain_minimax() -> None:
    """Issue 26.3(b): alpha-beta with a transposition table gives the exact value."""
    checked = 0
    for seed in range(60):
        state = empty_stock(seed, left=9)
        if state is None:
            continue
        solution = solve(state)
        assert solution.value == minimax(state, state)
        # the move it names reaches that value
        after = apply(state, solution.move)
        assert minimax(after, state) == solution.value
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_the_solver_applies_only_with_two_seats_and_an_empty_stock() -> None:
    """Issue 26.3(b): two players, once the stock is empty (perfect information)."""
    state = bendolib.new_game("basic", 2, 1)
    assert not applies(state)
    with pytest.raises(EndgameError, match="empty stock"):
        solve(state)
    with pytest.raises(TypeError, match="GameState"):
        solve("basic")  # type: ignore[arg-type]
    assert not applies(bendolib.new_game("basic", 3, 1))
    found = empty_stock(5)
    assert found is not None and applies(found)
    seat = found.current_player
    assert perfect_information(found.observation(seat))
    assert not perfect_information(state.observation(state.current_player))
    with pytest.raises(SolveTimeoutError):
        solve(empty_stock(5) or found, max_nodes=1)


def test_the_bot_plays_the_solved_move_once_the_stock_is_empty() -> None:
    """Issue 26.3(b): the solver is used by the search bot when it applies."""
    for seed in range(40):
        state = empty_stock(seed)
        if state is None or len(legal_moves(state)) < 2:
            continue
        seat = state.current_player
        legal = legal_moves(state)
        move = InfoSetBot(worlds=1).choose(state.observation(seat), legal, random.Random(0))
        assert move == solve(state).move
        return
    pytest.fail("no two-player empty-stock decision found")


def test_the_bot_is_registered_and_checked_on_every_rule_set() -> None:
    """Issue 26.3(a): it works on every chain rule set and the triangle games."""
    assert bots.get("infoset", worlds=2) == InfoSetBot(worlds=2)
    every = [bendolib.rules.get(name) for name in bendolib.rules.names()]
    report = check_bot(InfoSetBot(worlds=2), every, games=1, max_moves=8, loaded_every=4)
    assert report.ok, report


def test_a_time_budget_bounds_the_thinking() -> None:
    """Issue 26.3(a): a time per decision (at least one world)."""
    state = bendolib.new_game("basic", 2, 3)
    rng = random.Random(1)
    while len(legal_moves(state)) < 2:
        state = apply(state, legal_moves(state)[0])
    bot = InfoSetBot(seconds=0.02)
    started = time.perf_counter()
    move = bot.choose(state.observation(state.current_player), legal_moves(state), rng)
    assert move in legal_moves(state)
    assert time.perf_counter() - started < 1.0
    with pytest.raises(ValueError):
        InfoSetBot(worlds=0)
    with pytest.raises(ValueError):
        InfoSetBot(rollout="best")


def test_the_true_hands_never_contradict_a_greedy_opponent() -> None:
    """Issue 26.3(a): the opponent model reads the greedy bot's placements right: the
    real state is never counted as contradicting them, while sampled worlds often are."""
    greedy = bots.get("greedy")
    contradicted = 0
    for seed in range(6):
        state = bendolib.new_game("basic", 2, seed)
        rng = random.Random(seed)
        while not state.is_round_over:
            legal = legal_moves(state)
            seat = state.current_player
            observation = state.observation(seat)
            if seat == 0:
                evidence = heavier_evidence(observation)
                if evidence is not None:
                    assert evidence.misses(state, observation) == 0
                    world = sample_state(observation, rng, forced_draws=True)
                    contradicted += evidence.misses(world, observation) > 0
                move = rng.choice(legal)
            else:
                move = greedy.choose(observation, legal, rng)
            state = apply(state, move)
    assert contradicted > 0


def test_the_rollouts_see_the_bonuses_where_moves_score() -> None:
    """Issue 26.3(a): on the triangle games the rollout policy scores the bonuses."""
    assert rollout_policy(bendolib.rules.get("triangle-dominoes")) == "greedy"
    assert rollout_policy(bendolib.rules.get("triominoes")) == "greedy"
    assert rollout_policy(bendolib.rules.get("basic")) == "heaviest"
