"""``import bendolib`` never imports the adapters or their optional packages (issue 5)."""

from __future__ import annotations

import subprocess
import sys


def test_import_bendolib_leaves_the_adapters_alone() -> None:
    code = (
        "import sys, bendolib, bendolib.bots, bendolib.tournament, bendolib.encoding\n"
        "import bendolib.selfplay, bendolib.runner, bendolib.cli\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium', 'numpy', 'pyarrow', "
        "'distributed', 'dask') "
        "or m.startswith('bendolib.adapters')]\n"
        "print(bad)\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
