"""Types of the compiled kernel (``_kernel.c``); see :mod:`bendolib.playouts`."""

from typing import Any

ABI: int
MAX_TILES: int
MAX_PLAYERS: int
MAX_STEPS: int

class UnsupportedError(Exception):
    """A rule set, state or event the kernel leaves to the Python engine."""

def compile(spec: tuple[Any, ...], /) -> object:
    """A compiled rule set for one player count (see bendolib._kernel_input.spec_tuple)."""

def run(
    spec: object,
    state: tuple[Any, ...],
    count: int,
    policy: int,
    seed: int,
    until_match: bool,
    record: bool,
    first: tuple[int, ...] | None,
    outcome: type[tuple[Any, ...]],
    /,
) -> list[Any]:
    """``count`` playouts from ``state``, as instances of the ``outcome`` class."""

def listing(spec: object, state: tuple[Any, ...], /) -> tuple[tuple[int, ...], ...]:
    """The legal moves as (kind, end, tile, inward, shows, turn)."""

def perft(spec: object, state: tuple[Any, ...], depth: int, /) -> int:
    """The number of move sequences of length ``depth``."""

def walk(spec: object, state: tuple[Any, ...], steps: int, stride: int, /) -> list[int]:
    """Legal-move counts along the game in which move k takes index stride * k mod count."""

def step_setup(config: dict[str, Any], /) -> None:
    """Hand the engine's classes, memo tables and helpers to the step functions."""

def step_legal(state: Any, /) -> tuple[Any, ...] | None:
    """``legal_moves(state)`` for the commonest cases, else None."""

def step_apply(state: Any, move: Any, listed_for: Any, moves: tuple[Any, ...], /) -> Any:
    """``apply(state, move)`` for a move ``legal_moves`` has just listed, else None."""

def play(
    spec: object,
    state: object,
    count: int,
    policy: int,
    seed: int,
    until_match: bool,
    record: bool,
    first: tuple[int, ...] | None,
    outcome: type[tuple[Any, ...]],
    /,
) -> Any:
    """``run`` for a GameState (the seed modulo 2**64): a tuple, or NotImplemented."""

def deal(spec: object, rules: object, players: object, seed: object, empty_board: object, /) -> Any:
    """``new_game(rules, players, seed)`` dealt with the compiled ``spec``, or None."""

def deal_set(rules: object, players: int, spec: object, empty_board: object, /) -> None:
    """The rule set and player count ``deal_quick`` deals for (a chain game's spec)."""

def deal_quick(rules: object, players: object, seed: object, /) -> Any:
    """``new_game(rules, players, seed)`` for those of ``deal_set``, or None."""

def quick_set(
    rules: object, players: int, spec: object, policies: tuple[str, ...], outcome: type, /
) -> None:
    """The rule set and player count ``quick`` serves (a chain game's spec; else none)."""

def quick(
    state: object, count: object, policy: object, seed: object, until: object, record: object, /
) -> Any:
    """``playouts(state, count, ...)`` for common arguments, or NotImplemented."""

def read_agrees(spec: object, state: object, /) -> bool | None:
    """Whether ``play`` reads what ``run`` reads from ``state_tuple(state)`` (None: tuple path)."""

def state_of(state: object, /) -> tuple[Any, ...] | None:
    """A chain game's ``bendolib._kernel_input.state_tuple(state)`` built in C, or None."""

def deal_deck(seed: int, round_number: int, attempt: int, count: int, /) -> tuple[int, ...]:
    """``SplitMix64(derive_seed(seed, round_number, attempt)).shuffled(range(count))``."""

def deal_hands(deck: tuple[int, ...], players: int, size: int, /) -> tuple[int, ...] | None:
    """The hand masks of the first ``players * size`` tiles of ``deck``, or None."""

def batch_new(
    spec: object,
    n: int,
    agent: int,
    policy: int,
    until_match: bool,
    skip_forced: bool,
    max_moves: int,
    /,
) -> object:
    """N batched games of a compiled rule set (see bendolib.vector)."""

def batch_info(batch: object, /) -> tuple[int, int, int]:
    """(encoding size, action count, bytes of the core's state per game)."""

def batch_bind(batch: object, outputs: tuple[Any, ...], /) -> None:
    """The 11 output arrays every call writes (held until the batch goes)."""

def batch_reset(batch: object, seeds: Any, /) -> None:
    """Every game's seed stream restarts at episode 0 of seeds[i]."""

def batch_step(
    batch: object, actions: Any, active: Any, accumulate: bool, /
) -> tuple[int, int] | None:
    """The caller's move in every (active) game; (game, action) of an illegal one."""

def batch_policy(
    batch: object, policies: Any, actions: Any, moves: Any, active: Any = None, /
) -> None:
    """The kernel policies' choice at every (active) game's decision, and the round's moves."""
