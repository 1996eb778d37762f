"""
``undo_action`` in the OpenSpiel adapter (issue 26, point 5): applying an action and
undoing it gives back an equal state, chance nodes included, over random rounds of
every rule set; the adapter's errors for bad parameters and actions (issue 22,
"Adapters").
"""

from __future__ import annotations

import os
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel: Any = pytest.importorskip("pyspiel", reason="needs the openspiel extra")

import bendolib  # noqa: E402
from bendolib import ArgumentError, IllegalMoveError  # noqa: E402
from bendolib._rng import SplitMix64  # noqa: E402
from bendolib.adapters import openspiel as adapter  # noqa: E402

CHANCE = int(pyspiel.PlayerId.CHANCE)
#: Random rounds the undo property plays (each under a second): ``BENDOLIB_LONG=1``, 100.
ROUNDS = 100 if os.environ.get("BENDOLIB_LONG") else 3


def snapshot(state: Any) -> dict[str, Any]:
    """Everything OpenSpiel code can read from a state."""
    out: dict[str, Any] = {
        "history": state.history(),
        "full_history": [(a.player, a.action) for a in state.full_history()],
        "history_str": state.history_str(),
        "move_number": state.move_number(),
        "initial": state.is_initial_state(),
        "text": str(state),
        "player": state.current_player(),
        "terminal": state.is_terminal(),
        "returns": state.returns(),
        "round": state.state,
    }
    if state.is_chance_node():
        out["outcomes"] = state.chance_outcomes()
    elif not state.is_terminal():
        out["legal"] = state.legal_actions()
    for player in range(state.num_players()):
        out[f"info {player}"] = state.information_state_string(player)
        out[f"obs {player}"] = state.observation_string(player)
        out[f"info tensor {player}"] = list(state.information_state_tensor(player))
    return out


