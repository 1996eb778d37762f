"""Malformed move and tile notation raises only bendolib's own errors, and never hangs.

Random text, text decoded from random bytes (``parse_move`` also gets raw bytes: it
checks its input's type) and mutations of the notation of
real legal moves are fed to ``parse_move``, ``parse_pattern``, ``TileSet.parse_tile`` and
``_rule_spec.parse_tile_text``: each either reads the input or raises a ``BendolibError``
(any other exception fails the test).  The generous ``deadline`` is a guard against a
hang (an endless loop fails the test instead of stalling CI), not a speed test.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import bendolib
from bendolib import BendolibError, GameState, Move
from bendolib._rule_spec import parse_tile_text
from bendolib.notation import parse_pattern
from bendolib.testing import strategies as bst

HANG_GUARD = settings(deadline=timedelta(seconds=20))

#: Characters the notation uses, to make random text near-valid more often.
NEAR = st.sampled_from("0123456789-=@*LRlrAPW dnpaxtse\t")


def move_inputs() -> st.SearchStrategy[str]:
    near = st.text(NEAR, max_size=20)
    legal = bst.move_texts(max_moves=60).map(lambda pair: pair[1])
    return st.one_of(bst.malformed_texts(legal), near)


@HANG_GUARD
@given(bst.game_states(max_moves=60), st.one_of(move_inputs(), st.binary(max_size=20)))
def test_parse_move_raises_only_library_errors(state: GameState, text: Any) -> None:
    try:
        move: Move = bendolib.parse_move(text, state)
    except BendolibError:
        return
    except TypeError:
        assert not isinstance(text, str)  # the API's edge: a move is written as a str
        return
    assert move in bendolib.legal_moves(state)


@HANG_GUARD
@given(move_inputs())
def test_parse_pattern_raises_only_library_errors(text: str) -> None:
    with contextlib.suppress(BendolibError):
        parse_pattern(text)


@HANG_GUARD
@given(bst.tilesets(max_top=9), move_inputs())
def test_parse_tile_raises_only_library_errors(tileset: bendolib.TileSet, text: str) -> None:
    try:
        tile = tileset.parse_tile(text)
    except BendolibError:
        return
    assert tile in tileset.tiles


@HANG_GUARD
@given(move_inputs())
def test_parse_tile_text_raises_only_library_errors(text: str) -> None:
    with contextlib.suppress(BendolibError):
        parse_tile_text(text)
