"""
Hypothesis strategies for bendolib's values: rule sets, tile sets, deals, states, moves.

Every strategy shrinks towards simple examples: the first registered rule set with its
own parameters, small tile sets, seed 0, and for :func:`game_states` short games (the
number of moves and each move's index among the legal moves are drawn from hypothesis,
so a failing example shrinks to the fewest, earliest-listed moves).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from typing import Any, overload

import attrs
from hypothesis import assume, currently_in_test_context, note
from hypothesis import strategies as st

from bendolib import engine, position_text, records
from bendolib import rules as registry
from bendolib.errors import BendolibError
from bendolib.geometry.board import Board
from bendolib.moves import (
    DRAW,
    NEXT_ROUND,
    OPENING,
    PASS,
    Draw,
    Move,
    NextRound,
    Pass,
    Place,
    PlaceInCell,
)
from bendolib.observation import Observation
from bendolib.records import GameRecord
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.triangles import TRIANGLE_RULESETS
from bendolib.state import GameState
from bendolib.testing.checker import rules_expression
from bendolib.tiles import LEFT, RIGHT, STRAIGHT, Tile, TileSet

#: The largest seed :func:`seeds` draws (any non-negative int is a valid seed).
MAX_SEED = 2**64 - 1


def seeds() -> st.SearchStrategy[int]:
    """Deal seeds: integers from 0 to 2**64 - 1."""
    return st.integers(0, MAX_SEED)


def ruleset_names() -> st.SearchStrategy[str]:
    """The names of the registered rule sets (read when drawn: later registrations count)."""
    return st.deferred(lambda: st.sampled_from(registry.names()))


def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except Exception:  # an unresolvable annotation: fall back on the value's type
        return {}


def _owner_hints(rules: RuleSet) -> dict[str, Any]:
    """The type annotation of every parameter of ``rules`` (where it can be resolved)."""
    hints: dict[str, Any] = {}
    for field in attrs.fields(type(rules)):
        value = getattr(rules, field.name)
        if value is not None and attrs.has(type(value)):
            for name, hint in _hints(type(value)).items():
                hints.setdefault(name, hint)
    hints.update({k: v for k, v in _hints(type(rules)).items() if k == "finish"})
    return hints


def _int_values(current: int) -> st.SearchStrategy[int]:
    low = 0 if current <= 0 else 1
    return st.integers(low, max(2 * current, low + 6))


def _values_for(hint: Any, current: Any) -> st.SearchStrategy[Any] | None:
    """Values of one scalar parameter: its Literal choices, a bool, or ints near its value."""
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return st.sampled_from(typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        inner = [s for a in options if (s := _values_for(a, current)) is not None]
        if not inner:
            return None
        if len(options) < len(typing.get_args(hint)):
            return st.one_of(st.none(), *inner)
        return st.one_of(*inner)
    if hint is bool or (hint is None and isinstance(current, bool)):
        return st.booleans()
    if hint is int or (hint is None and type(current) is int):
        return _int_values(current if isinstance(current, int) else 1)
    return None


def _plain_double(tileset: TileSet) -> bool:
    """True for a double-N set of ordinary numbered tiles (no symbol faces)."""
    return all(t.a >= 0 for t in tileset.tiles) and len(tileset) in (
        (tileset.top + 1) * (tileset.top + 2) // 2,
        (tileset.top + 1) ** 2,
    )


def _parameter_options(rules: RuleSet) -> dict[str, st.SearchStrategy[Any]]:
    hints = _owner_hints(rules)
    options: dict[str, st.SearchStrategy[Any]] = {}
    for name, value in rules.parameters().items():
        strategy = _values_for(hints.get(name), value)
        if strategy is not None:
            options[name] = strategy
    if _plain_double(rules.tileset) and not rules.wild_faces:
        options["tileset"] = tilesets(
            min_top=max(rules.tileset.top - 2, 1),
            max_top=rules.tileset.top + 3,
            kinds=("both_bends" if len(rules.tileset) > 28 else "curved",)
            if rules.tileset.curved
            else ("straight",),
        )
    return options


def _accepted(rules: RuleSet, params: dict[str, Any]) -> bool:
    try:
        rules.configure(**params)
    except BendolibError:
        return False
    return True


@st.composite
def ruleset_parameters(draw: st.DrawFn, rules: RuleSet) -> dict[str, Any]:
    """
    Parameter changes ``rules.configure(**params)`` accepts: its Literal, bool and int
    parameters (ints near their current value), and for a plain double-N rule set
    another tile set of the same kind.  Each parameter is drawn in turn and kept only
    when ``configure`` accepts it with those kept before (a combination the rule set
    rejects with :class:`~bendolib.RuleSetError` is never generated, and nothing is
    filtered).  Shrinks towards no change at all.
    """
    params: dict[str, Any] = {}
    for name, values in sorted(_parameter_options(rules).items()):
        if draw(st.booleans()):
            candidate = {**params, name: draw(values)}
            if _accepted(rules, candidate):
                params = candidate
    return params


@st.composite
def rulesets(
    draw: st.DrawFn,
    names: Sequence[str | RuleSet] | None = None,
    *,
    configured: bool = False,
) -> RuleSet:
    """
    A registered rule set (one of ``names``, every registered one by default; an entry
    may also be a :class:`RuleSet` itself, e.g. ``bendolib.rules.TRIANGLE_RULESETS``);
    with ``configured``, some of its parameters changed to other valid values.
    """
    name = draw(st.sampled_from(tuple(names)) if names is not None else ruleset_names())
    rules = name if isinstance(name, RuleSet) else registry.get(name)
    if configured:
        rules = rules.configure(**draw(ruleset_parameters(rules)))
    return rules


def bend_tables(top: int) -> st.SearchStrategy[dict[tuple[int, int], int]]:
    """A bend for each non-double ``(a, b)``, ``a < b <= top``: LEFT or RIGHT."""
    pairs = [(a, b) for a in range(top + 1) for b in range(a + 1, top + 1)]
    return st.fixed_dictionaries({pair: st.sampled_from((LEFT, RIGHT)) for pair in pairs})


@st.composite
def tilesets(
    draw: st.DrawFn,
    min_top: int = 0,
    max_top: int = 12,
    kinds: Sequence[str] = ("curved", "both_bends", "straight"),
) -> TileSet:
    """
    Double-N tile sets, ``min_top <= N <= max_top``, of the given kinds:
    ``"curved"`` (the default bends or a drawn bend table), ``"both_bends"``
    (every non-double in both bends) and ``"straight"`` (classic tiles).
    """
    top = draw(st.integers(min_top, max_top))
    kind = draw(st.sampled_from(tuple(kinds)))
    if kind == "straight":
        return TileSet.double(top, straight=True)
    if kind == "both_bends":
        return TileSet.double(top, both_bends=True)
    if kind != "curved":
        raise ValueError(f"unknown tile set kind {kind!r}")
    if draw(st.booleans()):
        return TileSet.double(top, bends=draw(bend_tables(top)))
    return TileSet.double(top)


@st.composite
def player_counts(draw: st.DrawFn, rules: RuleSet) -> int:
    """A number of players ``rules`` allows."""
    return draw(st.sampled_from(tuple(rules.player_counts)))


def _reproduce(text: str) -> None:
    """Print ``text`` with the minimal failing example (a one-line reproduction)."""
    if currently_in_test_context():
        note(text)


def _dealt(
    draw: st.DrawFn, rules: RuleSet | st.SearchStrategy[RuleSet] | None, players: int | None
) -> tuple[GameState, int]:
    if rules is None:
        rules = rulesets()
    chosen = draw(rules) if isinstance(rules, st.SearchStrategy) else rules
    count = players if players is not None else draw(player_counts(chosen))
    seed = draw(seeds())
    return engine.new_game(chosen, count, seed), seed


@st.composite
def deals(
    draw: st.DrawFn,
    rules: RuleSet | st.SearchStrategy[RuleSet] | None = None,
    players: int | None = None,
) -> GameState:
    """
    A newly dealt match: ``new_game(rules, players, seed)`` with a drawn seed (and a
    drawn rule set and player count unless given).  A failing example notes the call.
    """
    state, seed = _dealt(draw, rules, players)
    expr = rules_expression(state.rules)
    _reproduce(f"deal: bendolib.new_game({expr}, {state.players}, {seed})")
    return state


def _play(
    draw: st.DrawFn, state: GameState, max_moves: int, stop_at_game_over: bool
) -> tuple[GameState, list[int]]:
    steps = draw(st.integers(0, max_moves))
    choices: list[int] = []
    for _ in range(steps):
        moves = engine.legal_moves(state)
        if not moves:
            break
        index = draw(st.integers(0, len(moves) - 1))
        following = engine.apply(state, moves[index])
        if stop_at_game_over and following.is_game_over:
            break
        choices.append(index)
        state = following
    return state, choices


def _replayed(state: GameState, seed: int, choices: Sequence[int]) -> str:
    """The one-line call that replays a drawn state."""
    args = f"{rules_expression(state.rules)}, players={state.players}, seed={seed}"
    return f"bendolib.testing.replay_choices({args}, choices={list(choices)})"


@st.composite
def game_states(
    draw: st.DrawFn,
    rules: RuleSet | st.SearchStrategy[RuleSet] | None = None,
    players: int | None = None,
    *,
    max_moves: int = 200,
    allow_game_over: bool = True,
) -> GameState:
    """
    A state reached by up to ``max_moves`` random legal moves from a seeded deal.

    The number of moves and each move (its index in ``legal_moves``) are drawn, so
    failures shrink towards short games and the first-listed moves; a failing example
    notes the one-line :func:`~bendolib.testing.replay_choices` call that rebuilds the
    state.  ``max_moves`` also sets how often a state reaches a round's end or the
    match's end (the default 200 reaches the end of a short match now and then; raise
    it to test the end of matches more).  With ``allow_game_over=False`` the state
    always has a legal move.
    """
    state, seed = _dealt(draw, rules, players)
    state, choices = _play(draw, state, max_moves, not allow_game_over)
    _reproduce(f"state: {_replayed(state, seed, choices)}")
    return state


@overload
def legal_moves(state: GameState) -> st.SearchStrategy[Move]: ...


@overload
def legal_moves(
    state: st.SearchStrategy[GameState],
) -> st.SearchStrategy[tuple[GameState, Move]]: ...


def legal_moves(
    state: GameState | st.SearchStrategy[GameState],
) -> st.SearchStrategy[Move] | st.SearchStrategy[tuple[GameState, Move]]:
    """
    One of the legal moves of ``state`` (which must not be over); given a strategy of
    states instead, pairs ``(state, move)`` (states that are over are skipped: draw them
    with ``allow_game_over=False``).
    """
    if isinstance(state, st.SearchStrategy):
        return state.filter(lambda s: not s.is_game_over).flatmap(
            lambda s: st.tuples(st.just(s), legal_moves(s))
        )
    moves = engine.legal_moves(state)
    if not moves:
        raise ValueError("the match is over: there is no legal move")
    return st.sampled_from(moves)


@st.composite
def states_and_moves(
    draw: st.DrawFn,
    rules: RuleSet | st.SearchStrategy[RuleSet] | None = None,
    players: int | None = None,
    *,
    max_moves: int = 200,
) -> tuple[GameState, Move]:
    """A state that is not over and one of its legal moves."""
    state = draw(game_states(rules, players, max_moves=max_moves, allow_game_over=False))
    return state, draw(legal_moves(state))


@overload
def illegal_moves(state: GameState) -> st.SearchStrategy[Move]: ...


@overload
def illegal_moves(
    state: st.SearchStrategy[GameState],
) -> st.SearchStrategy[tuple[GameState, Move]]: ...


def illegal_moves(
    state: GameState | st.SearchStrategy[GameState],
) -> st.SearchStrategy[Move] | st.SearchStrategy[tuple[GameState, Move]]:
    """
    A move that is not legal in ``state``: a legal placement with one field changed,
    a placement of any tile anywhere, or draw / pass / next when they are not legal.
    Given a strategy of states instead, pairs ``(state, move)``.
    """
    if isinstance(state, st.SearchStrategy):
        return state.flatmap(lambda s: st.tuples(st.just(s), _illegal_moves(s)))
    return _illegal_moves(state)


@st.composite
def _illegal_moves(draw: st.DrawFn, state: GameState) -> Move:
    legal = engine.legal_moves(state)
    tileset = state.rules.tileset
    ends = len(state.board.ends)
    places = [m for m in legal if isinstance(m, Place)]
    anything = st.builds(
        Place,
        tile=st.sampled_from(tileset.tiles),
        end=st.integers(OPENING, ends + 1),
        inward=st.integers(-3, tileset.top + 1),
        shows=st.integers(-3, tileset.top + 1),
        turn=st.sampled_from((STRAIGHT, LEFT, RIGHT)),
        position=st.sampled_from([None, *(m.position for m in places)]),
    )
    options: list[st.SearchStrategy[Move]] = [
        st.sampled_from([m for m in (DRAW, PASS, NEXT_ROUND) if m not in legal] or [DRAW]),
        anything,
    ]
    if places:
        fields = ("tile", "end", "inward", "shows", "turn")
        options.append(
            st.tuples(st.sampled_from(places), st.sampled_from(fields), anything).map(
                lambda t: attrs.evolve(t[0], **{t[1]: getattr(t[2], t[1])})
            )
        )
    move = draw(st.one_of(options))
    assume(move not in legal)
    return move


@st.composite
def observations(
    draw: st.DrawFn,
    rules: RuleSet | st.SearchStrategy[RuleSet] | None = None,
    players: int | None = None,
    *,
    max_moves: int = 200,
) -> Observation:
    """What one seat knows of a state drawn by :func:`game_states`."""
    state = draw(game_states(rules, players, max_moves=max_moves))
    return state.observation(draw(st.integers(0, state.players - 1)))


@st.composite
def game_records(
    draw: st.DrawFn,
    rules: RuleSet | st.SearchStrategy[RuleSet] | None = None,
    players: int | None = None,
    *,
    max_moves: int = 200,
) -> GameRecord:
    """The record of the match that led to a state drawn by :func:`game_states`."""
    return records.record_of(draw(game_states(rules, players, max_moves=max_moves)))


@st.composite
def record_texts(
    draw: st.DrawFn,
    rules: RuleSet | st.SearchStrategy[RuleSet] | None = None,
    players: int | None = None,
    *,
    max_moves: int = 200,
) -> str:
    """The JSON text of a record drawn by :func:`game_records` (``records.dump``)."""
    return draw(game_records(rules, players, max_moves=max_moves)).to_json()


@st.composite
def position_texts(
    draw: st.DrawFn,
    rules: RuleSet | st.SearchStrategy[RuleSet] | None = None,
    players: int | None = None,
    *,
    max_moves: int = 200,
) -> str:
    """The position text of a state drawn by :func:`game_states`."""
    return position_text.dumps(draw(game_states(rules, players, max_moves=max_moves)))


@st.composite
def move_texts(
    draw: st.DrawFn,
    rules: RuleSet | st.SearchStrategy[RuleSet] | None = None,
    players: int | None = None,
    *,
    max_moves: int = 200,
) -> tuple[GameState, str]:
    """A state that is not over and the notation of one of its legal moves."""
    state, move = draw(states_and_moves(rules, players, max_moves=max_moves))
    return state, str(move)


_EDITS = ("delete", "insert", "replace", "duplicate", "swap", "truncate")


@st.composite
def mutated_texts(
    draw: st.DrawFn, text: str, *, alphabet: st.SearchStrategy[str] | None = None
) -> str:
    """
    ``text`` with a few random edits (characters deleted, inserted, replaced, spans
    duplicated or swapped, the end cut off): malformed inputs for fuzzing a parser.
    """
    chars = alphabet if alphabet is not None else st.characters(codec="utf-8")
    out = text
    for _ in range(draw(st.integers(1, 4))):
        edit = draw(st.sampled_from(_EDITS))
        size = len(out)
        at = draw(st.integers(0, size))
        if edit == "insert":
            out = out[:at] + draw(st.text(chars, min_size=1, max_size=5)) + out[at:]
        elif size == 0:
            continue
        elif edit == "delete":
            out = out[:at] + out[at + draw(st.integers(1, 5)) :]
        elif edit == "replace":
            at = min(at, size - 1)
            out = out[:at] + draw(chars) + out[at + 1 :]
        elif edit == "duplicate":
            end = min(size, at + draw(st.integers(1, 20)))
            out = out[:end] + out[at:end] + out[end:]
        elif edit == "swap":
            other = draw(st.integers(0, size - 1))
            at = min(at, size - 1)
            lo, hi = sorted((at, other))
            out = out[:lo] + out[hi] + out[lo + 1 : hi] + out[lo] + out[hi + 1 :]
        else:
            out = out[:at]
    return out


def malformed_texts(valid: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """
    Random text, random bytes decoded as text (UTF-8 with lone surrogates for bad bytes,
    and Latin-1), and mutations of ``valid`` texts.
    """
    return st.one_of(
        st.text(max_size=200),
        st.binary(max_size=200).map(lambda b: b.decode("utf-8", "surrogateescape")),
        st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
        valid.flatmap(mutated_texts),
    )


def _place_of(pair: tuple[GameState, Move]) -> Place | None:
    return pair[1] if isinstance(pair[1], Place) else None


def _legal_places() -> st.SearchStrategy[Place]:
    places = states_and_moves(max_moves=60).map(_place_of)
    return places.filter(lambda move: move is not None)  # type: ignore[return-value]


def _cell_place_of(pair: tuple[GameState, Move]) -> PlaceInCell | None:
    return pair[1] if isinstance(pair[1], PlaceInCell) else None


def _legal_cell_places() -> st.SearchStrategy[PlaceInCell]:
    games = st.sampled_from(TRIANGLE_RULESETS)
    places = states_and_moves(games, max_moves=30).map(_cell_place_of)
    return places.filter(lambda move: move is not None)  # type: ignore[return-value]


def register_types() -> None:
    """
    Register these strategies for bendolib's types, so that ``st.from_type(GameState)``
    and ``st.builds(...)`` of classes with such fields work (done when this module is
    imported): GameState, RuleSet, TileSet, Tile, Observation, GameRecord, Board and
    the moves (a legal placement, on a chain or in a triangle game's cell; draw, pass
    and next).
    """
    st.register_type_strategy(GameState, game_states())
    st.register_type_strategy(RuleSet, rulesets())
    st.register_type_strategy(TileSet, tilesets(max_top=9))
    st.register_type_strategy(
        Tile, tilesets(max_top=9).flatmap(lambda tileset: st.sampled_from(tileset.tiles))
    )
    st.register_type_strategy(Observation, observations())
    st.register_type_strategy(GameRecord, game_records())
    st.register_type_strategy(Board, game_states().map(lambda state: state.board))
    st.register_type_strategy(Place, st.deferred(_legal_places))
    st.register_type_strategy(PlaceInCell, st.deferred(_legal_cell_places))
    st.register_type_strategy(Draw, st.just(DRAW))
    st.register_type_strategy(Pass, st.just(PASS))
    st.register_type_strategy(NextRound, st.just(NEXT_ROUND))


register_types()
