"""The documentation site's sources stay complete (CI also runs `mkdocs build --strict`,
which checks every link and cross-reference): each public module has an API page, each
page is in the mkdocs.yml nav, and each fenced block names its language, so only the
```python blocks run (tests/test_examples.py) and none is skipped by accident."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PACKAGE = ROOT / "src" / "bendolib"
MKDOCS = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
API_PAGES = sorted((DOCS / "api").glob("*.md"))
#: `::: module` directives, with the explicit `members: [...]` list when there is one.
DIRECTIVE = re.compile(
    r"^::: ([\w.]+)\n(?:    options:\n(?:      .*\n)*?      members: \[(.*)\])?", re.M
)


def public_modules() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") for part in parts):
            found.add(".".join(parts))
    return found


def directives() -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for page in API_PAGES:
        for match in DIRECTIVE.finditer(page.read_text(encoding="utf-8")):
            found[match.group(1)] = match.group(2)
    return found


def test_every_public_module_has_an_api_page() -> None:
    missing = public_modules() - set(directives())
    assert not missing, f"add `::: <module>` to a page of docs/api/ for {sorted(missing)}"


def test_no_internal_module_has_an_api_page() -> None:
    """A module named with a leading underscore is internal (docs/architecture.md)."""
    internal = [m for m in directives() if any(part.startswith("_") for part in m.split("."))]
    assert not internal, f"docs/api documents internal modules: {internal}"


def test_package_pages_list_what_the_package_itself_defines() -> None:
    """A package page renders only the members it names (not its re-exports): it must
    name every public function and class defined in the package's __init__.py."""
    for module, members in directives().items():
        init = PACKAGE.parent.joinpath(*module.split("."), "__init__.py")
        if members is None or not init.exists():
            continue
        tree = ast.parse(init.read_text(encoding="utf-8"))
        defined = {
            node.name
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_")
        }
        listed = {name.strip() for name in members.split(",")}
        assert defined <= listed, f"docs/api: list {sorted(defined - listed)} under {module}"


def test_every_page_is_in_the_nav() -> None:
    start = re.search(r"^nav:", MKDOCS, re.M)
    assert start is not None, "mkdocs.yml has no nav"
    nav = MKDOCS[start.start() :]
    entries = re.findall(r"^\s*- .*?(\S+\.md)\s*$", nav, re.M)
    in_nav = {entry for entry in entries if "://" not in entry}  # not external links
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md") if p.parent != DOCS / "figures"}
    assert pages - in_nav == set(), "add these pages to the nav of mkdocs.yml"
    assert in_nav - pages == set(), "mkdocs.yml names pages that do not exist"


def test_fenced_blocks_name_their_language() -> None:
    unnamed = []
    for path in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        inside = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if not stripped.startswith("```"):
                continue
            if not inside and stripped == "```":
                unnamed.append(f"{path.relative_to(ROOT)}:{number}")
            inside = not inside
    assert not unnamed, f"name the language (```python runs; ```text, ```sh do not): {unnamed}"
