"""Shared set-up for the test suite: the tests directory is not a package, so
put it on sys.path for ``import volcano_reference``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
