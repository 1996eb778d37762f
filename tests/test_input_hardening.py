"""Regression tests for the input surfaces of issue 14 (points 4, 5, 6, 8, 9, 10), each
built the way the issue's reproduction hit it, and for new_game's arguments (issue 16, 9)."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import attrs
import pytest

import bendolib
from bendolib import (
    ArgumentError,
    BendolibError,
    ParseError,
    RecordError,
    RuleSetError,
    Tile,
    TileSet,
    position_text,
    records,
)
from bendolib._rule_spec import register_policy, rules_from_spec, rules_to_spec
from bendolib.limits import MAX_POSITION_CHARS, MAX_RECORD_CHARS, MAX_TILES
from bendolib.rules.scoring import RoundOutcome, RoundScore
from bendolib.sampling import sample_state


def _played(rules: bendolib.RuleSet, moves: int = 10, players: int = 2) -> bendolib.GameState:
    state = bendolib.new_game(rules, players, 4)
    rng = random.Random(4)
    for _ in range(moves):
        if state.is_game_over:
            break
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    return state


def _record(**changes: Any) -> str:
    data = json.loads(records.dump(_played(bendolib.rules.get("basic"))))
    data.update(changes)
    return json.dumps(data)


# -- point 4: changed wild_faces can be saved ------------------------------------------


@pytest.mark.parametrize("name", ["basic", "all-five", "classic-draw"])
def test_changed_wild_faces_are_written_and_read_back(name: str) -> None:
    """Before: records.dump and position_text.dumps raised RuleSetError (the derived
    wild_mask and listing were compared as changes)."""
    state = _played(bendolib.rules.get(name, wild_faces={0}), 12)
    assert position_text.loads(position_text.dumps(state)) == state.replace(log=None, past=None)
    assert records.replay(records.load(records.dump(state))) == state
    assert rules_to_spec(state.rules)["parameters"] == {"wild_faces": [0]}


# -- point 5: no module is imported because data names it ---------------------------


def test_a_record_naming_the_cli_does_not_run_it() -> None:
    """Before: records.load imported bendolib.__main__ and raised SystemExit."""
    rules = {"name": "basic", "parameters": {"start": {"$policy": "bendolib.__main__:X"}}}
    with pytest.raises(RecordError, match=r"unknown policy class 'bendolib\.__main__:X'"):
        records.load(_record(rules=rules))
    with pytest.raises(ParseError, match="unknown policy class"):
        rules_from_spec({"name": "basic", "parameters": {"start": {"$policy": "os:system"}}})


@attrs.frozen
class EveryoneScoresOne:
    """A round scoring of a user's own: one point to each seat."""

    points: int = 1

    def score(self, outcome: RoundOutcome) -> RoundScore:
        return RoundScore((self.points,) * len(outcome.hand_points), ())


def test_a_users_policy_is_written_once_its_class_is_registered() -> None:
    rules = bendolib.rules.get("basic").configure("mine", round_scoring=EveryoneScoresOne(2))
    state = bendolib.new_game(rules, 2, 1)
    with pytest.raises(RuleSetError, match="register its class"):
        records.dump(state)
    register_policy(EveryoneScoresOne, "tests:EveryoneScoresOne")
    text = records.dump(state)
    assert '"$policy": "tests:EveryoneScoresOne"' in text
    assert records.load(text).rules == rules
    with pytest.raises(TypeError, match="attrs class"):
        register_policy(dict)


# -- point 6: cost in proportion to the input, limits, short messages -----------------


def test_a_tile_sets_top_must_be_its_highest_number() -> None:
    """Before: a 383-character position with ``top`` 2,000,000 and a wild face made
    legal_moves list 2,000,005 moves."""
    tiles = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
    spec = {
        "name": "basic",
        "parameters": {
            "tileset": {"$tileset": {"name": "x", "top": 2_000_000, "tiles": tiles}},
            "wild_faces": [0],
        },
    }
    with pytest.raises(ParseError, match="top must be the highest number on the tiles, 6"):
        rules_from_spec(spec)
    with pytest.raises(RuleSetError, match="top must be"):
        TileSet("x", (Tile(0, 0), Tile(0, 1)), 7)


def test_tile_sets_are_bounded() -> None:
    with pytest.raises(RuleSetError, match=f"at most {MAX_TILES} tiles"):
        TileSet("huge", tuple(Tile(a, b) for a in range(60) for b in range(a, 60)))
    with pytest.raises(RuleSetError, match="N from 0 to 99"):
        TileSet.double(10**6)
    with pytest.raises(RuleSetError, match="a face is a number from 0 to 99"):
        Tile(0, 10**9)


