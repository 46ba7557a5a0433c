"""What the service's tests share: tests/test_service.py, on the service
itself, and each game's tests/test_<game>_service.py, on its answers.
Servers with small caps (the ``client`` fixture, in tests/conftest.py, is
one), and checks of a problem answer and of a search cut short.

Like the service, it names no game (tests/test_house.py)."""

from __future__ import annotations

import asyncio
import json
import time
import warnings
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx vs httpx2
    from fastapi.testclient import TestClient

from smokejumper.service.app import create_app
from smokejumper.service.runner import Runner
from smokejumper.service.settings import Settings

MB = 32  # every server here has a small memory cap, so that tests stay light


def settings(**kw) -> Settings:
    kw.setdefault("max_memory_mb", MB)
    return Settings(**kw)


@contextmanager
def server(**kw) -> Iterator[TestClient]:
    """A client of a server with ``settings(**kw)``; its app is ``.app``."""
    with TestClient(create_app(settings(**kw))) as c:
        yield c


def assert_problem(r, status: int, *needles: str) -> dict:
    """``r`` is an application/problem+json answer of ``status``, one line naming each needle."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert set(body) == {"type", "title", "status", "detail"}
    assert body["type"] == "about:blank" and body["status"] == status and body["title"]
    assert "\n" not in body["detail"] and "Traceback" not in body["detail"]
    for needle in needles:
        assert needle in body["detail"], body["detail"]
    return body


def post_raw(client, path, content, content_type="application/json"):
    return client.post(path, content=content, headers={"content-type": content_type})


def search_past_the_caps(client, path: str, position: dict, max_nodes: int) -> dict:
    """Ask a server capped at ``max_nodes`` nodes (and MB) for far more: 1e9
    nodes, 1e6 seconds, 16 GiB. The search stops at the caps; its result."""
    body = '{"position": %s, "limit": {"nodes": 1e9, "seconds": 1e6, "memory_mb": 16384}}' % json.dumps(position)
    r = post_raw(client, path, body)
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["stats"]["stopped_by"] == "nodes", result["stats"]
    assert result["stats"]["nodes"] <= 2 * max_nodes
    if "table_bytes" in result["stats"]:  # a search with a transposition table
        assert result["stats"]["table_bytes"] <= MB * 2**20
    return result


def search_past_the_time_cap(client, path: str, body: dict) -> dict:
    """Ask a server with a short time cap for 1e6 seconds of search: it stops
    within seconds, where a full search would take minutes. Its result."""
    start = time.monotonic()
    r = client.post(path, json={**body, "limit": {"seconds": 1e6}})
    elapsed = time.monotonic() - start
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["stats"]["stopped_by"] in ("time", "stopped"), path
    assert elapsed < 10, path
    return result


class FakeRequest:
    """is_disconnected() turns true after ``after`` seconds."""

    def __init__(self, after: float) -> None:
        self.at = time.monotonic() + after

    async def is_disconnected(self) -> bool:
        return time.monotonic() >= self.at


def stopped_when_the_client_leaves(search: Callable[[Any], Any]) -> Any:
    """Run ``search(control)`` for a client that leaves after 0.3 s: it stops
    within seconds and frees its worker. Its result."""
    runner = Runner(workers=1, queue_limit=0)
    try:
        start = time.monotonic()
        result = asyncio.run(runner.run(search, seconds=60, request=FakeRequest(0.3)))
        assert time.monotonic() - start < 10
        assert result.stats.stopped_by == "stopped"
        assert runner.running == 0
        return result
    finally:
        runner.close()


def at_once(work: Callable[[int], None], count: int) -> list[BaseException]:
    """``work(0)`` .. ``work(count - 1)`` on threads of their own, all at
    once; what any of them raised."""
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            work(i)
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def events(c, url: str, headers: dict | None = None) -> list[tuple[str, Any]]:
    """The (event, data) pairs of a Server-Sent Events stream, up to its end."""
    out: list[tuple[str, Any]] = []
    with c.stream("GET", url, headers=headers or {}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        name = None
        for line in r.iter_lines():
            if line.startswith("event: "):
                name = line[len("event: "):]
            elif line.startswith("data: "):
                out.append((name, json.loads(line[len("data: "):])))
                if name == "end":
                    break
    return out


def metric(text: str, name: str, **labels: str) -> float:
    """A sample's value in Prometheus text, 0 when absent."""
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    for line in text.splitlines():
        if line.startswith(f"{name}{{{want}}} ") or (not labels and line.startswith(f"{name} ")):
            return float(line.rsplit(" ", 1)[1])
    return 0.0
