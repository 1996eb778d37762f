"""The exported API: ``__all__`` lists only names that exist, and everything public is documented.

Every public module (no ``_`` in its dotted path) of the installed package is imported;
its ``__all__`` (when it has one) must name existing attributes, and each public
function, class, method and property it defines must carry a docstring, as must the
module itself (whenever-style ``test_api_surface``).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from types import ModuleType

import pytest

import bendolib


def public_modules() -> list[ModuleType]:
    modules: list[ModuleType] = [bendolib]
    for info in pkgutil.walk_packages(bendolib.__path__, "bendolib."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            try:
                modules.append(importlib.import_module(info.name))
            except ModuleNotFoundError:  # an adapter without its extra (see the summary)
                if not info.name.startswith("bendolib.adapters."):
                    raise
    return modules


MODULES = public_modules()


def public_names(module: ModuleType) -> list[str]:
    """The module's ``__all__``, or its public names defined in the module itself."""
    declared = getattr(module, "__all__", None)
    if declared is not None:
        return list(declared)
    return [
        name
        for name, obj in vars(module).items()
        if not name.startswith("_")
        and (inspect.isclass(obj) or inspect.isfunction(obj))
        and getattr(obj, "__module__", None) == module.__name__
    ]


def undocumented_members(cls: type) -> list[str]:
    missing = []
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(member, property):
            target = member.fget
        elif isinstance(member, staticmethod | classmethod):
            target = member.__func__
        elif inspect.isfunction(member):
            target = member
        else:
            continue
        if not (target is not None and (target.__doc__ or "").strip()):
            missing.append(f"{cls.__qualname__}.{name}")
    return missing


def test_the_docstring_check_finds_an_undocumented_member() -> None:
    class Documented:
        """A class."""

        def method(self) -> None:
            pass

        @property
        def value(self) -> int:
            """A documented property."""
            return 1

    assert undocumented_members(Documented) == [
        "test_the_docstring_check_finds_an_undocumented_member.<locals>.Documented.method"
    ]


def test_bendolib_all_names_exist_and_are_unique() -> None:
    assert len(set(bendolib.__all__)) == len(bendolib.__all__)
    for name in bendolib.__all__:
        assert hasattr(bendolib, name), name
    for name in ("new_game", "legal_moves", "apply", "parse_move", "RuleSet", "GameState"):
        assert name in bendolib.__all__


def test_the_public_modules_are_found() -> None:
    names = {m.__name__ for m in MODULES}
    assert {"bendolib.engine", "bendolib.testing", "bendolib.testing.checker"} <= names


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_module_all_names_exist(module: ModuleType) -> None:
    declared = getattr(module, "__all__", ())
    assert len(set(declared)) == len(declared), f"{module.__name__}.__all__ repeats a name"
    for name in declared:
        assert hasattr(module, name), f"{module.__name__}.__all__ names missing {name!r}"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_public_names_have_docstrings(module: ModuleType) -> None:
    assert (module.__doc__ or "").strip(), f"module {module.__name__} has no docstring"
    missing = []
    for name in public_names(module):
        obj = getattr(module, name)
        if inspect.ismodule(obj) or not (inspect.isclass(obj) or callable(obj)):
            continue
        if not (inspect.getdoc(obj) or "").strip() or (
            inspect.isclass(obj) and not (obj.__doc__ or "").strip()
        ):
            missing.append(name)
        if inspect.isclass(obj) and getattr(obj, "__module__", "").startswith("bendolib"):
            missing += undocumented_members(obj)
    assert not missing, f"{module.__name__}: no docstring for {missing}"


def test_testing_is_importable_but_not_imported_by_bendolib() -> None:
    code = (
        "import sys, bendolib\n"
        "assert 'bendolib.testing' not in sys.modules\n"
        "assert 'hypothesis' not in sys.modules\n"
        "import bendolib.testing\n"
        "assert 'hypothesis' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
