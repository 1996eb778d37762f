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
# and, stripped anyway, they are not made: -g0 after Python's -g takes about a quarter off
# each build's compile time (CI compiles every build four times)
no_debug = [] if debug or not sys.platform.startswith("linux") else ["-g0"]


class BuildKernels(build_ext):
    """build_ext with the kernel's builds compiled side by side, one thread each."""

    def build_extensions(self) -> None:
        """Compile every build, as many at a time as there are processors."""
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
            extra_compile_args=no_debug,
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
                    extra_compile_args=no_debug,
                    extra_link_args=strip,
                )
            ]
        ),
        # the playout parts, the chain games' step API and the deal with 256-bit masks
        # (BENDOLIB_HUGE, _kernel.d/mask_words.h): tile sets of 129 to 256 tiles (double-15
        # to double-21), and with 1,024-bit masks (_kernel_vast.cc, the same file with 16
        # words) 257 to 1,024 (double-22 to double-43); the parts compiled as C++ (they
        # keep to the common subset of C and C++): built on Linux only, and never required
        *(
            [
                Extension(
                    f"bendolib.{name}",
                    sources=[f"src/bendolib/{name}.cc"],
                    depends=[*parts, "src/bendolib/_kernel_huge.cc"],
                    language="c++",
                    optional=True,
                    extra_compile_args=["-std=c++17", "-Wno-unused-parameter", *no_debug],
                    extra_link_args=strip,
                )
                for name in ("_kernel_huge", "_kernel_vast")
            ]
            if sys.platform.startswith("linux")
            else []
        ),
    ],
)
