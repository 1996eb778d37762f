"""
Print the requirements of some of bendolib's optional extras, one per line.

    python scripts/extras.py docs release

CI installs the docs and release extras with this instead of ``pip install -e
'.[docs,release]'``, which would build the compiled kernel a second time.  It reads the
installed project's metadata (bendolib must be installed).
"""

from __future__ import annotations

import re
import sys
from importlib.metadata import requires


def main() -> None:
    """Print the requirements of the extras named on the command line."""
    wanted = set(sys.argv[1:])
    for requirement in requires("bendolib") or []:
        found = re.search(r"""extra\s*==\s*["']([^"']+)["']""", requirement)
        if found and found.group(1) in wanted:
            print(requirement.split(";")[0].strip())


if __name__ == "__main__":
    main()
