"""
Build of the optional compiled kernel (the rest of the metadata is in pyproject.toml).

The extension is optional: when it cannot be compiled (no compiler, or ``CC=false``) the
install goes on without it, and bendolib plays every playout on the Python engine.  Set
``BENDOLIB_REQUIRE_KERNEL=1`` to make a failed compilation fail the build (release
wheels, cibuildwheel).
"""

import os

from setuptools import Extension, setup

required = os.environ.get("BENDOLIB_REQUIRE_KERNEL", "") not in ("", "0")

setup(
    ext_modules=[
        Extension(
            "bendolib._kernel",
            sources=["src/bendolib/_kernel.c"],
            depends=["src/bendolib/_kernel_batch.c"],
            optional=not required,
        )
    ]
)
