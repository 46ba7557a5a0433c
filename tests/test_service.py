"""The web service itself: health, problem answers, hostile input, body
limits, caps, the runner's queue, watchdog and disconnects, the page, the
docs and the settings.

It names no game: where it needs a route or a position it takes the
registry's games and their hard requests (tests/contract/<game>.py). What
one game answers is in that game's tests/test_<game>_service.py, and what
every game keeps is in tests/contract."""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import re
import threading
import time
from typing import Any, Callable

import pytest

from openapi_examples import request_examples
from service_support import (MB, FakeRequest, assert_problem, metric, post_raw,
                             search_past_the_caps, search_past_the_time_cap, server,
                             stopped_when_the_client_leaves)
from smokejumper import Control, Limit
from smokejumper.games import Game, Operation, registered
from smokejumper.service.app import STATIC_DIR
from smokejumper.service.problems import BodyLimitMiddleware, ClientGone, Overloaded
from smokejumper.service.runner import Runner
from smokejumper.service.settings import Settings

# Any game does for what is the service's own; the first is as good as any.
FIRST = registered()[0]
# Every POST route (a search or a quick operation) of every game.
POSTED = [(g, op) for g in registered() for op in g.operations.values() if op.kind in ("search", "quick")]


def hard(game: Game) -> dict[str, dict]:
    """The game's request of minutes, per search (its contract file)."""
    return importlib.import_module(f"contract.{game.name}").HARD


def path(game: Game, op: str) -> str:
    return f"/v1/{game.name}/{op}"


def ids(value: Game | Operation | str) -> str:
    return getattr(value, "name", value)


def example(op: Operation) -> dict:
    """The operation's first request example (the contract runs them all)."""
    return op.request.model_json_schema()["examples"][0]


def unbounded(game: Game, search: str) -> Callable[[Control], Any]:
    """The game's ``search`` of its hard request, with no limit of its own:
    only the Control can stop it. Its nodes are given, as many as the core
    counts, since a search told none may take a default (Fire Tower's hint
    takes 256 iterations, about 2 s at a game's start)."""
    op = game.operation(search)
    request = op.request.model_validate(hard(game)[search])
    return lambda control: op.call(request, Limit(nodes=2**63 - 1, memory_mb=MB), control)


HARD_SOLVE = hard(FIRST)["solve"]


# ------------------------------------------------------------------ health


def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "version": __import__("smokejumper").__version__}


# ------------------------------------------------------------------ caps


@pytest.mark.parametrize("game", registered(), ids=ids)
def test_server_caps_override_the_request(game: Game):
    """Nodes, seconds and memory asked past the caps (as 1e9-style numbers)
    are held to them; tests/contract checks the answer's account of it. The
    time cap is far off, so the node cap must be what stops (a Fire Tower
    iteration plays a whole game: 100 take seconds under a sanitizer)."""
    with server(max_nodes=100, max_seconds=120) as c:
        main = "solve" if "solve" in game.operations else next(iter(hard(game)))  # the game's main search
        search_past_the_caps(c, path(game, main), hard(game)[main]["position"], 100)


def test_request_without_limit_gets_the_caps():
    with server(max_nodes=500) as c:
        result = c.post(path(FIRST, "solve"), json={**HARD_SOLVE, "limit": None}).json()
        assert result["stats"]["stopped_by"] == "nodes"
        assert result["stats"]["nodes"] <= 1000


def test_request_may_ask_for_less_than_the_caps(client):
    result = client.post(path(FIRST, "solve"), json={**HARD_SOLVE, "limit": {"nodes": 300}}).json()
    assert result["stats"]["stopped_by"] == "nodes" and result["stats"]["nodes"] <= 600


def untimed(answer: Any) -> Any:
    """An answer without its clock readings, which differ run to run."""
    if isinstance(answer, dict):
        return {k: untimed(v) for k, v in answer.items() if "second" not in k}
    return [untimed(v) for v in answer] if isinstance(answer, list) else answer


