"""Hypothesis properties of the core for every Bendomino variant and every player count
it allows: tile conservation, no overlap, termination, scores as the seeds' formulas say
(re-computed here from the rule texts, not from the scoring policies), and team scores
equal to their members' sums (seeds/000, seeds/001, issue 3)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bendolib
from bendolib import GameState, Move, Place
from bendolib._placing import can_place
from bendolib.geometry import lattice
from bendolib.rules.bendomino import BENDOMINO_RULESETS
from bendolib.state import RoundResult
from bendolib.testing import invariants

#: Every Bendomino variant (the rule sets of seeds 000-002 other than "basic").
VARIANTS = tuple(r.name for r in BENDOMINO_RULESETS if r.name != "basic")
PAIRS = [(name, p) for name in VARIANTS for p in bendolib.rules.get(name).player_counts]
MAX_ROUNDS = 200


def check_conservation(state: GameState) -> None:
    """Hands + stock + board hold every tile of the set exactly once."""
    problem = invariants.tile_conservation(state)
    assert problem is None, problem


def check_new_tile_overlaps_nothing(before: GameState, after: GameState) -> None:
    """The tile just laid overlaps none of the tiles already on the board."""
    new = after.board.placements[-1].position
    assert new is not None
    key = (new.q, new.r, new.corner)
    for placement in before.board.placements:
        old = placement.position
        assert old is not None
        assert not lattice.overlaps((old.q, old.r, old.corner), key), f"overlap at {new}"


def winner_takes_pips(state: GameState, result: RoundResult) -> tuple[int, ...]:
    """seeds/000: the player out (or, blocked, the lowest hand) scores the opponents'
    dots; a team scores the losing team's dots; a tie across sides scores nothing."""
    sides = state.sides
    side_of = {s: i for i, side in enumerate(sides) for s in side}
    hands = result.hand_points
    if result.order:
        winner = result.order[0]
    else:
        low = min(hands)
        lowest = [s for s in range(state.players) if hands[s] == low]
        if len({side_of[s] for s in lowest}) > 1:
            return (0,) * state.players
        winner = lowest[0]
    won = sum(hands[s] for s in range(state.players) if side_of[s] != side_of[winner])
    return tuple(won if s == winner else 0 for s in range(state.players))


def highest_play_score(state: GameState, result: RoundResult) -> tuple[int, ...]:
    """seeds/000 All Five: the round's top scorer adds the dots in the other hands
    (a tie: the tied player who went out, else nobody)."""
    play = state.play_points
    top = [s for s in range(state.players) if play[s] == max(play)]
    if len(top) > 1:
        top = [s for s in top if s in result.order[:1]]
        if not top:
            return (0,) * state.players
    winner = top[0]
    bonus = sum(result.hand_points) - result.hand_points[winner]
    return tuple(bonus if s == winner else 0 for s in range(state.players))


def finishing_places(
    state: GameState, result: RoundResult, places: tuple[int, ...]
) -> tuple[int, ...]:
    """seeds/001: place points in the order players went out, then (blocked) fewest
    points in hand first; equal hands share their places' points (decision)."""
    points = [0] * state.players
    for place, seat in enumerate(result.order):
        points[seat] = places[place]
    rest = sorted(
        (s for s in range(state.players) if s not in result.order),
        key=lambda s: result.hand_points[s],
    )
    place = len(result.order)
    for held in sorted({result.hand_points[s] for s in rest}):
        group = [s for s in rest if result.hand_points[s] == held]
        share = sum(places[place : place + len(group)]) // len(group)
        for seat in group:
            points[seat] = share
        place += len(group)
    return tuple(points)


def expected_points(state: GameState, result: RoundResult) -> tuple[int, ...]:
    name = state.rules.name
    if name == "all-five":
        return highest_play_score(state, result)
    if name.startswith("bendo-all-in"):
        if state.sides[0] == (0, 2):
            return finishing_places(state, result, (30, 20, 10, 0))
        table = {2: (40, 0), 3: (40, 20, 0), 4: (40, 20, 10, 0)}[state.players]
        return finishing_places(state, result, table)
    return winner_takes_pips(state, result)


