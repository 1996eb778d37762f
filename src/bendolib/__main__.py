"""``python -m bendolib``: the command line."""

import sys

from bendolib.cli import main

sys.exit(main())
