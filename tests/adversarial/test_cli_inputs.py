"""
The command line's inputs, attacked (issue 14.11 and 14.7): record files (their text,
their JSON structure and their bytes mutated), position texts given on the command
line, and answers typed at the ``play`` and ``replay --step`` prompts.

Whatever comes in, ``bendolib`` exits with status 0 or 2 within the hang limit and never
shows a traceback; a failure is one ``bendolib:`` line from a library error (not from the
last-resort handler, which means a bug); and nothing it prints carries a control
character other than the line ends (text from the input is escaped).  Run as part of
the adversarial suite (fuzz.py: ``BENDOLIB_FUZZ=long`` for the long profile).
"""

from __future__ import annotations

import io
import json
import random
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import bendolib
from bendolib import BendolibError, GameState, position_text, records
from bendolib.cli import main
from bendolib.testing import strategies as bst

fuzz: Any = pytest.importorskip(
    "fuzz", reason="the adversarial suite's machinery (tests/adversarial/fuzz.py) is missing"
)

F = TypeVar("F", bound=Callable[..., Any])


def fuzzing(ci: int) -> Callable[[F], F]:
    """The suite's hypothesis settings for a surface (fuzz.fuzzing), typed."""
    settings: Callable[[F], F] = fuzz.fuzzing(ci)
    return settings


SEEDS = st.integers(0, 2**32 - 1)
#: Rule sets: the registered ones and configured ones.
RULES = st.one_of(bst.rulesets(), bst.rulesets(configured=True))
#: Player names a record may carry: escape sequences, bidirectional overrides, line breaks.
NAMES = ["ann", "\x1b[31mred\x1b[0m", "bob\u202e", "two\nlines", "tab\t", "nul\x00", "\U0001f031"]
#: Characters that must never reach the terminal unescaped (all but the line end).
HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
#: What a user types at the play prompt, before mutation.
PLAY_ANSWERS = ["1", "2", "help", "board", "moves", "d", "p", "draw", "5-5*", "6-6*", "", "99"]
#: What a user types at the replay prompt, before mutation.
REPLAY_ANSWERS = ["", "", "b", "e", "3", "0", "q"]


class CliFaultError(AssertionError):
    """An input made the command line misbehave."""


def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``bendolib ARGV`` in this process with ``stdin`` typed: (status, output, errors)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def _shown(value: str | bytes) -> str:
    text = repr(value)
    return text if len(text) <= 300 else f"{text[:300]}... ({len(value):,} long)"


def attack_cli(surface: str, argv: list[str], stdin: str, what: str | bytes) -> bool:
    """
    Run one input (``what``, for the report) through the command; True when it was
    accepted (status 0).  Raises :class:`CliFaultError` for a traceback, another status, a
    failure that is not one library-error line, a control character printed, or a hang.
    """
    fuzz.TRIED[surface] += 1
    start = time.perf_counter()
    try:
        status, out, err = run_cli(argv, stdin)
    except BaseException as exc:  # SystemExit included: main() returns a status
        raise CliFaultError(f"{surface}: {type(exc).__name__} escaped for {_shown(what)}") from exc
    elapsed = time.perf_counter() - start
    fault = None
    if elapsed > fuzz.HANG_SECONDS:
        fault = f"{elapsed:.1f} s for one input"
    elif "Traceback" in out + err:
        fault = "a traceback"
    elif status not in (0, 2):
        fault = f"exit status {status}"
    elif status == 2 and not (err.startswith("bendolib: ") and err.count("\n") == 1):
        fault = f"not one 'bendolib:' line: {err[:300]!r}"
    elif "internal error" in err:
        fault = f"the last-resort handler: {err[:300]!r}"
    else:
        shown = [ch for ch in out + err if ch != "\n" and unicodedata.category(ch) in HIDDEN]
        if shown:
            fault = f"control characters printed: {sorted(set(shown))!r}"
    if fault is not None:
        raise CliFaultError(f"{surface}: {fault} for {_shown(what)}")
    if status == 0:
        fuzz.ACCEPTED[surface] += 1
    return status == 0