def check_round_end(before: GameState, after: GameState) -> None:
    """The round ended for a reason the seeds give, and scored as they say."""
    result = after.results[-1]
    mover = before.current_player
    play = [after.play_points[s] - before.play_points[s] for s in range(after.players)]
    if any(play) and after.rules.match.target_check == "at_once":
        played = [
            before.side_scores[i] + sum(play[s] for s in side) for i, side in enumerate(after.sides)
        ]
        if max(played) >= after.rules.match.target:
            # seeds/000 All Five: the first player to reach 200 wins, at that placement
            assert after.is_game_over and after.winner == after.side_scores.index(max(played))
            assert result.points == (0,) * after.players and result.winners == (mover,)
            assert not result.blocked
            return
    holding = [s for s in range(after.players) if after.hand_masks[s]]
    first_out = after.rules.finish == "first_out"
    ended_by_play = bool(result.order) if first_out else len(holding) <= 1
    if result.blocked:
        stock_in_play = after.rules.draw.draws and after.stock_size > 0
        assert not stock_in_play
        assert not any(can_place(after, after.hand_masks[s]) for s in holding)
    else:
        assert ended_by_play
    assert result.points == expected_points(after, result)
    gained = tuple(a - b for a, b in zip(after.scores, before.scores, strict=True))
    assert gained == tuple(p + q for p, q in zip(result.points, play, strict=True))
    assert all(v == 0 for s, v in enumerate(play) if s != mover)
    for side, total in zip(after.sides, after.side_scores, strict=True):
        assert total == sum(after.scores[s] for s in side)
    target = after.rules.match.target
    best = max(after.side_scores)
    decided = best >= target and after.side_scores.count(best) == 1
    assert after.is_game_over == decided
    if decided:
        assert after.winner == after.side_scores.index(best)
        assert after.winning_players == after.sides[after.side_scores.index(best)]


def check_play_score(before: GameState, move: Move, after: GameState) -> None:
    """seeds/000 All Five: a placement scores the total of the ends when it is a
    multiple of five, nothing otherwise; other rule sets score nothing in play."""
    mover = before.current_player
    gained = after.play_points[mover] - before.play_points[mover]
    if after.rules.play_scoring is None or not isinstance(move, Place):
        assert gained == 0
        return
    total = sum(after.board.values)
    assert gained == (total if total % 5 == 0 else 0)


def play_match(name: str, players: int, seed: int, pick: int) -> GameState:
    rules = bendolib.rules.get(name)
    choices = random.Random(pick)
    state = bendolib.new_game(rules, players=players, seed=seed)
    check_conservation(state)
    moves_this_round = 0
    round_bound = 4 * len(rules.tileset) * players
    while not state.is_game_over:
        legal = bendolib.legal_moves(state)
        assert legal, "a legal move until the match is over"
        move = choices.choice(legal)
        after = bendolib.apply(state, move)
        if after.round_number != state.round_number:
            moves_this_round = 0
            assert after.round_number <= MAX_ROUNDS, "the match ends"
        else:
            moves_this_round += 1
            assert moves_this_round <= round_bound, "the round ends"
            if len(after.board.placements) > len(state.board.placements):
                check_new_tile_overlaps_nothing(state, after)
            if not state.is_round_over:
                check_play_score(state, move, after)
            if after.is_round_over and not state.is_round_over:
                check_round_end(state, after)
        check_conservation(after)
        state = after
    return state


@pytest.mark.parametrize(("name", "players"), PAIRS)
@settings(max_examples=max(3, settings().max_examples // 2))
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 2**16))
def test_variant_matches_keep_the_core_invariants(
    name: str, players: int, seed: int, pick: int
) -> None:
    """Random legal play of a whole match, for each variant and player count: tiles are
    conserved and never overlap, every round and the match end, and scores, team scores
    and the match winner are as the seeds say."""
    final = play_match(name, players, seed, pick)
    assert final.winner is not None
    assert final.results, "at least one round was played"
