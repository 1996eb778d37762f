"""Every script in examples/ runs to completion, and every Python code block in the
README and docs/ executes without error."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

import extras
from bendolib.playouts import KERNEL

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def needs_kernel(text: str) -> bool:
    """True for code that uses the batched games (bendolib.vector) when the kernel is not loaded."""
    return "bendolib.vector" in text and not KERNEL


def code_blocks() -> list[tuple[str, str]]:
    blocks = []
    for path in DOCS:
        for n, match in enumerate(BLOCK.finditer(path.read_text(encoding="utf-8"))):
            blocks.append((f"{path.relative_to(ROOT)}#{n}", match.group(1)))
    return blocks


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = extras.missing_in_file(script)
    if missing:
        pytest.skip(extras.reason(missing))
    if needs_kernel(script.read_text(encoding="utf-8")):
        pytest.skip("the batched games need the compiled kernel")
    monkeypatch.setattr(sys, "argv", [str(script)])
    runpy.run_path(str(script), run_name="__main__")


@pytest.mark.parametrize(("where", "code"), code_blocks(), ids=lambda v: str(v)[:60])
def test_doc_code_block_runs(where: str, code: str) -> None:
    missing = extras.missing_in_code(code)
    if missing:
        pytest.skip(extras.reason(missing))
    if needs_kernel(code):
        pytest.skip("the batched games need the compiled kernel")
    exec(compile(code, where, "exec"), {"__name__": "__doc_example__"})


def test_there_are_examples_and_doc_blocks() -> None:
    assert EXAMPLES and len(code_blocks()) >= 3
