"""The documentation makes no claim the code contradicts, as far as a test can see
(issue 21 point 6): no merge-conflict marker, and every rule set, error class and
``bendolib.`` name a page mentions exists.

``mkdocs build --strict`` catches none of these (a leftover ``=======`` turns a code
block into a heading), so the pages are read here as text.
"""

from __future__ import annotations

import builtins
import importlib
import re
from pathlib import Path

import pytest

import bendolib

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
SOURCE = ROOT / "src" / "bendolib"

#: git's markers: "<<<<<<< ours", "||||||| base", "=======" alone, ">>>>>>> theirs".
CONFLICT = re.compile(r"^(?:=======|(?:<<<<<<<|\|{7}|>>>>>>>)(?: .*)?)$", re.M)
REFERENCE = re.compile(r"\bbendolib(?:\.[A-Za-z_]\w*)+")
ERROR = re.compile(r"\b([A-Z]\w*Error)\b")
#: Ways a page names a registered rule set: ``rules.get("x"``, ``new_game("x"``,
#: ``--rules x,y`` and a rule page's title ``(`"x"`)``.
RULE_SET = (
    re.compile(r"""rules\.get\(\s*["']([^"']+)["']"""),
    re.compile(r"""new_game\(\s*["']([^"']+)["']"""),
    re.compile(r"--rules[ =]([a-z][\w,/-]*)"),
    re.compile(r"""^# .*\(`"?([a-z][\w-]*)"?`\)$""", re.M),
)
#: Errors of the packages the adapters wrap, which a page may quote.
THIRD_PARTY_ERRORS = {"SpielError"}
#: A file name that looks like a dotted name (``bendolib.md``).
FILE_SUFFIXES = ("md", "py", "json", "svg", "txt", "toml", "pyi", "c")


def conflict_markers(text: str) -> list[str]:
    """The lines of ``text`` that are merge-conflict markers."""
    return [m.group(0) for m in CONFLICT.finditer(text)]


def error_classes() -> set[str]:
    """The error classes a page may name: Python's and every one bendolib defines."""
    defined = set()
    for path in [*SOURCE.rglob("*.py"), *SOURCE.rglob("*.pyi")]:
        defined |= set(
            re.findall(r"^\s*class (\w+Error)\b", path.read_text(encoding="utf-8"), re.M)
        )
    return defined | {n for n in dir(builtins) if n.endswith("Error")} | THIRD_PARTY_ERRORS


def resolves(reference: str) -> bool:
    """True when the dotted ``bendolib....`` name imports or is an attribute chain."""
    parts = reference.split(".")
    if parts[-1] in FILE_SUFFIXES or any(p.startswith("__") for p in parts):
        return True  # a file name or a dunder module (never imported here: __main__ runs)
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError as exc:
            if exc.name and not exc.name.startswith("bendolib"):
                return True  # an optional extra that is not installed: not a stale name
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False  # pragma: no cover - "bendolib" itself always imports


def stale_claims(text: str) -> list[str]:
    """What ``text`` names that does not exist: rule sets, error classes, bendolib names."""
    found = []
    registered = set(bendolib.rules.names())
    for pattern in RULE_SET:
        for match in pattern.finditer(text):
            for name in match.group(1).split(","):
                # a placeholder (NAME) or a derived rule set's name (base/variant)
                if name and name.islower() and "/" not in name and name not in registered:
                    found.append(f"rule set {name!r}")
    known = error_classes()
    found += [f"error {e}" for e in sorted(set(ERROR.findall(text))) if e not in known]
    found += [f"name {r}" for r in sorted(set(REFERENCE.findall(text))) if not resolves(r)]
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_merge_conflict_markers(page: Path) -> None:
    """Issue 21 point 6: docs/getting-started.md held a leftover '=======' line."""
    assert conflict_markers(page.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_stale_names(page: Path) -> None:
    """Issue 21 point 6: a page names no rule set, error class or ``bendolib.`` name
    that does not exist."""
    assert stale_claims(page.read_text(encoding="utf-8")) == []


def test_the_checks_catch_what_they_look_for() -> None:
    """The detectors flag a planted marker and planted stale names (so the page tests
    above can fail), and leave alone what is right."""
    assert conflict_markers("text\n=======\nmore\n>>>>>>> main\n") == ["=======", ">>>>>>> main"]
    assert conflict_markers("======= not a marker\n================\n<<<<<<<<\n") == []
    planted = (
        'bendolib.rules.get("no-such-game"); `bendolib demo --rules basic,nosuch`; '
        "raises `FrobnicationError`; call `bendolib.engine.no_such_function`."
    )
    assert stale_claims(planted) == [
        "rule set 'no-such-game'",
        "rule set 'nosuch'",
        "error FrobnicationError",
        "name bendolib.engine.no_such_function",
    ]
    fine = (
        'bendolib.rules.get("basic"); `--rules NAME`; `IllegalMoveError`, `ValueError`; '
        "`bendolib.legal_moves`, `bendolib.rules.triangles.TRIOMINOES`, [x](bendolib.md)."
    )
    assert stale_claims(fine) == []
