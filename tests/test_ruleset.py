"""RuleSet construction, parameters, registry and errors."""

from __future__ import annotations

from typing import Any

import pytest

import bendolib
from bendolib import IllegalMoveError, RuleSetError, UnknownRuleSetError
from bendolib.errors import BendolibError
from bendolib.moves import DRAW, NEXT_ROUND
from bendolib.rules import FixedSeat
from bendolib.tiles import STRAIGHT, Tile, TileSet

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


# -- issue 13: configure accepts only rule sets that deal and play --------------------


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("all-five", {"opens": True}, r"table_tiles=2 opens the round .* opens=False"),
        ("basic", {"table_tiles": 1}, r"table_tiles=1 opens the round .* opens=False"),
        ("basic", {"start": FixedSeat(2)}, r"FixedSeat\(seat=2\) needs at least 3 players"),
        ("basic", {"hand_sizes": {2: 0}}, r"bad hand size 0 for 2 players"),
        (
            "classic-draw",
            {
                "tileset": TileSet("no doubles", (Tile(0, 1, STRAIGHT), Tile(1, 2, STRAIGHT))),
                "hand_sizes": {2: 1},
            },
            r"has no double, so no_double='redeal' never deals",
        ),
    ],
)
def test_configure_rejects_rule_sets_that_cannot_deal_and_play(
    name: str, params: dict[str, Any], message: str
) -> None:
    """Rule sets that would lose the table tiles at the opening move, or cannot deal,
    are rejected with a RuleSetError naming the conflict (issue 13)."""
    with pytest.raises(bendolib.RuleSetError, match=message):
        bendolib.rules.get(name, **params)


def test_configure_accepts_a_fixed_seat_with_the_player_counts_it_needs() -> None:
    """Whole policies and fields change together, so a rule set is checked once."""
    rules = bendolib.rules.get("basic", start=FixedSeat(2), hand_sizes={3: 6, 4: 5})
    assert bendolib.new_game(rules, 3, 0).current_player == 2
    opened = bendolib.rules.get("basic", table_tiles=1, opens=False)
    state = bendolib.new_game(opened, 2, 0)
    assert len(state.board.placements) == 1 and state.opening == -1
