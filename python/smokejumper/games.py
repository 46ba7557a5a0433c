"""The game registry: what the CLI, the service, the page and the contract
tests know of a game, in the manner of OpenSpiel's registered games.

A game is a C++ folder whose binding registers a ``_core`` submodule, and a
Python module ``smokejumper.<name>`` that describes it with a :class:`Game`
named ``GAME``. Nothing above this module names a game: it loops over
:func:`registered`.

>>> from smokejumper.games import load_game, registered
>>> game = load_game(registered()[0].name)
>>> {"solve", "hint", "check", "replay", "generate"} <= set(game.operations)
True
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Callable, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.fields import FieldInfo

from smokejumper import _core
from smokejumper.limits import SPEC_LIMIT_FIELDS, Limit, LimitRequest, limit_from_spec_names

Kind = Literal["search", "quick", "data", "batch"]
# What a server may hold a request field to, besides its Limit: the samples
# of a sampling search, the node cap (per sample), one thread (its worker
# pool is what bounds the threads searching).
CapKind = Literal["samples", "nodes", "threads"]


@dataclass(frozen=True)
class Operation:
    """One thing a game can do, the same everywhere it is offered.

    ``call`` takes the validated ``request`` model, and for a search or a
    batch also the :class:`~smokejumper.Limit` and ``Control`` (a batch also
    a ``progress(done, total)`` callback or None); it returns a ``response``
    model.

    - ``search``: bounded by a limit, stopped through its control; served
      at POST /v1/<game>/<name> within the server's caps.
    - ``quick``: bounded by the request's validated sizes; served likewise.
    - ``data``: plain Python that never calls the core; served at GET with
      the request's fields as query parameters.
    - ``batch``: many searches, each under the limit: the CLI's, not served
      (a request would outlast any cap).

    A ``chunked`` batch is one result per seed of a range (its response's
    ``results``, each with its ``seed``, ``nodes``, ``seconds`` and
    ``stopped_by``); its call also takes ``client=``, the engine it runs on
    (see smokejumper.batch), so it runs on a Dask cluster, resumes and
    writes its table in the same way for every game. Its ``seed_search``
    names the search whose answer each seed's result is read from (through
    :func:`smokejumper._batch.searched`), so that a run given a result
    cache keeps those answers for the service; None when a seed's result is
    no served answer (a whole game played).
    """

    name: str
    summary: str
    kind: Kind
    request: type[BaseModel]
    response: type[BaseModel]
    call: Callable[..., BaseModel]
    # How a person reads the answer (the CLI's text), from request and answer.
    text: Callable[[Any, Any], str]
    # Request fields a server holds to its caps of that kind.
    capped: Mapping[str, CapKind] = field(default_factory=dict)
    # Said on stderr after the text, where stdout must stay a file (generate).
    note: Callable[[Any, Any], str | None] | None = None
    # Why an answer fails its caller (the CLI's exit status and message):
    # (0, None) for a good one.
    outcome: Callable[[Any, Any], tuple[int, str | None]] | None = None
    # A batch over seeds, on any engine (above).
    chunked: bool = False
    seed_search: str | None = None
    # The request in a canonical form with the same answer (lists whose
    # order cannot change it, sorted), so that symmetric positions share a
    # result cache entry. Only for answers that name nothing of the input's
    # order: a move or a line would name the other position's indices.
    canonical: Callable[[Any], BaseModel] | None = None
    # The CLI's limit when none is given (None: the house's, 60 s a search);
    # for a batch whose every decision is a search, 60 s each is hours.
    default_limit: Limit | None = None

    def cache_form(self, request: BaseModel) -> BaseModel:
        """The request as the result cache keys it."""
        return self.canonical(request) if self.canonical else request

    @property
    def takes_limit(self) -> bool:
        return self.kind in ("search", "batch")


@dataclass(frozen=True)
class Game:
    """A game as the house sees it."""

    name: str  # the URL segment, the CLI word, the _core submodule
    title: str  # for people, with its punctuation
    summary: str
    rank: int  # where lists show it, lowest first
    position: type[BaseModel]
    move: type[BaseModel]
    operations: Mapping[str, Operation]
    # How a move is written for a person ("colour 0 into (1, 0) flying E").
    move_text: Callable[[Any], str]
    # The operation that makes a game's start from a seed.
    maker: str = "generate"

    def operation(self, name: str) -> Operation:
        try:
            return self.operations[name]
        except KeyError:
            raise KeyError(f"{self.title} has no operation {name!r}; it has {', '.join(self.operations)}") from None


def operations(*ops: Operation) -> dict[str, Operation]:
    """A game's operations by name, in the order given."""
    out: dict[str, Operation] = {}
    for op in ops:
        if op.name in out:
            raise ValueError(f"operation {op.name!r} is given twice")
        out[op.name] = op
    return out


