"""Which build of the compiled kernel this Python code can use."""

from __future__ import annotations

import os
from types import ModuleType

#: The kernel's interface version (``ABI`` in ``_kernel.d/module.c``): a build with another one
#: (say, an editable install not rebuilt after a pull) is not used.
ABI = 3


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


#: The kernel's limits (``MAXT``, ``MAXP`` in ``_kernel.d/kernel.h``).
MAX_TILES = 64
MAX_PLAYERS = 8


class NotForKernelError(Exception):
    """A rule set or state the kernel does not play (the message says why)."""
