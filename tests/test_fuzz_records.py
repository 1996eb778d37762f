"""Malformed game records raise only bendolib's own errors, and never hang.

Random text and bytes (decoded: the parsers read str), character-level mutations of real
records, and structural mutations (a JSON value replaced, a key dropped, a move
rewritten) are fed to ``records.load`` and ``records.replay``: they succeed or raise a
``BendolibError`` (RecordError / ParseError).  The generous ``deadline`` guards against a hang only.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bendolib import BendolibError, records
from bendolib.testing import strategies as bst

HANG_GUARD = settings(deadline=timedelta(seconds=20))

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.text(max_size=12),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            out += _paths(value, (*prefix, index))
    return out


@st.composite
def structurally_mutated(draw: st.DrawFn, text: str) -> str:
    data = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        old = parent[path[-1]]
        action = draw(st.sampled_from(("replace", "delete", "edit")))
        if action == "delete":
            del parent[path[-1]]
        elif action == "edit" and isinstance(old, str):
            parent[path[-1]] = draw(bst.mutated_texts(old))
        elif action == "edit" and isinstance(old, int) and not isinstance(old, bool):
            parent[path[-1]] = old + draw(st.integers(-3, 3))
        else:
            parent[path[-1]] = draw(JSON_VALUES)
    return json.dumps(data)


def record_inputs() -> st.SearchStrategy[Any]:
    valid = bst.record_texts(max_moves=80)
    return st.one_of(
        bst.malformed_texts(valid),
        valid.flatmap(structurally_mutated),
        JSON_VALUES.map(json.dumps),
    )


@HANG_GUARD
@given(record_inputs())
def test_load_and_replay_raise_only_library_errors(text: Any) -> None:
    try:
        record = records.load(text)
        state = records.replay(record)
    except BendolibError:
        return
    assert state.players == record.players