def position_search(fn: Callable[..., BaseModel]) -> Callable[..., BaseModel]:
    """A search's call from ``fn(position, limit, control=control)``."""
    return lambda q, limit, control: fn(q.position, limit, control=control)


def position_call(fn: Callable[[Any], BaseModel]) -> Callable[[Any], BaseModel]:
    """A quick call from ``fn(position)``."""
    return lambda q: fn(q.position)


def request(name: str, doc: str, examples: list[dict[str, Any]], **fields: Any) -> type[BaseModel]:
    """A request model: ``fields`` as for pydantic's create_model, no
    unknown keys, and its examples (which the OpenAPI documents and the
    contract tests run). A scalar field's value in the first example is its
    own example too, which the OpenAPI shows for a query parameter.

    Strict: a number is a JSON number and a flag a JSON boolean (``"5"``,
    ``true`` for a count and ``"yes"`` for a flag are refused, not
    guessed at); a GET's query strings are read by :func:`query_model`."""
    for field_name, value in (examples[0] if examples else {}).items():
        spec = fields.get(field_name)
        if (isinstance(spec, tuple) and isinstance(spec[-1], FieldInfo) and not spec[-1].examples
                and not isinstance(value, (dict, list))):
            fields[field_name] = (*spec[:-1], FieldInfo.merge_field_infos(spec[-1], examples=[value]))
    validators = {}
    if "limit" in fields:
        fields.update(SPEC_LIMIT_FIELDS)
        validators["limit_from_spec_names"] = limit_from_spec_names
    return create_model(name, __config__=ConfigDict(extra="forbid", strict=True,
                                                    json_schema_extra={"examples": examples}),
                        __doc__=doc, __validators__=validators, **fields)


def query_model(model: type[BaseModel]) -> type[BaseModel]:
    """``model`` read from a URL's query: its values arrive as text, so
    ``seed=5`` is the number 5 there."""
    return type(model.__name__, (model,), {"model_config": ConfigDict(strict=False), "__doc__": model.__doc__})


def search_request(name: str, position: type[BaseModel], examples: list[dict[str, Any]],
                   **fields: Any) -> type[BaseModel]:
    """``{"position": ..., "limit": ...}`` and any ``fields`` more."""
    return request(name, "A position to search, under a limit.", examples,
                   position=(position, ...), **fields,
                   limit=(LimitRequest | None, Field(None, description="For the search")))


def position_request(name: str, position: type[BaseModel], examples: list[dict[str, Any]],
                     description: str = "") -> type[BaseModel]:
    """``{"position": ...}``."""
    return request(name, "A position.", examples, position=(position, Field(description=description)))


@cache
def registered() -> tuple[Game, ...]:
    """Every game the core registers, in ``rank`` order. Each is described
    by the ``GAME`` of its module ``smokejumper.<name>``."""
    found = []
    for name in _core.games:
        module = importlib.import_module(f"smokejumper.{name}")
        game = getattr(module, "GAME", None)
        if not isinstance(game, Game) or game.name != name:
            raise RuntimeError(f"smokejumper.{name} must describe its game as GAME = Game(name={name!r}, ...)")
        found.append(game)
    return tuple(sorted(found, key=lambda g: (g.rank, g.name)))


def search_operation_names() -> list[str]:
    """The names of every game's searches (what a result cache keeps), sorted."""
    return sorted({op.name for g in registered() for op in g.operations.values() if op.kind == "search"})


def load_game(name: str) -> Game:
    """The registered game ``name`` (its path segment and CLI word)."""
    for game in registered():
        if game.name == name:
            return game
    known = ", ".join(g.name for g in registered())
    raise KeyError(f"no game {name!r}; the games are {known}")