@pytest.mark.parametrize("game, op", [(g, o) for g, o in POSTED if o.takes_limit], ids=ids)
def test_a_search_takes_the_specs_limit_names_as_its_limit(client, game: Game, op: Operation):
    # The spec's README: "every search accepts max_nodes, max_seconds and
    # max_memory_mb". Sent beside the body, they are its limit.
    route, body = path(game, op.name), {k: v for k, v in example(op).items() if k != "limit"}
    spec_named = client.post(route, json={**body, "max_nodes": 7, "max_seconds": 30, "max_memory_mb": 64})
    assert spec_named.status_code == 200, spec_named.text
    as_limit = client.post(route, json={**body, "limit": {"nodes": 7, "seconds": 30, "memory_mb": 64}})
    assert untimed(spec_named.json()) == untimed(as_limit.json())
    assert_problem(client.post(route, json={**body, "max_nodes": 7, "limit": {"nodes": 7}}), 422, "not both")
    assert_problem(client.post(route, json={**body, "max_seconds": -1}), 422, "body.max_seconds")


def test_time_cap_stops_a_hard_search():
    with server(max_seconds=0.5) as c:
        search_past_the_time_cap(c, path(FIRST, "solve"), HARD_SOLVE)


# ---------------------------------------------------- Control cancellation


def test_watchdog_stops_the_search_through_its_control():
    runner = Runner(workers=1, queue_limit=0, grace_seconds=0.0)
    try:
        start = time.monotonic()
        result = asyncio.run(runner.run(unbounded(FIRST, "solve"), seconds=0.3))
        assert time.monotonic() - start < 10
        assert result.stats.stopped_by == "stopped"
        assert runner.running == 0
    finally:
        runner.close()


@pytest.mark.parametrize("game, search", [(g, s) for g in registered() for s in hard(g)],
                         ids=ids)
def test_client_disconnect_stops_the_search(game: Game, search: str):
    stopped_when_the_client_leaves(unbounded(game, search))


def test_full_queue_gets_overloaded_and_waiters_are_served_in_turn():
    async def scenario():
        runner = Runner(workers=1, queue_limit=1, grace_seconds=0.0)
        try:
            slow = asyncio.ensure_future(runner.run(unbounded(FIRST, "solve"), seconds=0.4))
            await asyncio.sleep(0.05)
            queued = asyncio.ensure_future(runner.run(lambda control: "second", seconds=1))
            await asyncio.sleep(0.05)
            assert runner.running == 1 and runner.waiting == 1
            with pytest.raises(Overloaded):
                await runner.run(lambda control: "third", seconds=1)
            assert (await slow).stats.stopped_by == "stopped"
            assert await queued == "second"
            assert runner.running == 0 and runner.waiting == 0
        finally:
            runner.close()

    asyncio.run(scenario())


def test_a_queued_request_whose_client_leaves_gives_up_its_place():
    async def scenario():
        runner = Runner(workers=1, queue_limit=4, grace_seconds=0.0)
        try:
            slow = asyncio.ensure_future(runner.run(unbounded(FIRST, "solve"), seconds=0.5))
            await asyncio.sleep(0.05)
            with pytest.raises(ClientGone):
                await runner.run(lambda control: "never", seconds=1, request=FakeRequest(0.1))
            assert runner.waiting == 0 and runner.running == 1
            await slow
            assert runner.running == 0
        finally:
            runner.close()

    asyncio.run(scenario())


def holding(runner: Runner, work: Callable[[], Any]) -> threading.Thread:
    """``work`` started on a thread, returned once it holds ``runner``'s one worker."""
    t = threading.Thread(target=work)
    t.start()
    deadline = time.monotonic() + 3
    while runner.running == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert runner.running == 1
    return t


