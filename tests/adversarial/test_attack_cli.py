"""The command line's files and position texts (issue 14): malformed input ends with one
``bendolib:`` line and exit status 2, never a traceback.

This covers what the command line reads through the library's loaders (records given to
``replay`` and ``render``, positions given to ``play`` and ``render``), as UTF-8 text; the
prompts, undecodable bytes and terminal escapes are the command line's own (points 7 and
11 of the issue).
"""

from __future__ import annotations

import io
import json
import shutil
import sys
import tempfile
from pathlib import Path

from fuzz import BATCH, attack, fuzzing, json_mutants, text_mutants
from hypothesis import assume, given
from hypothesis import strategies as st

from bendolib import GameState, cli, position_text, records
from bendolib.testing import invariants
from bendolib.testing import strategies as bst

SEEDS = st.integers(0, 2**32 - 1)
STATES = bst.game_states(bst.rulesets(), max_moves=120)


def _run(argv: list[str], stdin: str = "quit\n") -> int:
    """``bendolib argv`` in this process; the status, or AssertionError on a traceback."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        status = cli.main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    message = err.getvalue()
    assert status in (0, 2), f"exit status {status}"
    if status == 2:
        lines = message.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("bendolib: "), message[:500]
    return status


@fuzzing(8)
@given(STATES, SEEDS)
def test_replay_and_render_record_files(state: GameState, seed: int) -> None:
    assume(invariants.writable(state.rules))
    folder = Path(tempfile.mkdtemp(prefix="bendolib-fuzz-"))
    text = records.dump(state)
    data = json.loads(text)
    inputs = [
        *text_mutants(text, seed, BATCH // 2, near='0123456789-=@*LR,[]{}":'),
        *json_mutants(data, seed, BATCH // 2),
    ]

    def run(content: str) -> int:
        path = folder / "record.json"
        path.write_text(content, encoding="utf-8", errors="surrogatepass")
        command = ["replay", "--all", str(path)] if seed % 2 else ["render", str(path)]
        return _run(command)

    try:
        attack("cli replay/render FILE", [i for i in inputs if _encodable(i)], run)
    finally:
        shutil.rmtree(folder)


@fuzzing(8)
@given(STATES, SEEDS)
def test_play_and_render_positions(state: GameState, seed: int) -> None:
    assume(invariants.writable(state.rules))
    text = position_text.dumps(state)
    inputs = [text, *text_mutants(text, seed, near="0123456789-=@*LR,/|: abcdefghijklmnoprstuwy")]
    command = ["play", "--position"] if seed % 2 else ["render", "--position"]
    attack(
        "cli play/render --position",
        [i for i in inputs if _encodable(i)],
        lambda position: _run([*command, position]),
    )


def _encodable(text: str) -> bool:
    """Text a file or an argument can carry (no lone surrogate, no NUL in an argument)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in text and not text.startswith("-")