def _record_text(state: GameState, seed: int) -> str:
    names = random.Random(seed).sample(NAMES * 2, state.players)
    try:
        return records.dump(state, names=names)
    except BendolibError:  # a rule set that records cannot hold (skipped)
        assume(False)
        raise


def _as_bytes(text: str, rng: random.Random) -> bytes:
    """The file's bytes: the text as UTF-8 (lone surrogates kept), at times a bad byte."""
    data = text.encode("utf-8", "surrogatepass")
    if rng.randrange(4) == 0:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]) + data[at:]
    return data


@fuzzing(5)
@given(bst.game_states(RULES, max_moves=60), SEEDS)
def test_record_files(state: GameState, seed: int) -> None:
    text = _record_text(state, seed)
    rng = random.Random(seed)
    mutants = [
        *fuzz.text_mutants(text, seed, count=fuzz.BATCH // 2 or 1, near='0123456789-@LR[]{}":'),
        *fuzz.json_mutants(json.loads(text), seed, count=fuzz.BATCH // 2 or 1),
    ]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "match.json"
        for k, mutant in enumerate([text, *mutants]):
            data = _as_bytes(mutant, rng)
            path.write_bytes(data)
            attack_cli("cli replay RECORD", ["replay", str(path), "--all"], "", data)
            if k % 2 == 0:
                attack_cli("cli render RECORD", ["render", str(path)], "", data)


@fuzzing(15)
@given(bst.game_states(RULES, max_moves=100), SEEDS)
def test_position_texts(state: GameState, seed: int) -> None:
    try:
        text = position_text.dumps(state)
    except BendolibError:
        assume(False)
        raise
    mutants = [text, *fuzz.text_mutants(text, seed, near="0123456789-=@*LR,/|: ")]
    for k, mutant in enumerate(mutants):
        if "\x00" in mutant:  # a command line cannot hold NUL: the OS ends the argument
            mutant = mutant.replace("\x00", "")
        if k % 3 or k == 0:
            attack_cli("cli render --position", ["render", "--position", mutant], "", mutant)
        if k % 3 == 0:
            argv = ["play", "--position", mutant, "--bots", "random", "--seed", str(seed)]
            attack_cli("cli play --position", argv, "1\nquit\n", mutant)


def _answers(seed: int, pool: list[str]) -> list[str]:
    rng = random.Random(seed)
    answers = []
    for _ in range(rng.randrange(3, 25)):
        answer = rng.choice(pool)
        if rng.randrange(3):
            answer = fuzz.mutate_text(answer, rng, "0123456789-@*LRdpqhb ")
        answers.append(answer)
    return answers


@fuzzing(8)
@given(st.sampled_from(bendolib.rules.names()), SEEDS)
def test_play_prompt(name: str, seed: int) -> None:
    rules = bendolib.rules.get(name)
    for k in range(fuzz.BATCH):
        answers = _answers(seed + k, PLAY_ANSWERS)
        typed = "\n".join(answers) + "\nquit\n"
        players = rules.player_counts[(seed + k) % len(rules.player_counts)]
        argv = ["play", "--rules", name, "--players", str(players), "--bots", "random"]
        argv += ["--seed", str(seed + k), "--param", "target=20"]
        if not attack_cli("cli play (prompt)", argv, typed, typed):
            raise CliFaultError(f"play refused a session: {_shown(typed)}")


@fuzzing(6)
@given(bst.game_states(RULES, max_moves=40), SEEDS)
def test_replay_prompt(state: GameState, seed: int) -> None:
    text = _record_text(state, seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "match.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        for k in range(fuzz.BATCH):
            typed = "\n".join(_answers(seed + k, REPLAY_ANSWERS)) + "\n"
            argv = ["replay", str(path), "--step"]
            if not attack_cli("cli replay --step (prompt)", argv, typed, typed):
                raise CliFaultError(f"replay refused a session: {_shown(typed)}")