def occupy_the_worker(client, results) -> threading.Thread:
    """A hard solve on a thread, once it holds a worker."""
    return holding(client.app.state.runner,
                   lambda: results.update(slow=client.post(path(FIRST, "solve"), json=HARD_SOLVE)))


def occupy_the_quick_worker(runner: Runner, release: threading.Event) -> threading.Thread:
    """The one quick worker held until ``release`` is set (the runner
    serves any event loop, so this thread's own will do)."""
    return holding(runner, lambda: asyncio.run(runner.run(lambda _control: release.wait(10), seconds=10)))


def test_each_lane_answers_503_when_its_queue_is_full_and_not_the_other():
    """With the one search worker busy and no room to wait, every search
    route answers 503 and every quick route (check, replay, ...) still
    answers; with the one quick worker busy too, the quick routes answer
    503."""
    with server(workers=1, quick_workers=1, max_queue=0, max_seconds=3.0, grace_seconds=0.0) as c:
        spec = c.get("/openapi.json").json()
        calls = []
        for route, item in spec["paths"].items():
            # The service's own routes take no worker (jobs have workers of their own).
            if not route.startswith("/v1/") or route.startswith(("/v1/searches/", "/v1/jobs", "/v1/cache")):
                continue
            for method in item:
                calls.append((method, route, request_examples(spec, method, route)[0]))
        searches = {path(g, op.name) for g, op in POSTED if op.kind == "search"}
        quick = {path(g, op.name) for g, op in POSTED if op.kind == "quick"}
        assert searches and quick
        results: dict = {}
        t = occupy_the_worker(c, results)
        release = threading.Event()
        try:
            for method, route, body in calls:
                if method == "get":  # data, in plain Python: takes no worker
                    assert c.request(method, route, params=body).status_code == 200, route
                    continue
                r = c.request(method, route, json=body)
                if route in searches:
                    assert_problem(r, 503, "search workers are busy")
                    assert r.headers.get("retry-after") == "1"
                    assert "503" in spec["paths"][route][method]["responses"], route
                else:
                    assert route in quick and r.status_code == 200, (route, r.text)
            held = occupy_the_quick_worker(c.app.state.quick_runner, release)
            for route in sorted(quick):
                body = next(b for _, p, b in calls if p == route)
                assert_problem(c.post(route, json=body), 503, "quick workers are busy")
            assert c.app.state.runner.running == 1  # every answer above came while the solve ran
        finally:
            release.set()
        held.join()
        t.join()
        assert results["slow"].status_code == 200


def test_an_overloaded_server_sheds_a_call_before_reading_its_body():
    """With every worker busy and no room to wait, a call into the core is
    refused before its body is validated (a bad body too gets 503, not
    422), and the connection serves the next request."""
    with server(workers=1, max_queue=0, max_seconds=3.0, grace_seconds=0.0) as c:
        results: dict = {}
        t = occupy_the_worker(c, results)
        assert_problem(c.post(path(FIRST, "solve"), json={"position": 5}), 503, "workers are busy")
        assert_problem(post_raw(c, path(FIRST, "hint"), b"{not json"), 503, "workers are busy")
        assert c.get("/healthz").status_code == 200
        t.join()
        assert_problem(c.post(path(FIRST, "solve"), json={"position": 5}), 422, "body.position")


def test_a_quick_route_does_not_wait_behind_a_search():
    """The page stays playable while searches hold every worker: a check
    runs on a quick worker at once, and the search's queue stays empty."""
    with server(workers=1, max_queue=1, max_seconds=3.0, grace_seconds=0.0) as c:
        runner = c.app.state.runner
        results: dict = {}
        t = occupy_the_worker(c, results)
        checked = c.post(path(FIRST, "check"), json={"position": HARD_SOLVE["position"]})
        assert checked.status_code == 200, checked.text
        assert runner.running == 1 and runner.waiting == 0  # answered while the search still ran
        t.join()
        assert results["slow"].status_code == 200
        assert c.app.state.quick_runner.running == 0


