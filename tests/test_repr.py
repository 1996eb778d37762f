"""
``repr`` of a state and of an observation: one short line that says where the match
stands (issue 16.8: it used to be ~2 KB of fields with raw bitmasks and the tile set).
"""

from __future__ import annotations

import random
import re

import pytest

import bendolib

#: A repr longer than this is not "short" (a terminal line and a half).
SHORT = 200
REPR = re.compile(
    r"<GameState '(?P<rules>[^']+)', (?P<players>\d) players, seed (?P<seed>\d+): "
    r"round (?P<round>\d+), move (?P<move>\d+), (?P<turn>[^;]+); "
    r"board (?P<tiles>\d+) tiles, ends (?P<ends>[^;]+); hands (?P<hands>[\d ]+); "
    r"stock (?P<stock>\d+); scores (?P<scores>[-\d ]+)>"
)


@pytest.mark.parametrize("name", bendolib.rules.names())
def test_state_repr_is_one_short_line_that_says_where_the_match_stands(name: str) -> None:
    rules = bendolib.rules.get(name)
    players = rules.player_counts[-1]
    state = bendolib.new_game(rules, players, 11)
    rng = random.Random(11)
    for _ in range(300):
        text = repr(state)
        assert len(text) <= SHORT and "\n" not in text, text
        match = REPR.fullmatch(text)
        assert match is not None, text
        assert match["rules"] == name and int(match["players"]) == players
        assert int(match["seed"]) == state.seed and int(match["round"]) == state.round_number
        assert int(match["move"]) == len(state.history)
        assert int(match["tiles"]) == len(state.board.placements)
        assert [int(h) for h in match["hands"].split()] == [len(h) for h in state.hands]
        assert int(match["stock"]) == state.stock_size
        assert [int(s) for s in match["scores"].split()] == list(state.scores)
        if state.is_game_over:
            assert match["turn"] == f"match over, winner {state.winner}"
            break
        if state.is_round_over:
            assert match["turn"] == "round over"
        else:
            assert match["turn"] == f"player {state.current_player} to move"
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))


def test_observation_repr_shows_the_own_hand_and_not_the_tile_set() -> None:
    state = bendolib.new_game(bendolib.rules.get("basic"), 3, 7)
    for _ in range(5):
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    for seat in range(3):
        text = repr(state.observation(seat))
        assert len(text) <= SHORT and "Tile(" not in text and "double-6" not in text
        own = " ".join(str(t) for t in state.hand(seat))
        assert text.startswith(f"<Observation of player {seat}, 'basic', 3 players: round 1, ")
        assert f"; hand {own}; board {len(state.board.placements)} tiles, " in text
        for other in range(3):
            if other != seat:
                assert not any(f" {t} " in text + " " for t in state.hand(other)), other
    assert repr(state.observation(0)) != repr(state.observation(1))
