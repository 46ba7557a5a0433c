"""One error shape for every error: RFC 9457 problem details
(``application/problem+json``) whose ``detail`` is one line naming the field
or cell. Also the request-body size guard."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any, Callable, Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from smokejumper import InvalidPositionError
from smokejumper._inputs import cell_on_path, describe_validation_error, first_of_problems

PROBLEM_JSON = "application/problem+json"
MAX_DETAIL_CHARS = 500


class Problem(BaseModel):
    """An error (RFC 9457 problem details)."""

    type: str = Field("about:blank", description="Always about:blank: the status says what kind of error")
    title: str = Field(description="The HTTP status phrase")
    status: int
    detail: str = Field(description="One line naming the field or cell at fault")

    model_config = {
        "json_schema_extra": {
            "examples": [
                {
                    "type": "about:blank",
                    "title": "Unprocessable Content",
                    "status": 422,
                    "detail": "body.position.tiles.0.n: Input should be less than or equal to 6",
                }
            ]
        }
    }


class Overloaded(Exception):
    """Every worker is busy and the queue is full."""


class ClientGone(Exception):
    """The client left while its request waited for a worker."""


def one_line(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= MAX_DETAIL_CHARS else text[: MAX_DETAIL_CHARS - 3] + "..."


def _title(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def problem(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    body = {"type": "about:blank", "title": _title(status), "status": status, "detail": one_line(detail)}
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries for these error statuses."""
    schema = {"schema": {"$ref": "#/components/schemas/Problem"}}
    return {s: {"model": Problem, "description": _title(s), "content": {PROBLEM_JSON: schema}} for s in statuses}


def describe_validation_errors(errors: list[dict[str, Any]], body: object = None) -> str:
    """``body.position.tiles.0.n at (0, 0): Input should be less than or equal to 6``."""
    if not errors:
        return "body: invalid request"
    first = errors[0]
    loc = [str(part) for part in first.get("loc", ())]
    msg = str(first.get("msg", "invalid value"))
    if first.get("type") == "json_invalid":
        # FastAPI puts the character offset in the location.
        where = f" at character {loc[1]}" if len(loc) > 1 else ""
        error = (first.get("ctx") or {}).get("error")
        return f"body: invalid JSON{where}" + (f": {error}" if error else "")
    where = ".".join(loc) or "body"
    path = list(first.get("loc", ()))
    cell = cell_on_path(body, path[1:]) if path[:1] == ["body"] else ""
    return first_of_problems(f"{where}{cell}", msg, len(errors))


def _is_json(content_type: str | None) -> bool:
    if not content_type:
        return True
    main = content_type.split(";", 1)[0].strip().lower()
    return main == "application/json" or (main.startswith("application/") and main.endswith("+json"))


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    content_type = request.headers.get("content-type")
    errors = list(exc.errors())
    if errors and tuple(errors[0].get("loc", ())) == ("body",) and not _is_json(content_type):
        return problem(415, f"body: send JSON with Content-Type: application/json, not {content_type}")
    return problem(422, describe_validation_errors(errors, exc.body))


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    detail = exc.detail
    if exc.status_code == 400 and exc.__cause__ is not None:
        # FastAPI reports a body json.loads gave up on as a generic 400; it
        # is malformed JSON like any other, so the same status as those.
        if isinstance(exc.__cause__, RecursionError):
            return problem(422, "body: invalid JSON: nested too deeply")
        if isinstance(exc.__cause__, UnicodeDecodeError):
            return problem(422, f"body: not UTF-8 text (byte {exc.__cause__.start})")
        return problem(422, "body: invalid JSON")
    if exc.status_code == 404 and detail == HTTPStatus.NOT_FOUND.phrase:
        detail = f"no such resource: {request.url.path}"
    elif exc.status_code == 405 and detail == HTTPStatus.METHOD_NOT_ALLOWED.phrase:
        detail = f"{request.method} is not allowed on {request.url.path}"
    return problem(exc.status_code, str(detail), headers=getattr(exc, "headers", None))


async def _invalid_position(request: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, ValidationError):
        return problem(422, describe_validation_error(exc))
    return problem(422, str(exc) or "invalid value")


async def _overloaded(request: Request, exc: Exception) -> JSONResponse:
    return problem(503, str(exc) or "the server is busy; try again shortly", headers={"Retry-After": "1"})


async def _client_gone(request: Request, exc: Exception) -> JSONResponse:
    # Nobody reads this answer; it only keeps the server log quiet.
    return problem(503, "the client disconnected while its request was queued")


async def _recursion(request: Request, exc: Exception) -> JSONResponse:
    return problem(422, "body: input nested too deeply")


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    # Starlette re-raises the exception after this answer, so the server
    # log gets the traceback; the client never does.
    return problem(500, "internal error; the server log has the details")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(InvalidPositionError, _invalid_position)
    app.add_exception_handler(ValueError, _invalid_position)
    app.add_exception_handler(RecursionError, _recursion)
    app.add_exception_handler(Overloaded, _overloaded)
    app.add_exception_handler(ClientGone, _client_gone)
    app.add_exception_handler(Exception, _unexpected)


class ShedMiddleware:
    """A call into the core that its runner would refuse (every worker
    busy, the queue full) gets its 503 before its body is parsed and
    validated: under overload most requests end so, and that work would
    otherwise keep the event loop, and /healthz with it, busy.
    ``full_by_path`` gives each POST route's runner's ``full``."""

    def __init__(self, app: ASGIApp, full_by_path: Mapping[str, Callable[[], str | None]]) -> None:
        self.app = app
        self.full_by_path = full_by_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        why = None
        if scope["type"] == "http" and scope["method"] == "POST" and (full := self.full_by_path.get(scope["path"])):
            why = full()
        if why is None:
            await self.app(scope, receive, send)
            return
        while (message := await receive())["type"] == "http.request" and message.get("more_body", False):
            pass  # the body, read and dropped, so that the connection can carry the next request
        await problem(503, why, headers={"Retry-After": "1"})(scope, receive, send)


class BodyLimitMiddleware:
    """Refuse request bodies over ``max_bytes`` with 413, by Content-Length
    and by the bytes actually received (a client may lie or send chunks).

    The body is read up front (at most ``max_bytes``) and handed on in one
    message; later receive() calls go to the server, so that
    ``request.is_disconnected()`` still sees the client leave."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _refuse(self, scope: Scope, send: Send, detail: str) -> None:
        response = problem(413, detail, headers={"Connection": "close"})
        await response(scope, _no_receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = f"body: larger than {self.max_bytes} bytes"
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await self._refuse_bad_length(scope, send)
                    return
                if declared > self.max_bytes:
                    await self._refuse(scope, send, too_large)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            if message["type"] != "http.request":
                continue
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, send, too_large)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse_bad_length(self, scope: Scope, send: Send) -> None:
        response = problem(400, "Content-Length header is not a number", headers={"Connection": "close"})
        await response(scope, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}