# ----------------------------------------------------------- hostile input


@pytest.mark.parametrize("game, op", POSTED, ids=ids)
def test_an_unknown_key_a_bad_limit_or_no_position_names_the_field(client, game: Game, op: Operation):
    route, body = path(game, op.name), example(op)
    assert_problem(client.post(route, json={**body, "extra": 1}), 422, "body.extra", "Extra inputs")
    bad_limit = client.post(route, json={**body, "limit": {"seconds": -1}})
    if op.takes_limit:
        assert_problem(bad_limit, 422, "body.limit.seconds")
    else:
        assert_problem(bad_limit, 422, "body.limit", "Extra inputs")  # only searches take a limit
    if "position" in op.request.model_fields:
        assert_problem(client.post(route, json={}), 422, "body.position", "Field required")


@pytest.mark.parametrize(
    "limit, needle",
    [({"seconds": -1}, "body.limit.seconds"), ({"nodes": -5}, "body.limit.nodes"),
     ({"memory_mb": 0}, "body.limit.memory_mb"), (5, "body.limit")],
)
def test_bad_limits_name_the_field(client, limit, needle):
    assert_problem(client.post(path(FIRST, "solve"), json={**HARD_SOLVE, "limit": limit}), 422, needle)


def test_a_limit_without_a_position_names_the_position(client):
    assert_problem(client.post(path(FIRST, "solve"), json={"limit": {"seconds": 1}}), 422,
                   "body.position", "Field required")


def test_a_schema_error_in_a_tile_names_its_cell(client):
    """The spec's rejections name the field and the cell: pydantic's own
    checks (a number out of range) too, not only the engine's."""
    position = {"tiles": [{"q": 0, "r": 0, "n": 3}, {"q": 1, "r": 0, "n": 7}]}
    assert_problem(client.post("/v1/onrun/check", json={"position": position}), 422,
                   "body.position.tiles.1.n at (1, 0)")


def test_invalid_json(client):
    assert_problem(post_raw(client, path(FIRST, "solve"), b'{"position": '), 422, "invalid JSON")
    assert_problem(post_raw(client, path(FIRST, "check"), b"\xff\xfe"), 422, "body")
    assert_problem(post_raw(client, path(FIRST, "check"), b"NaN"), 422, "body")


@pytest.mark.parametrize("game, op", POSTED, ids=ids)
def test_deeply_nested_json_is_refused_quickly(client, game: Game, op: Operation):
    start = time.monotonic()
    assert_problem(post_raw(client, path(game, op.name), b"[" * 100_000), 422, "nested too deeply")
    assert time.monotonic() - start < 10


def test_nested_json_within_reach_is_a_wrong_shape(client):
    nested = b'{"position": ' + b"[" * 500 + b"]" * 500 + b"}"
    start = time.monotonic()
    assert_problem(post_raw(client, path(FIRST, "solve"), nested), 422, "body.position")
    assert time.monotonic() - start < 10


@pytest.mark.parametrize("body", [b"[1, 2]", b'"text"', b"null", b"42"])
def test_body_of_the_wrong_shape(client, body):
    assert_problem(post_raw(client, path(FIRST, "solve"), body), 422, "body")


def test_not_json_content_type(client):
    assert_problem(post_raw(client, path(FIRST, "solve"), json.dumps(HARD_SOLVE), "text/plain"), 415,
                   "application/json")


def test_oversized_body():
    ok = json.dumps({"position": HARD_SOLVE["position"]}).encode()
    most = 10_000
    assert len(ok) < most, "the hard position outgrew this test's body limit"
    with server(max_body_bytes=most) as c:
        big = json.dumps({**HARD_SOLVE, "pad": "x" * 2 * most})
        assert_problem(post_raw(c, path(FIRST, "solve"), big), 413, f"{most} bytes")

        def chunks():  # no Content-Length: chunked transfer
            for _ in range(30):
                yield b" " * 1000

        r = c.post(path(FIRST, "check"), content=chunks(), headers={"content-type": "application/json"})
        assert_problem(r, 413)
        # Just under the limit is fine.
        assert c.post(path(FIRST, "check"), content=ok + b" " * (most - len(ok)),
                      headers={"content-type": "application/json"}).status_code == 200


