"""The API's arguments: new_game, apply, legal_moves, observation, sample_state... (issue 14).

Wrong types must raise a ``TypeError`` and wrong values a library error; ``apply`` must
refuse every forged move (moves of other states, wrong end, turn or face, tiles not in
hand) and accept exactly the legal ones; a sample drawn from a forged observation must
still be observed as that observation.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs
from fuzz import BATCH, attack, fuzzing, plays_on
from hypothesis import assume, given
from hypothesis import strategies as st

import bendolib
from bendolib import DRAW, NEXT_ROUND, PASS, GameState, Observation, Place, Tile, TileSet, records
from bendolib.sampling import sample_state
from bendolib.state import PLAYING
from bendolib.testing import strategies as bst

SEEDS = st.integers(0, 2**32 - 1)
STATES = bst.game_states(bst.rulesets(), max_moves=150, allow_game_over=False)


class _Odd:
    """An object of no expected type, with an attribute name the engine reads."""

    context = None


#: Values of every awkward kind, for any argument.
ODD: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    2,
    3,
    4,
    5,
    -1,
    -(2**64),
    2**64 - 1,
    2**64,
    10**30,
    1.5,
    2.0,
    float("nan"),
    float("inf"),
    "",
    "2",
    "basic",
    "7",
    "\u0662",
    "6-6*",
    "draw",
    b"basic",
    [],
    ["basic"],
    (),
    (2,),
    {},
    {"players": 2},
    object(),
    _Odd(),
    Tile(0, 0),
    DRAW,
    PASS,
    NEXT_ROUND,
]


def _odd(rng: random.Random) -> Any:
    return rng.choice(ODD)


@fuzzing(30)
@given(SEEDS)
def test_new_game(seed: int) -> None:
    rng = random.Random(seed)
    names = [*bendolib.rules.names(), bendolib.rules.get("basic")]

    def argument(rng: random.Random) -> Any:
        return rng.choice(names) if rng.randrange(2) else _odd(rng)

    inputs = [
        (argument(rng), rng.choice([2, 3, 4]) if rng.randrange(2) else _odd(rng), _odd(rng))
        for _ in range(BATCH)
    ]

    def call(args: tuple[Any, Any, Any]) -> GameState:
        return bendolib.new_game(*args)

    attack(
        "new_game",
        inputs,
        call,
        type_errors=True,
        on_accept=lambda _, state: plays_on(state, seed, moves=4),
    )


def _forged(state: GameState, other: GameState, rng: random.Random) -> Iterator[Any]:
    """Moves forged for ``state``: others' moves, changed fields, tiles not in hand."""
    legal = bendolib.legal_moves(state)
    places = [m for m in legal if isinstance(m, Place)]
    tiles = state.rules.tileset.tiles
    theirs: list[Any] = [m for m in bendolib.legal_moves(other) if isinstance(m, Place)]
    theirs = theirs or [DRAW]
    for _ in range(BATCH):
        kind = rng.randrange(6)
        if kind == 0:
            yield rng.choice(theirs)
        elif kind == 1 and places:
            move = rng.choice(places)
            field = rng.choice(["tile", "end", "inward", "shows", "turn", "position"])
            value: Any = rng.choice([*ODD, rng.choice(tiles), rng.randrange(-3, 12)])
            yield _evolved(move, field, value)
        elif kind == 2:
            tile = rng.choice(tiles)
            yield Place(tile, rng.randrange(-1, 4), rng.choice((tile.a, tile.b)), tile.b, 1)
        elif kind == 3:
            yield rng.choice([DRAW, PASS, NEXT_ROUND])
        elif kind == 4:
            yield _odd(rng)
        else:
            yield rng.choice(legal)


def _evolved(move: Place, field: str, value: Any) -> Any:
    # attrs.evolve calls Place(...), which stores whatever it is given
    return attrs.evolve(move, **{field: value})


@fuzzing(25)
@given(STATES, STATES, SEEDS)
def test_apply_refuses_forged_moves(state: GameState, other: GameState, seed: int) -> None:
    assume(state.phase != 2)
    legal = bendolib.legal_moves(state)

    def accepted(move: Any, after: GameState) -> None:
        assert move in legal, f"apply accepted {move!r}, not a legal move"
        assert after == bendolib.apply(state, legal[legal.index(move)])

    rng = random.Random(seed)
    attack(
        "apply (forged moves)",
        list(_forged(state, other, rng)),
        lambda move: bendolib.apply(state, move),
        type_errors=True,
        on_accept=accepted,
    )
    attack(
        "apply (state)",
        [_odd(rng) for _ in range(BATCH)],
        lambda s: bendolib.apply(s, legal[0]),
        type_errors=True,
    )


