"""Which build of the compiled kernel this Python code can use."""

from __future__ import annotations

import os
from types import ModuleType

#: The kernel's interface version (``ABI`` in ``_kernel.c``): a build with another one
#: (say, an editable install not rebuilt after a pull) is not used.
ABI = 2


def load_kernel() -> ModuleType | None:
    """
    The compiled kernel, or None when it is not built, is a stale build, or
    ``BENDOLIB_PURE_PYTHON`` asks for the pure-Python engine.
    """
    if os.environ.get("BENDOLIB_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        from bendolib import _kernel
    except ImportError:
        return None
    if getattr(_kernel, "ABI", None) != ABI:
        return None
    return _kernel
