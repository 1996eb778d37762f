"""Bots (issue 5): the protocol, the registry, random, greedy and search players."""

from __future__ import annotations

import importlib.util
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bendolib
from bendolib import bots, rules
from bendolib.bots import Bot, GreedyBot, RandomBot, SearchBot, UnknownBotError
from bendolib.bots.baseline import options_after
from bendolib.errors import BendolibError
from bendolib.moves import DRAW, Place
from bendolib.state import PLAYING
from random_play import random_play as play


def test_registry_lists_and_builds_the_bots() -> None:
    assert bots.names()[:3] == ("random", "greedy", "search")
    assert isinstance(bots.get("random"), RandomBot)
    assert isinstance(bots.get("greedy"), GreedyBot)
    assert bots.get("search", worlds=3) == SearchBot(worlds=3)
    needs = {"process": {"command": "a-program"}}  # a process bot needs its command
    for name in bots.names():
        if name == "ismcts" and importlib.util.find_spec("pyspiel") is None:
            with pytest.raises(BendolibError, match=r"pip install 'bendolib\[openspiel\]'"):
                bots.get(name)
            continue
        assert isinstance(bots.get(name, **needs.get(name, {})), Bot)
    with pytest.raises(UnknownBotError, match="unknown bot 'nobody'"):
        bots.get("nobody")
    with pytest.raises(ValueError, match="already registered"):
        bots.register("greedy", GreedyBot)


@settings(max_examples=25)
@given(st.sampled_from(rules.names()), st.integers(0, 10_000), st.integers(0, 80))
def test_every_bot_returns_a_legal_move(name: str, seed: int, moves: int) -> None:
    state = play(name, seed, moves)
    if state.phase != PLAYING:
        return
    legal = bendolib.legal_moves(state)
    obs = state.observation(state.current_player)
    for bot in (RandomBot(), GreedyBot(), SearchBot(worlds=1)):
        assert bot.choose(obs, legal, random.Random(seed)) in legal


def test_greedy_places_its_heaviest_tile_and_keeps_options() -> None:
    """Issue 5: greedy plays the heaviest tile first, then the placement keeping options."""
    for seed in range(30):
        state = play("basic", seed, seed % 7 + 1)
        if state.phase != PLAYING:
            continue
        legal = bendolib.legal_moves(state)
        places = [m for m in legal if isinstance(m, Place)]
        obs = state.observation(state.current_player)
        move = GreedyBot().choose(obs, legal, random.Random(0))
        if not places:
            assert move == (DRAW if DRAW in legal else legal[0])
            continue
        assert isinstance(move, Place)
        top = max(m.tile.points for m in places)
        assert move.tile.points == top
        best = max(options_after(obs, m) for m in places if m.tile.points == top)
        assert options_after(obs, move) == best


def test_greedy_never_draws_when_it_can_place() -> None:
    """seeds/000 lets a player draw instead of placing; greedy never does."""
    met = 0
    for seed in range(20):
        state = play("basic", seed, 1 + seed % 5)
        legal = bendolib.legal_moves(state) if state.phase == PLAYING else ()
        if DRAW in legal and any(isinstance(m, Place) for m in legal):
            obs = state.observation(state.current_player)
            assert isinstance(GreedyBot().choose(obs, legal, random.Random(0)), Place)
            met += 1
    assert met


def test_random_bot_spreads_its_choices() -> None:
    state = play("basic", 2, 3)
    legal = bendolib.legal_moves(state)
    obs = state.observation(state.current_player)
    rng = random.Random(1)
    chosen = {RandomBot().choose(obs, legal, rng) for _ in range(200)}
    assert chosen == set(legal)


def test_search_takes_the_move_that_ends_the_round() -> None:
    """With one tile left that fits, going out wins the round at once; drawing does not."""
    for seed in range(200):
        state = play("basic", seed, 0)
        rng = random.Random(seed)
        while state.phase == PLAYING:
            legal = bendolib.legal_moves(state)
            me = state.current_player
            places = [m for m in legal if isinstance(m, Place)]
            if len(state.hand(me)) == 1 and places and DRAW in legal:
                move = SearchBot(worlds=2).choose(state.observation(me), legal, rng)
                assert isinstance(move, Place)
                return
            state = bendolib.apply(state, legal[rng.randrange(len(legal))])
    pytest.fail("no position with a last tile to play was met")
