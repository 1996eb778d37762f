"""
The command lines the docs show run and print what the docs say they print.

A ``text`` block of docs/*.md whose lines start with ``$ bendolib`` is a transcript: each
command (``\\`` continues it) runs in a fresh folder, in order, and the lines after it
up to the next ``$`` are its standard output (a block that shows none is only run).
``bendolib play`` transcripts are interactive (tests/test_cli_play.py drives them). The
league and self-play transcripts take 10 to 25 s each and run with ``BENDOLIB_LONG=1``:

    BENDOLIB_LONG=1 pytest -q -p no:cacheprovider tests/test_docs_cli.py

(The self-play transcript said 5612 decisions where the command writes 15360: nothing
ran the docs' commands before.)
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from cli_driver import run

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```text\n(.*?)^```", re.S | re.M)
LONG = os.environ.get("BENDOLIB_LONG", "") not in ("", "0")
#: Commands that take more than a few seconds: run with BENDOLIB_LONG=1.
SLOW = ("bendolib league", "bendolib selfplay")


def transcripts() -> list[tuple[str, list[tuple[list[str], list[str]]]]]:
    """Every ``$ bendolib`` block: its place and its (argv, expected output lines)."""
    found = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        for n, block in enumerate(BLOCK.finditer(page.read_text(encoding="utf-8"))):
            lines = block.group(1).splitlines()
            if not lines or not lines[0].startswith("$ bendolib "):
                continue
            steps: list[tuple[list[str], list[str]]] = []
            k = 0
            while k < len(lines):
                command = lines[k][2:]
                while command.endswith("\\"):
                    k += 1
                    command = command[:-1] + lines[k]
                k += 1
                output = []
                while k < len(lines) and not lines[k].startswith("$ "):
                    output.append(lines[k])
                    k += 1
                steps.append((shlex.split(command), output))
            found.append((f"{page.name}#{n}", steps))
    return found


def test_the_docs_show_transcripts() -> None:
    names = [" ".join(argv[:2]) for _, steps in transcripts() for argv, _ in steps]
    assert {"bendolib simulate", "bendolib league", "bendolib selfplay", "bendolib render"} <= set(
        names
    )


@pytest.mark.parametrize(("where", "steps"), transcripts(), ids=lambda v: str(v)[:40])
def test_a_transcript_prints_what_the_docs_say(
    where: str,
    steps: list[tuple[list[str], list[str]]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if steps[0][0][1] == "play":
        pytest.skip("interactive: tests/test_cli_play.py")
    if not LONG and any(" ".join(argv).startswith(SLOW) for argv, _ in steps):
        pytest.skip("10 to 25 s: BENDOLIB_LONG=1")
    monkeypatch.chdir(tmp_path)
    for argv, expected in steps:
        status, out, err = run(argv[1:], capsys, monkeypatch)
        assert status == 0, f"{where}: {' '.join(argv)}: {err}"
        if expected:
            assert out.splitlines() == expected, f"{where}: {' '.join(argv)}"
