"""
Small calls cost little (issue 24, point 3): the compiled paths a search bot's calls take
give exactly the Python engine's answers.

* ``_kernel.deal``, :func:`bendolib.new_game`'s compiled first deal: the same state as
  the Python engine's deal, for every registered rule set and player count;
* ``_kernel.state_of``: the chain games' state tuple of
  ``bendolib._kernel_input.state_tuple``, built from the slots, for dealt, played,
  finished and loaded (position text) states; None for what it leaves to the Python
  reader (subclasses, hostile values); ``play`` leaves the triangle games to ``run``;
* ``_kernel.quick``: :func:`bendolib.playouts.playouts` in one C call for the common
  arguments, ``run``'s outcomes, NotImplemented for anything else;
* ``_kernel.play``: ``run`` for a GameState, the same outcomes; its reader of the slots
  reads the kernel state ``run`` reads from the tuple, byte for byte (``read_agrees``),
  or leaves the state to the tuple path.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import bendolib
from bendolib import GameState, apply, engine, legal_moves, new_game, position_text
from bendolib._kernel_abi import load_kernel
from bendolib._kernel_input import state_tuple
from bendolib._playouts_reference import POLICIES, UNTIL, Outcome
from bendolib.geometry.board import Board, End
from bendolib.geometry.triangles import TriangleGeometry
from bendolib.playouts import (
    PlayoutError,
    _compiled,
    kernel_reason,
    playouts,
    reference_playouts,
)
from bendolib.state import PLAYING
from test_kernel_differential import CONFIGS, arbitrary_state

kernel = load_kernel()
pytestmark = pytest.mark.skipif(kernel is None, reason="the compiled kernel is not built")

NAMES = bendolib.rules.names()
CHAIN = [n for n in NAMES if type(bendolib.rules.get(n).geometry) is not TriangleGeometry]


def _counts(name: str) -> tuple[int, ...]:
    return bendolib.rules.get(name).player_counts


def _states(name: str, players: int, games: int = 3) -> Iterator[GameState]:
    """Dealt states, states a few moves in, the ends of rounds and of matches, loaded ones."""
    rng = random.Random(f"{name}{players}")
    for _ in range(games):
        state = new_game(name, players, seed=rng.randrange(2**64))
        yield state
        for step in range(400):
            moves = legal_moves(state)
            if not moves:
                break
            state = apply(state, moves[rng.randrange(len(moves))])
            if step % 7 == 3 or state.context.phase != PLAYING:
                yield state
                yield position_text.loads(position_text.dumps(state))


@pytest.mark.parametrize("name", NAMES)
def test_the_compiled_deal_is_the_python_engines(name: str, monkeypatch: Any) -> None:
    """Issue 24, point 3 ("dealing a round"): new_game deals the same round either way."""
    rules = bendolib.rules.get(name)
    seeds = [*range(40), 2**63, 2**64 - 1]
    for players in _counts(name):
        compiled = [new_game(rules, players, seed=s) for s in seeds]
        monkeypatch.setattr(engine, "_deal_first", None)
        monkeypatch.setattr(engine, "_deal_quick", None)
        python = [new_game(rules, players, seed=s) for s in seeds]
        monkeypatch.undo()
        assert compiled == python
        for a, b in zip(compiled, python, strict=True):
            assert (a.deck, a.hand_masks, a.context) == (b.deck, b.hand_masks, b.context)


def test_the_compiled_deal_serves_the_chain_games() -> None:
    """The path is taken (else the test above compares the Python engine with itself)."""
    assert engine._deal_first is not None
    for name in ("basic", "classic-draw", "draw-dominoes", "no-draw-teams"):
        rules = bendolib.rules.get(name)
        for players in _counts(name):
            spec = engine._deal_spec(rules, players)
            dealt = engine._deal_first(spec, rules, players, 5, engine._EMPTY)
            assert dealt == engine._deal(rules, players, 5, 1, (0,) * players, ())


@pytest.mark.parametrize(
    ("top", "build"),
    [(12, "_kernel_wide"), (15, "_kernel_huge"), (22, "_kernel_vast"), (43, "_kernel_vast")],
)
def test_the_compiled_deal_of_the_larger_sets(top: int, build: str) -> None:
    """
    Issue 24 point 2 and 3 ("new_game's deal in C for sets over 64 tiles"): double-12 is
    dealt by the wide build, double-15 by the huge one, double-22 and double-43 (990
    tiles, hands beyond 64 bits) by the vast one, the same rounds as the Python engine's,
    and a second deal of the same rule set takes the one-call path (deal_quick).
    """
    from bendolib._kernel_abi import load_build
    from large_sets import on_double

    if engine._deal_first is None or load_build(build) is None:
        pytest.skip(f"bendolib.{build} is not built")
    for name in ("basic", "classic-draw", "bendo-all-in-actions"):
        rules = on_double(name, top)
        for players in (rules.player_counts[0], rules.player_counts[-1]):
            for seed in (0, 7, 2**64 - 1):
                dealt = new_game(rules, players, seed)
                assert engine._LATEST_DEAL[3].__name__ == f"bendolib.{build}"
                expected = engine._deal(rules, players, seed, 1, (0,) * players, ())
                assert dealt == expected
                assert (dealt.deck, dealt.hand_masks) == (expected.deck, expected.hand_masks)
            assert engine._deal_quick is not None
            assert engine._deal_quick(rules, players, 9) == new_game(rules, players, 9)
            assert engine._deal_quick(rules, players, 9) is not None


def test_the_one_call_deal_takes_only_what_new_game_checked() -> None:
    """deal_quick: the latest rule set and player count dealt, exact ints; else None."""
    assert engine._deal_quick is not None
    basic = bendolib.rules.get("basic")
    assert new_game(basic, 3, seed=1) == engine._deal(basic, 3, 1, 1, (0,) * 3, ())
    assert engine._deal_quick(basic, 3, 7) == engine._deal(basic, 3, 7, 1, (0,) * 3, ())
    for players, seed in [(2, 7), (3.0, 7), (True, 7), (3, True), (3, -1), (3, 2**64), (3, None)]:
        assert engine._deal_quick(basic, players, seed) is None
    assert engine._deal_quick("basic", 3, 7) is None
    with pytest.raises(TypeError):
        new_game(basic, 3, seed=True)
    with pytest.raises(bendolib.errors.ArgumentError):
        new_game(basic, 3, seed=-1)


def test_the_compiled_deal_leaves_what_it_lacks_to_the_engine() -> None:
    """A spec for other players, a triangle game: None, and new_game deals in Python."""
    basic = bendolib.rules.get("basic")
    spec = engine._deal_spec(basic, 2)
    assert engine._deal_first is not None
    assert engine._deal_first(spec, basic, 3, 5, engine._EMPTY) is None
    assert engine._deal_first(object(), basic, 2, 5, engine._EMPTY) is None
    assert engine._deal_spec(bendolib.rules.get("triominoes"), 3) is None
    assert new_game("triominoes", 3, seed=5).hand_masks


@pytest.mark.parametrize("name", NAMES)
def test_state_of_is_the_state_tuple(name: str) -> None:
    """The state read from the slots is the tuple the Python reader builds."""
    assert kernel is not None
    rules = bendolib.rules.get(name)
    for players in _counts(name):
        spec, _ = _compiled(rules, players)
        for state in _states(name, players, games=2):
            if name in CHAIN:
                assert kernel.state_of(state) == state_tuple(state)
                # play reads the slots straight into the kernel's state: the same bytes
                assert kernel.read_agrees(spec, state) is True
            else:  # the triangle games' tuple is built in Python: play leaves it to run
                got = kernel.play(spec, state, 1, 0, 1, False, False, None, Outcome)
                assert got is NotImplemented


@pytest.mark.parametrize("name", CHAIN)
def test_play_is_run(name: str) -> None:
    """play(GameState) gives run(state tuple)'s outcomes, every move recorded."""
    assert kernel is not None
    for players in _counts(name):
        spec, _ = _compiled(bendolib.rules.get(name), players)
        for k, state in enumerate(_states(name, players, games=1)):
            for until_match in (False, True):
                seed = 2**64 + k  # play takes the seed modulo 2**64, as playouts does
                args = (3, k % 3, seed & (2**64 - 1), until_match, True, None, Outcome)
                try:
                    want = tuple(kernel.run(spec, state_tuple(state), *args))
                except kernel.UnsupportedError:
                    with pytest.raises(kernel.UnsupportedError):
                        kernel.play(spec, state, 3, k % 3, seed, until_match, True, None, Outcome)
                    continue
                got = kernel.play(spec, state, 3, k % 3, seed, until_match, True, None, Outcome)
                assert got == want


