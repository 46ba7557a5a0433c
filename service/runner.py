"""Calls into the core off the event loop, in a bounded pool, each with its
own stop flag. The server has two runners: one for searches, one for quick
calls (check, apply, replay, ...), so a quick call never waits behind a
search.

A search (or a quick call) runs on one of ``workers`` threads (the C++ core
releases the GIL). Requests beyond that wait in a first-come queue, and a
worker that comes free wakes the first of them at once; past ``queue_limit``
waiting requests the server answers 503. While a search runs, the request's
coroutine polls every ``poll_seconds``: when the time cap plus a grace has
passed, or the client has gone, it calls ``control.stop()``; the search then
returns at once with ``stopped_by: "stopped"``. The coroutine always waits
for the thread to finish before it answers or gives up its slot, so no
search outlives its request and the pool never runs more than ``workers``
searches.

A search may be watched: run with a ``watch`` name, its live counters
(nodes so far, seconds) are readable by that name while it runs
(:meth:`Runner.progress`), which is how the page shows a long search going.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Protocol, TypeVar

from smokejumper import Control

from .problems import ClientGone, Overloaded

T = TypeVar("T")
log = logging.getLogger("smokejumper.service")


class Disconnectable(Protocol):
    async def is_disconnected(self) -> bool: ...


class Runner:
    def __init__(self, workers: int, queue_limit: int, grace_seconds: float = 0.5,
                 poll_seconds: float = 0.1, lane: str = "search") -> None:
        self.lane = lane  # what its workers run, for the 503's detail
        self.workers = workers
        self.queue_limit = queue_limit
        self.grace_seconds = grace_seconds
        self.poll_seconds = poll_seconds
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"smokejumper-{lane}")
        # Loop-agnostic admission (the app may be driven by more than one
        # event loop, e.g. in tests): a counter and a FIFO of waiting
        # tickets, each woken on its own loop.
        self._lock = threading.Lock()
        self._running = 0
        self._waiting: collections.deque[_Ticket] = collections.deque()
        self._controls: set[Control] = set()
        self._watched: dict[str, tuple[Control, float]] = {}
        self._closed = False

    @property
    def running(self) -> int:
        return self._running

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def full(self) -> str | None:
        """Why a new call would be refused now (every worker busy, the queue
        full), or None. A hint, read without the lock: admission decides."""
        if self._running >= self.workers and len(self._waiting) >= self.queue_limit:
            return (f"all {self.workers} {self.lane} workers are busy and {len(self._waiting)} requests are waiting; "
                    "try again shortly")
        return None

    def _try_take(self, ticket: _Ticket | None) -> bool:
        """Take a worker slot if one is free and it is this ticket's turn."""
        if self._closed:
            raise Overloaded("the server is shutting down")
        if self._running >= self.workers:
            return False
        if ticket is None and self._waiting:
            return False
        if ticket is not None and self._waiting[0] is not ticket:
            return False
        if ticket is not None:
            self._waiting.popleft()
        self._running += 1
        return True

    def _wake_next(self) -> None:
        """With the lock held: wake the first waiter if a worker is free."""
        if self._waiting and self._running < self.workers:
            self._waiting[0].wake()

    async def _acquire(self, request: Disconnectable | None) -> None:
        with self._lock:
            if self._try_take(None):
                return
            if len(self._waiting) >= self.queue_limit:
                raise Overloaded(self.full() or "every worker is busy; try again shortly")
            ticket: _Ticket | None = _Ticket()
            self._waiting.append(ticket)
        try:
            while True:
                # Woken when a worker comes free; the timeout is for noticing
                # that the client has gone.
                await ticket.wait(self.poll_seconds)
                with self._lock:
                    if self._try_take(ticket):
                        ticket = None
                        self._wake_next()  # more than one worker may be free
                        return
                if request is not None and await request.is_disconnected():
                    raise ClientGone()
        finally:
            if ticket is not None:
                with self._lock:
                    try:
                        self._waiting.remove(ticket)
                    except ValueError:
                        pass
                    self._wake_next()

    def _release(self) -> None:
        with self._lock:
            self._running -= 1
            self._wake_next()

    def progress(self, watch: str) -> tuple[int, float, tuple[float, float] | None] | None:
        """The nodes, seconds and answer's interval so far of the search
        running as ``watch``; None when none is (not yet admitted, or
        finished)."""
        with self._lock:
            found = self._watched.get(watch)
        if found is None:
            return None
        control, start = found
        return control.nodes, time.monotonic() - start, control.interval

    def watching(self, watch: str) -> bool:
        with self._lock:
            return watch in self._watched

    async def run(self, fn: Callable[[Control], T], seconds: float, request: Disconnectable | None = None,
                  watch: str | None = None) -> T:
        """``fn(control)`` on a worker thread. It is stopped through its
        control after ``seconds`` plus the grace, or when ``request``'s
        client disconnects. Raises Overloaded when the queue is full. With
        ``watch``, its counters are readable by that name while it runs."""
        await self._acquire(request)
        control = Control()
        loop = asyncio.get_running_loop()
        with self._lock:
            self._controls.add(control)
            if watch is not None:
                self._watched[watch] = (control, time.monotonic())
        try:
            future = loop.run_in_executor(self._pool, fn, control)
        except BaseException:
            self._forget(control, watch)
            self._release()
            raise
        deadline = time.monotonic() + seconds + self.grace_seconds
        try:
            while not future.done():
                await asyncio.wait({future}, timeout=self.poll_seconds)
                if future.done() or control.stopped:
                    continue
                if time.monotonic() >= deadline:
                    log.info("search over its time cap; stopping it")
                    control.stop()
                elif request is not None and await request.is_disconnected():
                    log.info("client disconnected; stopping its search")
                    control.stop()
            return future.result()
        except asyncio.CancelledError:
            # The request itself was cancelled (shutdown, client gone): stop
            # the search and let the thread finish before giving up the slot.
            control.stop()
            await _wait_uncancellable(future)
            raise
        finally:
            if future.done():
                self._forget(control, watch)
                self._release()
            else:  # pragma: no cover - only when the wait above was interrupted
                control.stop()
                future.add_done_callback(lambda _f: (self._forget(control, watch), self._release()))

    def _forget(self, control: Control, watch: str | None) -> None:
        with self._lock:
            self._controls.discard(control)
            if watch is not None and self._watched.get(watch, (None,))[0] is control:
                del self._watched[watch]

    def close(self) -> None:
        """Stop every running search and wait for the threads."""
        with self._lock:
            self._closed = True
            controls = list(self._controls)
        for control in controls:
            control.stop()
        self._pool.shutdown(wait=True, cancel_futures=True)


class _Ticket:
    """A request's place in the queue. Woken from any thread, on the event
    loop its request waits on."""

    def __init__(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()

    def wake(self) -> None:
        try:
            self._loop.call_soon_threadsafe(self._event.set)
        except RuntimeError:  # its loop has closed: nobody waits on it any more
            pass

    async def wait(self, seconds: float) -> None:
        """Until woken or ``seconds`` have passed."""
        try:
            await asyncio.wait_for(self._event.wait(), seconds)
        except asyncio.TimeoutError:
            pass
        self._event.clear()


async def _wait_uncancellable(future: asyncio.Future) -> None:
    """Wait for ``future`` even if this task is cancelled again meanwhile."""
    while not future.done():
        try:
            await asyncio.wait({future})
        except asyncio.CancelledError:
            continue
