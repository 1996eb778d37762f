"""A playout call the compiled kernel cannot serve says so (issue 24 point 5).

"When the core cannot serve, say so: a warning (once per rule set, standard
``warnings``, silenceable) when ``playouts`` ... falls back to the Python engine, naming
the reason."
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import pytest

import bendolib
from bendolib import new_game
from bendolib import playouts as kernel_api
from bendolib.errors import KernelFallbackWarning
from bendolib.geometry.straight import StraightGeometry


class _Line(StraightGeometry):
    """A user's geometry: the kernel plays only the built-in classes."""


def _users_rules(name: str) -> bendolib.RuleSet:
    return bendolib.rules.get("classic-block").configure(name, geometry=_Line())


def test_a_fallback_warns_once_naming_the_reason() -> None:
    rules = _users_rules("fallback-once")
    state = new_game(rules, 2, seed=1)
    if not kernel_api.KERNEL:
        pytest.skip("without the kernel the warning names the missing build (tested below)")
    with pytest.warns(KernelFallbackWarning, match="_Line") as caught:
        first = kernel_api.playouts(state, 2, seed=3)
    assert len(caught) == 1
    assert "fallback-once" in str(caught[0].message)
    assert caught[0].filename == __file__  # points at the call, not inside bendolib
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kernel_api.playouts(state, 2, seed=3) == first  # once: no second warning
    assert kernel_api.reference_playouts(state, 2, seed=3) == first


def test_another_player_count_warns_again() -> None:
    if not kernel_api.KERNEL:
        pytest.skip("the compiled kernel is not loaded")
    rules = _users_rules("fallback-counts")
    with pytest.warns(KernelFallbackWarning, match="2 players"):
        kernel_api.playouts(new_game(rules, 2, seed=1))
    with pytest.warns(KernelFallbackWarning, match="3 players"):
        kernel_api.playouts(new_game(rules, 3, seed=1))


def test_the_warning_is_silenced_like_any_other() -> None:
    rules = _users_rules("fallback-silenced")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=KernelFallbackWarning)
        kernel_api.playouts(new_game(rules, 2, seed=1), 2)


def test_the_kernel_serving_does_not_warn() -> None:
    state = new_game(bendolib.rules.get("basic"), 2, seed=1)
    if not kernel_api.KERNEL:
        pytest.skip("the compiled kernel is not loaded")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kernel_api.playouts(state, 3)


def _run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-W", "default", "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


_CALL = (
    "import bendolib, bendolib.playouts as p; "
    "s = bendolib.new_game('basic', 2, seed=1); p.playouts(s, 1); p.playouts(s, 1); "
    "print(p.KERNEL)"
)


def test_pure_python_asked_for_does_not_warn() -> None:
    """``BENDOLIB_PURE_PYTHON=1`` is the user's choice: no warning."""
    env = dict(os.environ, BENDOLIB_PURE_PYTHON="1")
    out = _run(_CALL, env)
    assert out.stdout.strip() == "False", out.stderr
    assert "KernelFallbackWarning" not in out.stderr


def test_a_missing_build_warns_once() -> None:
    """No compiled kernel (no compiler at install): the first playouts call says so."""
    env = dict(os.environ)
    env.pop("BENDOLIB_PURE_PYTHON", None)
    hide = "import sys; sys.modules['bendolib._kernel'] = None; "  # import fails: not built
    out = _run(hide + _CALL, env)
    assert out.stdout.strip() == "False", out.stderr
    assert out.stderr.count("KernelFallbackWarning") == 1, out.stderr
    assert "not built" in out.stderr


def test_a_tile_set_beyond_the_kernel_warns_naming_the_count() -> None:
    """
    Issue 24 point 2 and 5: double-12 plays in the wide build, double-15 in the huge one
    and double-22 in the vast one (no warning); a tile set with a face beyond the
    kernel's 55 falls back, and the warning names the reason.
    """
    from bendolib.tiles import Tile, TileSet
    from large_sets import on_double

    if None in (kernel_api._kernel_wide, kernel_api._kernel_huge, kernel_api._kernel_vast):
        pytest.skip("the wide, huge and vast builds of the kernel are not all loaded")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for top in (12, 15, 22):
            kernel_api.playouts(new_game(on_double("classic-block", top), 2, seed=1), 2)
    base = TileSet.double(12)
    tiles = TileSet("double-12 + 56-56", base.tiles + (Tile(56, 56, base.tiles[0].bend),))
    rules = bendolib.rules.get("classic-block").configure("fallback-face-56", tileset=tiles)
    with pytest.warns(KernelFallbackWarning, match=r"faces beyond -8\.\.55"):
        kernel_api.playouts(new_game(rules, 2, seed=1), 2)


@pytest.mark.parametrize(
    ("build", "top", "said"),
    [
        ("_kernel_wide", 12, "double-12 curved has 91 tiles, more than 64"),
        ("_kernel_huge", 15, "double-15 curved has 136 tiles, more than 128"),
        ("_kernel_vast", 22, "double-22 curved has 276 tiles, more than 256"),
    ],
)
def test_a_missing_large_build_warns_for_its_sets_only(build: str, top: int, said: str) -> None:
    """
    Without the wide build (``bendolib._kernel_wide`` not built: MSVC has no 128-bit
    integers) or the huge or vast one (built by gcc only), a set of its size falls back naming
    the missing build; the 64-tile build still plays the rest.
    """
    env = dict(os.environ)
    env.pop("BENDOLIB_PURE_PYTHON", None)
    code = (
        f"import sys; sys.modules['bendolib.{build}'] = None; "
        "import bendolib, bendolib.playouts as p; "
        "from bendolib.tiles import TileSet; "
        f"big = bendolib.rules.get('basic').configure('big', tileset=TileSet.double({top})); "
        "p.playouts(bendolib.new_game('basic', 2, seed=1), 1); "
        "p.playouts(bendolib.new_game(big, 2, seed=1), 1); "
        "print(p.KERNEL, p.kernel_reason(big, 2))"
    )
    out = _run(code, env)
    assert out.stdout.startswith(f"True {said}"), out.stderr
    assert f"{build}) is not built" in out.stdout
    assert out.stderr.count("KernelFallbackWarning") == 1, out.stderr


def test_the_triangle_step_kernel_knows_the_fields_the_readers_know() -> None:
    """
    The rule set's, the geometry's, the drawing's and the match's fields are written once
    for both Python readers (``_kernel_abi``) and once in C for the triangle step kernel:
    the two lists agree (a field added on one side only, as ``RuleSet.origin`` was, turned
    the compiled paths off silently).
    """
    import re
    from pathlib import Path

    from bendolib import _kernel_abi as abi

    source = (
        Path(__file__).resolve().parent.parent / "src" / "bendolib" / "_kernel.d" / "tri_step.c"
    ).read_text(encoding="utf-8")

    def listed(name: str) -> frozenset[str]:
        found = re.search(rf"{name}\[\] = \{{(.*?)NULL\}};", source, re.S)
        assert found is not None, name
        return frozenset(re.findall(r'"(\w+)"', found.group(1)))

    assert listed("T_RULESET_FIELDS") == abi.RULESET_FIELDS
    assert listed("T_GEOMETRY_FIELDS") == abi.GEOMETRY_FIELDS
    assert listed("T_DRAW_FIELDS") == abi.DRAW_FIELDS
    assert listed("T_MATCH_FIELDS") == abi.MATCH_FIELDS
