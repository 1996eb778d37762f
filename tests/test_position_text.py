"""Position text (docs/records.md): write a position, read it back, play on from it."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import bendolib
from bendolib import ParseError
from bendolib import position_text as pt
from bendolib.rules.classic import AS_OPENSPIEL_BLOCK
from bendolib.state import GameState
from bendolib.testing import strategies as bst
from bendolib.tiles import TileSet


def states_of(rules: bendolib.RuleSet, seed: int, moves: int = 500) -> list[GameState]:
    players = rules.player_counts[seed % len(rules.player_counts)]
    state = bendolib.new_game(rules, players, seed)
    rng = random.Random(seed)
    out = [state]
    for _ in range(moves):
        if state.is_game_over:
            break
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
        out.append(state)
    return out


def without_history(state: GameState) -> GameState:
    return state.replace(log=None, past=None)


@pytest.mark.parametrize("name", bendolib.rules.names())
def test_round_trip_every_state_of_random_matches(name: str) -> None:
    """loads(dumps(s)) is s (less its history) and dumps(loads(t)) is t, every variant."""
    rules = bendolib.rules.get(name)
    count = 0
    for seed in range(2):
        for state in states_of(rules, seed, moves=300)[::3]:
            text = pt.dumps(state)
            back = pt.loads(text)
            assert back == without_history(state), text
            assert pt.dumps(back) == text
            count += 1
    assert count > 10


@given(bst.rulesets(configured=True), st.integers(0, 2**32), st.integers(0, 250))
def test_round_trip_with_changed_parameters(rules: bendolib.RuleSet, seed: int, moves: int) -> None:
    """Changed parameters (tile sets, bends, targets, draw rules ...) are written too."""
    try:
        state = states_of(rules, seed, moves)[-1]
    except ValueError:  # a parameter combination the engine cannot deal
        assume(False)
        raise
    back = pt.loads(pt.dumps(state))
    assert back == without_history(state)
    assert back.rules == rules


def test_play_continues_identically_from_a_loaded_position() -> None:
    """A game started from the text is the same game: same moves, same states."""
    rules = bendolib.rules.get("basic", target=60)
    states = states_of(rules, 11)
    middle = states[len(states) // 2]
    loaded = pt.loads(pt.dumps(middle))
    rng = random.Random(5)
    a, b = middle, loaded
    for _ in range(300):
        if a.is_game_over:
            break
        move = rng.choice(bendolib.legal_moves(a))
        assert bendolib.legal_moves(b) == bendolib.legal_moves(a)
        a, b = bendolib.apply(a, move), bendolib.apply(b, move)
        assert without_history(a) == without_history(b)
    assert a.is_game_over


def test_fields_of_a_fresh_deal() -> None:
    state = bendolib.new_game(bendolib.rules.get("basic"), 2, 7)
    text = pt.dumps(state)
    assert text.startswith("basic players=2 seed=7 round=1 turn=")
    assert " hands=" in text and " deck=" in text and text.endswith("board=- opening=6-6")
    dealt, stock = text.split(" deck=")[1].split(" ")[0].split("|")
    assert len(dealt.split(",")) == 14 and len(stock.split(",")) == 14


def test_configured_and_renamed_rules_are_written_as_json() -> None:
    for rules in (
        bendolib.rules.get("basic", target=50, batch=2),
        bendolib.rules.get("basic", tileset=TileSet.double(6, both_bends=True)),
        AS_OPENSPIEL_BLOCK,
    ):
        state = states_of(rules, 1, moves=30)[-1]
        text = pt.dumps(state)
        assert text.startswith("{") and " " not in text.split(" players=")[0]
        assert pt.loads(text).rules == rules


def test_hand_written_position_with_a_stock() -> None:
    """A short form for bug reports: only the stock is given; the rest is set aside."""
    text = (
        "basic players=2 turn=1 hands=1-1,2-3L/0-1L,3-6R "
        "stock=4-4,5-5 board=6-6*,6-1@0L scores=10,20"
    )
    state = pt.loads(text)
    assert state.current_player == 1
    assert [str(t) for t in state.hands[0]] == ["1-1", "2-3L"]
    assert [str(t) for t in state.stock] == ["4-4", "5-5"]
    assert state.scores == (10, 20)
    assert [e.value for e in state.board.ends] == [1, 6]
    moves = [str(m) for m in bendolib.legal_moves(state)]
    assert "6-3@1L" in moves and moves[-1] == "draw"
    after = bendolib.apply(state, bendolib.parse_move("6-3@1L", state))
    assert after.board.ends[1].value == 3
    assert pt.loads(pt.dumps(state)) == state


@pytest.mark.parametrize(
    ("text", "message", "at"),
    [
        ("", "empty position text", ""),
        ("nosuch players=2 hands=-/- stock=-", "bad rules", "nosuch"),
        ("basic players=9 hands=-/- stock=-", "not for 9 players", "9 hands"),
        ("basic players=2 hands=1-1 stock=-", "1 hands for 2 players", "1-1 "),
        ("basic players=2 hands=1-1,9-9/- stock=-", "no tile '9-9'", "9-9"),
        ("basic players=2 hands=1-1/2-2,1-1,1-1 stock=-", "listed twice", "1-1 "),
        ("basic players=2 hands=1-1/1-1 stock=-", "in hand 1 and", "1-1/"),
        ("basic players=2 hands=1-1/- stock=1-1", "in play and in the stock", "1-1/"),
        ("basic players=2 hands=-/- stock=- colour=red", "unknown field 'colour'", "colour"),
        ("basic players=2 hands=-/- stock=- turn", "expected key=value", "turn"),
        ("basic players=2 players=3 hands=-/-", "given twice", "players=3"),
        ("basic players=2 hands=-/-", "missing field stock=", None),
        ("basic players=2 hands=-/- stock=- board=6-6*,6-2@5L", "no open end 5", "6-2@5L"),
        ("basic players=2 hands=-/- stock=- board=6-6*,5-2@0L", "shows 6, not 5", "5-2"),
        ("basic players=2 hands=-/- stock=- board=6-6*,6-1@0", "turn letter", "6-1"),
        ("basic players=2 hands=-/- stock=- board=6-6*,6-2@0L", "does not turn that way", "6-2"),
        ("basic players=2 hands=-/- stock=- board=6-6*,6-1@0L,5-5*", "opening tile after", "5-5"),
        ("all-five players=2 hands=-/- stock=- board=6-6*,6-6*", "on the board twice", "6-6*,"),
        ("basic players=2 hands=-/- deck=1-1|2-2", "each of the 28 tiles", "1-1|"),
        ("basic players=2 hands=-/- deck=1-1|2-2,7-7", "no tile '7-7'", "7-7"),
        ("basic players=2 hands=-/- stock=- turn=5", "no player 5", "5"),
        ("basic players=2 hands=-/- stock=- phase=done", "bad phase", "done"),
        (
            "basic players=2 hands=-/- stock=- board=6-6*,6-4@1R,4-4@1R",
            "closes the chain unevenly: its far end shows 4 against end 0's 6",
            "4-4@1R",
        ),
    ],
)
def test_bad_texts_name_the_field_and_position(text: str, message: str, at: str | None) -> None:
    """ParseError names what is wrong and where (the offset of the faulty value)."""
    with pytest.raises(ParseError) as caught:
        pt.loads(text)
    assert message in str(caught.value)
    expected = len(text) if at is None else text.rindex(at) if at == "5" else text.index(at)
    assert caught.value.position == expected


def test_a_text_with_a_seed_deals_the_next_round_from_it() -> None:
    """After a loaded finished round, 'next' deals round n+1 from the same seed."""
    for state in states_of(bendolib.rules.get("basic"), 3, moves=2000):
        if state.is_round_over and not state.is_game_over:
            loaded = pt.loads(pt.dumps(state))
            nxt = bendolib.apply(loaded, bendolib.NEXT_ROUND)
            assert without_history(nxt) == without_history(
                bendolib.apply(state, bendolib.NEXT_ROUND)
            )
            return
    pytest.fail("no finished round in the sample")


def test_tiles_set_aside_are_written_and_checked() -> None:
    """A built position may leave tiles out of play; the text says so with aside=."""
    rules = bendolib.rules.get("basic")
    ts = rules.tileset
    hands = (ts.mask_of([ts.parse_tile("1-1")]), ts.mask_of([ts.parse_tile("2-2")]))
    stock = (ts.index(ts.parse_tile("3-3")),)
    dealt = tuple(i for i in range(len(ts)) if i not in stock)
    state = GameState.create(
        rules=rules,
        players=2,
        seed=0,
        round_number=1,
        deck=dealt + stock,
        stock_pos=len(dealt),
        hand_masks=hands,
        board=bendolib.Board(),
        current_player=0,
        scores=(0, 0),
        play_points=(0, 0),
    )
    text = pt.dumps(state)
    assert " aside=0-0,0-1L," in text and "1-1" not in text.split(" aside=")[1]
    assert pt.loads(text) == state
    with pytest.raises(ParseError, match=r"dealt tiles in no hand .*: 0-0, .* aside="):
        pt.loads(text.split(" aside=")[0])
    played = [s for s in states_of(rules, 2, moves=30) if len(s.hands[0]) > 1][-1]
    first = str(played.hands[0][0])
    broken = pt.dumps(played).replace(f"hands={first},", "hands=", 1)  # a tile lost
    with pytest.raises(ParseError, match=f"in no hand and not on the board: {first}"):
        pt.loads(broken)


def test_an_uneven_ring_is_read_only_under_rules_that_allow_it() -> None:
    """Issue 21 point 3: "only positions that can arise in play are read".  The ring
    6-6, 6-4, 4-4 closes 4 against 6: refused under the default closing="even"
    (seeds/000 "Each Bendomino must be connected evenly"), read under closing="any"."""
    from bendolib.tiles import RIGHT
    from positions import position

    loose = bendolib.rules.get("basic", closing="any")
    ring = [(-1, "6-6", 6, RIGHT), (1, "6-4", 6, RIGHT), (1, "4-4", 4, RIGHT)]
    state = position(loose, [["0-1L"], ["1-2L"]], ["3-3"], ring)
    text = pt.dumps(state)
    assert pt.loads(text) == state
    rules_field, rest = text.split(" ", 1)
    assert "closing" in rules_field
    with pytest.raises(ParseError, match="closes the chain unevenly"):
        pt.loads("basic " + rest)
