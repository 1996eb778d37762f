"""Malformed position text raises only bendolib's own errors, and never hangs.

Random text, random bytes (decoded: the parsers read str) and mutations of the position
texts of real states are fed to ``position_text.loads``: it returns a state or raises a
``BendolibError`` (ParseError).  The generous ``deadline`` guards against a hang; it is
not a speed test.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bendolib import BendolibError, position_text
from bendolib.testing import invariants
from bendolib.testing import strategies as bst

HANG_GUARD = settings(deadline=timedelta(seconds=20))

#: Characters of position texts, so that random edits stay near the grammar.
NEAR = st.sampled_from('0123456789-,/|=*@LR: abcdefghijklmnoprstuwy{}[]"')


def position_inputs() -> st.SearchStrategy[Any]:
    valid = bst.position_texts(max_moves=80)
    return st.one_of(
        bst.malformed_texts(valid),
        valid.flatmap(lambda text: bst.mutated_texts(text, alphabet=NEAR)),
    )


@HANG_GUARD
@given(position_inputs())
def test_loads_raises_only_library_errors(text: Any) -> None:
    try:
        state = position_text.loads(text)
    except BendolibError:
        return
    # whatever it accepts is a position play can go on from
    assert invariants.tile_conservation(state) is None, text
    assert invariants.legal_moves_consistent(state) is None, text
