"""
The compiled core never trusts its input (issue 22, K1-K6 and K8): each reproduction
of the issue gives the Python engine's answer or a library error, on the compiled build
and under ``BENDOLIB_PURE_PYTHON=1`` alike; and hostile values that bypass the checks of
``GameState.replace`` (``attrs.evolve``, objects unpickled from an older version) never
crash the kernel, never let ``OverflowError`` out.

``scripts/sanitize`` runs this file under AddressSanitizer and UBSan, where a read or a
write out of bounds, or a signed overflow, fails the run.
"""

from __future__ import annotations

import contextlib
import pickle
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import attrs
import pytest

import bendolib
from bendolib import GameState, apply, engine, legal_moves, new_game
from bendolib._kernel_input import state_tuple
from bendolib._playouts_reference import Outcome
from bendolib.errors import ArgumentError, BendolibError, RuleSetError
from bendolib.limits import MAX_PARAM
from bendolib.moves import DRAW, Draw
from bendolib.playouts import kernel_reason, playouts, reference_playouts
from bendolib.rules.effects import FaceEffects, NextDraws
from bendolib.state import GAME_OVER, PLAYING, RoundContext, check_state
from large_sets import on_double, on_triangles

BASIC = bendolib.rules.get("basic")


def _game(name: str = "basic", players: int = 2, seed: int = 1) -> GameState:
    return new_game(name, players, seed)


def _until_draw(state: GameState) -> GameState:
    """The first state along the first listed moves where the player to move may draw."""
    while not any(type(m) is Draw for m in legal_moves(state)):
        state = apply(state, legal_moves(state)[0])
    return state


def _forced(state: GameState, **changes: Any) -> GameState:
    """``state`` with values changed past the checks of ``replace`` (as a bug might)."""
    names = {f.name for f in attrs.fields(GameState)}
    own = {k: v for k, v in changes.items() if k in names}
    context = {k: v for k, v in changes.items() if k not in own}
    if context:
        own["context"] = attrs.evolve(state.context, **context)
    return attrs.evolve(state, **own)


# -- the reproductions of issue 22 ---------------------------------------------------


@pytest.mark.parametrize("out", [(8,), (127,), (0, 0), (-1,)])
def test_k1_seats_out_beyond_the_players_are_refused(out: tuple[int, ...]) -> None:
    """K1: ``replace(out=(127,))`` is refused (it crashed the round scoring)."""
    with pytest.raises(ArgumentError, match=r"GameState\.out"):
        _game().replace(out=out)


def test_k1_the_kernel_reads_no_seat_out_of_range() -> None:
    """K1 past the checks: the kernel leaves the state to the Python engine, no crash."""
    state = _forced(_game(), out=(127,))
    with pytest.raises(Exception) as caught:  # the Python engine's own answer
        playouts(state, 20, until="match")
    assert not isinstance(caught.value, OverflowError | SystemError)
    with pytest.raises(type(caught.value)):
        reference_playouts(state, 20, until="match")


def test_k2_a_stock_position_before_the_deck_is_refused() -> None:
    """K2: ``replace(stock_pos=-1)`` is refused (the step kernel's draw read deck[-1])."""
    state = _until_draw(_game())
    with pytest.raises(ArgumentError, match="stock_pos"):
        state.replace(stock_pos=-1)
    with pytest.raises(ArgumentError, match="stock_pos"):
        state.replace(stock_pos=len(state.deck) + 1)


def test_k2_the_step_kernel_leaves_a_bad_stock_position_to_the_engine() -> None:
    """K2 past the checks: apply gives what the Python engine gives (it reads deck[-1])."""
    state = _forced(_until_draw(_game()), stock_pos=-1)
    after = apply(state, DRAW)
    assert after.hand_masks[state.current_player] >> state.deck[-1] & 1


