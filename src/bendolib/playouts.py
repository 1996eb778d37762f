"""
Whole playouts from any state, in compiled code when the kernel is built.

:func:`playouts` plays a state out to the end of its round (or match) many times, with
one policy for every seat, and returns each playout's :class:`Outcome`.  The moves are
exactly those of :func:`bendolib.playouts.reference_playouts` on the Python
engine, which is the specification (the same seed gives the same moves, the same
outcomes): the compiled kernel ``bendolib._kernel`` plays the built-in rule sets and
geometries, and anything it does not know is played by the Python engine, transparently.

The kernel is chosen at import, as msgpack does: when ``bendolib._kernel`` cannot be
imported (no compiler when the package was installed), or the environment variable
``BENDOLIB_PURE_PYTHON`` is set to a non-empty value other than ``0``, every playout runs
on the Python engine.  :data:`KERNEL` says which.

A call the kernel cannot serve (a rule set, player count or position it does not play, or
no kernel built) warns with :class:`~bendolib.errors.KernelFallbackWarning`, once per
rule set, player count and reason, naming the reason; not when ``BENDOLIB_PURE_PYTHON``
asked for the Python engine.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from bendolib._kernel_abi import (
    LARGER_BUILDS,
    MAX_TILES,
    NotForKernelError,
    load_build,
    load_kernel,
    missing_build_reason,
    missing_reason,
)
from bendolib._kernel_input import spec_tuple, state_tuple
from bendolib._memo import remember
from bendolib._playouts_reference import (
    MAX_MOVES,
    POLICIES,
    UNTIL,
    Outcome,
    PlayoutError,
    check_arguments,
    reference_playouts,
)
from bendolib.errors import KernelFallbackWarning
from bendolib.rules.ruleset import RuleSet
from bendolib.state import GameState

_kernel = load_kernel()
#: Why the kernel is not loaded: "" when it is, or when the user asked for the Python engine.
_MISSING = "" if _kernel is not None else missing_reason()
if _MISSING.startswith("BENDOLIB_PURE_PYTHON"):
    _MISSING = ""
#: The wide build (``bendolib._kernel_wide``, 128-bit masks): the rule sets whose tile set
#: is larger than ``bendolib._kernel`` takes (65 to 128 tiles, such as double-12); the
#: huge build (``bendolib._kernel_huge``, 256-bit masks, no batched games): 129 to 256
#: tiles (double-15 to double-21, triangles 0-8); the vast build (``bendolib._kernel_vast``,
#: 1,024-bit masks, the chain games only): 257 to 1,024 tiles (double-22 to double-43).
_kernel_wide = load_build("_kernel_wide") if _kernel is not None else None
_kernel_huge = load_build("_kernel_huge") if _kernel is not None else None
_kernel_vast = load_build("_kernel_vast") if _kernel is not None else None

#: The builds beyond ``bendolib._kernel`` (``LARGER_BUILDS``): the most tiles each takes,
#: its name and the module.
_BUILDS = tuple(
    (most, name, build)
    for (most, name), build in zip(
        LARGER_BUILDS, (_kernel_wide, _kernel_huge, _kernel_vast), strict=True
    )
)

#: True when the compiled kernel is loaded (playouts of the rule sets it knows run in it).
KERNEL = _kernel is not None

_POLICY_CODES = {name: code for code, name in enumerate(POLICIES)}
_MASK = 0xFFFFFFFFFFFFFFFF

#: Compiled rule sets by (id of the rule set, players): the rule set (so that its id stays
#: unique while memoised), the compiled spec, or the reason it is not compiled, and the
#: build of the kernel that compiled it (``_kernel``, ``_kernel_wide``, ``_kernel_huge`` or
#: ``_kernel_vast``).
_SPECS: dict[tuple[int, int], tuple[RuleSet, Any, str, ModuleType | None]] = {}


#: The latest lookup of :func:`_compiled` (rules, players, spec, reason, kernel): a search
#: calls with the same rule set again and again, and this skips building the key and the
#: dict lookup (issue 24, point 3: the fixed cost of a small call).
_LATEST: list[Any] = [None, 0, None, "", None]


def _compiled(rules: RuleSet, players: int) -> tuple[Any, str]:
    """The kernel's compiled ``rules`` for ``players`` (None and the reason when it has none)."""
    spec, reason, _ = _compiled_in(rules, players)
    return spec, reason


