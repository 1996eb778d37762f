"""Long matches and long rounds copy, compare, hash and pickle (issue 14, point 2).

The finished rounds are kept as a flat tuple and a state pickles (and deep-copies) with
its round's history flattened, so neither the number of rounds nor a round's length
reaches Python's recursion limit.
"""

from __future__ import annotations

import copy
import pickle

import bendolib
from bendolib import records
from bendolib.tiles import TileSet


def test_a_match_of_1300_rounds_pickles_compares_copies_and_hashes() -> None:
    """Before: RecursionError from pickle, == and deepcopy past ~320 rounds, hash ~1,200."""
    rules = bendolib.rules.get("classic-block", target=10**9)
    state = bendolib.new_game(rules, 2, 1)
    while state.round_number < 1300:
        state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    assert len(state.past) == 1299 and len(state.match_history) == 1300
    back = pickle.loads(pickle.dumps(state))
    assert back == state and hash(back) == hash(state)
    assert copy.deepcopy(state) == state
    assert records.replay(records.load(records.dump(state))) == state


def test_a_round_of_nearly_a_thousand_moves_pickles_and_copies() -> None:
    """A big tile set drawn from at every turn: the round's history is ~1,000 moves deep."""
    rules = bendolib.rules.get("classic-draw-one").configure(
        tileset=TileSet.double(30, straight=True)
    )
    state = bendolib.new_game(rules, 2, 1)
    while not state.is_round_over:
        state = bendolib.apply(state, bendolib.legal_moves(state)[-1])
    assert len(state.history) > 900
    back = pickle.loads(pickle.dumps(state))
    assert back == state and back.history == state.history
    assert copy.deepcopy(state) == state
    after = bendolib.apply(back, bendolib.NEXT_ROUND)
    assert after.match_history[0] == state.history