def test_k3_an_older_round_context_unpickles_with_its_defaults() -> None:
    """K3: a pickled RoundContext without ``origin`` (an older version's) loads, and plays."""
    state = _game()
    saved = RoundContext.__getstate__

    def older(self: RoundContext) -> dict[str, Any]:
        values = saved(self)
        del values["origin"], values["past"]
        return values

    RoundContext.__getstate__ = older  # type: ignore[method-assign]
    try:
        data = pickle.dumps(state)
    finally:
        RoundContext.__getstate__ = saved  # type: ignore[method-assign]
    loaded = pickle.loads(data)
    assert loaded.origin is None and loaded.past == ()
    move = legal_moves(loaded)[0]
    assert apply(loaded, move) == apply(state, move)


def test_k3_a_pickle_missing_a_value_is_a_library_error() -> None:
    """K3: a RoundContext missing a value without a default is refused when unpickled."""
    values = _game().context.__getstate__()
    del values["scores"]
    context = object.__new__(RoundContext)
    with pytest.raises(ArgumentError, match="no scores"):
        context.__setstate__(values)


def _partial(obj: Any, missing: str) -> Any:
    """A copy of the attrs instance ``obj`` with one slot never set (NULL in C)."""
    copy = object.__new__(type(obj))
    for field in attrs.fields(type(obj)):
        if field.name != missing:
            object.__setattr__(copy, field.name, getattr(obj, field.name))
    return copy


@pytest.mark.parametrize("missing", [f.name for f in attrs.fields(RoundContext)])
def test_k3_a_context_with_an_empty_slot_never_crashes(missing: str) -> None:
    """K3: a RoundContext with a slot unset reaches the Python engine, never a NULL read."""
    state = _game()
    broken = attrs.evolve(state, context=_partial(state.context, missing))
    for call in (
        lambda: legal_moves(broken),
        lambda: apply(broken, legal_moves(state)[0]),
        lambda: playouts(broken, 3),
    ):
        try:
            call()
        except Exception as exc:
            assert not isinstance(exc, OverflowError | SystemError)
    with pytest.raises(ArgumentError, match="without all its values"):
        check_state(broken)


@pytest.mark.parametrize(
    ("name", "changes"),
    [
        ("draw-dominoes", {"batch": 2**32 + 1}),
        ("all-five", {"multiple": 2**32 + 5}),
        ("bendo-all-in-actions", {"effects": FaceEffects({-1: NextDraws(2**32 + 1)})}),
        ("bendo-all-in-actions", {"effects": FaceEffects({-1: NextDraws(2**31)})}),
        ("draw-dominoes", {"max_per_turn": 2**40}),
    ],
)
def test_k4_large_parameters_play_as_in_python(name: str, changes: dict[str, Any]) -> None:
    """K4: parameters beyond a C int are not truncated: the kernel plays Python's game."""
    rules = bendolib.rules.get(name).configure(**changes)
    players = rules.player_counts[0]
    for seed in range(3):
        state = new_game(rules, players, seed)
        got = playouts(state, 8, seed=seed, record=True)
        assert got == reference_playouts(state, 8, seed=seed, record=True)


def test_k4_a_batch_draws_the_batch() -> None:
    """K4: ``batch=2**32+1`` draws the whole stock, not one tile."""
    rules = bendolib.rules.get("draw-dominoes").configure(batch=2**32 + 1)
    state = _until_draw(new_game(rules, 2, 3))
    after = apply(state, DRAW)
    assert after.stock_pos == len(after.deck)


@pytest.mark.parametrize(
    "changes",
    [
        {"target": 2**63},
        {"target": MAX_PARAM + 1},
        {"batch": 2**63},
        {"win_points": 2**64},
        {"max_per_turn": 10**19},
    ],
)
def test_k5_parameters_beyond_the_limit_are_refused(changes: dict[str, Any]) -> None:
    """K5: integer parameters beyond 2**62 are refused when configured, naming the limit."""
    rules = BASIC if "target" in changes or "win_points" in changes else None
    rules = rules or bendolib.rules.get("draw-dominoes")
    with pytest.raises(RuleSetError, match=r"2\*\*62"):
        rules.configure(**changes)


