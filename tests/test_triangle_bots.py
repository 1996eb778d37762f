"""
The bots and tournaments on the triangle games (issue 15, phase 2): random, greedy and
search play Triangle Dominoes (seeds/004) and Triominoes; the greedy bot values a tile
by the points it scores at once (sums, hexagon and bridge bonuses) and never draws (a
penalty in Triominoes) while it can lay; the search bot's rollouts run on the Python
engine (the kernel plays chains only); full matches for every player count.
"""

from __future__ import annotations

import random

import pytest

import bendolib
from bendolib import GameState
from bendolib.bots import Bot, GreedyBot, RandomBot, SearchBot
from bendolib.bots.search import heaviest_move
from bendolib.moves import PlaceInCell
from bendolib.playouts import KERNEL, kernel_reason, playouts
from bendolib.rules.triangles import TRIANGLE_DOMINOES, TRIANGLE_RULESETS, TRIOMINOES
from bendolib.runner import SerialExecutor
from bendolib.state import PLAYING
from bendolib.tournament import run_tournament

TABLES = [(rules, players) for rules in TRIANGLE_RULESETS for players in rules.player_counts]
IDS = [f"{rules.name}-{players}" for rules, players in TABLES]


def positions(rules: bendolib.RuleSet, players: int, seed: int, count: int) -> list[GameState]:
    """The states of a few random rounds where the player to move can lay a tile."""
    out = []
    rng = random.Random(seed)
    for game in range(count):
        state = bendolib.new_game(rules, players, seed + game)
        while state.phase == PLAYING:
            legal = bendolib.legal_moves(state)
            if any(isinstance(m, PlaceInCell) for m in legal):
                out.append(state)
            state = bendolib.apply(state, rng.choice(legal))
    return out


def gained(state: GameState, move: bendolib.Move) -> int:
    """The mover's score change when ``move`` is applied to the true state."""
    after = bendolib.apply(state, move)
    seat = state.current_player
    return after.scores[seat] - state.scores[seat]


@pytest.mark.parametrize("rules", TRIANGLE_RULESETS, ids=lambda r: r.name)
def test_greedy_lays_the_tile_that_scores_most_at_once(rules: bendolib.RuleSet) -> None:
    """Triominoes: a tile scores its sum plus the hexagon or bridge bonus; the greedy
    bot's choice scores the most of all the legal placements, and it does not draw (a
    draw costs a penalty) while it can lay."""
    bot = GreedyBot()
    rng = random.Random(0)
    bonus_chosen = 0
    for state in positions(rules, 2, 11, 6):
        legal = bendolib.legal_moves(state)
        places = [m for m in legal if isinstance(m, PlaceInCell)]
        if any(bendolib.apply(state, m).is_round_over for m in places):
            # A placement that ends the round also scores the round (a blocked
            # Triominoes round: the lowest hand collects); the greedy bot ranks by the
            # per-move play scoring only, as its docstring says.
            continue
        obs = state.observation(state.current_player)
        choice = bot.choose(obs, legal, rng)
        assert isinstance(choice, PlaceInCell)
        best = max(gained(state, m) for m in places)
        assert gained(state, choice) == best
        if best > choice.tile.points and state.board.placements:
            bonus_chosen += 1
    if rules is TRIOMINOES:
        assert bonus_chosen, "some choice should have been made for a bonus"


def test_greedy_takes_a_bonus_over_a_heavier_tile() -> None:
    """A hexagon or bridge bonus (40 to 70) outweighs any tile's sum (at most 15)."""
    bot = GreedyBot()
    for state in positions(TRIOMINOES, 2, 40, 20):
        legal = [m for m in bendolib.legal_moves(state) if isinstance(m, PlaceInCell)]
        heaviest = max(m.tile.points for m in legal)
        bonus = [m for m in legal if gained(state, m) > m.tile.points and m.tile.points < heaviest]
        if state.board.placements and bonus:
            choice = bot.choose(state.observation(state.current_player), legal, random.Random(0))
            assert isinstance(choice, PlaceInCell)
            assert gained(state, choice) > choice.tile.points
            return
    raise AssertionError("no position with a bonus for a lighter tile met")


@pytest.mark.parametrize("rules", TRIANGLE_RULESETS, ids=lambda r: r.name)
def test_the_greedy_playout_policy_is_the_greedy_bot(rules: bendolib.RuleSet) -> None:
    """playouts(policy="greedy") replays GreedyBot's choices move for move."""
    bot = GreedyBot()
    for seed in range(3):
        state = bendolib.new_game(rules, 2 + seed % 2, seed)
        (outcome,) = playouts(state, 1, policy="greedy", record=True)
        assert outcome.choices is not None
        for index in outcome.choices:
            if state.phase != PLAYING:
                break
            legal = bendolib.legal_moves(state)
            chosen = bot.choose(state.observation(state.current_player), legal, random.Random(0))
            assert legal[index] == chosen
            state = bendolib.apply(state, chosen)


def test_the_search_rollouts_lay_triangles_in_the_kernel() -> None:
    """The kernel plays the triangle games too (issue 24 point 1: this test said "the
    chain games only" before), and the rollout policy lays the heaviest triangle rather
    than drawing."""
    for rules in TRIANGLE_RULESETS:
        assert (kernel_reason(rules, 2) is None) == KERNEL
    state = positions(TRIOMINOES, 2, 3, 1)[5]
    legal = bendolib.legal_moves(state)
    move = heaviest_move(legal)
    assert isinstance(move, PlaceInCell)
    assert move.tile.points == max(m.tile.points for m in legal if isinstance(m, PlaceInCell))


@pytest.mark.parametrize("rules", TRIANGLE_RULESETS, ids=lambda r: r.name)
def test_the_search_bot_chooses_legal_moves(rules: bendolib.RuleSet) -> None:
    bot = SearchBot(worlds=2)
    rng = random.Random(1)
    for state in positions(rules, 3, 21, 1)[:6:2]:
        legal = bendolib.legal_moves(state)
        assert bot.choose(state.observation(state.current_player), legal, rng) in legal


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=IDS)
def test_full_matches_in_a_tournament(rules: bendolib.RuleSet, players: int) -> None:
    """Both rule sets play full matches, seats rotated, for every player count."""
    bots: list[Bot] = [GreedyBot(), RandomBot()] * 3
    result = run_tournament(rules, bots[:players], 2, seed=5, executor=SerialExecutor())
    assert len(result.records) == 2
    for record in result.records:
        assert record.winners and record.rounds >= 1 and record.moves > 0
        # a match ends when a side reaches the target (Triominoes: 400) at a round's end
        assert max(record.side_scores) >= rules.match.target or rules is TRIANGLE_DOMINOES


def test_a_search_match_of_triangle_dominoes() -> None:
    """seeds/004's game, one full match with the search bot at the table."""
    result = run_tournament(
        TRIANGLE_DOMINOES, [SearchBot(worlds=2), GreedyBot()], 1, seed=2, executor=SerialExecutor()
    )
    (record,) = result.records
    assert record.winners and record.moves > 0
