"""RuleSet construction, parameters, registry and errors."""

from __future__ import annotations

from typing import Any

import pytest

import bendolib
from bendolib import IllegalMoveError, RuleSetError, UnknownRuleSetError
from bendolib.errors import BendolibError
from bendolib.moves import DRAW, NEXT_ROUND

BASIC = bendolib.rules.get("basic")


def test_registry() -> None:
    assert "basic" in bendolib.rules.names()
    assert bendolib.rules.get("basic") is BASIC
    with pytest.raises(UnknownRuleSetError, match="unknown rule set 'nope'"):
        bendolib.rules.get("nope")
    with pytest.raises(ValueError, match="already registered"):
        bendolib.rules.register(BASIC)


def test_configure_routes_parameters_to_policies() -> None:
    rules = bendolib.rules.get("basic", target=50, tie="nobody", hand_sizes={2: 5})
    assert rules.match.target == 50 and rules.deal.hand_size(2) == 5
    assert rules.player_counts == (2,)
    assert BASIC.match.target == 100  # the registered rule set is unchanged
    params = BASIC.parameters()
    assert params["target"] == 100 and params["when_stuck"] == "once"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"target": 0}, "target must be positive"),
        ({"hand_sizes": {2: 15}}, "need 30 tiles"),
        ({"colour": "red"}, "no parameter 'colour'"),
        ({"when_stuck": "sometimes"}, "unknown when_stuck"),
        ({"batch": 0}, "batch must be at least 1"),
        ({"tie": "coin"}, "unknown tie rule"),
        ({"teams": [[0, 1], [1, 2]]}, "teams must split"),
    ],
)
def test_invalid_parameters_raise_clear_errors(params: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleSetError, match=message):
        BASIC.configure(**params)


def test_player_count_is_checked() -> None:
    with pytest.raises(RuleSetError, match="for 2, 3, 4 players, not 5"):
        bendolib.new_game(BASIC, players=5)


def test_illegal_move_error_says_move_reason_and_legal() -> None:
    """IllegalMoveError names the move, why it is illegal, and what was legal."""
    state = bendolib.new_game(BASIC, players=2, seed=1)
    with pytest.raises(IllegalMoveError) as info:
        bendolib.apply(state, DRAW)
    err = info.value
    assert err.move == DRAW and "open with its starting tile" in err.reason
    assert err.legal == bendolib.legal_moves(state)
    assert "illegal move 'draw'" in str(err) and str(err.legal[0]) in str(err)
    assert isinstance(err, BendolibError) and isinstance(err, ValueError)
    with pytest.raises(IllegalMoveError, match="round is not over"):
        bendolib.apply(state, NEXT_ROUND)


def test_parse_move_errors_name_the_position() -> None:
    state = bendolib.new_game(BASIC, players=2, seed=1)
    with pytest.raises(bendolib.ParseError, match="at position 3"):
        bendolib.parse_move("6-6#", state)
    with pytest.raises(IllegalMoveError):
        bendolib.parse_move("pass", state)
