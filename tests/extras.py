"""
What needs an optional extra (pyproject.toml's ``[project.optional-dependencies]``):
with only ``.[dev]`` installed, the tests, doc examples and type checks that need a
package that is not installed are skipped, and a line says which and why.

A file needs a package when it imports it at module level, or imports (at module
level) a project module that does.  ``python tests/extras.py`` prints the files to
type-check (one per line) and, on standard error, a line per file left out;
``scripts/check`` runs mypy on that list.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src"
#: The folders ``scripts/check`` type-checks (pyproject.toml's ``[tool.mypy] files``).
CHECKED = ("src", "tests", "examples")
#: Modules whose distribution has another name.
DISTRIBUTIONS = {"pyspiel": "open_spiel"}


def normalized(name: str) -> str:
    """A distribution or module name compared loosely (case, dashes, dots, underscores)."""
    return re.sub(r"[-_.]+", "", name).lower()


@cache
def extras() -> dict[str, tuple[str, ...]]:
    """Each extra of pyproject.toml and the distributions it installs (normalised names)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    found = {}
    for name, body in re.findall(r"^([\w-]+)\s*=\s*\[(.*?)\]", section, flags=re.S | re.M):
        requirements = re.findall(r'"([A-Za-z0-9_.-]+)', body)
        found[name] = tuple(normalized(r) for r in requirements)
    return found


def extra_for(module: str) -> str | None:
    """The extra that installs ``module``: the one named like it, else the first listing it."""
    distribution = normalized(DISTRIBUTIONS.get(module, module))
    listing = [name for name, packages in extras().items() if distribution in packages]
    for name in listing:
        if normalized(name) == distribution:
            return name
    return listing[0] if listing else None


@cache
def installed(module: str) -> bool:
    """True when the top-level ``module`` can be imported."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _imports(tree: ast.Module) -> Iterable[str]:
    """The modules a module imports at module level (not inside functions or classes)."""
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))


@cache
def _local_modules() -> frozenset[str]:
    """Names of the helper modules beside the tests and examples (``cli_driver``...)."""
    return frozenset(path.stem for folder in CHECKED[1:] for path in (ROOT / folder).rglob("*.py"))


def _project_file(module: str) -> Path | None:
    path = SOURCE.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate.resolve()
    return None


@cache
def _direct(path: Path) -> tuple[frozenset[str], frozenset[Path]]:
    """The packages a file imports that are missing, and the project files it imports."""
    return _scan(path.read_text(encoding="utf-8"))


def _scan(code: str) -> tuple[frozenset[str], frozenset[Path]]:
    missing: set[str] = set()
    project: set[Path] = set()
    for module in _imports(ast.parse(code)):
        top = module.split(".")[0]
        if top == "bendolib":
            path = _project_file(module)
            if path is not None:
                project.add(path)
        elif top != "__future__" and top not in _local_modules() and not installed(top):
            missing.add(top)
    return frozenset(missing), frozenset(project)


def _closure(missing: set[str], todo: list[Path]) -> tuple[str, ...]:
    """``missing`` plus what the project files in ``todo`` need, followed to the end."""
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        direct, project = _direct(path)
        missing |= direct
        todo.extend(project - seen)
    return tuple(sorted(missing))


def missing_in_code(code: str) -> tuple[str, ...]:
    """The packages that ``code`` needs (directly or through project modules) and lacks."""
    direct, project = _scan(code)
    return _closure(set(direct), list(project))


def missing_in_file(path: Path) -> tuple[str, ...]:
    """The packages the file at ``path`` needs and lacks (see :func:`missing_in_code`)."""
    return _closure(set(), [path.resolve()])


def reason(missing: Iterable[str]) -> str:
    """Why something is skipped: the packages missing and the extras to install."""
    names = sorted(set(missing))
    needed = {normalized(DISTRIBUTIONS.get(m, m)) for m in names}
    covering = [
        name
        for name, packages in extras().items()
        if needed <= set(packages) and normalized(name) in needed
    ]
    if covering:  # an extra named like one of them installs them all (pettingzoo: gymnasium)
        wanted = [covering[0]]
    else:
        wanted = sorted({extra for m in names if (extra := extra_for(m)) is not None})
    install = f"pip install -e '.[{','.join(wanted)}]'" if wanted else "not in any extra"
    return f"needs {', '.join(names)} ({install})"


def type_checked_files() -> tuple[list[Path], list[str]]:
    """The files to type-check, and a line for each one left out."""
    keep, skipped = [], []
    for folder in CHECKED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            missing = missing_in_file(path)
            if missing:
                skipped.append(f"{path.relative_to(ROOT)}: {reason(missing)}")
            else:
                keep.append(path)
    return keep, skipped


def main() -> int:
    keep, skipped = type_checked_files()
    for line in skipped:
        print(f"type checks skipped: {line}", file=sys.stderr)
    for path in keep:
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
