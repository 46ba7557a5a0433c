"""The real server under concurrent load: every route of every game at once,
with tiny caps. The server must survive, and every answer must be the one
the same request gets alone (for a search a limit cut short: agree with it
on what both proved).

The routes come from the server's own OpenAPI, so a new game or route is
stressed too: each needs a case (its OpenAPI request example, or one in
its game's tests/contract/<game>.py STRESS), and a search route also a rule
(PROVED there) for comparing answers that a limit cut short; the test fails
for a route without them."""

from __future__ import annotations

import http.client
import importlib
import json
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Iterator
from urllib.parse import urlencode

import pytest
from pydantic import BaseModel

import facts
from openapi_examples import request_examples
from served import HOST, Server, serving
from smokejumper.games import Game, registered
from smokejumper.service.problems import one_line

CONCURRENCY = 48
# The sanitizer run sends half (SMOKEJUMPER_STORM_REQUESTS=1500): as many
# clients at once, each request about three times as slow there.
REQUESTS = int(os.environ.get("SMOKEJUMPER_STORM_REQUESTS", "3000"))
STORM_SECONDS = 150  # past this the storm gives up: a hang is a failure too
# Tiny caps, so searches stop at them: by nodes, by time, or by a limit the
# request asks for. More workers than cores puts more calls in the core at
# once, where the races are (with 2, the storm of every route missed the
# race of issue 16 in one run of two). The queue holds every client, so no
# answer is a 503.
SERVER_ENV = {
    "SMOKEJUMPER_MAX_SECONDS": "0.2",
    "SMOKEJUMPER_MAX_NODES": "5000",
    "SMOKEJUMPER_MAX_MEMORY_MB": "16",
    "SMOKEJUMPER_MAX_HINT_SAMPLES": "8",
    "SMOKEJUMPER_WORKERS": "4",
    "SMOKEJUMPER_MAX_QUEUE": "64",
    "PYTHONFAULTHANDLER": "1",  # a crash leaves its stacks in the server's log
}


def own(game: Game):
    """The game's contract file: its STRESS cases and PROVED rules."""
    return importlib.import_module(f"contract.{game.name}")


# Cases beyond the OpenAPI examples, per route: requests that reach the caps,
# or that a time limit cuts; a GET's are its query.
CASES: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("get" if g.operation(op).kind == "data" else "post", f"/v1/{g.name}/{op}"):
        [{"query": c} for c in cases] if g.operation(op).kind == "data" else cases
    for g in registered() for op, cases in own(g).STRESS.items()}


@dataclass(frozen=True)
class Proved:
    """How to read a search's answer that a limit cut short: the model it
    must validate as, and the facts no cut can change."""

    model: type[BaseModel]
    facts: Callable[[dict], dict]


# Every search route's rule. Only complete searches must match exactly: one
# cut by any cap may still depend on timing.
PROVED: dict[tuple[str, str], Proved] = {
    ("post", f"/v1/{g.name}/{op}"): Proved(g.operation(op).response, rule)
    for g in registered() for op, rule in own(g).PROVED.items()}


# ------------------------------------------------------------------ server


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    """``smokejumper serve`` in its own process; shut down cleanly at the end."""
    with serving(SERVER_ENV, tmp_path_factory.mktemp("server")) as s:
        yield s
    # The CLI answers Ctrl-C with 130 once uvicorn has passed it on (older uvicorns exit 0).
    assert s.process.returncode in (0, 130) and "Application shutdown complete" in s.log_tail(), (
        f"exit code {s.process.returncode}:\n" + s.log_tail())