def random_action(state: Any, rng: SplitMix64) -> int:
    actions = (
        [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    )
    return int(actions[rng.below(len(actions))])


#: The games of every rule set, and a chance node choosing among deal seeds.
GAMES = [(name, 0) for name in bendolib.rules.names()] + [("basic", 16), ("all-five", 5)]


@settings(max_examples=ROUNDS)
@given(st.sampled_from(GAMES), st.data())
def test_apply_then_undo_gives_back_an_equal_state(game_deals: tuple[str, int], data: Any) -> None:
    """Each action of a random round, undone at once, and then all undone in reverse."""
    name, deals = game_deals
    ruleset = bendolib.rules.get(name)
    players = data.draw(st.sampled_from(ruleset.player_counts), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    game = pyspiel.load_game(adapter.game_name(name), {"players": players, "deals": deals})
    state = game.new_initial_state()
    rng = SplitMix64(seed)
    seen = [snapshot(state)]
    applied: list[tuple[int, int]] = []
    while not state.is_terminal():
        player, action = state.current_player(), random_action(state, rng)
        state.apply_action(action)
        after = snapshot(state)
        state.undo_action(player, action)
        assert snapshot(state) == seen[-1]
        state.apply_action(action)
        assert snapshot(state) == after
        seen.append(after)
        applied.append((player, action))
    copy = state.clone()
    for player, action in reversed(applied):
        state.undo_action(player, action)
        seen.pop()
        assert snapshot(state) == seen[-1]
    assert state.is_initial_state() and state.history() == []
    assert copy.history() == [a for _, a in applied] and copy.is_terminal()  # clones unaffected
    with pytest.raises(ArgumentError, match="no action to undo"):
        state.undo_action(*applied[0])


def test_an_undone_state_clones_serialises_and_plays_on() -> None:
    """After an undo, clone, child, serialize and pickle give the state as it now is."""
    game = pyspiel.load_game("bendolib_basic", {"players": 2})
    state = game.new_initial_state()
    rng = SplitMix64(3)
    while state.is_chance_node() or len(state.history()) < 34:
        state.apply_action(random_action(state, rng))
    reference = state.clone()
    player, action = state.current_player(), random_action(state, rng)
    state.apply_action(action)
    state.undo_action(player, action)
    assert snapshot(state.clone()) == snapshot(reference)
    assert snapshot(game.deserialize_state(state.serialize())) == snapshot(reference)
    assert snapshot(pickle.loads(pickle.dumps(state))) == snapshot(reference)
    assert snapshot(state.child(action)) == snapshot(reference.child(action))
    state.apply_action(action)  # plays on: history and returns as if never undone
    reference.apply_action(action)
    assert snapshot(state) == snapshot(reference)
    while not state.is_terminal():
        action = random_action(state, rng)
        state.apply_action(action)
        reference.apply_action(action)
    assert snapshot(state) == snapshot(reference)


def test_a_deserialised_state_can_undo_what_was_applied_before() -> None:
    game = pyspiel.load_game("bendolib_basic", {"players": 2})
    state = game.new_initial_state()
    rng = SplitMix64(8)
    for _ in range(30):
        state.apply_action(random_action(state, rng))
    before = snapshot(state)
    player, action = state.current_player(), random_action(state, rng)
    state.apply_action(action)
    copy = game.deserialize_state(state.serialize())
    copy.undo_action(player, action)
    assert snapshot(copy) == before


def test_undo_names_the_last_action_when_another_is_given() -> None:
    game = pyspiel.load_game("bendolib_basic", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(4)
    with pytest.raises(ArgumentError, match="the last action is 4 by player -1, not 5"):
        state.undo_action(CHANCE, 5)
    with pytest.raises(ArgumentError, match="the last action is 4 by player -1, not 4 by player 0"):
        state.undo_action(0, 4)
    state.undo_action(CHANCE, 4)
    assert state.history() == []


# -- errors (issue 22, "Adapters") --------------------------------------------------------


@pytest.mark.parametrize("players", [1, 5, 99])
def test_a_bad_player_count_is_the_librarys_error(players: int) -> None:
    """OpenSpiel raised a plain ValueError for a player count the rule set does not allow."""
    with pytest.raises(ArgumentError, match=f"basic is for 2, 3, 4 players, not {players}"):
        pyspiel.load_game("bendolib_basic", {"players": players})
    with pytest.raises(ArgumentError, match="players"):
        adapter.BendolibGame({"players": players}, rules=bendolib.rules.get("basic"))
    with pytest.raises(TypeError, match="players is an int"):
        adapter.BendolibGame({"players": "2"}, rules=bendolib.rules.get("basic"))


def test_a_deal_count_beyond_the_limit_is_refused() -> None:
    with pytest.raises(ArgumentError, match="up to 1,000,000, not 1000001"):
        pyspiel.load_game("bendolib_basic", {"deals": adapter.MAX_DEALS + 1})


@pytest.mark.parametrize("action", [-2, 28, 10**6, 2**40])
def test_a_chance_outcome_out_of_range_is_refused(action: int) -> None:
    """The chance node accepted out-of-range deal actions (1,200 of 1,200 tried)."""
    state = pyspiel.load_game("bendolib_basic", {"players": 2}).new_initial_state()
    with pytest.raises(ArgumentError, match="is no tile"):
        state.apply_action(action)
    assert state.history() == [] and state.is_chance_node()


def test_a_tile_dealt_twice_is_refused() -> None:
    state = pyspiel.load_game("bendolib_basic", {"players": 2}).new_initial_state()
    state.apply_action(7)
    with pytest.raises(ArgumentError, match="chance outcome 7 is dealt already"):
        state.apply_action(7)
    assert state.history() == [7]


@pytest.mark.parametrize("action", [-2, 16, 2**31 - 1])
def test_a_deal_seed_out_of_range_is_refused(action: int) -> None:
    state = pyspiel.load_game("bendolib_basic", {"players": 2, "deals": 16}).new_initial_state()
    with pytest.raises(ArgumentError, match=f"seed from 0 to 15, not {action}"):
        state.apply_action(action)


def test_an_illegal_move_is_the_librarys_error() -> None:
    game = pyspiel.load_game("bendolib_basic", {"players": 2, "deals": 4})
    state = game.new_initial_state()
    state.apply_action(0)
    bad = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalMoveError, match=f"action {bad} is not legal here"):
        state.apply_action(bad)
