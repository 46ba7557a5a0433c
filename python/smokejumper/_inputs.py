"""Turning user input (models, dicts, JSON text) into validated models."""

from __future__ import annotations

import json
from typing import Sequence, TypeVar

from pydantic import BaseModel, ValidationError

from smokejumper._core import InvalidPositionError

M = TypeVar("M", bound=BaseModel)

# Bounded input: a position is a few kilobytes; anything far larger is a
# mistake or an attack, and is refused before parsing.
MAX_INPUT_BYTES = 1 << 20


def describe_validation_error(err: ValidationError, data: object = None) -> str:
    """One line: where (a dotted path into the input, and the cell of the
    tile or pawn it is in, read from ``data``) and what is wrong."""
    first = err.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "input"
    return first_of_problems(f"{where}{cell_on_path(data, first['loc'])}", first["msg"], len(err.errors()))


def first_of_problems(where: str, msg: str, count: int) -> str:
    """``where: msg``, the first of ``count`` problems, saying how many more."""
    more = count - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"{where}: {msg}{tail}"


def cell_on_path(data: object, loc: Sequence[object]) -> str:
    """`` at (q, r)`` for the deepest object on an error's path into ``data``
    that names its cell by integer ``q`` and ``r`` (a tile, an edge pawn),
    so that a rejection names the cell as well as the field; else ``""``."""
    cell = ""
    for part in (*loc, None):
        if isinstance(data, dict) and type(data.get("q")) is int and type(data.get("r")) is int:
            cell = f" at ({data['q']}, {data['r']})"
        if part is None:
            break
        try:
            data = data[part]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            break
    return cell


def input_bytes(text: str | bytes) -> int:
    """The size of ``text`` in UTF-8 bytes."""
    return len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))


def parse_json(text: str | bytes) -> object:
    """JSON text to Python data; InvalidPositionError with one line otherwise."""
    size = input_bytes(text)
    if size > MAX_INPUT_BYTES:
        raise InvalidPositionError(f"input is {size} bytes; at most {MAX_INPUT_BYTES} are accepted")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidPositionError(f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    except RecursionError:
        raise InvalidPositionError("invalid JSON: nested too deeply") from None
    except UnicodeDecodeError:
        raise InvalidPositionError("input is not UTF-8 text") from None


def load_models(model: type[M], items: Sequence[M | dict], where: str) -> list[M]:
    """Validate each item as ``model``; errors name the item (``where[i]``)."""
    out = []
    for i, item in enumerate(items):
        try:
            out.append(load_model(model, item))
        except InvalidPositionError as e:
            raise InvalidPositionError(f"{where}[{i}]: {e}") from None
    return out


def load_model(model: type[M], obj: M | dict | str | bytes) -> M:
    """Validate ``obj`` as ``model``; raise InvalidPositionError with a clear
    one-line message otherwise."""
    if isinstance(obj, model):
        return obj
    if isinstance(obj, (str, bytes)):
        obj = parse_json(obj)
    try:
        return model.model_validate(obj)
    except ValidationError as e:
        raise InvalidPositionError(describe_validation_error(e, obj)) from None
    except RecursionError:
        raise InvalidPositionError("input nested too deeply") from None
