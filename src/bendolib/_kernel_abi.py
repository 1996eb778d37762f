"""Which build of the compiled kernel this Python code can use."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

#: The kernel's interface version (``KERNEL_ABI`` in ``_kernel.d/kernel.h``, of every
#: build): a build with another one (say, an editable install not rebuilt after a pull)
#: is not used.
ABI = 5

#: The fields of the parts that both kernels' readers (``_kernel_input`` for the chain
#: games, ``_kernel_tri_input`` for the triangle games) know, written once: a part with
#: any other field runs on the Python engine.  The triangle step kernel keeps the rule
#: set's list in C (``T_RULESET_FIELDS`` in ``_kernel.d/tri_step.c``;
#: ``tests/test_kernel_fallback.py`` checks the two agree).
RULESET_FIELDS = frozenset(
    {
        "name",
        "tileset",
        "geometry",
        "deal",
        "start",
        "draw",
        "round_scoring",
        "match",
        "play_scoring",
        "finish",
        "wild_faces",
        "effects",
        "description",
        "wild_mask",
        "listing",
        "closing",
        "even_closing",
        "penalties",
        "origin",  # the rule set a variant was built from: a name, not a rule
    }
)
GEOMETRY_FIELDS = frozenset({"name", "uses_bends"})
DEAL_FIELDS = frozenset({"hand_sizes", "table_tiles"})
DRAW_FIELDS = frozenset(
    {
        "when_stuck",
        "voluntary",
        "must_play",
        "batch",
        "max_per_turn",
        "draws",
        "after_voluntary",
        "when_blocked",
    }
)
MATCH_FIELDS = frozenset({"target", "teams", "_seats", "target_check", "several"})
FIXED_SEAT_FIELDS = frozenset({"seat"})
WINNER_TAKES_PIPS_FIELDS = frozenset(
    {"blocked_winner", "tie", "minus_own", "out_wins", "takes", "win_points"}
)
FINISHING_ORDER_FIELDS = frozenset({"table", "tie", "rounding"})
HIGHEST_PLAY_SCORE_FIELDS = frozenset({"tie"})


def pure_python_asked() -> bool:
    """True when ``BENDOLIB_PURE_PYTHON`` asks for the pure-Python engine."""
    return os.environ.get("BENDOLIB_PURE_PYTHON", "") not in ("", "0")


def load_kernel() -> ModuleType | None:
    """
    The compiled kernel, or None when it is not built, is a stale build, or
    ``BENDOLIB_PURE_PYTHON`` asks for the pure-Python engine (:func:`missing_reason`
    says which).
    """
    return None if missing_reason() else _load()


def missing_reason() -> str:
    """Why :func:`load_kernel` gives None ("" when it gives the kernel)."""
    if pure_python_asked():
        return "BENDOLIB_PURE_PYTHON asks for the Python engine"
    try:
        from bendolib import _kernel
    except ImportError:
        return "the compiled kernel is not built (no compiler when bendolib was installed)"
    if getattr(_kernel, "ABI", None) != ABI:
        return "the compiled kernel is a stale build (rebuild it: python setup.py build_ext)"
    return ""


def _load() -> ModuleType:
    from bendolib import _kernel

    return _kernel


def load_build(name: str) -> ModuleType | None:
    """
    Another build of the kernel (``"_kernel_wide"``: the same parts with 128-bit masks,
    for tile sets of more than :data:`MAX_TILES` tiles; ``"_kernel_huge"``: the playout,
    chain step and deal parts with 256-bit masks, beyond :data:`MAX_TILES_WIDE`;
    ``"_kernel_vast"``: the same with 1,024-bit masks, beyond :data:`MAX_TILES_HUGE`), or
    None when :func:`load_kernel` gives None or it is not built
    (:func:`missing_build_reason`).
    """
    if missing_build_reason(name):
        return None
    return importlib.import_module(f"bendolib.{name}")


def missing_build_reason(name: str) -> str:
    """Why :func:`load_build` gives None ("" when it gives the build)."""
    reason = missing_reason()
    if reason:
        return reason
    try:
        build = importlib.import_module(f"bendolib.{name}")
    except ImportError:
        return f"its build of the kernel (bendolib.{name}) is not built"
    if getattr(build, "ABI", None) != ABI:
        return f"bendolib.{name} is a stale build (rebuild it: python setup.py build_ext)"
    return ""


#: The kernel's limits (``MAXT``, ``MAXP`` in ``_kernel.d/kernel.h``): ``bendolib._kernel``
#: takes tile sets of at most MAX_TILES tiles, ``bendolib._kernel_wide`` (the same parts
#: built with ``BENDOLIB_WIDE``) of at most MAX_TILES_WIDE, ``bendolib._kernel_huge``
#: (``BENDOLIB_HUGE``: the playouts, the chain games' step API and the deal) of at most
#: MAX_TILES_HUGE, ``bendolib._kernel_vast`` (the same with 16-word masks) of at most
#: MAX_TILES_VAST, the library's own limit (``bendolib.limits.MAX_TILES``).
MAX_TILES = 64
MAX_TILES_WIDE = 128
MAX_TILES_HUGE = 256
MAX_TILES_VAST = 1024
MAX_PLAYERS = 8
#: The builds beyond ``bendolib._kernel``, smallest first, each with the most tiles it
#: takes: the smallest that takes a tile set plays it (the others decline it).
LARGER_BUILDS = (
    (MAX_TILES_WIDE, "_kernel_wide"),
    (MAX_TILES_HUGE, "_kernel_huge"),
    (MAX_TILES_VAST, "_kernel_vast"),
)


class NotForKernelError(Exception):
    """A rule set or state the kernel does not play (the message says why)."""