def _forced(state: GameState, **changes: Any) -> GameState:
    """``state`` with slots set past every check (as a bug or an old pickle might)."""
    context = {k: v for k, v in changes.items() if k in attrs.fields_dict(type(state.context))}
    own = {k: v for k, v in changes.items() if k not in context}
    if context:
        own["context"] = attrs.evolve(state.context, **context)
    return attrs.evolve(state, **own)


class _Sub(GameState):
    __slots__ = ()


def _hostile(state: GameState) -> Iterator[GameState]:
    board, end = state.board, state.board.ends[0]
    evolve: Any = attrs.evolve  # values of the wrong types, on purpose
    yield _forced(state, seed=-1)
    yield _forced(state, seed=2**64)
    yield _forced(state, seed=2**70 + 3)
    yield _forced(state, seed=True)
    yield _forced(state, seed=1.5)
    yield _forced(state, hand_masks=list(state.hand_masks))
    yield _forced(state, hand_masks=(*state.hand_masks[:-1], 2**64 + 1))
    yield _forced(state, board=evolve(board, occupancy=-1))
    yield _forced(state, board=evolve(board, occupancy=2**40000))
    yield _forced(state, board=evolve(board, occupancy=1.0))
    yield _forced(state, board=evolve(board, ends=[*board.ends]))
    yield _forced(state, board=evolve(board, ends=(*board.ends, (1, 1, 1, 1))))
    yield _forced(state, board=evolve(board, ends=(attrs.evolve(end, value=99),)))
    yield _forced(state, board=evolve(board, ends=(attrs.evolve(end, cell=-2),)))
    yield _forced(state, board=evolve(board, placements=list(board.placements)))
    yield _forced(state, board=object())
    yield _forced(state, results=[])
    yield _forced(state, results=(object(),))
    yield _forced(state, current_player=2**80)
    yield _forced(state, deck=state.deck + (99,))
    sub = object.__new__(_Sub)
    for field in attrs.fields(GameState):
        object.__setattr__(sub, field.name, getattr(state, field.name))
    yield sub


