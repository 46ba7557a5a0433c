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
import logging
import resource
import time
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .observe import log_config
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
_SPARE_DESCRIPTORS = 64 + 6 * BACKLOG


def connection_cap(settings: Settings) -> int:
    """The settings' cap, held below what this process may open."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return settings.max_connections
    return max(1, min(settings.max_connections, soft - _SPARE_DESCRIPTORS))


def guarded_protocol(request_timeout: float, max_connections: int) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the deadline and the cap."""

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
            super().data_received(data)
            if self._request_whole():
                self.waiting_since = None
                self._cancel_deadline()

        def on_response_complete(self) -> None:
            super().on_response_complete()  # may start a pipelined request already whole
            if not self.transport.is_closing() and not self._request_whole():
                self._await_request()

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


def serve(host: str, port: int, settings: Settings | None = None, **uvicorn_options: Any) -> None:
    """Run the service (settings from the environment) until Ctrl-C."""
    settings = settings or Settings.from_env()
    cap = connection_cap(settings)
    uvicorn.run("smokejumper.service.app:app", host=host, port=port, log_config=log_config(), access_log=False,
                http=guarded_protocol(settings.request_timeout, cap), backlog=BACKLOG, **uvicorn_options)
