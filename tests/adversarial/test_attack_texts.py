"""Text and data surfaces: notation, tiles, position text, records, rule specs (issue 14).

Each test draws a valid input from a real game and attacks its surface with a batch of
mutants (see fuzz.py); whatever a surface accepts must play on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from fuzz import (
    _DEEP,
    _HUGE,
    BATCH,
    attack,
    fuzzing,
    json_mutants,
    mutate_json,
    plays_on,
    text_mutants,
)
from hypothesis import assume, given
from hypothesis import strategies as st

import bendolib
from bendolib import GameState, position_text, records
from bendolib._rule_spec import parse_tile_text, rules_from_spec, rules_to_spec
from bendolib.notation import parse_move, parse_pattern
from bendolib.testing import invariants
from bendolib.testing import strategies as bst

SEEDS = st.integers(0, 2**32 - 1)


#: Rule sets: the registered ones, configured ones, and wild faces (point 4).
RULES = st.one_of(
    bst.rulesets(),
    bst.rulesets(configured=True),
    st.sampled_from(["basic", "all-five", "classic-draw"]).map(
        lambda name: bendolib.rules.get(name, wild_faces={0})
    ),
)
STATES = bst.game_states(RULES, max_moves=150)


def playing_on(seed: int) -> Callable[[Any, GameState], None]:
    """The check of an accepted state: it plays on (see fuzz.plays_on)."""

    def check(_: Any, state: GameState) -> None:
        plays_on(state, seed)

    return check


POSITION_CHARS = '0123456789-=@*LR,/|: abcdefghijklmnoprstuwy{}[]"\\'


@fuzzing(25)
@given(STATES, SEEDS)
def test_position_text(state: GameState, seed: int) -> None:
    assume(invariants.writable(state.rules))
    text = position_text.dumps(state)

    inputs = [text, *text_mutants(text, seed, near=POSITION_CHARS)]
    attack("position_text.loads", inputs, position_text.loads, on_accept=playing_on(seed))


@fuzzing(10)
@given(STATES, SEEDS)
def test_position_text_rules_field(state: GameState, seed: int) -> None:
    """The rule set's JSON in a position text, its structure mutated."""
    assume(invariants.writable(state.rules))
    text = position_text.dumps(state)
    rest = text.split(" ", 1)[1]
    spec = rules_to_spec(state.rules)
    inputs = [f"{rules.replace(' ', '')} {rest}" for rules in json_mutants(spec, seed)]
    attack("position_text.loads (rules)", inputs, position_text.loads, on_accept=playing_on(seed))


def _replayed(text: str) -> GameState:
    return records.replay(records.load(text))


@fuzzing(12)
@given(bst.game_states(RULES, max_moves=80), SEEDS)
def test_records(state: GameState, seed: int) -> None:
    assume(invariants.writable(state.rules))
    text = records.dump(state, names=[f"p{i}" for i in range(state.players)])
    inputs = [text, *text_mutants(text, seed, near='0123456789-=@*LR,[]{}":')]
    attack("records.load+replay", inputs, _replayed, on_accept=playing_on(seed))


@fuzzing(12)
@given(bst.game_states(RULES, max_moves=80), SEEDS)
def test_record_structure(state: GameState, seed: int) -> None:
    assume(invariants.writable(state.rules))
    data = json.loads(records.dump(state))
    attack(
        "records.load+replay (JSON)",
        json_mutants(data, seed),
        _replayed,
        on_accept=playing_on(seed),
    )


def _materialized(data: Any, rng: random.Random) -> Any:
    """JSON-like data with the mutation markers made real: a 5,000-digit int, deep lists."""
    if data == _HUGE:
        return 10**5000
    if data == _DEEP:
        deep: Any = []
        for _ in range(rng.choice([40, 1000, 100_000])):
            deep = [deep]
        return deep
    if isinstance(data, list):
        return [_materialized(v, rng) for v in data]
    if isinstance(data, dict):
        return {k: _materialized(v, rng) for k, v in data.items()}
    return data


@fuzzing(25)
@given(RULES, SEEDS)
def test_rule_specs(rules: bendolib.RuleSet, seed: int) -> None:
    assume(invariants.writable(rules))
    spec = rules_to_spec(rules)
    rng = random.Random(seed)
    inputs = [spec, *(_materialized(mutate_json(spec, rng), rng) for _ in range(BATCH))]

    def accepted(_: Any, built: bendolib.RuleSet) -> None:
        plays_on(bendolib.new_game(built, built.player_counts[0], seed), seed, moves=6)

    attack("records.rules_from_spec", inputs, rules_from_spec, on_accept=accepted)


@fuzzing(25)
@given(bst.move_texts(RULES, max_moves=120), SEEDS)
def test_move_notation(pair: tuple[GameState, str], seed: int) -> None:
    state, text = pair
    legal = bendolib.legal_moves(state)

    def accepted(_: str, move: Any) -> None:
        assert move in legal

    inputs = [text, *text_mutants(text, seed, near="0123456789-=@*LRlrAPW dnpaxtse")]
    attack("notation.parse_move", inputs, lambda t: parse_move(t, state), on_accept=accepted)
    attack("notation.parse_pattern", text_mutants(text, seed + 1), parse_pattern)


@fuzzing(20)
@given(RULES, SEEDS)
def test_tile_texts(rules: bendolib.RuleSet, seed: int) -> None:
    tileset = rules.tileset
    text = str(tileset.tiles[seed % len(tileset.tiles)])
    attack(
        "_rule_spec.parse_tile_text",
        text_mutants(text, seed, near="0123456789-APWLR"),
        parse_tile_text,
    )
    attack(
        "TileSet.parse_tile",
        text_mutants(text, seed + 1, near="0123456789-APWLR"),
        tileset.parse_tile,
    )
