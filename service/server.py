"""``smokejumper serve``: uvicorn, with its HTTP/1.1 protocol guarded
against slow and idle clients (issue 19).

uvicorn gives a request as long as it likes to arrive: a client that sends
half its headers, or a byte of its body every few seconds, holds a file
descriptor for ever, and a few hundred of them leave none for anyone else.
Here every request must arrive whole within ``request_timeout`` seconds of
the connection opening (or of the previous answer on a kept-alive one),
else it gets 408 and is closed; and at most ``max_connections`` are open at
once. At the cap, a new connection displaces the one that has waited
longest for its request to arrive (a slow client, never one whose request
is being answered); when every open connection is being answered, the new
one is closed at once. Both are settings (docs/architecture.md says why
this server and these rules)."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import logging.config
import re
import resource
import time
from typing import Any, Callable, NamedTuple

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

import smokejumper

from .observe import REQUEST_ID_HEADER, SANE_REQUEST_ID, log_config, log_request, new_request_id
from .settings import Settings

log = logging.getLogger("smokejumper.service")
_TIMED_OUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
              b"connection: close\r\ncontent-length: 45\r\n\r\nthe request did not arrive whole in the time.")
# The listen queue, short on purpose. asyncio accepts up to this many
# connections in one go, each handed to a task of its own, and a closed
# one's descriptor is freed only on a later turn of the loop: with 300
# clients connecting at once, several such batches are open together. So
# the cap keeps six batches of descriptors back, besides those of the
# listening socket, the result cache's files and the logs (with
# ulimit -n 256: 96 connections). With 32 a batch and four kept back, 300
# half-sent requests still ran out of descriptors now and then.
BACKLOG = 16
_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # a header's name (RFC 9110)
_SPARE_DESCRIPTORS = 64 + 6 * BACKLOG
_HEALTH_BODY = json.dumps({"status": "ok", "version": smokejumper.__version__}, separators=(",", ":")).encode()


def connection_cap(settings: Settings) -> int:
    """The settings' cap, held below what this process may open."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return settings.max_connections
    return max(1, min(settings.max_connections, soft - _SPARE_DESCRIPTORS))


class HealthAnswer(NamedTuple):
    response: bytes
    close: bool  # the connection closes after it
    request_id: str


def health_answer(request: bytes, default_headers: list[tuple[bytes, bytes]] = ()) -> HealthAnswer | None:
    """The whole answer to ``request`` if it is exactly one plain
    ``GET /healthz`` (the bytes of one read, headers complete with a Host
    on HTTP/1.1, no body, no Origin), with uvicorn's ``default_headers``
    (date, server); else None: the ordinary path answers it.

    Answered by the protocol as its bytes arrive, a liveness probe does
    not wait for the turns of the event loop that a request's task, the
    middleware and the route take, each behind every other client's work
    (docs/benchmarks.md, "Load"). The body is the route's own. A request
    from another site's page (Origin) goes the ordinary way, for its CORS
    headers."""
    if not request.startswith(b"GET /healthz ") or request.find(b"\r\n\r\n") != len(request) - 4:
        return None
    line, *headers = request[:-4].split(b"\r\n")
    parts = line.split(b" ")
    if len(parts) != 3 or parts[2] not in (b"HTTP/1.1", b"HTTP/1.0"):
        return None
    given = b""
    close = parts[2] == b"HTTP/1.0"
    host = False
    for header in headers:
        name, colon, value = header.partition(b":")
        if not colon or name != name.strip() or not _TOKEN.fullmatch(name):
            return None  # h11 answers a malformed header with 400
        name, value = name.lower(), value.strip()
        if name in (b"content-length", b"transfer-encoding", b"expect", b"upgrade", b"origin"):
            return None  # a body, a protocol switch or another site's page: the ordinary path
        host |= name == b"host"
        if name == b"connection" and b"close" in value.lower():
            close = True
        elif name == REQUEST_ID_HEADER.lower().encode():
            given = value
    if parts[2] == b"HTTP/1.1" and not host:
        return None
    rid = given if SANE_REQUEST_ID.fullmatch(given.decode("latin-1")) else new_request_id().encode()
    head = b"".join(k + b": " + v + b"\r\n" for k, v in default_headers)
    head = (b"HTTP/1.1 200 OK\r\n" + head + b"content-type: application/json\r\ncontent-length: " +
            str(len(_HEALTH_BODY)).encode() + b"\r\nx-request-id: " + rid +
            (b"\r\nconnection: close" if close else b"") + b"\r\n\r\n")
    return HealthAnswer(head + _HEALTH_BODY, close, rid.decode("latin-1"))


