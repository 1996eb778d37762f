"""Print the requirements of some of pyproject.toml's optional extras, one per line.

    python scripts/extras.py docs release

CI installs the docs and release extras with this instead of ``pip install -e
'.[docs,release]'``, which would build the compiled kernel a second time.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]


def main() -> None:
    data = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    extras = data["project"]["optional-dependencies"]
    for name in sys.argv[1:]:
        for requirement in extras[name]:
            print(requirement)


if __name__ == "__main__":
    main()