def _compiled_in(rules: RuleSet, players: int) -> tuple[Any, str, Any]:
    """
    :func:`_compiled`, and the build of the kernel the spec is for: ``_kernel``,
    ``_kernel_wide`` for a tile set of 65 to 128 tiles, ``_kernel_huge`` for 129 to 256,
    ``_kernel_vast`` for 257 to 1,024 (None without a spec).
    """
    latest = _LATEST
    if latest[0] is rules and latest[1] == players:
        return latest[2], latest[3], latest[4]
    key = (id(rules), players)
    found = _SPECS.get(key)
    if found is None or found[0] is not rules:
        spec: Any = None
        reason = ""
        kernel = _kernel
        if kernel is None:
            reason = _MISSING or "the compiled kernel is not loaded"
        else:
            try:
                description = spec_tuple(rules, players)
                tiles = len(rules.tileset)
                if tiles > MAX_TILES:
                    index = next(i for i, (most, _, _) in enumerate(_BUILDS) if tiles <= most)
                    _, build, kernel = _BUILDS[index]
                    below = _BUILDS[index - 1][0] if index else MAX_TILES
                    if kernel is None:
                        raise NotForKernelError(
                            f"{rules.tileset.name} has {tiles} tiles, more than "
                            f"{below}, and {missing_build_reason(build)}"
                        )
                spec = kernel.compile(description)
            except NotForKernelError as exc:
                reason = str(exc)
            except kernel.UnsupportedError as exc:  # type: ignore[union-attr]
                reason = str(exc)
        found = (rules, spec, reason, kernel if spec is not None else None)
        remember(_SPECS, key, found, limit=256)
    _LATEST[:] = [rules, players, found[1], found[2], found[3]]
    if found[3] is _kernel and _kernel is not None and type(players) is int:
        # the rule set _kernel.quick serves (a player count of 1 to 8: the spec has one;
        # the wide builds' rule sets take the general path)
        _kernel.quick_set(rules, players, found[1], POLICIES, Outcome)
    return found[1], found[2], found[3]