class Client:
    """One keep-alive connection to the server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def send(self, method: str, path: str, case: dict | None = None) -> tuple[int, bytes]:
        """``case`` is a JSON body, or ``{"query": {...}}`` for a GET."""
        case = case or {}
        query = case.get("query")
        body = None if query is not None or method == "get" else json.dumps(case).encode()
        if query:
            path += "?" + urlencode(query)
        try:
            return self._send_once(method, path, body)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # A keep-alive connection the server closed while idle: once more
            # on a new one. A dead server refuses that too.
            self.conn = None
            return self._send_once(method, path, body)

    def _send_once(self, method: str, path: str, body: bytes | None) -> tuple[int, bytes]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        self.conn.request(method.upper(), path, body=body, headers={"content-type": "application/json"} if body else {})
        r = self.conn.getresponse()
        return r.status, r.read()


# ------------------------------------------------------------------ cases


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    case: dict


# A search's live counters (its name is the caller's, so it has no example):
# test_service.py reads them while a search runs. Jobs and the cache's
# administration answer by state (a new id, the counts so far), never the
# same twice: tests/test_jobs.py loads them with clients of their own.
_UNEXAMPLED = ("/v1/searches/{search_id}", "/v1/jobs", "/v1/cache")


def _routes(spec: dict) -> list[tuple[str, str]]:
    return [(method, path) for path, item in spec["paths"].items()
            if path.startswith("/v1/") and not path.startswith(_UNEXAMPLED) for method in item]


@pytest.fixture(scope="module")
def every_route(server) -> list[Request]:
    """Every route's OpenAPI examples and CASES; fails for a route with none."""
    status, raw = Client(server.port).send("get", "/openapi.json")
    assert status == 200
    spec = json.loads(raw)
    out = []
    missing = []
    for method, path in _routes(spec):
        examples = request_examples(spec, method, path)
        if method == "get":
            examples = [{"query": e} for e in examples]
        cases = examples + CASES.get((method, path), [])
        if not cases:
            missing.append(f"{method.upper()} {path}")
        out += [Request(method, path, c) for c in cases]
    assert not missing, f"routes without a stress case (add one to the game's STRESS): {missing}"
    return out


def _without_stats(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_stats(v) for k, v in value.items() if k != "stats"}
    if isinstance(value, list):
        return [_without_stats(v) for v in value]
    return value


