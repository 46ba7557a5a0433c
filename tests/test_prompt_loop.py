"""The server's event loop (service/server.py, ``PromptLoop``): it looks at
its sockets after a few waiting callbacks, not after all of them, and
otherwise keeps asyncio's promises: callbacks run in the order they were
queued, and none queued from another thread is lost."""

from __future__ import annotations

import asyncio
import socket
import threading

import pytest

from smokejumper.service.server import PromptLoop

BUSY_TASKS = 20
STEPS = 30


def callbacks_before_the_read(loop: asyncio.AbstractEventLoop) -> int:
    """Twenty busy chains of callbacks (as twenty requests' steps) keep the
    loop's ready queue full; one of them sends a byte to a socket the loop
    reads. How many callbacks ran from the send to the read."""
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    ran = 0
    sent_at: list[int] = []
    read_at: list[int] = []

    def on_readable() -> None:
        ours.recv(1)
        read_at.append(ran)
        loop.remove_reader(ours.fileno())

    def step(task: int, left: int) -> None:
        nonlocal ran
        ran += 1
        if task == 0 and left == STEPS // 2:
            theirs.send(b"x")
            sent_at.append(ran)
        if left:
            loop.call_soon(step, task, left - 1)
        elif task == 0:
            loop.call_later(0.05, loop.stop)

    try:
        loop.add_reader(ours.fileno(), on_readable)
        for task in range(BUSY_TASKS):
            loop.call_soon(step, task, STEPS)
        loop.run_forever()
    finally:
        loop.close()
        ours.close()
        theirs.close()
    assert read_at, "the byte was never read"
    return read_at[0] - sent_at[0]


def test_a_socket_is_read_after_a_few_callbacks_not_a_whole_turn():
    plain = callbacks_before_the_read(asyncio.SelectorEventLoop())
    prompt = callbacks_before_the_read(PromptLoop())
    assert plain >= BUSY_TASKS, plain  # asyncio's own loop: the rest of its turn, then the turn queued before it
    assert prompt <= 2 * PromptLoop.CALLBACKS_PER_LOOK, prompt


def run_order(loop: asyncio.AbstractEventLoop) -> list[tuple[int, int]]:
    order: list[tuple[int, int]] = []

    def step(task: int, left: int) -> None:
        order.append((task, left))
        if left:
            loop.call_soon(step, task, left - 1)
            if left % 3 == 0:
                loop.call_soon(step, task + 100, 0)

    for task in range(BUSY_TASKS):
        loop.call_soon(step, task, 10)
    loop.call_later(0.05, loop.stop)
    try:
        loop.run_forever()
    finally:
        loop.close()
    return order


def test_callbacks_run_in_the_order_they_were_queued():
    assert run_order(PromptLoop()) == run_order(asyncio.SelectorEventLoop())


def after_an_interrupt(loop: asyncio.AbstractEventLoop) -> list[int]:
    """Ten callbacks, the first raising KeyboardInterrupt out of the loop
    (as Ctrl-C can); the loop run again: which ran, in order."""
    ran: list[int] = []

    def step(i: int) -> None:
        ran.append(i)
        if i == 0:
            raise KeyboardInterrupt

    for i in range(10):
        loop.call_soon(step, i)
    try:
        with pytest.raises(KeyboardInterrupt):
            loop.run_forever()
        loop.call_soon(loop.stop)
        loop.run_forever()
    finally:
        loop.close()
    return ran


def test_callbacks_held_back_are_kept_when_a_turn_is_interrupted():
    assert after_an_interrupt(PromptLoop()) == after_an_interrupt(asyncio.SelectorEventLoop()) == list(range(10))


def test_a_burst_of_callbacks_drains_in_a_few_hundred_turns():
    """Held back, a callback costs a pop each turn: were a turn to run only
    two of a queue of 100,000, draining it would pass over the queue 50,000
    times (the sanitizer run took minutes). Each turn runs a sixteenth."""
    turns = 0

    class Counted(PromptLoop):
        def _run_once(self) -> None:
            nonlocal turns
            turns += 1
            super()._run_once()

    loop = Counted()
    ran = 0

    def count() -> None:
        nonlocal ran
        ran += 1

    for _ in range(100_000):
        loop.call_soon(count)
    loop.call_soon(loop.stop)
    try:
        loop.run_forever()
    finally:
        loop.close()
    assert ran == 100_000
    assert turns < 300, turns


@pytest.mark.parametrize("threads", [1, 4])
def test_no_callback_from_another_thread_is_lost(threads: int):
    """Other threads queue callbacks (as the search workers hand back their
    answers) while the loop holds some back and puts them in front again."""
    loop = PromptLoop()
    per_thread = 20_000
    done = 0

    def from_a_thread() -> None:
        nonlocal done
        done += 1
        if done == threads * per_thread:
            loop.stop()

    def keep_busy() -> None:
        loop.call_soon(keep_busy)

    def send() -> None:
        for _ in range(per_thread):
            loop.call_soon_threadsafe(from_a_thread)

    for _ in range(BUSY_TASKS):
        loop.call_soon(keep_busy)
    senders = [threading.Thread(target=send) for _ in range(threads)]
    for t in senders:
        t.start()
    watchdog = threading.Timer(120, lambda: loop.call_soon_threadsafe(loop.stop))
    watchdog.start()
    try:
        loop.run_forever()
    finally:
        watchdog.cancel()
        for t in senders:
            t.join()
        loop.close()
    assert done == threads * per_thread, "lost, or not all run in 120 s"
