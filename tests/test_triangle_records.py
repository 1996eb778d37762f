"""
Records and position texts of the triangle games (issue 15: "position text and JSON
records with replay ... no special cases in user code"): the rule sets by name with
changed parameters, triangle tiles written ``0-3-5``, layouts in cell notation, the
negative scores Triominoes' penalties give, and hand-written layouts that cannot arise.
"""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

import bendolib
from bendolib import position_text, records
from bendolib._rule_spec import parse_tile_text, rules_from_spec, rules_to_spec, tile_text
from bendolib.errors import ParseError, RuleSetError
from bendolib.geometry.triangles import TrianglePlacement
from bendolib.rules import DrawPenalties, HighestTriple
from bendolib.state import GameState
from bendolib.text import board_text
from bendolib.tiles import TileSet, Triangle

TRIANGLE_GAMES = ("triangle-dominoes", "triominoes")


def _played(rules: bendolib.RuleSet, players: int, seed: int, moves: int) -> GameState:
    state = bendolib.new_game(rules, players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_game_over:
            break
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    return state


def test_both_games_are_registered_and_configurable() -> None:
    assert {"triangle-dominoes", "triominoes"} <= set(bendolib.rules.names())
    rules = bendolib.rules.get("triominoes", target=500, per_draw=3, blocked="lowest_collects")
    assert rules.match.target == 500 and isinstance(rules.penalties, DrawPenalties)
    assert rules.penalties.per_draw == 3
    assert bendolib.rules.get("triangle-dominoes", no_triple="highest_sum").start == (
        HighestTriple(no_triple="highest_sum")
    )
    for bad in ({"per_draw": -1}, {"blocked": "nobody"}, {"hand_sizes": {2: 40}}):
        with pytest.raises(RuleSetError):
            bendolib.rules.get("triominoes", **bad)
    with pytest.raises(RuleSetError, match="no parameter 'spinner'"):
        bendolib.rules.get("triangle-dominoes", spinner=True)


def test_a_triangle_is_written_clockwise_from_its_lowest_number() -> None:
    tile = Triangle(0, 3, 5)
    assert tile_text(tile) == "0-3-5"
    assert parse_tile_text("0-3-5") == tile
    assert parse_tile_text("3-5-0") == parse_tile_text("5-0-3") == tile  # any corner first
    assert parse_tile_text("0-5-3") == Triangle(0, 5, 3)  # the mirror image: another tile
    for bad in ("0-3-5-1", "0-3-5L", "0--3-5", "0-3-"):
        with pytest.raises(ParseError):
            parse_tile_text(bad)


@pytest.mark.parametrize(
    "changes",
    [
        {"target": 500, "per_draw": 3},
        {"hexagon_bonus": (10, 20, 30), "bridge_bonus": 0, "blocked": "lowest_collects"},
        {"tileset": TileSet.triangles(4, mirrors=True)},
        {"tileset": TileSet("first 40", TileSet.triangles(5).tiles[:40])},
        {"start": HighestTriple(no_triple="highest_pair")},
    ],
    ids=["scalars", "bonuses", "mirrors", "own-tileset", "policy"],
)
def test_changed_triominoes_rules_round_trip_through_their_spec(changes: dict[str, Any]) -> None:
    rules = bendolib.rules.get("triominoes").configure("my-triominoes", **changes)
    spec = rules_to_spec(rules)
    assert spec["base"] == "triominoes"
    assert rules_from_spec(spec) == rules


@pytest.mark.parametrize("name", TRIANGLE_GAMES)
def test_every_position_of_a_match_reads_back_and_plays_on(name: str) -> None:
    rules = bendolib.rules.get(name)
    if name == "triominoes":
        rules = rules.configure(target=100)
    for players in rules.player_counts[:2]:
        state = bendolib.new_game(rules, players, 30 + players)
        rng = random.Random(players)
        while True:
            text = position_text.dumps(state)
            loaded = position_text.loads(text)
            assert loaded == state.replace(log=None, past=None)
            assert position_text.dumps(loaded) == text
            if state.is_game_over:
                break
            move = rng.choice(bendolib.legal_moves(state))
            assert bendolib.legal_moves(loaded) == bendolib.legal_moves(state)
            after = bendolib.apply(loaded, move)  # the position continues
            state = bendolib.apply(state, move)
            assert position_text.dumps(after) == position_text.dumps(state)
            assert after.observation(0).board == state.observation(0).board


@pytest.mark.parametrize("name", TRIANGLE_GAMES)
def test_a_whole_match_is_recorded_and_replayed(name: str) -> None:
    rules = bendolib.rules.get(name)
    if name == "triominoes":
        rules = rules.configure(target=150)
    state = _played(rules, 3, 21, 10_000)
    assert state.is_game_over
    text = records.dump(state, names=["ann", "bob", "cy"])
    record = records.load(text)
    assert record.rules == rules and record.names == ("ann", "bob", "cy")
    final = records.replay(record)
    assert final.scores == state.scores and final.winner == state.winner
    assert final.board == state.board and final.results == state.results
    assert records.dump(final, names=["ann", "bob", "cy"]) == text


def test_triominoes_scores_below_zero_read_back() -> None:
    """Each draw costs 5 points ("a player who cannot or will not lay draws ... each
    with a penalty"): scores and round points below zero are positions of play."""
    rules = bendolib.rules.get("triominoes")
    state = bendolib.new_game(rules, 2, 7)
    state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    while not isinstance(bendolib.legal_moves(state)[-1], bendolib.Draw):
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    state = bendolib.apply(state, bendolib.legal_moves(state)[-1])  # a draw
    assert min(state.scores) < 0 or min(state.play_points) < 0
    assert position_text.loads(position_text.dumps(state)) == state.replace(log=None, past=None)
    # Triangle Dominoes has no penalty: a score below zero cannot arise there
    dominoes = position_text.dumps(bendolib.new_game(bendolib.rules.get("triangle-dominoes"), 2, 7))
    with pytest.raises(ParseError, match="bad scores: not a number: '-5'"):
        position_text.loads(dominoes.replace("scores=0,0", "scores=-5,0"))


def _position(board: str) -> str:
    """A hand-written Triominoes position whose board is ``board``."""
    return (
        f"triominoes players=2 turn=0 hands=0-0-0,1-1-1/2-2-2,3-3-3 stock=4-4-4,0-1-2 board={board}"
    )


def test_a_hand_written_layout_in_cell_notation() -> None:
    state = position_text.loads(_position("5-5-5*,5-4-5@0,0d,5-4-4@1,0u"))
    placements = state.board.placements
    assert all(isinstance(p, TrianglePlacement) for p in placements)
    cells = [str(cast(TrianglePlacement, p).cell) for p in placements]
    assert cells == ["0,0u", "0,0d", "1,0u"]
    assert cast(TrianglePlacement, placements[1]).corners == (5, 4, 5)
    assert [str(p.tile) for p in state.board.placements] == ["5-5-5", "4-5-5", "4-4-5"]
    assert board_text(state).splitlines()[0] == "board: 5-5-5@0,0u, 5-4-5@0,0d, 5-4-4@1,0u"
    assert position_text.dumps(state).split("board=")[1].split()[0] == (
        "5-5-5*,5-4-5@0,0d,5-4-4@1,0u"
    )


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ("5-5-5@0,0u", "the first placement, and only it, is the opening"),
        ("5-5-5*,4-4-4*", "the first placement, and only it, is the opening"),
        ("5-5-5*,5-4-5@3,3d", "cell 3,3d shares no edge with the layout"),
        ("5-5-5*,5-4-5@0,0u", "cell 0,0u is taken"),
        ("5-5-5*,5-5-4@0,0d", "corner 2 of cell 0,0d shows 5, the tile 4 there"),
        ("5-5-5*,5-5", "a cell placement is written"),
        ("5-5-5*;5-4-5@0,0d", "placement 0 is followed by ';', not ','"),
        ("5-5-5*,5-4-5@0,0x", "a cell placement is written"),
        ("0-1-2-3*", "a triangle shows three numbers"),
        ("0-2-1*", "no tile shows 0-2-1 in triangles 0-5"),
        ("5-5-5*,5-4-5@0,0d,", "a cell placement is written"),
        ("5-5-5*,5-4-5@99999,0d", "off the lattice"),
    ],
)
def test_a_layout_that_cannot_arise_is_refused(board: str, message: str) -> None:
    with pytest.raises(ParseError, match=message) as caught:
        position_text.loads(_position(board))
    assert "bad board" in str(caught.value)


def test_a_tile_laid_twice_is_refused() -> None:
    # U(0,0) 5-5-5; D(0,0) and D(-1,0) both show 5-4-5: the tile 4-5-5 twice
    with pytest.raises(ParseError, match="tile 4-5-5 is on the board twice"):
        position_text.loads(_position("5-5-5*,5-4-5@0,0d,4-5-5@-1,0d"))