def _answer(call: Any, *args: Any, **kwargs: Any) -> Any:
    """``call(*args, **kwargs)``, or the type of the exception it raises."""
    try:
        return call(*args, **kwargs)
    except Exception as exc:  # the answer is the exception's type
        return type(exc)


@pytest.mark.filterwarnings("ignore::bendolib.errors.KernelFallbackWarning")
def test_hostile_states_get_the_python_readers_answer() -> None:
    """
    Values no check let through (issue 22's hardening): state_of builds nothing or the
    Python reader's tuple, and playouts answers as the Python engine does (a state the
    Python reader cannot read too: a float seed, a negative occupancy, no board).
    """
    assert kernel is not None
    state = new_game("basic", 2, seed=4)
    state = apply(state, legal_moves(state)[0])
    state = apply(state, legal_moves(state)[0])
    spec, _ = _compiled(state.rules, 2)
    seen = 0
    for bad in _hostile(state):
        got = _answer(kernel.state_of, bad)
        if got is not None:
            assert got == _answer(state_tuple, bad)
            seen += 1
        assert kernel.read_agrees(spec, bad) in (None, True)
        ours = _answer(playouts, bad, 3, seed=9, record=True)
        python = _answer(reference_playouts, bad, 3, seed=9, record=True)
        assert ours not in (SystemError, OverflowError)
        if ours != python:  # the kernel read a list as the engine never would: as before
            assert isinstance(ours, tuple) and isinstance(python, type)
            flat = state_tuple(bad)
            assert ours == tuple(kernel.run(spec, flat, 3, 0, 9, False, True, None, Outcome))
    assert seen  # some hostile values reach read_state, which refuses them


@pytest.mark.filterwarnings("ignore::bendolib.errors.KernelFallbackWarning")
def test_a_state_of_another_board_class_is_left_to_the_python_reader() -> None:
    """A Board or End subclass: not the layout state_of reads."""
    assert kernel is not None

    @attrs.frozen
    class MyEnd(End):
        pass

    state = new_game("basic", 2, seed=4)
    state = apply(state, legal_moves(state)[0])
    end = state.board.ends[0]
    mine = MyEnd(end.value, end.free, end.cell, end.side, end.left, end.right)
    bad = _forced(state, board=Board(state.board.placements, (mine,), state.board.occupancy))
    assert kernel.state_of(bad) is None
    assert playouts(bad, 2, seed=1) == reference_playouts(bad, 2, seed=1)


