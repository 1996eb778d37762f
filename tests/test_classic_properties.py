"""Hypothesis properties of the classic games (seeds/003, seeds/004) over random seeded
matches, for every game and player count, with house rules, and on the double-9 and
double-12 sets: each tile exactly once, placements that match, termination, and round
scores as each game's formula says (written here independently of the policies)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bendolib
from bendolib import GameState, Move, Place, RoundResult, RuleSet, TileSet
from bendolib.moves import DRAW, OPENING, PASS, Draw
from bendolib.rules.classic import CLASSIC_RULESETS, DOUBLE_NINE, DOUBLE_TWELVE

MOVE_BOUND = 20_000

#: Every classic game with every player count it allows.
GAMES = [(rules.name, players) for rules in CLASSIC_RULESETS for players in rules.player_counts]

#: House rules of seeds/004 on the draw games.
HOUSE_RULES = [
    ("draw-dominoes", {"wild_faces": {0}}),
    ("draw-dominoes", {"batch": 2, "max_per_turn": 3}),
    ("draw-dominoes", {"batch": 3, "when_stuck": "once", "hand_sizes": {2: 6, 3: 6, 4: 6}}),
    ("classic-draw", {"max_per_turn": 1, "target": 50, "wild_faces": {0}}),
    ("classic-draw-one", {"batch": 2}),
    ("first-out", {"wild_faces": {0}, "target": 3}),
]

#: Hand sizes for the larger sets (seeds/004: 'larger domino sets too').
LARGER = {
    DOUBLE_NINE.name: {2: 10, 3: 9, 4: 8},
    DOUBLE_TWELVE.name: {2: 12, 3: 11, 4: 10},
}


def larger_set(name: str, tileset: TileSet) -> RuleSet:
    rules = bendolib.rules.get(name, tileset=tileset)
    if name == "domino-pairs":
        top = tileset.top
        return rules.configure(hand_sizes={4: 12}, a=top, b=top)
    return rules.configure(hand_sizes=LARGER[tileset.name])


def expected_points(rules: RuleSet, state: GameState, result: RoundResult) -> tuple[int, ...]:
    """The round's points by the game's own formula (docs/rules/<game>.md)."""
    hands = result.hand_points
    players = len(hands)
    out = result.order[0] if result.order else -1
    if rules.name == "domino-pairs":
        team = {0: 0, 2: 0, 1: 1, 3: 1}
        totals = [hands[0] + hands[2], hands[1] + hands[3]]
        if out >= 0:
            winning = team[out]
        elif totals[0] != totals[1]:
            winning = 0 if totals[0] < totals[1] else 1
        else:
            winning = 1 - team[last_placer(state)]
        credited = (
            out if out >= 0 else min((s for s in team if team[s] == winning), key=hands.__getitem__)
        )
        return award(players, credited, totals[1 - winning])
    if out < 0:
        low = min(hands)
        if hands.count(low) > 1:
            return (0,) * players
        winner = hands.index(low)
    else:
        winner = out
    others = sum(hands) - hands[winner]
    if rules.name == "first-out":
        return award(players, winner, 1)
    if rules.name == "draw-dominoes":
        return award(players, winner, others - hands[winner])
    return award(players, winner, others)


def award(players: int, seat: int, points: int) -> tuple[int, ...]:
    return tuple(points if s == seat else 0 for s in range(players))


def last_placer(state: GameState) -> int:
    return [t.player for t in state.history if isinstance(t.move, Place)][-1]


def check_each_tile_once(state: GameState) -> None:
    tileset = state.rules.tileset
    count = (tileset.top + 1) * (tileset.top + 2) // 2
    assert len(tileset) == count
    masks = list(state.hand_masks)
    masks.append(state.stock_mask)
    masks.append(tileset.mask_of(p.tile for p in state.board.placements))
    union = 0
    for m in masks:
        union |= m
    assert union == tileset.full_mask, "every tile is in a hand, the stock or on the board"
    assert sum(m.bit_count() for m in masks) == count, "and in one place only"


def check_placement(before: GameState, move: Place, after: GameState) -> None:
    wild = before.rules.wild_faces
    if move.end == OPENING:
        assert before.board.is_empty
        assert after.board.values == (move.tile.a, move.tile.b)
        return
    end = before.board.ends[move.end]
    assert move.inward == end.value or move.inward in wild, "the connected ends match"
    outward = move.tile.other(move.inward)
    assert move.shows == outward or outward in wild
    other = 1 - move.end
    assert after.board.values[move.end] == move.shows
    assert after.board.values[other] == before.board.values[other]


def play_match(
    rules: RuleSet, players: int, seed: int, pick: int, rounds: int | None = None
) -> GameState:
    """A random match checked at every step (stopped after ``rounds`` rounds if given)."""
    state = bendolib.new_game(rules, players, seed)
    choices = random.Random(pick)
    check_each_tile_once(state)
    for _ in range(MOVE_BOUND):
        if state.is_game_over or (rounds is not None and len(state.results) >= rounds):
            return state
        moves = bendolib.legal_moves(state)
        assert moves, "a move is always legal before the match is over"
        if PASS in moves or DRAW in moves:
            assert not any(isinstance(m, Place) for m in moves), "who can play must play"
        move: Move = choices.choice(moves)
        after = bendolib.apply(state, move)
        if not isinstance(move, bendolib.NextRound):
            check_each_tile_once(after)
        if isinstance(move, Place):
            check_placement(state, move, after)
            assert (
                len(after.hand(state.current_player)) == len(state.hand(state.current_player)) - 1
            )
        if isinstance(move, Draw):
            assert 0 < state.stock_size - after.stock_size <= rules.draw.batch
            assert rules.draw.draws
        if len(after.results) > len(state.results):
            result = after.results[-1]
            assert result.points == expected_points(rules, after, result)
            delta = tuple(a - b for a, b in zip(after.scores, state.scores, strict=True))
            assert delta == result.points
            sides = after.side_scores
            over = max(sides) >= rules.match.target and sides.count(max(sides)) == 1
            assert after.is_game_over == over
        state = after
    raise AssertionError(f"no end after {MOVE_BOUND} moves")


SEEDS = st.integers(0, 2**32)
PICKS = st.integers(0, 2**16)


@pytest.mark.parametrize(("name", "players"), GAMES)
@given(seed=SEEDS, pick=PICKS)
def test_classic_game_invariants(name: str, players: int, seed: int, pick: int) -> None:
    """seeds/003 and 004: every game and player count keeps each tile exactly once,
    matches ends, terminates, and scores each round by its formula."""
    final = play_match(bendolib.rules.get(name), players, seed, pick)
    assert final.winner is not None


@pytest.mark.parametrize(("name", "params"), HOUSE_RULES)
@given(seed=SEEDS, pick=PICKS, players=st.sampled_from([2, 3, 4]))
def test_house_rule_invariants(
    name: str, params: dict[str, object], seed: int, pick: int, players: int
) -> None:
    """seeds/004 house rules (draw limits, batches, wild blanks, targets) keep the same
    invariants."""
    play_match(bendolib.rules.get(name, **params), players, seed, pick, rounds=3)


@pytest.mark.parametrize("tileset", [DOUBLE_NINE, DOUBLE_TWELVE], ids=["double-9", "double-12"])
@pytest.mark.parametrize("rules", CLASSIC_RULESETS, ids=lambda r: r.name)
@given(seed=SEEDS, pick=PICKS, data=st.data())
def test_larger_set_invariants(
    tileset: TileSet, rules: RuleSet, seed: int, pick: int, data: st.DataObject
) -> None:
    """seeds/004 'larger domino sets': double-9 (55 tiles) and double-12 (91 tiles), each
    tile exactly once ((n+1)(n+2)/2), with the hand sizes as parameters."""
    players = data.draw(st.sampled_from(rules.player_counts), label="players")
    play_match(larger_set(rules.name, tileset), players, seed, pick, rounds=3)
