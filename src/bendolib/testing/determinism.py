"""
Nondeterminism and cross-process identity: a game replayed from its deal and moves gives
the same states again, in this process and in another one started with another
``PYTHONHASHSEED``; rule sets and states come back from ``pickle`` equal, with equal hashes.

A policy that uses the global ``random``, keeps a cache from game to game, or takes a
decision from ``hash()`` of a string breaks the first two; a policy class without value
equality (a plain class) breaks the third.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import subprocess
import sys
from collections.abc import Sequence

from bendolib.engine import apply, legal_moves, new_game
from bendolib.rules.ruleset import RuleSet
from bendolib.state import STATE_FIELDS, GameState

#: GameState fields left out of a state's digest: the history and the rule set.
_NOT_DIGESTED = ("rules", "log", "past", "origin")

#: The replay, as code run both here and in the other process (which imports no more
#: than bendolib, so that it starts fast).
_REPLAY = """
_last_board = [(None, "")]

def _digest(state, fields):
    # repr(tuple of the fields), with the repr of a board kept while the board is the
    # same object (a draw or a pass keeps it): a long layout's repr is the costly part
    shown = []
    for name in fields:
        value = getattr(state, name)
        if name == "board":
            last = _last_board[0]
            if last[0] is not value:
                last = _last_board[0] = (value, repr(value))
            shown.append(last[1])
        else:
            shown.append(repr(value))
    text = "(" + ", ".join(shown) + ("," if len(shown) == 1 else "") + ")"
    return hashlib.sha1(text.encode()).hexdigest()[:16]

def _replay(rules, players, seed, choices, fields):
    digests = []
    try:
        state = new_game(rules, players, seed)
        digests.append(_digest(state, fields))
        for index in choices:
            legal = legal_moves(state)
            if not legal:
                break
            state = apply(state, legal[index % len(legal)])
            digests.append(_digest(state, fields))
    except Exception as exc:
        digests.append(f"raised {type(exc).__name__}: {exc}"[:200])
    return digests
"""

_CHILD = (
    "import hashlib, pickle, sys\n"
    "from bendolib.engine import apply, legal_moves, new_game\n"
    + _REPLAY
    + "\ngames, fields = pickle.load(sys.stdin.buffer)\n"
    "out = [_replay(r, p, s, c, fields) for r, p, s, c in reversed(games)][::-1]\n"
    "sys.stdout.buffer.write(pickle.dumps(out))\n"
)

_FIELDS = tuple(name for name in STATE_FIELDS if name not in _NOT_DIGESTED)

_namespace: dict[str, object] = {
    "hashlib": hashlib,
    "apply": apply,
    "legal_moves": legal_moves,
    "new_game": new_game,
}
exec(compile(_REPLAY, "<bendolib.testing.determinism>", "exec"), _namespace)


def state_digest(state: GameState) -> str:
    """A digest of the state's fields but the history and the rule set, the same in any process."""
    digest = _namespace["_digest"]
    return str(digest(state, _FIELDS))  # type: ignore[operator]


def replay_digests(rules: RuleSet, players: int, seed: int, choices: Sequence[int]) -> list[str]:
    """The digests of every state of the game replayed from its deal and ``choices``."""
    replay = _namespace["_replay"]
    return list(replay(rules, players, seed, tuple(choices), _FIELDS))  # type: ignore[operator]


def first_difference(a: Sequence[str], b: Sequence[str]) -> int | None:
    """The index of the first state that differs between two lists of digests, or None."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


#: The PYTHONHASHSEED of the other process: another one than this process's.
def _other_hash_seed() -> str:
    mine = os.environ.get("PYTHONHASHSEED", "")
    return "4242" if mine != "4242" else "1717"


def in_subprocess(
    rules: RuleSet, games: Sequence[tuple[int, int, Sequence[int]]], timeout: float = 60.0
) -> tuple[list[list[str]] | None, str | None]:
    """
    The digests of ``games`` (players, seed, choices) replayed in another Python process
    with another ``PYTHONHASHSEED``, in the reverse order (a cache that one game fills
    for the next is found either way); ``(None, why)`` when that cannot be done (the rule
    set does not pickle, or its classes cannot be imported there).
    """
    try:
        payload = pickle.dumps(
            ([(rules, p, s, tuple(c)) for p, s, c in games], _FIELDS), protocol=4
        )
    except Exception as exc:
        return None, f"the rule set cannot be pickled ({type(exc).__name__}: {exc})"
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = _other_hash_seed()
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD],
            input=payload,
            capture_output=True,
            env=env,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"no other Python process could be run ({type(exc).__name__}: {exc})"
    if done.returncode != 0:
        last = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["?"]
        return None, f"the other process could not load the rule set ({last[0][:200]})"
    try:
        out = pickle.loads(done.stdout)
    except Exception as exc:
        return None, f"the other process answered garbage ({type(exc).__name__})"
    return [list(map(str, digests)) for digests in out], None


def pickles_equal(value: object, what: str) -> str | None:
    """``value`` comes back from pickle equal and with an equal hash (None), else a message."""
    try:
        back = pickle.loads(pickle.dumps(value))
    except Exception as exc:
        return f"{what} does not round-trip through pickle: {type(exc).__name__}: {exc}"
    if back != value:
        return f"{what} comes back from pickle unequal to itself" + _unequal_part(value, back)
    try:
        if hash(back) != hash(value):
            return f"{what} comes back from pickle with another hash" + _unequal_part(value, back)
    except TypeError:
        return None  # unhashable: the hashability check says so
    return None


def _unequal_part(value: object, back: object) -> str:
    """Which policy of a rule set (or of a state's rule set) is unequal after pickling."""
    from bendolib.testing.invariants import PARTS

    rules, other = value, back
    if isinstance(value, GameState) and isinstance(back, GameState):
        rules, other = value.rules, back.rules
    if not isinstance(rules, RuleSet) or not isinstance(other, RuleSet):
        return ""
    for part in PARTS:
        a, b = getattr(rules, part), getattr(other, part)
        try:
            same = a == b and hash(a) == hash(b)
        except TypeError:
            same = a == b
        if not same:
            return (
                f": policy {part} ({type(a).__name__}) is not equal to its copy "
                "(a plain class compares by identity: make it an attrs.frozen class or "
                "give it __eq__ and __hash__)"
            )
    return ""