def test_body_limit_counts_bytes_when_the_length_lies():
    """A client that declares a small Content-Length and sends more."""
    reached = []

    async def app(scope, receive, send):  # pragma: no cover - must not run
        reached.append(True)

    middleware = BodyLimitMiddleware(app, max_bytes=1000)
    chunks = [b"x" * 600, b"x" * 600]
    sent = []

    async def receive():
        return {"type": "http.request", "body": chunks.pop(0), "more_body": bool(chunks)}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": path(FIRST, "solve"),
             "headers": [(b"content-length", b"10"), (b"content-type", b"application/json")]}
    asyncio.run(middleware(scope, receive, send))
    assert not reached
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["status"] == 413


def test_unknown_routes_and_methods(client):
    assert_problem(client.get(path(FIRST, "nope")), 404, path(FIRST, "nope"))
    assert_problem(client.post(f"/v2/{FIRST.name}/solve", json={}), 404)
    assert_problem(client.get("/static/missing.js"), 404)
    assert_problem(client.get(path(FIRST, "solve")), 405, "GET")


# ------------------------------------------------------------ page, docs


def test_page_references_the_script(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/main.js">' in r.text
    assert 'href="/static/style.css"' in r.text
    assert "http://" not in r.text


def test_static_files_are_served(client):
    modules = sorted(p.relative_to(STATIC_DIR).as_posix() for p in STATIC_DIR.rglob("*.js"))
    assert {"main.js"} | {f"games/{g.name}.js" for g in registered()} <= set(modules)
    for module in modules:
        js = client.get(f"/static/{module}")
        assert js.status_code == 200 and "javascript" in js.headers["content-type"], module
    css = client.get("/static/style.css")
    assert css.status_code == 200 and "text/css" in css.headers["content-type"]


def test_only_a_games_module_names_the_game():
    """A new game adds games/<name>.js and nothing else on the page side:
    no other page file names a game."""
    games = STATIC_DIR / "games"
    any_game = "|".join(re.escape(g.name) for g in registered())
    named = [p.relative_to(STATIC_DIR).as_posix() for p in STATIC_DIR.rglob("*")
             if p.is_file() and games not in p.parents and re.search(any_game, p.read_text(), re.IGNORECASE)]
    assert named == []
    for module in games.glob("*.js"):
        assert "export function mount(" in module.read_text(), module.name


def test_docs_page_needs_nothing_from_the_internet(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert "cdn" not in page.text.lower() and "https://" not in page.text
    for asset in ("/docs-assets/swagger-ui-bundle.js", "/docs-assets/swagger-ui.css", "/static/favicon.svg"):
        assert asset in page.text
        assert client.get(asset).status_code == 200, asset


def test_openapi_documents_the_service_with_short_model_names(client):
    """Every game's operations are in tests/contract (their examples run there)."""
    spec = client.get("/openapi.json").json()
    assert "/healthz" in spec["paths"] and "/v1/games" in spec["paths"]
    assert client.get("/docs").status_code == 200
    # Same-named models of two games get short names, the game first.
    schemas = set(spec["components"]["schemas"])
    assert {f"{g.name.capitalize()}SolveResult" for g in registered() if "solve" in g.operations} <= schemas, schemas
    assert "smokejumper__" not in json.dumps(spec)


# --------------------------------------------------------------- settings


def test_settings_from_env():
    s = Settings.from_env({
        "SMOKEJUMPER_MAX_SECONDS": "2.5", "SMOKEJUMPER_MAX_NODES": "50_000",
        "SMOKEJUMPER_MAX_MEMORY_MB": "128", "SMOKEJUMPER_WORKERS": "3", "SMOKEJUMPER_MAX_BODY_BYTES": "4096",
    })
    assert (s.max_seconds, s.max_nodes, s.max_memory_mb, s.workers, s.max_body_bytes) == (2.5, 50_000, 128, 3, 4096)
    assert s.queue_limit == 12
    d = Settings.from_env({})
    assert (d.max_seconds, d.max_nodes, d.max_memory_mb, d.workers, d.max_body_bytes) == (
        10.0, 50_000_000, 512, 2, 1_000_000)
    with pytest.raises(ValueError, match="SMOKEJUMPER_WORKERS"):
        Settings.from_env({"SMOKEJUMPER_WORKERS": "many"})
    with pytest.raises(ValueError, match="workers"):
        Settings.from_env({"SMOKEJUMPER_WORKERS": "0"})
    with pytest.raises(ValueError, match="max_seconds"):
        Settings.from_env({"SMOKEJUMPER_MAX_SECONDS": "inf"})
    queued = Settings.from_env({"SMOKEJUMPER_MAX_QUEUE": "64", "SMOKEJUMPER_QUICK_SECONDS": "0.5"})
    assert (queued.queue_limit, queued.quick_queue_limit, queued.quick_seconds) == (64, 64, 0.5)
    assert (d.max_queue, d.quick_seconds, d.quick_workers, d.quick_queue_limit) == (None, 2.0, 2, 8)
    with pytest.raises(ValueError, match="quick_seconds"):
        Settings.from_env({"SMOKEJUMPER_QUICK_SECONDS": "0"})
    assert Settings.from_env({"SMOKEJUMPER_QUICK_WORKERS": "3"}).quick_queue_limit == 12
    with pytest.raises(ValueError, match="quick_workers"):
        Settings.from_env({"SMOKEJUMPER_QUICK_WORKERS": "0"})


def test_the_hint_samples_cap_from_env():
    assert Settings.from_env({"SMOKEJUMPER_MAX_HINT_SAMPLES": "50"}).max_hint_samples == 50
    assert Settings.from_env({}).max_hint_samples == 1000
    with pytest.raises(ValueError, match="max_hint_samples"):
        Settings.from_env({"SMOKEJUMPER_MAX_HINT_SAMPLES": "0"})


# ------------------------------------------------------------------ live counters


def test_a_named_search_shows_its_counters_while_it_runs(tmp_path):
    """The page's view of a long search (issue 17): a search sent with an
    X-Search-Id shows its nodes at /v1/searches/<id> while it runs, and
    nowhere once it has answered; a second search may not take a running
    one's name."""
    import httpx

    from served import serving

    env = {"SMOKEJUMPER_MAX_SECONDS": "3", "SMOKEJUMPER_WORKERS": "2"}
    with serving(env, tmp_path) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        headers = {"X-Search-Id": "watch-1"}
        answer: dict[str, Any] = {}
        body = {**HARD_SOLVE, "limit": {"seconds": 2}}
        worker = threading.Thread(target=lambda: answer.update(
            r=http.post(path(FIRST, "solve"), json=body, headers=headers)))
        worker.start()
        seen, clash = [], None
        while worker.is_alive():
            r = http.get("/v1/searches/watch-1")
            if r.status_code == 200:
                seen.append(r.json()["nodes"])
                if clash is None:
                    clash = http.post(path(FIRST, "solve"), json=body, headers=headers)
            time.sleep(0.1)
        worker.join()
        assert answer["r"].status_code == 200, answer["r"].text
        assert seen and seen == sorted(seen) and seen[-1] > 0, seen
        assert seen[-1] <= answer["r"].json()["stats"]["nodes"]
        assert clash is not None and clash.status_code == 409 and "watch-1" in clash.json()["detail"]
        gone = http.get("/v1/searches/watch-1")
        assert gone.status_code == 404 and gone.headers["content-type"].startswith("application/problem+json")
        bad = http.post(path(FIRST, "solve"), json=body, headers={"X-Search-Id": "no spaces"})
        assert bad.status_code == 422 and "X-Search-Id" in bad.json()["detail"], bad.text


def test_the_cache_and_cors_from_env(tmp_path):
    home = Settings.from_env({"XDG_CACHE_HOME": str(tmp_path)})
    assert home.cache == str(tmp_path / "smokejumper" / "results.sqlite3") and home.cache_max_mb == 512
    assert Settings.from_env({"SMOKEJUMPER_CACHE": "OFF"}).cache is None
    assert Settings.from_env({"SMOKEJUMPER_CACHE": "/x/r.db", "SMOKEJUMPER_CACHE_MAX_MB": "64"}).cache_max_mb == 64
    assert home.cors_origins == ()
    both = Settings.from_env({"SMOKEJUMPER_CORS_ORIGINS": "https://a.example, http://localhost:5173"})
    assert both.cors_origins == ("https://a.example", "http://localhost:5173")
    with pytest.raises(ValueError, match="cors origin"):
        Settings.from_env({"SMOKEJUMPER_CORS_ORIGINS": "https://a.example/page"})


# --------------------------------------------------------------- other sites' pages


def test_cors_is_off_unless_origins_are_allowed():
    origin = {"Origin": "https://game.example"}
    with server() as c:
        r = c.post(path(FIRST, "check"), json={"position": HARD_SOLVE["position"]}, headers=origin)
        assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
        pre = c.options(path(FIRST, "hint"), headers={**origin, "Access-Control-Request-Method": "POST"})
        assert "access-control-allow-origin" not in pre.headers


def test_an_allowed_origin_may_call_the_api_and_others_may_not():
    with server(cors_origins=("https://game.example",)) as c:
        pre = c.options(path(FIRST, "hint"), headers={
            "Origin": "https://game.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, x-search-id"})
        assert pre.status_code == 200 and pre.headers["access-control-allow-origin"] == "https://game.example"
        assert "POST" in pre.headers["access-control-allow-methods"]
        # Its jobs too: submitted with a key, cancelled.
        job = c.options("/v1/jobs/" + "0" * 32, headers={
            "Origin": "https://game.example", "Access-Control-Request-Method": "DELETE",
            "Access-Control-Request-Headers": "authorization, x-api-key"})
        assert job.status_code == 200 and "DELETE" in job.headers["access-control-allow-methods"], job.text
        r = c.post(path(FIRST, "check"), json={"position": HARD_SOLVE["position"]},
                   headers={"Origin": "https://game.example"})
        assert r.headers["access-control-allow-origin"] == "https://game.example"
        bad = c.post(path(FIRST, "check"), json={"position": 5}, headers={"Origin": "https://game.example"})
        assert bad.status_code == 422 and bad.headers["access-control-allow-origin"] == "https://game.example"
        other = c.options(path(FIRST, "hint"), headers={"Origin": "https://evil.example",
                                                         "Access-Control-Request-Method": "POST"})
        assert other.status_code == 400 and "access-control-allow-origin" not in other.headers


def test_a_search_answer_says_how_long_it_waited_for_a_worker():
    """Server-Timing's ``queue`` entry: the wait that the time cap does not
    bound (bench/load.py holds the rest of the answer's time to the cap)."""
    with server(workers=1) as c:
        busy = threading.Thread(target=c.post, args=(path(FIRST, "solve"),),
                                kwargs={"json": {**HARD_SOLVE, "limit": {"seconds": 0.6}}})
        busy.start()
        while not c.app.state.runner.running and busy.is_alive():
            time.sleep(0.01)
        waited = c.post(path(FIRST, "solve"), json={**HARD_SOLVE, "limit": {"seconds": 0.1}})
        busy.join()
        alone = c.post(path(FIRST, "solve"), json={**HARD_SOLVE, "limit": {"seconds": 0.1}})
    entry = lambda r: r.headers["server-timing"].partition(";dur=")
    assert entry(waited)[0] == "queue" and 300 <= float(entry(waited)[2]) <= 5000, waited.headers
    assert entry(alone)[0] == "queue" and float(entry(alone)[2]) < 300, alone.headers


def test_healthz_runs_on_the_event_loop():
    """Not in a thread pool, where it would queue behind blocked work."""
    with server() as c:
        route = next(r for r in c.app.routes if getattr(r, "path", None) == "/healthz")
        assert asyncio.iscoroutinefunction(route.endpoint)


# --------------------------------------------------------------- operators


def test_metrics_count_requests_searches_nodes_and_the_cache(tmp_path):
    with server(cache=str(tmp_path / "c.sqlite3")) as c:
        body = {**HARD_SOLVE, "limit": {"nodes": 2000}}
        for _ in range(2):
            assert c.post(path(FIRST, "solve"), json=body).status_code == 200
        c.post(path(FIRST, "solve"), json={"position": 5})
        c.get("/no/such/path/123")
        r = c.get("/metrics")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        text = r.text
    route = f"/v1/{FIRST.name}/solve"
    assert metric(text, "smokejumper_requests_total", method="POST", route=route, status="200") == 2
    assert metric(text, "smokejumper_requests_total", method="POST", route=route, status="422") == 1
    assert metric(text, "smokejumper_requests_total", method="GET", route="unmatched", status="404") == 1
    assert metric(text, "smokejumper_request_seconds_count", method="POST", route=route) == 3
    assert metric(text, "smokejumper_searches_total", game=FIRST.name, operation="solve", source="searched") == 1
    assert metric(text, "smokejumper_searches_total", game=FIRST.name, operation="solve", source="cache") == 1
    assert metric(text, "smokejumper_search_nodes_total", game=FIRST.name, operation="solve") >= 2000
    assert metric(text, "smokejumper_cache_hits") == 1 and metric(text, "smokejumper_cache_entries") == 1
    assert metric(text, "smokejumper_workers") == 2
    assert "smokejumper_queue_depth 0.0" in text and "smokejumper_searches_running 0.0" in text
    assert metric(text, "smokejumper_quick_workers") == 2
    assert "smokejumper_quick_queue_depth 0.0" in text and "smokejumper_quick_running 0.0" in text


def test_every_answer_has_a_request_id_and_one_json_log_line(caplog):
    from smokejumper.service.observe import JsonFormatter

    with server() as c, caplog.at_level(logging.INFO, logger="smokejumper.access"):
        mine = c.get("/healthz", headers={"X-Request-Id": "frontend-42"})
        theirs = c.post(path(FIRST, "check"), json={"position": 5})
        odd = c.get("/healthz", headers={"X-Request-Id": "no spaces; please"})
    assert mine.headers["x-request-id"] == "frontend-42"
    assert re.fullmatch(r"[0-9a-f]{32}", theirs.headers["x-request-id"]) and theirs.status_code == 422
    assert re.fullmatch(r"[0-9a-f]{32}", odd.headers["x-request-id"])
    assert theirs.headers["x-request-id"] != odd.headers["x-request-id"]
    lines = [json.loads(JsonFormatter().format(r)) for r in caplog.records if r.name == "smokejumper.access"]
    assert [(x["route"], x["status"]) for x in lines] == [
        ("/healthz", 200), (f"/v1/{FIRST.name}/check", 422), ("/healthz", 200)]
    assert lines[0]["request_id"] == "frontend-42" and lines[1]["request_id"] == theirs.headers["x-request-id"]
    assert {"time", "level", "logger", "message", "method", "path", "seconds", "client"} <= set(lines[0])