@fuzzing(25)
@given(STATES, SEEDS)
def test_state_queries(state: GameState, seed: int) -> None:
    rng = random.Random(seed)
    inputs = [_odd(rng) for _ in range(BATCH)]
    attack(
        "legal_moves",
        inputs,
        bendolib.legal_moves,
        type_errors=True,
        on_accept=lambda value, _: _fail(value) if not isinstance(value, GameState) else None,
    )
    attack("GameState.observation", inputs, state.observation, type_errors=True)
    attack("GameState.hand", inputs, state.hand, type_errors=True)
    attack("GameState.hand_points", inputs, state.hand_points, type_errors=True)
    attack(
        "records.dump (names)",
        [[_odd(rng)] * state.players for _ in range(BATCH)],
        lambda names: records.dump(state, names),
        type_errors=True,
    )


def _fail(value: Any) -> None:
    raise AssertionError(f"accepted {value!r}")


#: Observation fields a forger changes, with values of the right type or not.
_FIELDS = [f.name for f in attrs.fields(Observation) if f.name != "rules"]


@fuzzing(20)
@given(STATES, STATES, SEEDS)
def test_sample_state_of_forged_observations(state: GameState, other: GameState, seed: int) -> None:
    assume(state.phase == PLAYING)
    rng = random.Random(seed)
    player = rng.randrange(state.players)
    observation = state.observation(player)
    theirs = other.observation(rng.randrange(other.players))

    def forged() -> Any:
        field = rng.choice(_FIELDS)
        value: Any
        current = getattr(observation, field)
        kind = rng.randrange(4)
        if kind == 0:
            value = getattr(theirs, field)
        elif kind == 1 and isinstance(current, int):
            value = current + rng.choice((-1, 1, 7, -(10**6)))
        elif kind == 2 and isinstance(current, tuple):
            value = current[:-1] if current and rng.randrange(2) else (*current, *current[:1])
        else:
            value = _odd(rng)
        return attrs.evolve(observation, **{field: value})

    def sampled(obs: Observation) -> GameState:
        return sample_state(obs, random.Random(seed), max_attempts=50)

    def accepted(obs: Observation, world: GameState) -> None:
        assert world.observation(obs.player) == obs, "the sample is observed otherwise"

    attack(
        "sample_state (forged observations)",
        [forged() for _ in range(BATCH)],
        sampled,
        type_errors=True,
        on_accept=accepted,
    )
    arguments = [(_odd(rng), _odd(rng)) for _ in range(BATCH)]
    attack(
        "sample_state (arguments)",
        arguments,
        lambda args: sample_state(observation, *args),
        type_errors=True,
    )


@fuzzing(25)
@given(bst.rulesets(), SEEDS)
def test_rule_parameters(rules: bendolib.RuleSet, seed: int) -> None:
    rng = random.Random(seed)
    names = list(rules.parameters())
    inputs = [
        {rng.choice([*names, "nosuch"]): _odd(rng) for _ in range(rng.randrange(1, 3))}
        for _ in range(BATCH)
    ]

    def accepted(_: Any, built: bendolib.RuleSet) -> None:
        plays_on(bendolib.new_game(built, built.player_counts[0], seed), seed, moves=4)

    attack(
        "rules.get (parameters)",
        inputs,
        lambda params: bendolib.rules.get(rules.name, **params),
        on_accept=accepted,
    )
    attack(
        "rules.get (name)", [_odd(rng) for _ in range(BATCH)], bendolib.rules.get, type_errors=True
    )


@fuzzing(20)
@given(SEEDS)
def test_tile_sets(seed: int) -> None:
    rng = random.Random(seed)

    def tiles() -> Any:
        kind = rng.randrange(4)
        if kind == 0:
            return _odd(rng)
        if kind == 1:
            return tuple(Tile(a, b) for a in range(rng.randrange(5)) for b in range(a, 4))
        if kind == 2:
            return tuple(rng.choice(ODD) for _ in range(3))
        return tuple(Tile(0, 0) for _ in range(2))

    inputs = [(_odd(rng), tiles(), _odd(rng)) for _ in range(BATCH)]
    attack("TileSet", inputs, lambda args: TileSet(*args), type_errors=True)
    attack("TileSet.double", [_odd(rng) for _ in range(BATCH)], TileSet.double, type_errors=True)
    faces = [(_odd(rng), _odd(rng), _odd(rng)) for _ in range(BATCH)]
    attack("Tile", faces, lambda args: Tile(*args), type_errors=True)
