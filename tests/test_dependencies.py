"""
The declared dependencies are the ones the package imports (issue 16.12), and the
README's links work where the README is shown without the repository: on the package
index page (absolute URLs).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import extras

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "bendolib"
#: Distributions whose import name differs.
IMPORT_NAMES = {"typing-extensions": "typing_extensions"}


def declared() -> set[str]:
    """pyproject.toml's run-time ``dependencies``, as import names."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    match = re.search(r"^dependencies = \[(.*?)\]", text, flags=re.S | re.M)
    assert match is not None
    names = re.findall(r'"([A-Za-z0-9_.-]+)', match.group(1))
    return {IMPORT_NAMES.get(name.lower(), name.lower().replace("-", "_")) for name in names}


def imported_outside_the_adapters() -> set[str]:
    """Top-level modules imported anywhere in the package but its adapters."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        if "adapters" in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
    return found


def test_every_dependency_is_used_and_every_import_declared() -> None:
    """Run-time dependencies are imported; anything else imported is in an extra."""
    imported = imported_outside_the_adapters()
    third_party = imported - set(sys.stdlib_module_names) - {"bendolib", "__future__"}
    assert declared() - imported == set(), "declared but never imported"
    optional = {name for packages in extras.extras().values() for name in packages}
    undeclared = {m for m in third_party - declared() if extras.normalized(m) not in optional}
    assert undeclared == set(), "imported but in no dependency or extra"
    assert "typing_extensions" not in imported  # nothing needs 3.11+ typing on 3.10


def test_readme_links_are_absolute() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)]+)\)", readme)
    assert links
    for link in links:
        assert link.startswith("https://"), f"{link!r} is relative: broken on the index page"
