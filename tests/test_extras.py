"""
The optional extras (issue 16.10): an adapter imported without its extra says which
extra to install, and tests/extras.py finds what needs a missing package.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import extras
from bendolib.adapters import MissingExtraError

#: Each adapter, the extra that provides its packages, and one package it needs.
ADAPTERS = [
    ("bendolib.adapters.openspiel", "openspiel", "pyspiel"),
    ("bendolib.adapters.pettingzoo", "pettingzoo", "pettingzoo"),
    ("bendolib.adapters.pettingzoo", "pettingzoo", "gymnasium"),
]


@pytest.mark.parametrize(("adapter", "extra", "package"), ADAPTERS)
def test_an_adapter_without_its_extra_says_which_to_install(
    adapter: str, extra: str, package: str
) -> None:
    """The package is hidden (``sys.modules[name] = None``), as if not installed."""
    code = (
        f"import sys; sys.modules[{package!r}] = None\n"
        "from bendolib.adapters import MissingExtraError\n"
        f"try:\n    import {adapter}\n"
        "except MissingExtraError as error:\n"
        "    print(type(error).__mro__[1].__name__, error.extra, error.name, error, sep='|')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    base, named_extra, name, message = done.stdout.strip().split("|")
    assert (base, named_extra) == ("ModuleNotFoundError", extra)
    assert name == package or not extras.installed(name)  # the first one missing
    assert message == (
        f"{adapter} needs the '{extra}' extra (no module named '{name}'): "
        f"pip install 'bendolib[{extra}]'"
    )


def test_missing_extra_error_is_an_import_error() -> None:
    error = MissingExtraError("bendolib.adapters.x", "x", "xlib")
    assert isinstance(error, ImportError) and error.name == "xlib"


def test_what_needs_a_missing_package_is_found(tmp_path: Path) -> None:
    needs = tmp_path / "needs.py"
    needs.write_text(
        "import os\nfrom bendolib import engine\nimport no_such_package_x.sub\n"
        "def later():\n    import no_such_package_y\n",
        encoding="utf-8",
    )
    assert extras.missing_in_file(needs) == ("no_such_package_x",)  # not the lazy import
    assert extras.missing_in_code("import bendolib.engine\nimport attrs\n") == ()
    assert extras.reason(["pyspiel"]) == "needs pyspiel (pip install -e '.[openspiel]')"
    assert extras.reason(["dominoes"]) == "needs dominoes (pip install -e '.[anchors]')"
    assert extras.reason(["gymnasium", "pettingzoo"]).endswith("(pip install -e '.[pettingzoo]')")


def test_the_adapters_are_found_to_need_their_packages() -> None:
    """Through the project's own imports: a test importing an adapter needs its packages."""
    adapter = extras.SOURCE / "bendolib" / "adapters" / "openspiel.py"
    code = "from bendolib.adapters import openspiel\n"
    assert extras.missing_in_code(code) == extras.missing_in_file(adapter)
    if not extras.installed("pyspiel"):
        assert "pyspiel" in extras.missing_in_file(adapter)
    files, skipped = extras.type_checked_files()
    assert (adapter in files) == extras.installed("pyspiel")
    assert all(": needs " in line for line in skipped)