def kernel_reason(rules: RuleSet, players: int) -> str | None:
    """
    Why playouts of ``rules`` with ``players`` run on the Python engine, or None when the
    compiled kernel plays them.
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"kernel_reason needs a RuleSet, not {type(rules).__name__}")
    spec, reason = _compiled(rules, players)
    return None if spec is not None else reason


#: The fallbacks already warned of: (rule set name, players, reason).
_WARNED: set[tuple[str, int, str]] = set()


def warn_fallback(rules: RuleSet, players: int, reason: str, stacklevel: int = 3) -> None:
    """
    Warn (:class:`~bendolib.errors.KernelFallbackWarning`, once per rule set name,
    player count and reason) that playouts of ``rules`` run on the Python engine.
    ``stacklevel`` 3 points at the caller of the function that calls this.
    """
    if not reason:
        return
    key = (rules.name, players, reason)
    if key in _WARNED:
        return
    if len(_WARNED) >= 1024:
        _WARNED.clear()
    _WARNED.add(key)
    warnings.warn(
        f"playouts of {rules.name[:60]!r} with {players} players run on the Python engine "
        f"(about 100x slower): {reason}",
        KernelFallbackWarning,
        stacklevel=stacklevel,
    )


def _flat(state: GameState) -> tuple[Any, ...]:
    """
    ``state_tuple(state)``; NotForKernelError for a state it cannot read (values no check
    let through: a float seed, a negative occupancy...), which the Python engine answers.
    """
    try:
        return state_tuple(state)
    except (TypeError, ValueError, OverflowError, AttributeError) as exc:
        raise NotForKernelError(f"a state the kernel cannot read ({type(exc).__name__})") from None


def playouts(
    state: GameState,
    count: int | None = None,
    *,
    policy: str = "random",
    seed: int = 0,
    until: str = "round",
    record: bool = False,
    first: Sequence[int] | None = None,
) -> tuple[Outcome, ...]:
    """
    ``count`` playouts from ``state`` (1 by default), each to the end of the round
    (``until="round"``) or of the match (``"match"``), every seat following ``policy``
    (``"random"``, ``"heaviest"`` or ``"greedy"``, see
    :mod:`bendolib._playouts_reference`).  Playout ``i`` draws its random choices from
    ``SplitMix64(derive_seed(seed, i))``.

    ``first`` lists, per playout, the index into ``legal_moves(state)`` of its first move
    (then ``count`` may be left out); ``record=True`` keeps every move's index in
    ``Outcome.choices``.  The same arguments give the same outcomes with or without the
    compiled kernel.  The kernel plays a call of several playouts without holding the
    GIL, so such calls in several threads run in parallel (a single playout keeps it:
    letting it go would cost a sixth of the call).  A playout still going after
    :data:`MAX_MOVES` moves (a match whose target no score reaches, under some configured
    rules) raises :class:`PlayoutError` on both engines (the kernel hands it to the
    engine, which replays it to the same bound).
    """
    kernel = _kernel
    if first is None and kernel is not None:
        # the common call in one C call: the arguments and the state checked there, the
        # rule set the latest compiled (issue 24, point 3: a small call's cost)
        try:
            got = kernel.quick(state, count, policy, seed, until, record)
        except kernel.UnsupportedError:
            got = NotImplemented  # an event the kernel leaves to the engine: see below
        if got is not NotImplemented:
            return got  # type: ignore[no-any-return]
    if count is None and first is None:
        count = 1
    code = _POLICY_CODES.get(policy) if type(policy) is str else None
    if (
        code is None
        or type(count) is not int
        or count < 0
        or type(seed) is not int
        or type(state) is not GameState
        or first is not None
        or (until != "round" and until != "match")
    ):  # (the common arguments skip the call: issue 24, point 3, a small call's cost)
        count = check_arguments(state, count, policy, seed, until, first)
        code = _POLICY_CODES[policy]
    reason = _MISSING
    if _kernel is not None:
        context = state.context
        spec, reason, build = _compiled_in(context.rules, context.players)
        if spec is not None:
            match = until == "match"
            record = bool(record)
            firsts = None if first is None else tuple(first)
            try:
                return _in_build(build, spec, state, count, code, seed, match, record, firsts)
            except (build.UnsupportedError, NotForKernelError) as exc:
                reason = str(exc)  # a position or an event the kernel leaves to the engine
    out = reference_playouts(
        state, count, policy=policy, seed=seed, until=until, record=record, first=first
    )
    # (after the engine, which raises for the caller's own errors, such as a first move
    # out of range, which the kernel leaves to it)
    warn_fallback(state.context.rules, state.context.players, reason)
    return out


def _in_build(
    build: Any,
    spec: Any,
    state: GameState,
    count: int,
    code: int,
    seed: int,
    match: bool,
    record: bool,
    firsts: tuple[int, ...] | None,
) -> tuple[Outcome, ...]:
    """
    The playouts in ``build`` (the kernel that compiled ``spec``), from the state's slots
    read in C (issue 24, point 3: no state tuple built in Python), else (a triangle game,
    a state the slot reader leaves, the huge and vast builds, which have none) from its
    flat tuple;
    raises what the kernel leaves to the engine.
    """
    got: Any = NotImplemented
    if build is not _kernel_huge and build is not _kernel_vast:
        got = build.play(spec, state, count, code, seed, match, record, firsts, Outcome)
    if got is NotImplemented:
        flat = _flat(state)
        got = tuple(
            build.run(spec, flat, count, code, seed & _MASK, match, record, firsts, Outcome)
        )
    return got  # type: ignore[no-any-return]


if _kernel is not None and not TYPE_CHECKING:
    # the common calls (state and count positional, policy, seed, until and record by
    # keyword) reach _kernel.quick from C, with no Python frame; every other call is the
    # function's own (issue 24, point 3: the frame was about a third of a 1-playout call's
    # fixed cost, 0.16 of 0.5 µs); attributes, signature and errors are the function's
    playouts = _kernel.fast_entry(playouts)


def playouts_many(
    states: Sequence[GameState],
    count: int = 1,
    *,
    policy: str = "random",
    seed: int = 0,
    until: str = "round",
) -> tuple[tuple[Outcome, ...], ...]:
    """
    ``count`` playouts from each of ``states`` (the leaves of a search tree, say), in one
    call: item ``j`` equals ``playouts(states[j], count, policy=policy, seed=seed + j,
    until=until)``.  The arguments are checked once and each rule set is looked up once,
    so that many small calls cost less than calling :func:`playouts` per state.
    """
    if isinstance(states, GameState) or not isinstance(states, Sequence):
        raise TypeError(f"playouts_many needs a sequence of GameState, not {type(states).__name__}")
    got: Any = NotImplemented
    if _kernel is not None and (type(states) is list or type(states) is tuple):
        # every state the quick path takes, in one C call (issue 24, point 3: a search's
        # leaves cost less in one call than in a call each); a hole (NotImplemented) for
        # each state it leaves to the path below, a list then
        got = _kernel.quick_many(states, count, policy, seed, until)
        if type(got) is tuple:
            return got
    if got is NotImplemented:
        got = [NotImplemented] * len(states)
    holes = [j for j, item in enumerate(got) if item is NotImplemented]
    for j in holes:
        check_arguments(states[j], count, policy, seed, until, None)
    code = _POLICY_CODES[policy]
    match = until == "match"
    for j in holes:
        got[j] = _many_one(states[j], count, code, seed + j, policy, until, match)
    return tuple(got)


def _many_one(
    state: GameState, count: int, code: int, seed: int, policy: str, until: str, match: bool
) -> tuple[Outcome, ...]:
    """Item ``j`` of :func:`playouts_many` (``seed`` its ``seed + j``), checked arguments."""
    spec: Any = None
    build: Any = None
    if _kernel is not None:
        try:  # the common case in one C call, as in playouts
            got = _kernel.quick(state, count, policy, seed, until, False)
        except _kernel.UnsupportedError:
            got = NotImplemented
        if got is not NotImplemented:
            return got  # type: ignore[no-any-return]
        spec, _, build = _compiled_in(state.context.rules, state.context.players)
    if build is not None and spec is not None:
        try:
            return _in_build(build, spec, state, count, code, seed, match, False, None)
        except (build.UnsupportedError, NotForKernelError):
            pass  # a position or an event the kernel leaves to the engine
    return reference_playouts(state, count, policy=policy, seed=seed, until=until)


__all__ = [
    "KERNEL",
    "MAX_MOVES",
    "POLICIES",
    "UNTIL",
    "Outcome",
    "PlayoutError",
    "kernel_reason",
    "playouts",
    "playouts_many",
    "reference_playouts",
    "warn_fallback",
]
