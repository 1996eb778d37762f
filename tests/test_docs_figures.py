"""
The figures of the docs are what a bench command printed (bench/figures.py), never typed:
every page's ``--8<-- "figures/NAME.md"`` names a file that bench/figures.py wrote, the
file says which command, when and under what load, and every figure is shown somewhere.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FIGURES = DOCS / "figures"
INCLUDE = re.compile(r'^--8<-- "figures/([\w.-]+)\.md"\s*$', re.M)


def figures_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_figures", ROOT / "bench" / "figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_figures", module)
    spec.loader.exec_module(module)
    return module


def included() -> dict[str, list[str]]:
    """Figure name -> the pages that include it."""
    found: dict[str, list[str]] = {}
    for page in sorted(DOCS.rglob("*.md")):
        if page.parent == FIGURES:
            continue
        for name in INCLUDE.findall(page.read_text(encoding="utf-8")):
            found.setdefault(name, []).append(str(page.relative_to(ROOT)))
    return found


def test_every_included_figure_was_written_by_its_command() -> None:
    script = figures_script()
    for name, pages in included().items():
        assert name in script.COMMANDS, f"{pages} include figures/{name}.md: not in COMMANDS"
        path = FIGURES / f"{name}.md"
        assert path.exists(), f"run `python bench/figures.py {name}` ({pages} include it)"
        text = path.read_text(encoding="utf-8")
        assert text.startswith(script.MARKER + "\n"), f"{path}: not written by bench/figures.py"
        command, _ = script.COMMANDS[name]
        assert (ROOT / command[0]).exists(), f"{name}: {command[0]} does not exist"
        head = text.splitlines()[1]
        assert re.match(r"Measured \d{4}-\d\d-\d\d \d\d:\d\d UTC \(load average [\d.]+", head)
        assert f"`python bench/figures.py {name}`" in head
        assert " ".join(command) in head, f"{path}: measured by another command than today's"


def test_every_figure_is_shown_and_none_is_left_over() -> None:
    script = figures_script()
    shown = set(included())
    assert set(script.COMMANDS) <= shown, (
        f"not included by any page: {set(script.COMMANDS) - shown}"
    )
    written = {path.stem for path in FIGURES.glob("*.md")}
    assert written <= set(script.COMMANDS), f"left over in docs/figures: {written - shown}"


def test_snippets_fail_the_build_on_a_missing_figure() -> None:
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"pymdownx\.snippets:\n(\s+.*\n)*?\s+check_paths: true", mkdocs)
