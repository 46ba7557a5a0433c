"""smokejumper: solvers and puzzle analysis for fire-themed tabletop games.

Each game is a module ``smokejumper.<game>`` with ``solve``, ``hint`` and
friends that take a position (a pydantic model, a dict or JSON text) and an
optional :class:`Limit`, and return typed results; :func:`load_game` and
``smokejumper.games.registered()`` describe every game the same way.
"""

__version__ = "0.1.0"

from smokejumper._core import Control, InvalidPositionError
from smokejumper.limits import Limit
from smokejumper.games import load_game  # noqa: E402  (games needs Limit's module, not this one)

__all__ = ["Control", "InvalidPositionError", "Limit", "__version__", "load_game"]
