"""smokejumper: solvers and puzzle analysis for fire-themed tabletop games.

Each game is a module (``smokejumper.volcano``) with ``solve``, ``hint`` and
friends that take a position (a pydantic model, a dict or JSON text) and an
optional :class:`Limit`, and return typed results.
"""

__version__ = "0.1.0"

from smokejumper._core import Control, InvalidPositionError
from smokejumper.limits import Limit

__all__ = ["Control", "InvalidPositionError", "Limit", "__version__"]