def test_k5_the_limit_itself_is_a_parameter() -> None:
    """K5: 2**62 is accepted, and the kernel plays it."""
    rules = BASIC.configure(target=MAX_PARAM)
    assert kernel_reason(rules, 2) is None or bendolib.playouts._kernel is None
    state = new_game(rules, 2, 4)
    assert playouts(state, 4, seed=1) == reference_playouts(state, 4, seed=1)


def test_k5_values_beyond_64_bits_run_on_the_python_engine() -> None:
    """K5: a round number too large, scores and result points beyond 2**63: no OverflowError."""
    state = _game()
    with pytest.raises(ArgumentError, match="round_number"):
        state.replace(round_number=99999999999999999999)
    huge = state.replace(scores=(2**70, -(2**70)))
    assert playouts(huge, 4, seed=2) == reference_playouts(huge, 4, seed=2)
    over = playouts(huge, 1, until="match")[0]
    assert over.scores[0] >= 2**70
    rules = attrs.evolve(BASIC.match, target=2**63)
    bypass = object.__new__(type(BASIC))
    for field in attrs.fields(type(BASIC)):
        object.__setattr__(bypass, field.name, getattr(BASIC, field.name))
    object.__setattr__(bypass, "match", rules)
    assert isinstance(kernel_reason(bypass, 2), str | None)  # no OverflowError


def test_k6_scores_near_two_to_the_63_stay_exact() -> None:
    """K6: All Five at scores 2**63 - 6: exact scores and phase (the kernel's sums are checked)."""
    rules = bendolib.rules.get("all-five").configure(target=MAX_PARAM)
    state = new_game(rules, 2, 5).replace(scores=(2**63 - 6, 2**63 - 6))
    got = playouts(state, 6, seed=3, until="round", record=True)
    assert got == reference_playouts(state, 6, seed=3, until="round", record=True)
    for outcome in got:
        assert min(outcome.scores) >= 2**63 - 6
        assert outcome.phase == GAME_OVER


def test_k8_a_huge_first_move_is_a_playout_error() -> None:
    """K8: ``first=[2**70]`` raises PlayoutError (the kernel let OverflowError out)."""
    with pytest.raises(bendolib.playouts.PlayoutError):
        playouts(_game(), first=[2**70])


def test_k8_a_direction_other_than_one_is_refused() -> None:
    """K8: ``replace(direction=2**63-1)`` is refused; past the checks, no overflow in C."""
    with pytest.raises(ArgumentError, match="direction"):
        _game().replace(direction=2**63 - 1)
    state = _forced(_game(), direction=2**63 - 1)
    move = legal_moves(state)[0]
    with EnginePure():
        expected = apply(state, move)
    assert apply(state, move) == expected


def test_k8_hand_bits_beyond_the_tile_set_are_refused() -> None:
    """K8: a hand with a tile past the tile set is refused; the kernel does not play it."""
    state = _game()
    hands = (state.hand_masks[0] | 1 << 60, state.hand_masks[1])
    with pytest.raises(ArgumentError, match="beyond the 28"):
        state.replace(hand_masks=hands)
    forced = _forced(state, hand_masks=hands)
    try:
        got: object = playouts(forced, 3)
    except Exception as exc:
        got = type(exc)
    try:
        expected: object = reference_playouts(forced, 3)
    except Exception as exc:
        expected = type(exc)
    assert got == expected


# -- the values a state may hold ---------------------------------------------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"current_player": 2},
        {"last_placer": -2},
        {"opening": 28},
        {"phase": 3},
        {"match_winner": 2},
        {"drawn": 1 << 28},
        {"drawn_count": -1},
        {"seed": -1},
        {"deck": (0, 0)},
        {"scores": (0,)},
        {"hand_masks": (3, 1)},
    ],
)
def test_impossible_values_are_refused(changes: dict[str, Any]) -> None:
    """The values the engine and the kernel take for granted are checked by ``replace``."""
    with pytest.raises(ArgumentError):
        _game().replace(**changes)