@pytest.mark.filterwarnings("ignore::bendolib.errors.KernelFallbackWarning")
def test_the_slot_reader_leaves_every_refused_value_to_the_tuple_path() -> None:
    """
    Each value read_state refuses (issue 22's checks), set past the checks: the slot
    reader reads nothing (None), and play answers as run does on the state tuple.
    """
    assert kernel is not None
    state = new_game("basic", 2, seed=4)
    state = apply(state, legal_moves(state)[0])
    spec, _ = _compiled(state.rules, 2)
    end = state.board.ends[0]
    evolve: Any = attrs.evolve
    bad_ends = [
        evolve(end, value=99),
        evolve(end, free=4),
        evolve(end, cell=-1),
        evolve(end, side=6),
    ]
    cases: list[dict[str, Any]] = [
        {"players": 3},
        {"round_number": -1},
        {"round_number": 2**62 + 1},
        {"deck": (*state.deck, 0)},
        {"deck": (28, *state.deck[1:])},
        {"stock_pos": len(state.deck) + 1},
        {"hand_masks": (state.hand_masks[0], state.hand_masks[0])},
        {"hand_masks": (state.hand_masks[0], 1 << 28)},
        {"current_player": 2},
        {"scores": (0,)},
        {"scores": (0, 2**63)},
        {"opening": 28},
        {"drawn": 1 << 30},
        {"drawn_count": 65},
        {"direction": 0},
        {"out": (0, 0)},
        {"out": (0, 1, 0)},
        {"play_points": (0, 0, 0)},
        {"phase": 3},
        {"hand_masks": (0, state.hand_masks[1]), "current_player": 0},
        {"last_placer": 2},
        {"match_winner": 2},
        *({"board": evolve(state.board, ends=(e,))} for e in bad_ends),
        {"board": evolve(state.board, ends=state.board.ends * 3)},
        {"board": evolve(state.board, occupancy=1 << 6 * 10**5)},
    ]
    refused = 0
    args = (2, 0, 5, False, True, None, Outcome)
    for changes in cases:
        bad = _forced(state, **changes)
        want = _answer(lambda b=bad: tuple(kernel.run(spec, state_tuple(b), *args)))
        if want is kernel.UnsupportedError:
            assert kernel.read_agrees(spec, bad) is None, changes
            refused += 1
        else:  # (a deck listing a tile twice: no check of read_state refuses it)
            assert kernel.read_agrees(spec, bad) in (None, True), changes
        got = _answer(kernel.play, spec, bad, *args)
        if got is NotImplemented:  # (an occupancy too large for state_of: state_tuple)
            got = want
        assert got == want, changes
    assert refused >= len(cases) - 2


@pytest.mark.parametrize("name", ["basic", "classic-draw", "all-five", "bendo-all-in-teams"])
def test_quick_is_run(name: str) -> None:
    """playouts' one-call path (_kernel.quick) plays what run plays on the state tuple."""
    assert kernel is not None
    rules = bendolib.rules.get(name)
    for players in _counts(name):
        spec, _ = _compiled(rules, players)  # (quick serves the latest compiled rule set)
        for k, state in enumerate(_states(name, players, games=1)):
            policy, until = POLICIES[k % 3], UNTIL[k % 2]
            count = (None, 0, 2)[k % 3]
            try:
                want = tuple(
                    kernel.run(
                        spec,
                        state_tuple(state),
                        1 if count is None else count,
                        k % 3,
                        k,
                        until == "match",
                        k % 2 == 0,
                        None,
                        Outcome,
                    )
                )
            except kernel.UnsupportedError:
                want = None
            got = _answer(kernel.quick, state, count, policy, k, until, k % 2 == 0)
            if got is NotImplemented:  # a loaded state: an equal rule set, not the same
                assert state.context.rules is not rules
            elif want is None:
                assert got is kernel.UnsupportedError
            else:
                assert got == want


def test_quick_leaves_other_arguments_to_playouts() -> None:
    """Any argument not of the exact common types: NotImplemented, and playouts checks it."""
    assert kernel is not None

    class Text(str):
        pass

    state = new_game("basic", 2, seed=3)
    _compiled(state.rules, 2)
    common = {"count": 1, "policy": "random", "seed": 1, "until": "round", "record": False}
    assert isinstance(kernel.quick(state, *common.values()), tuple)
    for key, value in [
        ("count", True),
        ("count", -1),
        ("count", 2**70),
        ("count", 1.0),
        ("policy", "nope"),
        ("policy", Text("random")),
        ("policy", ["random"]),
        ("until", "Round"),
        ("record", 1),
        ("seed", 1.0),
        ("seed", True),
    ]:
        args = {**common, key: value}
        assert kernel.quick(state, *args.values()) is NotImplemented, (key, value)
    spec, _ = _compiled(state.rules, 2)
    for seed in (-5, 2**80 + 3):  # playouts takes any int seed modulo 2**64
        want = kernel.run(spec, state_tuple(state), 2, 0, seed % 2**64, False, True, None, Outcome)
        assert kernel.quick(state, 2, "random", seed, "round", True) == tuple(want)
    other = new_game("classic-draw", 2, seed=3)  # not the rule set quick serves
    assert kernel.quick(other, *common.values()) is NotImplemented
    assert kernel.quick(object(), *common.values()) is NotImplemented
    with pytest.raises(PlayoutError):
        playouts(state, -1)
    with pytest.raises(TypeError):
        playouts(state, True)


