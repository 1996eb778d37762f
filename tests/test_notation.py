"""The move notation (docs/notation.md): writing, reading, and rejecting bad moves."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bendolib
from bendolib import IllegalMoveError, ParseError, parse_move
from bendolib.moves import DRAW, NEXT_ROUND, PASS, Place
from bendolib.notation import MovePattern, parse_pattern
from bendolib.state import GameState


def random_states(name: str, seeds: range, moves: int = 400) -> list[GameState]:
    """Every state of short random matches of one rule set (all its player counts)."""
    rules = bendolib.rules.get(name)
    out = []
    for seed in seeds:
        players = rules.player_counts[seed % len(rules.player_counts)]
        state = bendolib.new_game(rules, players, seed)
        rng = random.Random(seed)
        for _ in range(moves):
            out.append(state)
            if state.is_game_over:
                break
            state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    return out


def opened(seed: int = 7) -> GameState:
    """A basic 2-player state right after the opening double."""
    state = bendolib.new_game(bendolib.rules.get("basic"), 2, seed)
    return bendolib.apply(state, bendolib.legal_moves(state)[0])


@pytest.mark.parametrize("name", bendolib.rules.names())
def test_every_legal_move_reads_back_and_no_two_share_a_text(name: str) -> None:
    """str(move) names exactly one legal move and parse_move reads it back (every variant)."""
    checked = 0
    for state in random_states(name, range(3), moves=150):
        legal = bendolib.legal_moves(state)
        texts = [str(m) for m in legal]
        assert len(set(texts)) == len(texts), texts
        for move in legal:
            assert parse_move(str(move), state) == move
            checked += 1
    assert checked > 50


def test_grammar_of_each_kind_of_move() -> None:
    """Placements, the opening, the words and their one-letter forms (docs/notation.md)."""
    state = bendolib.new_game(bendolib.rules.get("basic"), 2, 7)
    (opening,) = bendolib.legal_moves(state)
    assert str(opening) == "6-6*"
    assert parse_move("6-6*", state) == opening
    assert parse_move("  6-6  ", state) == opening  # the end may be left out
    after = bendolib.apply(state, opening)
    for text, move in (("draw", DRAW), ("d", DRAW), ("DRAW", DRAW), (" Draw ", DRAW)):
        assert parse_move(text, after) == move
    place = next(m for m in bendolib.legal_moves(after) if isinstance(m, Place))
    assert re.fullmatch(r"\d-\d@\d[LR]", str(place))
    assert parse_move(str(place).lower(), after) == place  # lower-case turn letter


def test_pattern_reads_every_part() -> None:
    assert parse_pattern("5-3@1L") == MovePattern(5, 3, None, 1, bendolib.LEFT)
    assert parse_pattern("W-3=4@12R") == MovePattern(-3, 3, 4, 12, bendolib.RIGHT)
    assert parse_pattern("6-6*") == MovePattern(6, 6, None, -1, None)
    assert parse_pattern("10-12@3") == MovePattern(10, 12, None, 3, None)
    assert parse_pattern("5-3") == MovePattern(5, 3, None, None, None)
    assert str(parse_pattern("A-P=2@0R")) == "A-P=2@0R"


@pytest.mark.parametrize(
    ("text", "column", "expected"),
    [
        ("x", 0, "expected a placement"),
        ("6=6", 1, "expected '-' between the two faces"),
        ("6-", 2, "expected a face"),
        ("6-6@", 4, "expected an open end number"),
        ("6-6@0Q", 5, "expected the end of the move"),
        ("6-6=@0", 4, "expected the number a wild face shows"),
        ("  6-X", 4, "expected a face"),
        ("6-6*x", 4, "expected the end of the move"),
        ("6-6 @0L", 3, "expected '@<end>'"),
    ],
)
def test_malformed_text_names_the_column(text: str, column: int, expected: str) -> None:
    """Malformed notation raises ParseError with the offset of the first bad character."""
    with pytest.raises(ParseError) as caught:
        parse_move(text, opened())
    assert caught.value.position == column
    assert expected in str(caught.value)
    assert repr(text) in str(caught.value)


def test_empty_and_non_string_input() -> None:
    with pytest.raises(ParseError, match="empty move"):
        parse_move("   ", opened())
    with pytest.raises(TypeError, match="a move is written as a str, not int"):
        parse_move(5, opened())  # type: ignore[arg-type]


def test_ambiguous_text_is_rejected_with_the_candidates() -> None:
    """A shortened move that fits several legal moves is a ParseError listing them."""
    state = opened()
    places = [m for m in bendolib.legal_moves(state) if isinstance(m, Place)]
    by_faces: dict[str, list[Place]] = {}
    for m in places:
        by_faces.setdefault(str(m).split("@")[0], []).append(m)
    faces, several = next((k, v) for k, v in by_faces.items() if len(v) > 1)
    with pytest.raises(ParseError, match="ambiguous move") as caught:
        parse_move(faces, state)
    for m in several:
        assert str(m) in str(caught.value)
    assert "write the end" in str(caught.value) or "turn letter" in str(caught.value)


def test_turn_letter_may_be_left_out_only_when_one_turn_fits() -> None:
    state = opened()
    for move in bendolib.legal_moves(state):
        if not isinstance(move, Place):
            continue
        short = str(move)[:-1]
        twins = [m for m in bendolib.legal_moves(state) if str(m)[:-1] == short]
        if len(twins) == 1:
            assert parse_move(short, state) == move
        else:
            with pytest.raises(ParseError, match="turn letter"):
                parse_move(short, state)


def test_illegal_but_well_formed_moves_say_why() -> None:
    """IllegalMoveError carries the reason and the legal moves (seeds/000: match and fit)."""
    state = opened()
    player = state.current_player
    legal = bendolib.legal_moves(state)
    held = {(t.a, t.b) for t in state.hands[player]}
    missing = next(t for t in state.rules.tileset.tiles if (t.a, t.b) not in held and t.b == 6)
    own = state.hands[player][0]
    cases = {
        f"6-{missing.a}@0L": "not in player",
        "7-8@0L": "no tile 7-8",
        f"{own.a}-{own.b}*": "already open",
        "next": "the round is not over",
        "pass": "may not pass",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalMoveError) as caught:
            parse_move(text, state)
        assert reason in caught.value.reason, (text, caught.value.reason)
        assert caught.value.legal == legal
    place = next(m for m in legal if isinstance(m, Place))
    wrong_end = str(place).replace(f"@{place.end}", "@9")
    with pytest.raises(IllegalMoveError, match=r"no open end 9"):
        parse_move(wrong_end, state)
    flipped = str(place)[:-1] + ("R" if str(place).endswith("L") else "L")
    if all(str(m) != flipped for m in legal):
        with pytest.raises(IllegalMoveError, match=r"turn|occupied"):
            parse_move(flipped, state)


def test_wrong_number_against_an_end() -> None:
    """A tile laid with a number the end does not show (seeds/000: match by number)."""
    state = opened()
    player = state.current_player
    tile = next(t for t in state.hands[player] if 6 not in (t.a, t.b))
    with pytest.raises(IllegalMoveError, match="shows 6, not"):
        parse_move(f"{tile.a}-{tile.b}@0L", state)
    with pytest.raises(IllegalMoveError, match="fits no open end"):
        parse_move(f"{tile.a}-{tile.b}", state)


def test_straight_boards_take_no_turn_letter() -> None:
    rules = bendolib.rules.get("classic-draw")
    state = bendolib.new_game(rules, 2, 3)
    state = bendolib.apply(state, bendolib.legal_moves(state)[0])
    place = next(m for m in bendolib.legal_moves(state) if isinstance(m, Place))
    assert re.fullmatch(r"\d-\d@\d", str(place))
    with pytest.raises(IllegalMoveError, match="no turns"):
        parse_move(str(place) + "L", state)


def test_round_over_takes_only_next() -> None:
    for state in random_states("basic", range(1), moves=2000):
        if state.is_round_over and not state.is_game_over:
            assert parse_move("next", state) == NEXT_ROUND
            assert parse_move("n", state) == NEXT_ROUND
            with pytest.raises(IllegalMoveError, match="round is over"):
                parse_move("draw", state)
            return
    pytest.fail("no finished round in the sample")


def test_wild_faces_need_their_named_value() -> None:
    """A wild face shows the value its player names (seed 004: blanks as any value)."""
    named = None
    for name in bendolib.rules.names():
        if not bendolib.rules.get(name).wild_faces:
            continue
        for state in random_states(name, range(6), moves=120):
            for move in bendolib.legal_moves(state):
                if isinstance(move, Place) and "=" in str(move):
                    named = (state, move)
                    break
            if named:
                break
        if named:
            break
    assert named is not None, "no registered variant with wild faces named a value"
    state, move = named
    assert parse_move(str(move), state) == move
    bare = re.sub(r"=\d+", "", str(move))
    with pytest.raises(ParseError, match="name the value"):
        parse_move(bare, state)


@given(st.text(max_size=12))
def test_any_text_gives_a_move_or_a_library_error(text: str) -> None:
    """parse_move never fails with anything but ParseError / IllegalMoveError."""
    state = opened()
    try:
        move = parse_move(text, state)
    except (ParseError, IllegalMoveError):
        return
    assert move in bendolib.legal_moves(state)


@given(st.sampled_from(["draw", "pass", "next"]) | st.from_regex(r"\A[0-6]-[0-6](@[0-3][LR])?\Z"))
def test_well_formed_text_is_never_a_parse_error_unless_ambiguous(text: str) -> None:
    state = opened(3)
    try:
        parse_move(text, state)
    except IllegalMoveError:
        pass
    except ParseError as exc:
        assert "ambiguous" in str(exc)
    assert str(PASS) == "pass" and str(DRAW) == "draw"
