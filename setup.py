"""Build of the optional compiled kernel (the rest of the metadata is in pyproject.toml).

The extension is optional: when it cannot be compiled (no compiler, ``CC=false``), the
install goes on without it and bendolib plays every playout on the Python engine.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bendolib._kernel",
            sources=["src/bendolib/_kernel.c"],
            optional=True,
        )
    ]
)