def guarded_protocol(request_timeout: float, max_connections: int,
                     on_health: Callable[[HealthAnswer, float, str], None] = lambda answer, seconds, client: None
                     ) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the deadline, the cap and /healthz
    answered as it arrives (``on_health`` counts and logs each such answer:
    it, its seconds, the client's address)."""

    class Guarded(H11Protocol):
        # When this connection began waiting for its current request (None:
        # the request is whole and being answered).
        waiting_since: float | None = None
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > max_connections and not self._displace_one():
                log.warning("connection refused: %d open, the cap", max_connections)
                transport.abort()
                return
            self._await_request()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel_deadline()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._answered_health(data):
                return
            super().data_received(data)
            if self._request_whole():
                self.waiting_since = None
                self._cancel_deadline()

        def on_response_complete(self) -> None:
            super().on_response_complete()  # may start a pipelined request already whole
            if not self.transport.is_closing() and not self._request_whole():
                self._await_request()

        def _answered_health(self, data: bytes) -> bool:
            """A /healthz between requests, answered at once (h11 never sees it).
            Not while earlier answers wait to be sent: a client that sends
            and never reads is then held back by h11's flow control."""
            start = time.perf_counter()
            idle = (self.conn.our_state is h11.IDLE and self.conn.their_state is h11.IDLE
                    and not self.conn.trailing_data[0] and (self.cycle is None or self.cycle.response_complete)
                    and not self.flow.write_paused and self.transport.get_write_buffer_size() == 0)
            answer = health_answer(data, self.server_state.default_headers) if idle else None
            if answer is None:
                return False
            self._unset_keepalive_if_required()
            self.transport.write(answer.response)
            self.server_state.total_requests += 1  # as h11's path counts it (--limit-max-requests)
            if answer.close:
                self.transport.close()
            else:
                self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive,
                                                                    self.timeout_keep_alive_handler)
                self._await_request()
            on_health(answer, time.perf_counter() - start, (self.client or ("-",))[0])
            return True

        def _request_whole(self) -> bool:
            return self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR)

        def _await_request(self) -> None:
            self.waiting_since = time.monotonic()
            self._cancel_deadline()
            self.deadline = self.loop.call_later(request_timeout, self._timed_out)

        def _cancel_deadline(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _timed_out(self) -> None:
            self.deadline = None
            if self.transport.is_closing() or self.waiting_since is None:
                return
            if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
                self.transport.write(_TIMED_OUT)  # nothing of an answer was sent yet
            self.transport.close()

        def _displace_one(self) -> bool:
            """Close the connection that has waited longest for its request."""
            waiting = [c for c in self.connections
                       if c is not self and getattr(c, "waiting_since", None) is not None]
            if not waiting:
                return False
            oldest = min(waiting, key=lambda c: c.waiting_since)
            oldest.transport.abort()
            return True

    return Guarded


class PromptLoop(asyncio.SelectorEventLoop):
    """asyncio's loop, looking at its sockets again after at most
    ``CALLBACKS_PER_LOOK`` of the callbacks that were waiting (or a
    sixteenth of a long queue), not after all of them.

    A turn of asyncio's loop runs every callback ready when it began: under
    load, a step of each of dozens of requests (routing, validation, an
    answer written), tens of milliseconds. Bytes that arrive meanwhile (a
    liveness probe's) wait for the turn's end, then behind the callbacks
    queued before them. Here the callbacks past the first few are held back
    for one turn, in their order, and the sockets' own callbacks join the
    few (docs/benchmarks.md, "Load").

    It overrides CPython's private ``_run_once``, which runs what is in
    ``self._ready`` when it begins (3.8 to 3.13). Other threads only append
    to that deque (``call_soon_threadsafe``), and a deque's pop and
    extendleft are atomic under the GIL, so nothing they add is lost;
    tests/test_prompt_loop.py checks the order, the look, a burst and the
    threads."""

    CALLBACKS_PER_LOOK = 2
    # A turn runs at least this share of a long queue: holding back costs a
    # pop a callback held, so a burst of thousands drains in linear time, not
    # two callbacks per pass over the whole queue.
    SHARE_OF_QUEUE = 16

    def _run_once(self) -> None:
        ready = self._ready  # type: ignore[attr-defined]
        run = max(self.CALLBACKS_PER_LOOK, len(ready) // self.SHARE_OF_QUEUE)
        held = [ready.pop() for _ in range(len(ready) - run)]
        last_kept = ready[-1] if held else None
        try:
            super()._run_once()  # type: ignore[misc]
        except BaseException:
            # A callback ended the turn (Ctrl-C's KeyboardInterrupt): the
            # turn's own callbacks that did not run go first, then the held.
            unrun = []
            if any(h is last_kept for h in ready):
                while (h := ready.popleft()) is not last_kept:
                    unrun.append(h)
                unrun.append(h)
            ready.extendleft(held)
            ready.extendleft(reversed(unrun))
            raise
        ready.extendleft(held)  # back in front, in their order, before what the turn queued


def serve(host: str, port: int, settings: Settings | None = None, **uvicorn_options: Any) -> None:
    """Run the service (settings from the environment) until Ctrl-C."""
    settings = settings or Settings.from_env()
    cap = connection_cap(settings)
    logging.config.dictConfig(log_config())  # as uvicorn will: the app may log as it is built
    from .app import app

    app.openapi()  # built now, not on the loop at the first request for it (0.6 s)
    # Out of the cyclic collector's sight: the modules, models and data the
    # app holds for good (about 84,000 objects). A full collection walked
    # them all, 70 ms with the event loop stopped; it takes 7-18 ms now.
    gc.collect()
    gc.freeze()
    uvicorn.run("smokejumper.service.app:app", host=host, port=port, log_config=log_config(), access_log=False,
                http=guarded_protocol(settings.request_timeout, cap, _count_health), backlog=BACKLOG,
                loop=f"{__name__}:PromptLoop", **uvicorn_options)


def _count_health(answer: HealthAnswer, seconds: float, client: str) -> None:
    """A /healthz the protocol answered, in the served app's metrics and
    access log as if its route had (uvicorn imports that app by name, in
    this process); the log line says it was the protocol."""
    from .app import app

    app.state.metrics.answered("GET", "/healthz", 200, seconds)
    log_request(answer.request_id, "GET", "/healthz", "/healthz", 200, seconds, client, answered_by="protocol")