@pytest.mark.parametrize("changes", [{"scores": ("0", 0)}, {"direction": 1.0}, {"board": ()}])
def test_values_of_the_wrong_type_are_type_errors(changes: dict[str, Any]) -> None:
    """A value of the wrong type is a TypeError naming the type wanted (or an ArgumentError)."""
    with pytest.raises((TypeError, ArgumentError)):
        _game().replace(**changes)


def test_states_of_play_pass_the_checks() -> None:
    """Every state of a few matches of each rule set passes check_state (the engine's own)."""
    for name in bendolib.rules.names():
        rules = bendolib.rules.get(name)
        state = new_game(rules, rules.player_counts[0], 7)
        for k in range(300):
            check_state(state)
            if state.is_game_over:
                break
            moves = legal_moves(state)
            state = apply(state, moves[k % len(moves)])
        assert pickle.loads(pickle.dumps(state)) == state


# -- hostile states past the checks (the sanitizer's fuzz) --------------------------------

#: Values for the fields, each beyond what the kernel reads as it is.
HOSTILE: dict[str, tuple[Any, ...]] = {
    "out": ((8,), (127,), (-1,), (2**40,), (0, 0), [0]),
    "stock_pos": (-1, -(2**63), 2**63, 10**6, 29),
    "direction": (2**63 - 1, 0, -(2**63), 2),
    "current_player": (-1, 8, 2**40),
    "last_placer": (-5, 9, 2**63),
    "opening": (64, -(2**63), 2**70),
    "drawn": (-1, 1 << 64, 1 << 63),
    "drawn_count": (-1, 2**31, 2**63),
    "round_number": (0, 2**63, -(2**63) - 1),
    "scores": ((2**63, 0), (-(2**64), 5), (0,), (0, 0, 0)),
    "play_points": ((2**63 - 1, 2**63 - 1), (0,)),
    "phase": (-1, 3, 2**63),
    "match_winner": (-2, 5, 2**64),
    "seed": (-1, 2**64, 2**100),
    "deck": ((), (27,) * 30, (-1, 3), (2**70,)),
    "hand_masks": (
        (-1, 0),
        (1 << 64, 0),
        (1 << 60, 1 << 61),
        (3, 1),
        (1 << 127, 1 << 128),
        (1 << 255, 1 << 256),
        (1 << 1023, 1 << 1024),
        (1 << 300, -(1 << 300)),
    ),
    "results": (
        (bendolib.state.RoundResult(1, False, (9,), (0, 0), (0, 0), (9,)),),
        (bendolib.state.RoundResult(1, False, (), (0,), (2**64, 0), ()),),
    ),
}


def _hostile_states() -> Iterator[tuple[str, GameState]]:
    # the built-in rule sets, and three on double-12, double-15 and double-22 (the wide,
    # huge and vast builds, issue 24 point 2)
    large = [
        on_double(name, top)
        for name in ("basic", "bendo-all-in-actions", "classic-draw")
        for top in (12, 15, 22)
    ]
    # and the triangle games on sets of more than 64 and 128 triangles (the wide and huge
    # builds)
    large += [
        on_triangles("triangle-dominoes", 5, True),
        on_triangles("triominoes", 6, False),
        on_triangles("triominoes", 8, False),
    ]
    for rules in [*(bendolib.rules.get(name) for name in bendolib.rules.names()), *large]:
        name = rules.name
        players = rules.player_counts[0]
        state = new_game(rules, players, 11)
        for _ in range(3):
            if state.phase == PLAYING:
                state = apply(state, legal_moves(state)[-1])
        for field, values in HOSTILE.items():
            for value in values:
                yield f"{name} {field}={value!r:.30}", _forced(state, **{field: value})


