"""Game records (docs/records.md): dump, load, replay, and what a bad record raises."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest

import bendolib
from bendolib import ParseError, records
from bendolib import position_text as pt
from bendolib.errors import RecordError
from bendolib.rules.classic import AS_OPENSPIEL_BLOCK
from bendolib.state import GameState
from bendolib.tiles import TileSet


def play(rules: bendolib.RuleSet, players: int, seed: int, moves: int = 5000) -> GameState:
    state = bendolib.new_game(rules, players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_game_over:
            break
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    return state


def multi_round_game() -> GameState:
    for seed in range(50):
        state = play(bendolib.rules.get("basic"), 2, seed)
        if len(state.results) >= 3:
            return state
    raise AssertionError("no match of three rounds")


@pytest.mark.parametrize("name", bendolib.rules.names())
def test_round_trip_every_variant_and_player_count(name: str) -> None:
    """load(dump(game)) replays to the identical final state, for every registered variant."""
    rules = bendolib.rules.get(name)
    for players in rules.player_counts:
        state = play(rules, players, seed=players)
        assert state.is_game_over
        text = records.dump(state)
        record = records.load(text)
        assert records.replay(record) == state
        assert record.to_json() == text
        assert record == records.record_of(state)
        assert sum(len(r) for r in state.match_history) == record.move_count


def test_every_round_is_recorded() -> None:
    """GameState.history holds one round; the record holds them all, with their results."""
    state = multi_round_game()
    record = records.record_of(state)
    assert [r.number for r in record.rounds] == list(range(1, state.round_number + 1))
    assert tuple(r.result for r in record.rounds) == state.results
    assert len(state.history) == len(record.rounds[-1].moves)
    assert record.scores == state.scores and record.winner == state.winner
    data = json.loads(records.dump(state))
    assert data["format"] == "bendolib-record" and data["version"] == 1
    assert data["rules"] == {"name": "basic"}
    assert data["seed"] == state.seed and data["players"] == 2
    assert data["rounds"][0]["moves"][0].endswith("*")
    assert all("next" not in r["moves"] for r in data["rounds"])


def test_unfinished_match_and_player_names() -> None:
    rules = bendolib.rules.get("basic")
    state = play(rules, 3, seed=4, moves=25)
    assert not state.is_game_over
    text = records.dump(state, names=["ann", "bob", "cy"])
    record = records.load(text)
    assert record.names == ("ann", "bob", "cy")
    assert record.rounds[-1].result is None and record.scores is None
    assert records.replay(record) == state


def test_configured_rules_are_recorded_with_their_parameters() -> None:
    for rules in (
        bendolib.rules.get("basic", target=40, batch=2),
        bendolib.rules.get("basic", tileset=TileSet.double(7, both_bends=True)),
        AS_OPENSPIEL_BLOCK,
    ):
        state = play(rules, 2, seed=9)
        data = json.loads(records.dump(state))
        assert "parameters" in data["rules"]
        assert records.replay(records.load(records.dump(state))) == state


def test_a_match_started_from_a_position_is_recorded_with_it() -> None:
    """A state read from a position text has no earlier moves: the record carries it."""
    rules = bendolib.rules.get("basic", target=150)
    state = bendolib.new_game(rules, 2, 3)
    rng = random.Random(3)
    while state.round_number < 2 or len(state.history) < 4:
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    start = pt.loads(pt.dumps(state))
    state = start
    for _ in range(30):
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    record = records.load(records.dump(state, start=start))
    assert record.start == pt.dumps(start)
    assert records.replay(record) == state
    # the loaded state is the origin of its round's history: dump finds it by itself,
    # also once later rounds have been dealt
    assert records.load(records.dump(state)) == record
    while state.round_number < 4 and not state.is_game_over:
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    assert records.replay(records.load(records.dump(state))) == state


def test_a_position_loaded_in_round_one_is_recorded_with_it() -> None:
    """Before: dump() wrote such a match as if it began with the deal of its seed, and
    the record replayed other moves (or failed)."""
    state = bendolib.new_game(bendolib.rules.get("basic"), 2, 5)
    rng = random.Random(5)
    for _ in range(6):
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    start = pt.loads(pt.dumps(state))
    later = bendolib.apply(start, bendolib.legal_moves(start)[0])
    record = records.load(records.dump(later))
    assert record.start == pt.dumps(start)
    assert records.replay(record) == later


def test_steps_yield_every_move_and_deal() -> None:
    state = multi_round_game()
    record = records.record_of(state)
    steps = list(records.steps(record))
    deals = [s for s in steps if s.move_number == 0]
    assert len(deals) == len(record.rounds) - 1
    assert len(steps) == record.move_count + len(deals)
    assert steps[-1].state == state
    assert [s.text for s in steps if s.move_number == 1] == [r.moves[0] for r in record.rounds]


# -- bad records --------------------------------------------------------------------------


def record_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(records.dump(multi_round_game()))
    return data


def replay_text(data: dict[str, Any]) -> GameState:
    return records.replay(records.load(json.dumps(data)))


def test_truncated_text_is_a_parse_error_with_its_offset() -> None:
    text = records.dump(multi_round_game())
    cut = text[: len(text) // 2]
    with pytest.raises(RecordError, match=r"not valid JSON .*truncated") as caught:
        records.load(cut)
    assert isinstance(caught.value, ParseError)
    assert caught.value.position is not None and caught.value.position <= len(cut)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=2), "record version 2 is not supported"),
        (lambda d: d.pop("version"), "record version None"),
        (lambda d: d.update(format="chess"), "not a bendolib record"),
        (lambda d: d.update(rules={"name": "no-such-game"}), "unknown rule set"),
        (lambda d: d["rules"].update(parameters={"colour": 1}), "no parameter 'colour'"),
        (lambda d: d.pop("rounds"), "no 'rounds'"),
        (lambda d: d.update(players=9), "not for 9 players"),
        (lambda d: d.update(players="2"), "'players' has the wrong type"),
        (lambda d: d["rounds"][0].pop("moves"), "round 1 has no 'moves'"),
        (lambda d: d["rounds"][0]["moves"].insert(0, 5), "a move is a string"),
        (lambda d: d["rounds"][0]["result"].pop("points"), "the result has no points"),
        (lambda d: d["tileset"]["tiles"].pop(), "tile set differs"),
        (lambda d: d.update(names=["solo"]), "1 names for 2 players"),
    ],
)
def test_malformed_records_are_refused_on_load(change: Any, message: str) -> None:
    data = record_data()
    change(data)
    with pytest.raises(RecordError, match=message):
        records.load(json.dumps(data))


def test_an_edited_move_names_its_round_and_number() -> None:
    data = record_data()
    data["rounds"][1]["moves"][2] = "0-0@7L"
    with pytest.raises(RecordError) as caught:
        replay_text(data)
    error = caught.value
    assert (error.round_number, error.move_number) == (2, 3)
    assert str(error).startswith("round 2, move 3: illegal move '0-0@7L' for player")
    assert error.position == 3


def test_a_malformed_move_names_its_round_and_number() -> None:
    data = record_data()
    data["rounds"][0]["moves"][4] = "6--6"
    with pytest.raises(RecordError, match=r"^round 1, move 5: bad move '6--6': expected a face"):
        replay_text(data)


def test_truncated_moves_are_detected() -> None:
    data = record_data()
    del data["rounds"][0]["moves"][-1]
    with pytest.raises(RecordError, match=r"round 1: the moves stop .* \(truncated\?\)"):
        replay_text(data)
    data = record_data()
    del data["rounds"][0]["moves"][-1]
    del data["rounds"][0]["result"]
    with pytest.raises(RecordError, match=r"round 1 is not over after its .* moves"):
        replay_text(data)


def test_extra_rounds_moves_and_edited_results_are_detected() -> None:
    data = record_data()
    data["rounds"][0]["moves"].append("draw")
    with pytest.raises(RecordError, match="one move too many"):
        replay_text(data)
    data = record_data()
    data["rounds"][0]["result"]["points"] = [99, 0]
    with pytest.raises(RecordError, match=r"^round 1: the recorded result differs"):
        replay_text(data)
    data = record_data()
    data["scores"] = [0, 0]
    with pytest.raises(RecordError, match="recorded final scores"):
        replay_text(data)
    data = record_data()
    data["rounds"].append({"round": 99, "moves": []})
    with pytest.raises(RecordError, match="the match ended in round"):
        replay_text(data)
    data = record_data()
    data["rounds"][1]["round"] = 5
    with pytest.raises(RecordError, match="expected round 2, found round 5"):
        replay_text(data)


def test_the_seed_decides_the_deal() -> None:
    """A record replayed with another seed fails at its first move (the deal differs)."""
    data = record_data()
    data["seed"] += 1
    with pytest.raises(RecordError, match=r"^round 1, move 1: illegal move"):
        replay_text(data)


def test_record_error_is_a_parse_error() -> None:
    assert issubclass(RecordError, ParseError)
    error = RecordError("bad", 2, 7)
    assert str(error) == "round 2, move 7: bad" and error.position == 7
    assert attrs.has(records.GameRecord)