def test_playouts_of_alternating_rule_sets() -> None:
    """The rule set quick serves follows the calls: each state plays its own rules."""
    states = [
        new_game(name, 2, seed=8) for name in ("basic", "classic-block", "basic", "first-out")
    ]
    for state in states * 2:
        assert playouts(state, 3, seed=2) == reference_playouts(state, 3, seed=2)


@pytest.mark.filterwarnings("ignore::bendolib.errors.KernelFallbackWarning")
@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_the_slot_reader_on_arbitrary_states(name: str, players: int) -> None:
    """
    The differential tests' arbitrary states (huge scores, seats out, reversed play...):
    the slot reader reads run's state byte for byte or leaves it to the tuple path, and
    playouts gives the Python engine's outcomes.
    """
    assert kernel is not None
    rng = random.Random(f"slots {name} {players}")
    spec, _ = _compiled(bendolib.rules.get(name), players)
    read = 0
    for _ in range(6):
        state = arbitrary_state(rng, name, players)
        agrees = kernel.read_agrees(spec, state)
        assert agrees in (None, True)
        read += agrees is True
        got = _answer(playouts, state, 2, seed=3, record=True)
        assert got == _answer(reference_playouts, state, 2, seed=3, record=True)
    assert read  # (a state with a score beyond 64 bits goes the tuple path)


def test_a_player_count_without_a_spec_leaves_the_served_rule_set() -> None:
    """kernel_reason for 2**70 players says why (the rule set quick serves is unchanged)."""
    state = new_game("basic", 2, seed=3)
    assert playouts(state, 1, seed=1) == reference_playouts(state, 1, seed=1)
    assert "players" in str(kernel_reason(state.rules, 2**70))
    assert kernel is not None
    assert isinstance(kernel.quick(state, 1, "random", 1, "round", False), tuple)


def test_the_c_entry_of_playouts_answers_as_the_function() -> None:
    """
    ``playouts`` reached from C (issue 24, point 3: no Python frame for a common call):
    every form of call gives the function's outcomes, or its error; its attributes and
    signature are the function's.
    """
    import inspect
    import pickle

    function = inspect.unwrap(playouts)
    assert inspect.isfunction(function)
    assert playouts.__doc__ == function.__doc__ and playouts.__name__ == "playouts"
    assert inspect.signature(playouts) == inspect.signature(function)
    assert pickle.loads(pickle.dumps(playouts)) is playouts

    class Holder:
        run = playouts  # bound as the function is: the holder is the state

    with pytest.raises(TypeError, match="GameState"):
        Holder().run(1)  # type: ignore[misc]
    state = new_game("basic", 2, seed=3)
    other = new_game("classic-draw", 3, seed=3)  # not the rule set quick serves, then it is
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((state,), {}),
        ((state, 2), {}),
        ((state, 2), {"seed": 9, "policy": "greedy"}),
        ((state, 3), {"until": "match", "record": True, "seed": -4}),
        ((state,), {"count": 2, "seed": 5}),
        ((), {"state": state, "count": 2}),
        ((state,), {"first": [0, 0]}),
        ((state, None), {"seed": 2**70}),
        ((other, 2), {"seed": 1}),
        ((state, 2), {"record": 1}),
    ]
    for args, kwargs in calls * 2:
        want = function(*args, **kwargs)
        assert playouts(*args, **kwargs) == want, (args, kwargs)
        assert want == reference_playouts(*args, **kwargs)
    wrong: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((state, -1), {}),
        ((state, True), {}),
        ((state, 1), {"bogus": 1}),
        ((state, 1, "random"), {}),
        ((), {}),
        ((state, 1), {"policy": "nope"}),
        ((object(), 1), {}),
    ]
    for args, kwargs in wrong:
        with pytest.raises(Exception) as got:
            playouts(*args, **kwargs)
        with pytest.raises(Exception) as wanted:
            function(*args, **kwargs)
        assert type(got.value) is type(wanted.value) and str(got.value) == str(wanted.value)
