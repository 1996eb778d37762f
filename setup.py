"""
Build of the optional compiled kernel (the rest of the metadata is in pyproject.toml).

The extension is optional: when it cannot be compiled (no compiler, or ``CC=false``) the
install goes on without it, and bendolib plays every playout on the Python engine.  Set
``BENDOLIB_REQUIRE_KERNEL=1`` to make a failed compilation fail the build (release
wheels, cibuildwheel).
"""

import glob
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

required = os.environ.get("BENDOLIB_REQUIRE_KERNEL", "") not in ("", "0")
# Python's own CFLAGS carry -g: the built kernel held 507 KB of which ~400 KB were debug
# symbols.  On Linux the linker strips them (the wheel's kernel ~105 KB);
# BENDOLIB_KERNEL_DEBUG=1 keeps them for gdb, perf and the sanitizer build.
debug = os.environ.get("BENDOLIB_KERNEL_DEBUG", "") not in ("", "0")
strip = [] if debug or not sys.platform.startswith("linux") else ["-Wl,--strip-all"]
# ... and since they are stripped, they are not written either (-g0 after Python's -g):
# the three builds compile in 9.2 s of processor time instead of 12.2 s (gcc 12, x86-64).
nodebug = [] if debug or sys.platform == "win32" else ["-g0"]


class BuildKernels(build_ext):
    """build_ext with the kernel's builds compiled side by side, one thread each."""

    def build_extensions(self) -> None:
        if not self.parallel:  # (an explicit --parallel / -j N is kept)
            self.parallel = os.cpu_count() or 1
        super().build_extensions()


# its parts, #included by _kernel.c (one translation unit): a rebuild when any changes
parts = sorted(glob.glob("src/bendolib/_kernel.d/*.[ch]"))

setup(
    cmdclass={"build_ext": BuildKernels},
    ext_modules=[
        Extension(
            "bendolib._kernel",
            sources=["src/bendolib/_kernel.c"],
            depends=parts,
            optional=not required,
            extra_compile_args=nodebug,
            extra_link_args=strip,
        ),
        # the same parts with 128-bit masks (BENDOLIB_WIDE): tile sets of 65 to 128 tiles;
        # MSVC has no unsigned __int128 (on Windows, such sets play on the Python engine)
        *(
            []
            if sys.platform == "win32"
            else [
                Extension(
                    "bendolib._kernel_wide",
                    sources=["src/bendolib/_kernel_wide.c"],
                    depends=[*parts, "src/bendolib/_kernel.c"],
                    optional=not required,
                    extra_compile_args=nodebug,
                    extra_link_args=strip,
                )
            ]
        ),
        # the playout parts with 256-bit masks (BENDOLIB_HUGE, _kernel.d/mask256.h): tile
        # sets of 129 to 256 tiles (double-15 to double-21); the parts compiled as C++ (they
        # keep to the common subset of C and C++): built on Linux only, and never required
        *(
            [
                Extension(
                    "bendolib._kernel_huge",
                    sources=["src/bendolib/_kernel_huge.cc"],
                    depends=parts,
                    language="c++",
                    optional=True,
                    extra_compile_args=["-std=c++17", "-Wno-unused-parameter", *nodebug],
                    extra_link_args=strip,
                )
            ]
            if sys.platform.startswith("linux")
            else []
        ),
    ]
)