def test_a_huge_position_text_is_refused_before_it_is_read() -> None:
    """Before: 50 MB took 43 s and 2.4 GB before a rejection at offset 26."""
    text = "basic players=2 " + "x" * (MAX_POSITION_CHARS + 1)
    with pytest.raises(ParseError, match="at most 1,000,000 characters") as caught:
        position_text.loads(text)
    assert len(str(caught.value)) < 300


def test_a_huge_record_is_refused() -> None:
    with pytest.raises(RecordError, match="at most 32,000,000 characters"):
        records.load(" " * (MAX_RECORD_CHARS + 1))


def test_messages_quote_at_most_a_window_of_the_input() -> None:
    """Before: an 800 KB input gave an 800 KB message."""
    text = "basic players=2 hands=" + "9-9," * 200_000
    with pytest.raises(ParseError) as caught:
        position_text.loads(text)
    assert len(str(caught.value)) < 300
    assert caught.value.text is text  # the input itself stays available


# -- point 8: loaders and parsers raise only library errors ----------------------------


def test_numbers_of_thousands_of_digits() -> None:
    """Before: ValueError (Python's 4,300-digit limit) from notation and record JSON."""
    state = bendolib.new_game("basic", 2, 1)
    with pytest.raises(ParseError, match="at most 20 digits"):
        bendolib.parse_move(
            "6-6@" + "9" * 50, bendolib.apply(state, bendolib.legal_moves(state)[0])
        )
    with pytest.raises(RecordError, match="at most 20 digits"):
        records.load(_record().replace('"seed": 4', '"seed": ' + "9" * 5000))
    with pytest.raises(ParseError, match="not a number"):
        position_text.loads(position_text.dumps(state).replace("seed=1", "seed=" + "9" * 5000))


def test_deep_nesting() -> None:
    """Before: RecursionError for '[' * 100000 or a parameter nested 900 deep."""
    with pytest.raises(RecordError, match="nest"):
        records.load("[" * 100_000)
    deep: Any = 1
    for _ in range(900):
        deep = [deep]
    with pytest.raises(ParseError, match="nest more than 32"):
        rules_from_spec({"name": "basic", "parameters": {"target": deep}})
    state = bendolib.new_game("basic", 2, 1)
    with pytest.raises(ParseError, match="nest"):
        position_text.loads(position_text.dumps(state) + " results=" + "[" * 100_000)


@pytest.mark.parametrize(
    "tileset",
    [
        {"name": "x"},
        {"name": "x", "tiles": "0-0"},
        {"name": 5, "tiles": ["0-0"]},
        {"name": "x", "tiles": [0]},
        {"name": "x", "tiles": ["0-0", "0-0"]},
        {"name": "x", "tiles": ["0-0"], "top": "6"},
        {"name": "x", "tiles": ["0-0"], "top": 10**30},
        {"name": "x", "tiles": ["0-9999"]},
        [],
    ],
)
def test_malformed_tilesets(tileset: Any) -> None:
    """Before: KeyError, TypeError, ValueError or OverflowError."""
    with pytest.raises(ParseError):
        rules_from_spec({"name": "basic", "parameters": {"tileset": {"$tileset": tileset}}})


def test_record_values_of_the_wrong_kind() -> None:
    """Before: TypeError for "names": Infinity."""
    with pytest.raises(RecordError, match="Infinity is not a value"):
        records.load(_record().replace('"players": 2', '"names": Infinity, "players": 2'))
    with pytest.raises(RecordError, match="'names' must be a list of strings"):
        records.load(_record(names=[1, 2]))
    with pytest.raises(RecordError, match="a seed is from 0 to 2\\*\\*64 - 1"):
        records.load(_record(seed=-1))
    with pytest.raises(RecordError, match="'winner' must be a side number"):
        records.load(_record(winner=99))


def test_a_float_in_a_positions_results() -> None:
    """Before: OverflowError for 1e400 in a position's results."""
    state = _played(bendolib.rules.get("basic"), 200)
    text = position_text.dumps(state)
    assert "results=[[1," in text
    with pytest.raises(ParseError, match="not an integer"):
        position_text.loads(text.replace("results=[[1,", "results=[[1e400,"))


# -- point 9: the API checks what it is given --------------------------------------------