def _first_difference(a: Any, b: Any, where: str = "") -> str | None:
    """Where ``b`` first differs from ``a``, the answer alone; None if nowhere."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        pairs = [(f"{where}.{k}", a[k], b[k]) for k in a]
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        pairs = [(f"{where}[{i}]", x, y) for i, (x, y) in enumerate(zip(a, b))]
    else:
        return None if a == b else f"{where or 'answer'}: {one_line(json.dumps(b))}, alone {one_line(json.dumps(a))}"
    return next((d for w, x, y in pairs if (d := _first_difference(x, y, w))), None)


def _cut_short(value: Any) -> bool:
    """A search somewhere in the answer stopped at a limit."""
    if isinstance(value, dict):
        stats = value.get("stats")
        if isinstance(stats, dict) and stats.get("stopped_by") is not None:
            return True
        return any(_cut_short(v) for v in value.values())
    if isinstance(value, list):
        return any(_cut_short(v) for v in value)
    return False


Answer = tuple[int, bytes]


def wrong(req: Request, alone: Answer, got: Answer) -> str | None:
    """Why ``got`` is not the answer ``req`` got alone, or None."""
    if got[0] != alone[0]:
        return f"status {got[0]}, alone {alone[0]}: {got[1][:300]!r}"
    a, b = json.loads(alone[1]), json.loads(got[1])
    if got[0] != 200 or not (_cut_short(a) or _cut_short(b)):
        return _first_difference(_without_stats(a), _without_stats(b))
    rule = PROVED[(req.method, req.path)]
    try:
        rule.model.model_validate_json(got[1])
    except ValueError as e:
        return f"answer of the wrong shape: {one_line(str(e))}"
    disagree = facts.disagree(rule.facts(a), rule.facts(b))
    return f"proved facts differ: {disagree[:3]}" if disagree else None


def answers_alone(server: Server, requests: list[Request]) -> list[Answer]:
    """Each request alone, one after another: the answers to match."""
    client = Client(server.port)
    answers = [client.send(r.method, r.path, r.case) for r in requests]
    answered = {(r.method, r.path) for r, (status, _) in zip(requests, answers) if status == 200}
    unanswered = sorted(f"{m.upper()} {p}" for m, p in {(r.method, r.path) for r in requests} - answered)
    assert not unanswered, f"routes without a case they answer with 200: {unanswered}"
    no_rule = {f"{r.method.upper()} {r.path}" for r, (status, raw) in zip(requests, answers)
               if status == 200 and "stats" in json.loads(raw) and (r.method, r.path) not in PROVED}
    assert not no_rule, f"search routes without a rule in PROVED: {sorted(no_rule)}"
    return answers


def storm(server: Server, jobs: list[Request], concurrency: int) -> tuple[list[Answer | str], dict]:
    """Send ``jobs`` from ``concurrency`` threads at once. Each one's answer
    (or why there is none), and how it went."""
    local = threading.local()
    lock = threading.Lock()
    in_flight = most_in_flight = 0
    deadline = time.monotonic() + STORM_SECONDS

    def one(job: Request) -> Answer | str:
        nonlocal in_flight, most_in_flight
        if time.monotonic() > deadline:
            return "not sent: the storm ran out of time"
        if not hasattr(local, "client"):
            local.client = Client(server.port)
        with lock:
            in_flight += 1
            most_in_flight = max(most_in_flight, in_flight)
        try:
            return local.client.send(job.method, job.path, job.case)
        except OSError as e:
            local.client = Client(server.port)
            return f"no answer: {type(e).__name__}: {e}"
        finally:
            with lock:
                in_flight -= 1

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        answers = list(pool.map(one, jobs))
    return answers, {"elapsed": time.monotonic() - start, "most_in_flight": most_in_flight}


def check_storm(server: Server, capsys, name: str, requests: list[Request], count: int, concurrency: int) -> None:
    """``count`` requests drawn in turn from ``requests``, shuffled, sent at
    once: each answer must match the one its request got alone."""
    alone = answers_alone(server, requests)
    order = [i % len(requests) for i in range(count)]
    random.Random(16).shuffle(order)
    answers, how = storm(server, [requests[i] for i in order], concurrency)
    failures = []
    for i, got in zip(order, answers):
        why = got if isinstance(got, str) else wrong(requests[i], alone[i], got)
        if why:
            failures.append(f"{requests[i].method.upper()} {requests[i].path}: {why}")
    alive = server.process.poll() is None
    cut = sum(1 for a in answers if not isinstance(a, str) and a[0] == 200 and _cut_short(json.loads(a[1])))
    summary = (f"{name}: {count} requests over {len({(r.method, r.path) for r in requests})} routes, "
               f"{concurrency} clients ({how['most_in_flight']} in flight at most), {len(failures)} failures, "
               f"{cut} searches cut short, {how['elapsed']:.1f} s, server "
               f"{'alive' if alive else f'died (exit code {server.process.returncode})'}")
    with capsys.disabled():
        print("\n" + summary)
    assert alive, summary + "\n" + server.log_tail()
    assert not failures, summary + "\n" + "\n".join(failures[:10])
    assert how["most_in_flight"] >= 32, summary


# ------------------------------------------------------------------ tests


@pytest.mark.parametrize("game", registered(), ids=lambda g: g.name)
def test_fifty_clients_check_one_position(server, capsys, game):
    """Issue 16 as reported: fifty clients posting one check (of the first
    check case in the game's STRESS: a position that reaches the caps)."""
    check = Request("post", f"/v1/{game.name}/check", own(game).STRESS["check"][0])
    check_storm(server, capsys, f"{game.name} check", [check], count=REQUESTS // 6, concurrency=50)


def test_every_route_of_every_game_at_once(server, every_route, capsys):
    check_storm(server, capsys, "every route", every_route, count=REQUESTS, concurrency=CONCURRENCY)