def _calls(state: GameState) -> Iterator[Callable[[], object]]:
    yield lambda: legal_moves(state)
    try:
        moves = legal_moves(state)
    except Exception:
        moves = ()
    for move in moves[:3]:
        yield partial(apply, state, move)
    yield lambda: playouts(state, first=[0, 2**70])
    # the playout kernel itself (playouts would fall back on the Python engine, which
    # may play a broken state for ever: it trusts the states that pass the checks); the
    # wide build for a set of more than 64 tiles
    spec, _, kernel = bendolib.playouts._compiled_in(state.context.rules, state.context.players)
    if spec is None:
        return
    for policy in range(3):
        yield partial(_run, kernel, spec, state, policy)
    yield lambda: kernel.listing(spec, state_tuple(state))
    yield lambda: kernel.run(spec, state_tuple(state), 2, 0, 1, False, False, (0, 2**70), Outcome)


def _run(kernel: Any, spec: Any, state: GameState, policy: int) -> object:
    """Three recorded playouts of ``state`` to the end of the match in the kernel."""
    return kernel.run(spec, state_tuple(state), 3, policy, 1, True, True, None, Outcome)


def test_hostile_states_never_crash_the_kernel() -> None:
    """Each hostile value, in a state of each rule set: a value or an ordinary exception."""
    tried = 0
    for _where, state in _hostile_states():
        for call in _calls(state):
            tried += 1
            try:
                call()
            except BendolibError:
                pass
            except (OverflowError, SystemError):
                raise
            except Exception:  # the Python engine's own answer to a broken state
                pass
    assert tried > 1000


def test_extreme_parameters_of_every_rule_set() -> None:
    """
    Every rule set with each integer parameter at the limit, and past it behind the
    checks: the kernel compiles it or gives its reason, and plays a round of it or
    refuses (the Python engine may loop for ever on a batch of 0: it trusts the checks).
    """
    kernel = bendolib.playouts._kernel
    for name in bendolib.rules.names():
        rules = bendolib.rules.get(name)
        players = rules.player_counts[-1]
        state = new_game(rules, players, 3)
        for part in ("draw", "match", "round_scoring", "play_scoring"):
            policy = getattr(rules, part)
            if policy is None or not attrs.has(type(policy)):
                continue
            for field in attrs.fields(type(policy)):
                if field.name.startswith("_") or type(getattr(policy, field.name)) is not int:
                    continue
                for extreme in (MAX_PARAM, 2**63, 2**64 + 1, -(2**63) - 1, 0, -1):
                    bent = _bypass(rules, part, field.name, extreme)
                    assert isinstance(kernel_reason(bent, players), str | None)
                    spec, _ = bendolib.playouts._compiled(bent, players)
                    if kernel is None or spec is None:
                        continue
                    with contextlib.suppress(kernel.UnsupportedError):
                        kernel.run(
                            spec,
                            state_tuple(_forced(state, rules=bent)),
                            2,
                            0,
                            1,
                            False,
                            False,
                            None,
                            Outcome,
                        )


def _bypass(rules: Any, part: str, name: str, value: int) -> Any:
    """``rules`` with ``part.name`` set to ``value``, past every check."""
    policy = getattr(rules, part)
    copy = object.__new__(type(policy))
    for field in attrs.fields(type(policy)):
        object.__setattr__(copy, field.name, getattr(policy, field.name))
    object.__setattr__(copy, name, value)
    bent = object.__new__(type(rules))
    for field in attrs.fields(type(rules)):
        object.__setattr__(bent, field.name, getattr(rules, field.name))
    object.__setattr__(bent, part, copy)
    return bent


class EnginePure:
    """The step kernel switched off (the Python engine alone) inside a ``with``."""

    names = ("_step_legal", "_step_apply", "_deal_deck", "_deal_hands")

    def __enter__(self) -> None:
        self.saved = [getattr(engine, n) for n in self.names]
        for n in self.names:
            setattr(engine, n, None)

    def __exit__(self, *exc: object) -> None:
        for n, v in zip(self.names, self.saved, strict=True):
            setattr(engine, n, v)