def _opened() -> bendolib.GameState:
    state = bendolib.new_game("basic", 2, 1)
    return bendolib.apply(state, bendolib.legal_moves(state)[0])


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("6-6*", "not str: read notation with bendolib.parse_move"),
        (None, "not NoneType"),
        (object(), "not object"),
        (5, "not int"),
    ],
)
def test_apply_refuses_what_is_not_a_move(move: Any, message: str) -> None:
    """Before: a bare AssertionError (AttributeError under python -O)."""
    with pytest.raises(TypeError, match=message):
        bendolib.apply(_opened(), move)


def test_apply_with_a_place_of_a_bad_turn_or_field() -> None:
    """Before: KeyError from Place.__str__ for turn 3."""
    state = _opened()
    place = next(m for m in bendolib.legal_moves(state) if isinstance(m, bendolib.Place))
    with pytest.raises(bendolib.IllegalMoveError, match=r"@.*\?3"):
        bendolib.apply(state, attrs.evolve(place, turn=3))
    with pytest.raises(TypeError, match=r"Place\.end is an int, not str"):
        bendolib.apply(state, attrs.evolve(place, end="0"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"Place\.tile is a Tile"):
        bendolib.apply(state, attrs.evolve(place, tile="6-6"))  # type: ignore[arg-type]


def test_api_arguments_of_the_wrong_type_or_range() -> None:
    state = _opened()
    basic = bendolib.rules.get("basic")
    with pytest.raises(TypeError, match="players is an int, not float"):
        bendolib.new_game(basic, 2.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="legal_moves takes a GameState, not int"):
        bendolib.legal_moves(5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="no seat 9 among 2 players"):
        state.hand(9)
    with pytest.raises(TypeError, match="a seat is an int, not str"):
        state.observation("0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"rng is a random\.Random, not int"):
        sample_state(state.observation(0), 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a rule set's name is a str, not list"):
        bendolib.rules.get(["basic"])  # type: ignore[arg-type]
    with pytest.raises(RuleSetError, match="parameter target is an int, not 'abc'"):
        bendolib.rules.get("basic", target="abc")


# -- issue 16, point 9: new_game's rule set name and seed --------------------------------


@pytest.mark.parametrize("seed", [1.5, "7", True, b"7"])
def test_a_seed_is_an_int(seed: Any) -> None:
    with pytest.raises(TypeError, match="a seed is an int"):
        bendolib.new_game("basic", 2, seed)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_a_seed_is_64_bits(seed: int) -> None:
    with pytest.raises(ArgumentError, match="a seed is from 0 to 2\\*\\*64 - 1"):
        bendolib.new_game("basic", 2, seed)


def test_new_game_takes_a_name_and_a_missing_seed_is_fresh_and_recorded() -> None:
    by_name = bendolib.new_game("basic", 2, 7)
    assert by_name == bendolib.new_game(bendolib.rules.get("basic"), 2, 7)
    games = [bendolib.new_game("basic") for _ in range(3)]
    assert len({g.seed for g in games}) == 3  # not seed 0 for every game
    again = bendolib.new_game("basic", 2, games[0].seed)
    assert again == games[0]  # the recorded seed replays the game
    with pytest.raises(bendolib.UnknownRuleSetError):
        bendolib.new_game("no-such-rules")


# -- point 10: position_text.loads accepts only positions that can arise --------------------

DEALT = (
    "basic players=2 seed=3 round=1 turn=0 scores=0,0 "
    "hands=0-5R,1-2L,1-4R,2-2,3-6R,5-5,5-6L/0-0,0-2L,1-5L,1-6R,2-3L,4-5L,4-6L "
    "deck=3-6R,5-6L,0-5R,2-2,5-5,1-2L,1-4R,1-5L,0-2L,1-6R,4-5L,0-0,2-3L,4-6L|"
    "3-3,3-5L,1-3L,3-4L,6-6,0-3R,1-1,0-6R,0-4L,4-4,2-4L,2-5R,0-1L,2-6L board=-"
)


def test_the_dealt_position_reads() -> None:
    state = position_text.loads(DEALT + " opening=5-5")
    assert state == bendolib.new_game("basic", 2, 3)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (" turn=1 opening=5-5", "the opening tile must be in the hand of player 1"),
        (" out=5", "out lists seats from 0 to 1"),
        (" phase=game-over winner=99", "has a result exactly when it is over"),
        (" phase=game-over", "has a result exactly when it is over"),
        (" direction=0", "the direction is 1 or -1"),
        (" drawn=5-5", "drawn_count=0 but 1 tiles drawn"),
        (" last=7", "last is a seat from 0 to 1"),
    ],
)
def test_positions_that_cannot_arise_are_refused(extra: str, message: str) -> None:
    text = DEALT.replace(" turn=0", "") + extra if "turn=" in extra else DEALT + extra
    with pytest.raises(ParseError, match=message):
        position_text.loads(text)


def test_negative_scores_and_look_alike_digits_are_refused() -> None:
    with pytest.raises(ParseError, match="bad scores: not a number: '-5'"):
        position_text.loads(DEALT.replace("scores=0,0", "scores=-5,0"))
    with pytest.raises(ParseError, match="bad players: not a number"):
        position_text.loads(DEALT.replace("players=2", "players=\u0662"))


def test_a_game_over_position_names_the_winner_its_scores_give() -> None:
    state = _played(bendolib.rules.get("basic", target=10), 400)
    assert state.is_game_over
    text = position_text.dumps(state)
    assert position_text.loads(text) == state.replace(log=None, past=None)
    assert state.winner is not None
    for wrong in (1 - state.winner, 99):
        with pytest.raises(ParseError, match=f"the winner of these scores is {state.winner}"):
            position_text.loads(text.replace(f"winner={state.winner}", f"winner={wrong}"))
    with pytest.raises(ParseError, match=f"the winner of these scores is {state.winner}"):
        position_text.loads(text.replace(f" winner={state.winner}", ""))


def test_a_record_may_not_borrow_a_registered_name() -> None:
    spec = {"name": "basic", "base": "classic-block"}
    with pytest.raises(ParseError, match="'basic' is a registered rule set"):
        rules_from_spec(spec)
    with pytest.raises(RecordError, match="registered rule set"):
        records.load(_record(rules=spec))


def test_only_library_errors_from_every_loader_on_random_bytes() -> None:
    rng = random.Random(0)
    for _ in range(300):
        text = bytes(rng.randrange(256) for _ in range(rng.randrange(60))).decode("latin-1")
        for load in (position_text.loads, records.load, bendolib._rule_spec.parse_tile_text):
            with contextlib.suppress(BendolibError):
                load(text)


@pytest.mark.parametrize("fallback", [float("nan"), bendolib.DRAW, "highest"])
def test_a_policy_valued_parameter_takes_a_policy(fallback: Any) -> None:
    """Found by the adversarial suite: rules.get(..., fallback=nan) was accepted, and the
    match then failed in the start policy."""
    with pytest.raises(RuleSetError, match="parameter fallback is a policy like HighestDouble"):
        bendolib.rules.get("domino-pairs", fallback=fallback)
    assert bendolib.rules.get("domino-pairs", fallback=bendolib.rules.HighestDouble()).start


def _policies(value: Any) -> list[Any]:
    """The attrs values inside a rule set's parts, recursively (tiles and sets aside)."""
    found = []
    if attrs.has(type(value)) and not isinstance(value, Tile | TileSet):
        found.append(value)
        for field in attrs.fields(type(value)):
            if field.init:
                found += _policies(getattr(value, field.name))
    elif isinstance(value, tuple | frozenset):
        for item in value:
            found += _policies(item)
    return found


@pytest.mark.parametrize("name", bendolib.rules.names())
def test_every_policy_of_a_registered_rule_set_is_registered(name: str) -> None:
    """Every registered rule set can be written with its parameters changed: the classes
    of its policies are in the explicit registry (a new policy class must be added to
    _rule_spec.LIBRARY_POLICIES)."""
    rules = bendolib.rules.get(name)
    classes = set(bendolib._rule_spec.policy_classes().values())
    parts = [getattr(rules, f.name) for f in attrs.fields(bendolib.RuleSet) if f.init]
    missing = {type(p).__qualname__ for part in parts[1:] for p in _policies(part)} - {
        c.__qualname__ for c in classes
    }
    assert not missing, f"not registered: {sorted(missing)}"


def test_a_tile_sets_top_too_long_to_write_is_a_library_error() -> None:
    """Found by the long adversarial profile: a ``$tileset`` whose ``top`` is a number of
    more than 4,300 digits raised ValueError while the message was written."""
    spec = rules_to_spec(bendolib.rules.get("basic"))
    tiles = [str(t) for t in bendolib.rules.get("basic").tileset.tiles]
    spec["parameters"] = {"tileset": {"$tileset": {"name": "x", "tiles": tiles, "top": 10**5000}}}
    with pytest.raises(BendolibError, match="top must be the highest number"):
        rules_from_spec(spec)
