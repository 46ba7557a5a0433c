"""The web service: endpoints, caps, cancellation, hostile input, the page.

Every server here uses a small memory cap so that tests stay light."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx vs httpx2
    from fastapi.testclient import TestClient

from openapi_examples import request_examples
from smokejumper import Limit, volcano
from smokejumper.games import registered
from smokejumper.service.app import STATIC_DIR, create_app
from smokejumper.service.problems import BodyLimitMiddleware, ClientGone, Overloaded
from smokejumper.service.runner import Runner
from smokejumper.service.settings import Settings

E, NE, NW, W, SW, SE = range(6)
MB = 32


def settings(**kw) -> Settings:
    kw.setdefault("max_memory_mb", MB)
    return Settings(**kw)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(settings())) as c:
        yield c


@pytest.fixture(scope="module")
def seed3(client):
    r = client.post("/v1/volcano/generate", json={"seed": 3})
    assert r.status_code == 200, r.text
    return r.json()["position"]


@pytest.fixture(scope="module")
def hard():
    # Undecided after minutes.
    return volcano.generate(24).position.model_dump(mode="json")


def pos(tiles, volcano_at=(0, 0), supply=(12, 12, 12, 12)):
    """tiles: (q, r, n) or (q, r, n, pawns)."""
    out = []
    for t in tiles:
        d = {"q": t[0], "r": t[1], "n": t[2]}
        if len(t) > 3:
            d["pawns"] = t[3]
        out.append(d)
    return {"tiles": out, "volcano": {"q": volcano_at[0], "r": volcano_at[1]}, "supply": list(supply)}


def fl(c, q, r, d):
    return {"color": c, "tile": [q, r], "dir": d}


# A row of two east of the volcano: (1,0) n=3 (2 spaces), (2,0) n=1 (1 space).
ROW = pos([(1, 0, 3), (2, 0, 1)])
# A small triangle-ish layout around the volcano.
SMALL = pos([(1, 0, 2), (1, -1, 1), (0, 1, 3), (-1, 1, 1)])


def assert_problem(r, status: int, *needles: str) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert set(body) == {"type", "title", "status", "detail"}
    assert body["type"] == "about:blank" and body["status"] == status and body["title"]
    assert "\n" not in body["detail"] and "Traceback" not in body["detail"]
    for needle in needles:
        assert needle in body["detail"], body["detail"]
    return body


# ------------------------------------------------------------ happy paths


def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "version": __import__("smokejumper").__version__}


@pytest.mark.parametrize("position", [ROW, SMALL], ids=["row", "small"])
def test_solve_small_free_layout_and_replay_its_line(client, position):
    r = client.post("/v1/volcano/solve", json={"position": position})
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["verdict"] == "win"
    assert result["stats"]["stopped_by"] is None
    replay = client.post("/v1/volcano/replay", json={"position": position, "line": result["line"]})
    assert replay.status_code == 200, replay.text
    assert replay.json()["status"] == "win"
    assert replay.json()["error"] is None
    assert replay.json()["position"]["tiles"] == []


def test_hint_small(client):
    r = client.post("/v1/volcano/hint", json={"position": ROW, "limit": {"seconds": 2}})
    assert r.status_code == 200, r.text
    moves = r.json()["moves"]
    assert moves and moves[0]["value"] == "win"
    order = {"win": 0, "unknown": 1, "loss": 2}
    assert [order[m["value"]] for m in moves] == sorted(order[m["value"]] for m in moves)


def test_check_small(client):
    r = client.post("/v1/volcano/check", json={"position": ROW})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "ongoing"
    assert body["supply_total"] == 48
    legal = {(f["color"], *f["tile"], f["dir"]) for c in body["flights"] for f in [c["flight"], *c["equivalent"]]}
    assert (0, 2, 0, NE) in legal
    assert (0, 2, 0, W) not in legal  # the plane's cell (1,0) holds a tile


def test_replay_one_flight_and_illegal_flight(client):
    r = client.post("/v1/volcano/replay", json={"position": ROW, "line": [fl(0, 2, 0, NE)]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "ongoing" and body["error"] is None
    step = body["steps"][0]
    assert step["dropped"] == 1 and step["extinguished"] == [[2, 0]]
    assert body["position"]["supply"] == [11, 12, 12, 12]

    r = client.post("/v1/volcano/replay", json={"position": ROW, "line": [fl(0, 1, 0, E)]})
    assert r.status_code == 200
    assert r.json()["steps"] == [] and "not empty" in r.json()["error"]


def test_generate_seed3_solves_and_replays_to_win(client, seed3):
    assert len(seed3["tiles"]) == 35
    again = client.post("/v1/volcano/generate", json={"seed": 3, "solvable": False, "rate": False}).json()
    assert again["position"] == seed3  # deterministic
    r = client.post("/v1/volcano/solve", json={"position": seed3, "limit": {"seconds": 10}})
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["verdict"] == "win"
    replay = client.post("/v1/volcano/replay", json={"position": seed3, "line": result["line"]}).json()
    assert replay["status"] == "win" and replay["error"] is None
    assert client.post("/v1/volcano/check", json={"position": seed3}).json()["status"] == "ongoing"
    hint = client.post("/v1/volcano/hint", json={"position": seed3, "limit": {"seconds": 3}}).json()
    assert hint["moves"][0]["value"] == "win"


def test_generate_solvable_rated(client):
    r = client.post("/v1/volcano/generate", json={"seed": 3, "solvable": True, "rate": True, "limit": {"seconds": 5}})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["verdict"] == "win" and body["line"]
    assert body["difficulty"] is not None and 0 <= body["difficulty"]["winning_share"] <= 1


# ------------------------------------------------------------------ caps


def search_past_the_caps(client, path: str, position: dict, max_nodes: int) -> dict:
    """Ask a server capped at ``max_nodes`` nodes (and MB) for far more: 1e9
    nodes, 1e6 seconds, 16 GiB. The search stops at the caps; its result."""
    body = '{"position": %s, "limit": {"nodes": 1e9, "seconds": 1e6, "memory_mb": 16384}}' % json.dumps(position)
    r = post_raw(client, path, body)
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["stats"]["stopped_by"] == "nodes"
    assert result["stats"]["nodes"] <= 2 * max_nodes
    assert result["stats"]["table_bytes"] <= MB * 2**20
    return result


def test_server_caps_override_the_request(hard):
    with TestClient(create_app(settings(max_nodes=1000))) as c:
        assert search_past_the_caps(c, "/v1/volcano/solve", hard, 1000)["verdict"] == "unknown"


def test_request_without_limit_gets_the_caps(hard):
    with TestClient(create_app(settings(max_nodes=500))) as c:
        result = c.post("/v1/volcano/hint", json={"position": hard}).json()
        assert result["stats"]["stopped_by"] == "nodes"
        assert result["stats"]["nodes"] <= 1000


def test_request_may_ask_for_less_than_the_caps(client, hard):
    result = client.post("/v1/volcano/solve", json={"position": hard, "limit": {"nodes": 300}}).json()
    assert result["stats"]["stopped_by"] == "nodes" and result["stats"]["nodes"] <= 600


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


def test_time_cap_stops_a_hard_solve(hard):
    with TestClient(create_app(settings(max_seconds=0.5))) as c:
        assert search_past_the_time_cap(c, "/v1/volcano/solve", {"position": hard})["verdict"] == "unknown"


# ---------------------------------------------------- Control cancellation


class FakeRequest:
    """is_disconnected() turns true after ``after`` seconds."""

    def __init__(self, after: float) -> None:
        self.at = time.monotonic() + after

    async def is_disconnected(self) -> bool:
        return time.monotonic() >= self.at


def _unbounded_solve(position):
    # No time limit of its own: only the Control can stop it.
    return lambda control: volcano.solve(position, Limit(memory_mb=MB), control=control)


def test_watchdog_stops_the_search_through_its_control(hard):
    runner = Runner(workers=1, queue_limit=0, grace_seconds=0.0)
    try:
        start = time.monotonic()
        result = asyncio.run(runner.run(_unbounded_solve(hard), seconds=0.3))
        assert time.monotonic() - start < 10
        assert result.verdict == "unknown" and result.stats.stopped_by == "stopped"
        assert runner.running == 0
    finally:
        runner.close()


def stopped_when_the_client_leaves(search):
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


def test_client_disconnect_stops_the_search(hard):
    stopped_when_the_client_leaves(_unbounded_solve(hard))


def test_full_queue_gets_overloaded_and_waiters_are_served_in_turn(hard):
    async def scenario():
        runner = Runner(workers=1, queue_limit=1, grace_seconds=0.0)
        try:
            slow = asyncio.ensure_future(runner.run(_unbounded_solve(hard), seconds=0.4))
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


def test_a_queued_request_whose_client_leaves_gives_up_its_place(hard):
    async def scenario():
        runner = Runner(workers=1, queue_limit=4, grace_seconds=0.0)
        try:
            slow = asyncio.ensure_future(runner.run(_unbounded_solve(hard), seconds=0.5))
            await asyncio.sleep(0.05)
            with pytest.raises(ClientGone):
                await runner.run(lambda control: "never", seconds=1, request=FakeRequest(0.1))
            assert runner.waiting == 0 and runner.running == 1
            await slow
            assert runner.running == 0
        finally:
            runner.close()

    asyncio.run(scenario())


def occupy_the_worker(app, client, position, results) -> threading.Thread:
    """A Volcano! solve of ``position`` on a thread, once it holds a worker."""
    def slow():
        results["slow"] = client.post("/v1/volcano/solve", json={"position": position})

    t = threading.Thread(target=slow)
    t.start()
    deadline = time.monotonic() + 3
    while app.state.runner.running == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert app.state.runner.running == 1
    return t


def test_every_route_that_calls_the_core_answers_503_when_the_queue_is_full(hard):
    """Quick routes (check, apply, replay, ...) are admitted like searches:
    with the one worker busy and no room to wait, each answers 503."""
    app = create_app(settings(workers=1, max_queue=0, max_seconds=3.0, grace_seconds=0.0))
    with TestClient(app) as c:
        spec = c.get("/openapi.json").json()
        results: dict = {}
        t = occupy_the_worker(app, c, hard, results)
        refused = []
        for path, item in spec["paths"].items():
            if not path.startswith("/v1/"):
                continue
            for method, op in item.items():
                if method == "get":  # data, in plain Python: takes no worker
                    query = request_examples(spec, method, path)[0]
                    assert c.request(method, path, params=query).status_code == 200, path
                    continue
                r = c.request(method, path, json=request_examples(spec, method, path)[0])
                assert_problem(r, 503, "busy")
                assert r.headers.get("retry-after") == "1"
                assert "503" in op["responses"], path
                refused.append(path)
        assert app.state.runner.running == 1  # every refusal above came while the solve ran
        t.join()
        assert results["slow"].status_code == 200
        assert {"/v1/volcano/check", "/v1/fire/apply", "/v1/fire/strategy-move", "/v1/wildfire/replay"} <= set(refused)


def test_a_quick_route_waits_in_the_queue_behind_a_search(hard):
    app = create_app(settings(workers=1, max_queue=1, max_seconds=0.5, grace_seconds=0.0))
    with TestClient(app) as c:
        results: dict = {}
        t = occupy_the_worker(app, c, hard, results)
        checked = threading.Thread(target=lambda: results.update(
            check=c.post("/v1/volcano/check", json={"position": ROW})))
        checked.start()
        deadline = time.monotonic() + 3
        while app.state.runner.waiting == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert app.state.runner.waiting == 1 and app.state.runner.running == 1
        t.join()
        checked.join()
        assert results["slow"].status_code == 200
        assert results["check"].status_code == 200 and results["check"].json()["status"] == "ongoing"
        assert app.state.runner.waiting == 0 and app.state.runner.running == 0


# ----------------------------------------------------------- hostile input


def post_raw(client, path, content, content_type="application/json"):
    return client.post(path, content=content, headers={"content-type": content_type})


def with_tiles(base, tiles):
    return {**base, "tiles": tiles}


@pytest.mark.parametrize(
    "body, needles",
    [
        ({"position": with_tiles(ROW, [{"q": 1, "r": 0, "n": 9}])},
         ["body.position.tiles.0.n", "less than or equal to 6"]),
        ({"position": with_tiles(ROW, [{"q": 1, "r": 0, "n": "three"}])}, ["body.position.tiles.0.n", "integer"]),
        ({"position": with_tiles(ROW, [{"q": 1, "r": 0, "n": 3, "pawns": -1}])}, ["body.position.tiles.0.pawns"]),
        ({"position": {**ROW, "supply": [12, -1]}}, ["body.position.supply.1", "greater than or equal to 0"]),
        ({"position": {**ROW, "supply": []}}, ["body.position.supply"]),
        ({"position": {**ROW, "volcano": {"q": "x", "r": 0}}}, ["body.position.volcano.q"]),
        ({"position": with_tiles(ROW, [{"q": 1, "r": 0, "n": 3, "colour": 2}])},
         ["body.position.tiles.0.colour", "Extra inputs"]),
        ({"position": {**ROW, "tiles": "many"}}, ["body.position.tiles", "list"]),
        ({"position": ROW, "limit": {"seconds": -1}}, ["body.limit.seconds"]),
        ({"position": ROW, "limit": {"nodes": -5}}, ["body.limit.nodes"]),
        ({"position": ROW, "limit": {"memory_mb": 0}}, ["body.limit.memory_mb"]),
        ({"position": ROW, "limit": 5}, ["body.limit"]),
        ({"position": ROW, "extra": 1}, ["body.extra"]),
        ({"limit": {"seconds": 1}}, ["body.position", "Field required"]),
        ({}, ["body.position", "Field required"]),
    ],
)
def test_bad_bodies_name_the_field(client, body, needles):
    assert_problem(client.post("/v1/volcano/solve", json=body), 422, *needles)


@pytest.mark.parametrize(
    "position, needle",
    [
        (pos([(1, 0, 1, 2)]), "tile at (1, 0): pawns 2 must be 0..1"),  # pawns > spaces
        (pos([(1, 0, 3), (1, 0, 2)]), "tile at (1, 0) appears twice"),
        (pos([(1, 0, 3), (5, 0, 2)]), "tile at (5, 0) is not connected"),
        (pos([(0, 0, 3), (1, 0, 2)]), "tile at (0, 0) is on the volcano"),
        ({**pos([(1, 0, 3)]), "setup": "standard"}, "standard layout has 35 forest tiles"),
    ],
    ids=["pawns>spaces", "duplicate", "disconnected", "on-volcano", "standard"],
)
@pytest.mark.parametrize("path", ["solve", "hint", "check", "replay"])
def test_engine_rejections_name_the_cell(client, position, needle, path):
    body = {"position": position, **({"line": []} if path == "replay" else {})}
    assert_problem(client.post(f"/v1/volcano/{path}", json=body), 422, needle)


def test_ten_thousand_tiles_rejected_quickly(client):
    tiles = [{"q": i % 100, "r": i // 100, "n": 1} for i in range(10_000)]
    start = time.monotonic()
    r = client.post("/v1/volcano/solve", json={"position": with_tiles(ROW, tiles)})
    assert time.monotonic() - start < 10
    assert_problem(r, 422, "body.position.tiles", "at most")


def test_invalid_json(client):
    assert_problem(post_raw(client, "/v1/volcano/solve", b'{"position": '), 422, "invalid JSON")
    assert_problem(post_raw(client, "/v1/volcano/check", b"\xff\xfe"), 422, "body")
    assert_problem(post_raw(client, "/v1/volcano/check", b"NaN"), 422, "body")


def test_deeply_nested_json(client):
    start = time.monotonic()
    for path in ("solve", "check", "replay"):
        assert_problem(post_raw(client, f"/v1/volcano/{path}", b"[" * 100_000), 422, "nested too deeply")
    # Nested but within json's reach: a wrong shape, still a clear 4xx.
    nested = b'{"position": ' + b"[" * 500 + b"]" * 500 + b"}"
    assert_problem(post_raw(client, "/v1/volcano/solve", nested), 422, "body.position")
    assert time.monotonic() - start < 10


@pytest.mark.parametrize("body", [b"[1, 2]", b'"text"', b"null", b"42"])
def test_body_of_the_wrong_shape(client, body):
    assert_problem(post_raw(client, "/v1/volcano/solve", body), 422, "body")


def test_wrong_shapes_elsewhere(client):
    assert_problem(client.post("/v1/volcano/generate", json={"seed": -1}), 422, "body.seed")
    assert_problem(client.post("/v1/volcano/generate", json={"seed": 2**64}), 422, "body.seed")
    assert_problem(client.post("/v1/volcano/generate", json={"seed": 1.5}), 422, "body.seed")
    assert_problem(client.post("/v1/volcano/generate", json={}), 422, "body.seed", "Field required")
    assert_problem(client.post("/v1/volcano/replay", json={"position": ROW}), 422, "body.line")
    assert_problem(client.post("/v1/volcano/replay", json={"position": ROW, "line": [{"color": 0, "tile": [1], "dir": 0}]}),
                   422, "body.line.0.tile")
    assert_problem(client.post("/v1/volcano/replay", json={"position": ROW, "line": [fl(0, 1, 0, 6)]}),
                   422, "body.line.0.dir")
    assert_problem(client.post("/v1/volcano/replay", json={"position": ROW, "line": [fl(99, 1, 0, 0)]}),
                   422, "body.line.0.color")


def test_not_json_content_type(client):
    assert_problem(post_raw(client, "/v1/volcano/solve", json.dumps({"position": ROW}), "text/plain"), 415,
                   "application/json")


def test_oversized_body():
    with TestClient(create_app(settings(max_body_bytes=10_000))) as c:
        big = json.dumps({"position": ROW, "pad": "x" * 20_000})
        assert_problem(post_raw(c, "/v1/volcano/solve", big), 413, "10000 bytes")

        def chunks():  # no Content-Length: chunked transfer
            for _ in range(30):
                yield b" " * 1000

        r = c.post("/v1/volcano/check", content=chunks(), headers={"content-type": "application/json"})
        assert_problem(r, 413)
        # Just under the limit is fine.
        ok = json.dumps({"position": ROW}).encode()
        assert c.post("/v1/volcano/check", content=ok + b" " * (10_000 - len(ok)),
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

    scope = {"type": "http", "method": "POST", "path": "/v1/volcano/solve",
             "headers": [(b"content-length", b"10"), (b"content-type", b"application/json")]}
    asyncio.run(middleware(scope, receive, send))
    assert not reached
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["status"] == 413


def test_unknown_routes_and_methods(client):
    assert_problem(client.get("/v1/volcano/nope"), 404, "/v1/volcano/nope")
    assert_problem(client.post("/v2/volcano/solve", json={}), 404)
    assert_problem(client.get("/static/missing.js"), 404)
    assert_problem(client.get("/v1/volcano/solve"), 405, "GET")


# ------------------------------------------------------------ page, docs


def test_page_references_the_script(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/main.js">' in r.text
    assert 'href="/static/style.css"' in r.text
    assert "http://" not in r.text


def test_static_files_are_served(client):
    modules = sorted(p.relative_to(STATIC_DIR).as_posix() for p in STATIC_DIR.rglob("*.js"))
    assert {"main.js", "games/volcano.js", "games/fire.js", "games/wildfire.js"} <= set(modules)
    for module in modules:
        js = client.get(f"/static/{module}")
        assert js.status_code == 200 and "javascript" in js.headers["content-type"], module
    volcano_js = client.get("/static/games/volcano.js").text
    for path in ("/v1/volcano/generate", "/v1/volcano/hint", "/v1/volcano/solve",
                 "/v1/volcano/check", "/v1/volcano/replay"):
        assert path in volcano_js
    css = client.get("/static/style.css")
    assert css.status_code == 200 and "text/css" in css.headers["content-type"]


def test_only_a_games_module_names_the_game():
    """A new game adds games/<name>.js and nothing else on the page side:
    no other page file names a game."""
    games = STATIC_DIR / "games"
    named = [p.relative_to(STATIC_DIR).as_posix() for p in STATIC_DIR.rglob("*")
             if p.is_file() and games not in p.parents
             and re.search("volcano|wildfire|fire", p.read_text(), re.IGNORECASE)]
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
    assert {f"{g.name.capitalize()}SolveResult" for g in registered()} <= schemas, schemas
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
    assert (queued.queue_limit, queued.quick_seconds) == (64, 0.5)
    assert (d.max_queue, d.quick_seconds) == (None, 2.0)
    with pytest.raises(ValueError, match="quick_seconds"):
        Settings.from_env({"SMOKEJUMPER_QUICK_SECONDS": "0"})


# ================================================================== Fire!

from smokejumper import fire  # noqa: E402
from smokejumper.fire import MAX_STEPS  # noqa: E402


def bat(energy, crosshairs=None):
    return {"energy": energy} if crosshairs is None else {"energy": energy, "crosshairs": crosshairs}


# One 9-7-4-3 alien, two empty weapons, six batteries to draw: at a reveal,
# won with probability 787/1080 under optimal play (tests/fire_reference.py);
# solved in milliseconds.
FIRE_SMALL = {"aliens": [{"strengths": [9, 7, 4, 3]}], "weapons": [[], []],
              "draw": [bat(1), bat(2), bat(3), bat(1), bat(3), bat(5)]}
# The same after a 3 went on weapon 0 and another 3 is revealed: weapon 0
# (3/4) is better than weapon 1 (7/12), as the reference says.
FIRE_DECISION = {"aliens": [{"strengths": [9, 7, 4, 3]}], "weapons": [[bat(3)], []],
                 "draw": [bat(1), bat(2), bat(1), bat(5)], "revealed": bat(3)}


@pytest.fixture(scope="module")
def fire_levels(client):
    r = client.get("/v1/fire/levels")
    assert r.status_code == 200, r.text
    return {entry["id"]: entry for entry in r.json()["levels"]}


def assert_value(v: dict) -> None:
    lo, hi = v["interval"]
    assert 0 <= lo <= v["win_probability"] <= hi <= 1
    if v["exact"]:
        assert hi - lo < 1e-9
    else:
        assert v["win_probability"] == lo


def assert_best_first(choices: list[dict]) -> None:
    values = [c["win_probability"] for c in choices]
    assert values == sorted(values, reverse=True)


def test_fire_solve_small(client):
    r = client.post("/v1/fire/solve", json={"position": FIRE_SMALL, "limit": {"seconds": 5}})
    assert r.status_code == 200, r.text
    result = r.json()
    assert_value(result)
    assert result["exact"] is True and result["stats"]["stopped_by"] is None
    assert result["win_probability"] == pytest.approx(787 / 1080, abs=1e-9)
    assert result["won_for_certain"] is False  # a value below 1: some reveals lose


def test_fire_split_shares_the_aliens_out(client):
    team = fire.levels.team_level1().position(aliens=4).model_dump(mode="json")
    r = client.post("/v1/fire/split", json={"position": team, "limit": {"seconds": 30}})
    assert r.status_code == 200, r.text
    result = r.json()
    assert_value(result)
    assert result["exact"] and result["win_probability"] == 1.0
    assert sorted(result["aliens"]) == [[0, 1], [2, 3]]
    solo = client.post("/v1/fire/split", json={"position": FIRE_SMALL})
    assert_problem(solo, 422, "team")


def test_fire_hint_at_a_decision_agrees_with_solve(client):
    solved = client.post("/v1/fire/solve", json={"position": FIRE_DECISION}).json()
    r = client.post("/v1/fire/hint", json={"position": FIRE_DECISION, "limit": {"seconds": 3}})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["status"] == "decision" and hint["reveals"] == []
    assert hint["exact"] and solved["exact"]
    choices = hint["choices"]
    assert [c["move"]["weapon"] for c in choices] == [0, 1]
    for c in choices:
        assert_value(c)
        assert c["exact"] is True
    assert_best_first(choices)
    assert choices[0]["win_probability"] == pytest.approx(3 / 4, abs=1e-9)
    assert choices[0]["win_probability"] == pytest.approx(solved["win_probability"], abs=1e-9)
    assert hint["win_probability"] == pytest.approx(solved["win_probability"], abs=1e-9)


def test_fire_hint_before_a_reveal_lists_each_battery(client):
    r = client.post("/v1/fire/hint", json={"position": FIRE_SMALL, "limit": {"seconds": 3}})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["status"] == "reveal" and hint["choices"] == []
    reveals = hint["reveals"]
    assert {b["battery"]["energy"]: b["probability"] for b in reveals} == pytest.approx(
        {1: 2 / 6, 2: 1 / 6, 3: 2 / 6, 5: 1 / 6})
    assert sum(b["probability"] for b in reveals) == pytest.approx(1.0, abs=1e-12)
    for b in reveals:
        assert_value(b)
        assert b["choices"] and b["exact"]
        assert_best_first(b["choices"])
        assert b["win_probability"] == pytest.approx(b["choices"][0]["win_probability"], abs=1e-12)
    expected = sum(b["probability"] * b["win_probability"] for b in reveals)
    assert hint["win_probability"] == pytest.approx(expected, abs=1e-9)


def test_fire_check_apply_replay_round_trip(client):
    r = client.post("/v1/fire/check", json={"position": FIRE_SMALL})
    assert r.status_code == 200, r.text
    checked = r.json()
    assert checked["status"] == "reveal" and checked["moves"] == []
    assert checked["position"]["draw"][0]["crosshairs"] == 2  # the Level 1 default filled in

    r = client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": [{"reveal": bat(3)}]})
    assert r.status_code == 200, r.text
    revealed = r.json()
    assert revealed["error"] is None and revealed["status"] == "decision"
    assert revealed["steps"][0]["step"] == {"reveal": bat(3, 1)}
    decision = revealed["position"]
    assert decision["revealed"] == bat(3, 1) and len(decision["draw"]) == 5

    moves = client.post("/v1/fire/check", json={"position": decision}).json()["moves"]
    assert [m["weapon"] for m in moves] == [0, 1]
    for move in moves:
        r = client.post("/v1/fire/apply", json={"position": decision, "move": move})
        assert r.status_code == 200, r.text
        after = r.json()
        assert after["status"] == "reveal" and after["position"]["revealed"] is None
        assert after["position"]["weapons"][move["weapon"]] == [bat(3, 1)]
        replayed = client.post("/v1/fire/replay", json={"position": FIRE_SMALL,
                                                          "steps": [{"reveal": bat(3)}, move]}).json()
        assert replayed["error"] is None and replayed["position"] == after["position"]


def test_fire_apply_a_shot(client):
    # 3 + 3 + 5 on weapon 0: 11 energy, 3 crosshairs, 3 damage: no hit on a 9.
    pos = {**FIRE_DECISION, "weapons": [[bat(3), bat(3)], []], "draw": [bat(1), bat(2), bat(1)],
           "revealed": bat(5)}
    moves = client.post("/v1/fire/check", json={"position": pos}).json()["moves"]
    shots = [m for m in moves if m["weapon"] == 0]
    assert {m["destroy"]["energy"] for m in shots} == {3, 5} and all(m["target"] == 0 for m in shots)
    r = client.post("/v1/fire/apply", json={"position": pos, "move": {"weapon": 0, "target": 0, "destroy": bat(5)}})
    assert r.status_code == 200, r.text
    after = r.json()["position"]
    assert after["destroyed"] == [bat(5, 1)] and after["weapons"][0] == []
    assert after["aliens"][0]["hits"] == 0 and len(after["discard"]) == 2


def test_fire_apply_the_winning_shot(client):
    # 9 energy and 5 crosshairs on weapon 1, a 5 revealed: 14 energy, 6
    # crosshairs, 24 damage: the last three hits (7 + 4 + 3), a win at once.
    pos = {"aliens": [{"strengths": [9, 7, 4, 3], "hits": 1}],
           "weapons": [[], [bat(1), bat(2), bat(3), bat(3)]], "destroyed": [bat(1)], "revealed": bat(5)}
    move = {"weapon": 1, "target": 0, "destroy": None}
    legal = client.post("/v1/fire/check", json={"position": pos}).json()["moves"]
    assert move in [{k: m[k] for k in move} for m in legal]
    r = client.post("/v1/fire/apply", json={"position": pos, "move": move})
    assert r.status_code == 200, r.text
    won = r.json()
    assert won["status"] == "win" and won["moves"] == [] and won["position"]["aliens"][0]["hits"] == 4
    replayed = client.post("/v1/fire/replay", json={"position": pos, "steps": [move]}).json()
    assert replayed["status"] == "win" and replayed["position"] == won["position"]


def test_fire_illegal_steps(client):
    r = client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": [{"reveal": bat(4)}]})
    assert r.status_code == 200
    body = r.json()
    assert body["steps"] == [] and body["status"] == "reveal"
    assert "steps[0]" in body["error"] and "no battery" in body["error"]
    r = client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": [{"reveal": bat(3)}, {"weapon": 3}]})
    assert len(r.json()["steps"]) == 1 and "steps[1]" in r.json()["error"]
    # A move where a reveal is due, and a strategy move with nothing revealed.
    assert_problem(client.post("/v1/fire/apply", json={"position": FIRE_SMALL, "move": {"weapon": 0}}), 422,
                   "no battery is revealed")
    assert_problem(client.post("/v1/fire/strategy-move", json={"position": FIRE_SMALL}), 422,
                   "no battery is revealed")


def test_fire_strategy_plays_a_game_that_replays(client):
    position = FIRE_SMALL
    steps = []
    status = "reveal"
    for _ in range(200):
        if status in ("win", "loss"):
            break
        if status == "reveal":
            draw = client.post("/v1/fire/check", json={"position": position}).json()["position"]["draw"]
            step = {"reveal": draw[0]}
            body = client.post("/v1/fire/replay", json={"position": position, "steps": [step]}).json()
            assert body["error"] is None
            position, status = body["position"], body["status"]
        else:
            r = client.post("/v1/fire/strategy-move", json={"position": position})
            assert r.status_code == 200, r.text
            step = r.json()
            assert set(step) == {"weapon", "target", "destroy"}  # the spec's move shape
            after = client.post("/v1/fire/apply", json={"position": position, "move": step}).json()
            position, status = after["position"], after["status"]
        steps.append(step)
    assert status in ("win", "loss")
    replayed = client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": steps}).json()
    assert replayed["error"] is None and replayed["status"] == status
    assert replayed["position"] == position


def test_fire_levels(client, fire_levels):
    assert set(fire_levels) == {"solo-1", "team-1"}
    solo, team = fire_levels["solo-1"], fire_levels["team-1"]
    for entry in (solo, team):
        assert entry["level"]["assumptions"] and any("crosshairs" in a for a in entry["level"]["assumptions"])
        assert len(entry["position"]["aliens"]) == 5
        assert entry["position"]["order_known"] is False
    assert "mode" not in solo["position"] and len(solo["position"]["weapons"]) == 3  # solo: the spec's shape
    assert sorted(b["energy"] for b in solo["position"]["draw"]) == [1] * 5 + [2] * 4 + [3] * 3 + [4] * 2 + [5]
    assert team["position"]["mode"] == "team" and len(team["position"]["players"]) == 2
    for player in team["position"]["players"]:
        assert len(player["weapons"]) == 2 and len(player["draw"]) == 10 and player["exchanges"] == 2

    small = client.get("/v1/fire/levels", params={"aliens": 2, "seed": 7}).json()["levels"]
    for entry in small:
        assert len(entry["position"]["aliens"]) == 2 and entry["position"]["order_known"] is True
    # A known order reveals by itself: the first battery of the draw pile.
    solo_known = small[0]["position"]
    checked = client.post("/v1/fire/check", json={"position": solo_known}).json()
    assert checked["status"] == "decision" and checked["position"]["revealed"] == solo_known["draw"][0]
    for bad in ({"aliens": 0}, {"aliens": 6}, {"aliens": "two"}, {"seed": -1}):
        assert_problem(client.get("/v1/fire/levels", params=bad), 422, f"query.{next(iter(bad))}")


def test_fire_team_give(client, fire_levels):
    start = fire_levels["team-1"]["position"]
    start = {**start, "aliens": start["aliens"][:1]}
    body = client.post("/v1/fire/replay", json={"position": start, "steps": [{"reveal": bat(4)}]}).json()
    assert body["error"] is None and body["status"] == "decision"
    decision = body["position"]
    moves = client.post("/v1/fire/check", json={"position": decision}).json()["moves"]
    assert {"give": True} in moves
    after = client.post("/v1/fire/apply", json={"position": decision, "move": {"give": True}}).json()
    assert after["status"] == "decision"
    p = after["position"]
    assert p["turn"] == 1 and p["revealed"] == bat(4, 1)
    assert [pl["exchanges"] for pl in p["players"]] == [1, 2]
    r = client.post("/v1/fire/strategy-move", json={"position": p})
    assert r.status_code == 200 and set(r.json()) in ({"give"}, {"weapon", "target", "destroy"})
    hint = client.post("/v1/fire/hint", json={"position": p, "limit": {"seconds": 0.2}}).json()
    assert hint["choices"]
    for c in hint["choices"]:
        assert_value(c)


FIRE_BAD_POSITIONS = [
    ({**FIRE_SMALL, "weapons": [[bat(5), bat(5)], []]}, ["weapons[0]", "10 energy"]),
    ({**FIRE_SMALL, "weapons": [[bat(6)], []]}, ["body.position.weapons.0.0.energy", "less than or equal to 5"]),
    ({**FIRE_SMALL, "aliens": []}, ["body.position.aliens", "at least 1"]),
    ({**FIRE_SMALL, "colour": 2}, ["body.position.colour", "Extra inputs"]),
    ({"mode": "team", "aliens": FIRE_SMALL["aliens"]}, ["body.position", "players"]),
    ({**FIRE_SMALL, "mode": "team"}, ["body.position", "players"]),
    ({**FIRE_SMALL, "aliens": [{"strengths": [9, 7, 4]}]}, ["body.position.aliens.0.strengths"]),
    ({**FIRE_SMALL, "aliens": [{"strengths": [9, 7, 4, 0]}]}, ["body.position.aliens.0", "strengths must be"]),
    ({**FIRE_SMALL, "draw": []}, ["batteries", "1..20"]),
    ({**FIRE_SMALL, "revealed": {"energy": 2, "crosshairs": 10}}, ["body.position.revealed.crosshairs"]),
]


@pytest.mark.parametrize("position, needles", FIRE_BAD_POSITIONS,
                         ids=["ten-energy", "energy-6", "no-aliens", "unknown-key", "team-no-players",
                              "team-solo-piles", "three-strengths", "strength-0", "no-batteries", "crosshairs-10"])
@pytest.mark.parametrize("path", ["solve", "hint", "check", "apply", "replay", "strategy-move"])
def test_fire_invalid_positions_name_the_field(client, path, position, needles):
    extra = {"move": {"weapon": 0}} if path == "apply" else {"steps": []} if path == "replay" else {}
    assert_problem(client.post(f"/v1/fire/{path}", json={"position": position, **extra}), 422, *needles)


@pytest.mark.parametrize(
    "body, needles",
    [
        ({"position": FIRE_DECISION, "move": {"target": 0}}, ["body.move", "needs a weapon"]),
        ({"position": FIRE_DECISION, "move": {"give": True, "weapon": 0}}, ["body.move", "give move"]),
        ({"position": FIRE_DECISION, "move": {"weapon": 4}}, ["body.move.weapon"]),
        ({"position": FIRE_DECISION, "move": {"weapon": 0, "fire": True}}, ["body.move.fire", "Extra inputs"]),
        ({"position": FIRE_DECISION}, ["body.move", "Field required"]),
    ],
)
def test_fire_bad_moves(client, body, needles):
    assert_problem(client.post("/v1/fire/apply", json=body), 422, *needles)


@pytest.mark.parametrize(
    "steps, needles",
    [
        ([{"weapon": 9}], ["body.steps.0.move.weapon"]),
        ([{"reveal": {"energy": 7}}], ["body.steps.0.reveal.reveal.energy", "less than or equal to 5"]),
        ([{"reveal": bat(1)}, {"foo": 1}], ["body.steps.1.move.foo", "Extra inputs"]),
        (["x"], ["body.steps.0.move"]),
        ("many", ["body.steps", "list"]),
    ],
)
def test_fire_bad_replay_steps(client, steps, needles):
    assert_problem(client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": steps}), 422, *needles)


def test_fire_engine_rejects_an_illegal_move(client):
    # Weapon 1 does not fire with the 3, so it takes no target.
    r = client.post("/v1/fire/apply", json={"position": FIRE_DECISION,
                                            "move": {"weapon": 1, "target": 0, "destroy": bat(3)}})
    assert_problem(r, 422, "move")


def test_fire_hostile_bodies_are_refused_quickly(client):
    start = time.monotonic()
    huge = [
        ({**FIRE_SMALL, "aliens": [{"strengths": [9, 7, 4, 3]}] * 10_000}, "body.position.aliens"),
        ({**FIRE_SMALL, "draw": [bat(1)] * 10_000}, "body.position.draw"),
        ({**FIRE_SMALL, "weapons": [[]] * 10_000}, "body.position.weapons"),
        ({**FIRE_SMALL, "weapons": [[bat(1)] * 10_000, []]}, "body.position.weapons.0"),
        ({"mode": "team", "aliens": FIRE_SMALL["aliens"], "players": [{"weapons": [[]]}] * 1000},
         "body.position.players"),
    ]
    for position, needle in huge:
        assert_problem(client.post("/v1/fire/solve", json={"position": position}), 422, needle, "at most")
    steps = [{"reveal": bat(1)}] * (MAX_STEPS + 1)
    assert_problem(client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": steps}), 422,
                   "body.steps", "at most")
    big = {**FIRE_SMALL, "aliens": [{"strengths": [10**30, 1, 1, 1]}]}
    assert_problem(client.post("/v1/fire/check", json={"position": big}), 422, "body.position.aliens.0")
    assert_problem(post_raw(client, "/v1/fire/hint", b"[" * 100_000), 422, "nested too deeply")
    assert_problem(client.post("/v1/fire/solve", json={"position": FIRE_SMALL, "limit": {"seconds": -1}}), 422,
                   "body.limit.seconds")
    assert time.monotonic() - start < 10


def test_fire_oversized_body():
    with TestClient(create_app(settings(max_body_bytes=10_000))) as c:
        big = json.dumps({"position": {**FIRE_SMALL, "draw": [bat(1)] * 2000}})
        assert_problem(post_raw(c, "/v1/fire/solve", big), 413, "10000 bytes")


def test_fire_time_cap_stops_the_full_level(fire_levels):
    full = fire_levels["solo-1"]["position"]
    with TestClient(create_app(settings(max_seconds=0.3, grace_seconds=0.2))) as c:
        for path in ("solve", "hint"):
            result = search_past_the_time_cap(c, f"/v1/fire/{path}", {"position": full})
            assert result["exact"] is False
            lo, hi = result["interval"]
            assert 0 <= lo < hi <= 1 and result["win_probability"] is None  # no headline unless exact
            assert result["stats"]["table_bytes"] <= MB * 2**20


def test_fire_node_cap_overrides_the_request(fire_levels):
    full = fire_levels["team-1"]["position"]
    with TestClient(create_app(settings(max_nodes=1000))) as c:
        assert search_past_the_caps(c, "/v1/fire/solve", full, 1000)["exact"] is False


def test_fire_client_disconnect_stops_the_search(fire_levels):
    full = fire_levels["solo-1"]["position"]
    result = stopped_when_the_client_leaves(lambda control: fire.solve(full, Limit(memory_mb=MB), control=control))
    assert result.exact is False


def test_page_has_the_fire_view(client):
    js = client.get("/static/games/fire.js").text
    for path in ("/v1/fire/levels", "/v1/fire/hint", "/v1/fire/solve", "/v1/fire/check", "/v1/fire/apply",
                 "/v1/fire/replay", "/v1/fire/strategy-move"):
        assert path in js


# ============================================================= Wild Fire!

import wildfire_reference as wf_ref  # noqa: E402

from smokejumper import wildfire  # noqa: E402



def page_examples(module_text: str) -> list[dict]:
    """The example positions of the page's Wild Fire! view (strict JSON in its module)."""
    found = re.search(r"^const EXAMPLES = (\[.*?^\]);$", module_text, re.MULTILINE | re.DOTALL)
    assert found, "games/wildfire.js has no EXAMPLES"
    return json.loads(found.group(1))


WF_EXAMPLES = {e["name"]: e["position"] for e in page_examples((STATIC_DIR / "games" / "wildfire.js").read_text())}
# Five tiles, two colours of two pawns: won, and every move of the first
# turn is solved at once.
WF_DEAL = {"deal": [{"n": 1}, {"n": 5}, {"n": 3}, {"n": 1}, {"n": 2}], "level": 1, "supply": [2, 2]}
WF_SMALL = WF_EXAMPLES["Small deal (known order)"]
WF_HIDDEN = WF_EXAMPLES["Mid-game (hidden order, tile drawn)"]
WF_FULL = WF_EXAMPLES["Full deal (known order)"]
# A full deal the solver leaves undecided after a minute and tens of
# millions of nodes (the one such deal among seeds 1-1000 of a shuffled
# box), so limits and stops cut it short.
WF_HARD = {"deal": [{"n": int(n)} for n in "216416554112616634534234353232533564"], "level": 1}


def move_key(m: dict) -> str:
    return json.dumps(m, sort_keys=True)


def without_drawn(position: dict) -> dict:
    return {k: v for k, v in position.items() if k != "drawn"}


def wf_shares_best_first(choices: list[dict], moves: list[dict]) -> list[float]:
    """A hint's choices are the legal moves, once each, best first: their win shares."""
    assert sorted(move_key(c["move"]) for c in choices) == sorted(move_key(m) for m in moves)
    shares = [c["win_share"] for c in choices]
    assert shares == sorted(shares, reverse=True)
    return shares


@pytest.mark.parametrize("position", [WF_DEAL, WF_SMALL], ids=["five-tiles", "small-example"])
def test_wildfire_solve_returns_a_line_that_replays_to_a_win(client, position):
    r = client.post("/v1/wildfire/solve", json={"position": position, "limit": {"seconds": 10}})
    assert r.status_code == 200, r.text
    result = r.json()
    assert list(result) == ["verdict", "line", "stats", "limits"]
    assert result["verdict"] == "win" and result["stats"]["stopped_by"] is None
    line = result["line"]
    assert len(line) == len(position["deal"]) - 1
    replay = client.post("/v1/wildfire/replay", json={"position": position, "line": line})
    assert replay.status_code == 200, replay.text
    body = replay.json()
    assert body["status"] == "win" and body["error"] is None and len(body["steps"]) == len(line)
    # The independent reference agrees, move by move.
    played = position
    for move in line:
        played = wf_ref.apply(played, move)
    assert wf_ref.is_won(played)


def test_wildfire_check_lists_the_reference_moves(client):
    r = client.post("/v1/wildfire/check", json={"position": WF_DEAL})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "ongoing" and body["turn"] == 0 and body["turns_left"] == 4
    assert sorted(map(tuple, body["hottest"])) == sorted((dq, dr) for dq, dr in wf_ref.DIRECTIONS)
    assert body["position"]["deal_rest"][0] == {"n": 5, "spaces": 3}  # spaces written out
    assert [move_key(m) for m in body["moves"]] == [move_key(m) for m in wf_ref.legal_moves(WF_DEAL)]


def test_wildfire_replay_stops_at_an_illegal_move(client):
    first = {"place": [1, 0], "pawns": {"color": 0, "tile": [0, 0], "count": 1}}
    bad = {"place": [5, 5], "pawns": None}
    r = client.post("/v1/wildfire/replay", json={"position": WF_DEAL, "line": [first, bad]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert len(body["steps"]) == 1 and body["status"] == "ongoing"
    assert "move 1" in body["error"] and "(5, 5) is not a hottest cell" in body["error"]
    assert body["position"] == body["steps"][0]["position"]


def test_wildfire_hint_known_order_gives_every_move_its_verdict(client):
    moves = client.post("/v1/wildfire/check", json={"position": WF_DEAL}).json()["moves"]
    r = client.post("/v1/wildfire/hint", json={"position": WF_DEAL})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["exact"] is True and hint["stats"]["stopped_by"] is None
    choices = hint["choices"]
    shares = wf_shares_best_first(choices, moves)
    assert shares[0] == 1.0 and shares[-1] == 0.0
    # Each verdict is the solve of the position after the move.
    for c in choices:
        after = client.post("/v1/wildfire/replay", json={"position": WF_DEAL, "line": [c["move"]]}).json()
        verdict = client.post("/v1/wildfire/solve", json={"position": after["position"]}).json()["verdict"]
        assert (c["wins"], c["losses"]) == ((1, 0) if verdict == "win" else (0, 1)), c


def test_wildfire_hint_hidden_order_samples_every_move(client):
    checked = client.post("/v1/wildfire/check", json={"position": WF_HIDDEN})
    assert checked.status_code == 200, checked.text
    moves = checked.json()["moves"]
    assert moves == wf_ref.legal_moves(without_drawn(WF_HIDDEN), tile=WF_HIDDEN["drawn"])
    body = {"position": WF_HIDDEN, "samples": 8, "seed": 5}
    r = client.post("/v1/wildfire/hint", json=body)
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["exact"] is False and hint["seed"] == 5 and hint["drawn"]["n"] == WF_HIDDEN["drawn"]["n"]
    assert hint["samples"] == hint["samples_requested"] == 8
    choices = hint["choices"]
    wf_shares_best_first(choices, moves)
    for c in choices:
        assert c["wins"] + c["losses"] + c["unknown"] == 8
        lo, hi = c["interval95"]
        assert 0 <= lo <= c["win_share"] <= hi <= 1
    # Same position, samples and seed: the same answer.
    again = client.post("/v1/wildfire/hint", json=body).json()
    assert again["choices"] == choices


def test_wildfire_hint_needs_a_drawn_tile(client):
    assert_problem(client.post("/v1/wildfire/hint", json={"position": without_drawn(WF_HIDDEN)}), 422, "drawn")


WF_BAD_BODIES = [
    ({"position": {"deal": [{"n": 7}]}}, ["body.position.deal.0.n", "less than or equal to 6"]),
    ({"position": {**WF_DEAL, "start": {"n": 1}}}, ["body.position", "exactly one of"]),
    ({"position": {**WF_DEAL, "colour": 1}}, ["body.position.colour", "Extra inputs"]),
    ({"position": {**WF_DEAL, "supply": [1, 1, 1, 1, 1]}}, ["body.position.supply", "at most 4"]),
    ({"position": {**WF_DEAL, "supply": [-1]}}, ["body.position.supply.0"]),
    ({"position": {"tiles": [{"q": 0, "r": 0, "n": 1}, {"q": 3, "r": 0, "n": 1}], "turn": 1, "deal_rest": []}},
     ["tiles[1] at (3, 0)", "not connected"]),
    ({"position": {"tiles": [{"q": 0, "r": 0, "n": 1, "spaces": 1, "pawns": [2]}], "turn": 0, "deal_rest": [],
                   "supply": [1]}}, ["tiles[0]"]),
    ({"position": {**WF_DEAL, "drawn": {"n": 1}}}, ["body.position", "drawn", "not allowed"]),
    ({"position": WF_DEAL, "limit": {"seconds": -1}}, ["body.limit.seconds"]),
    ({"position": WF_DEAL, "extra": 1}, ["body.extra", "Extra inputs"]),
    ({}, ["body.position", "Field required"]),
]


@pytest.mark.parametrize("body, needles", WF_BAD_BODIES,
                         ids=["number-7", "two-forms", "unknown-key", "five-colours", "negative-supply",
                              "disconnected", "pawns>spaces", "drawn-known", "negative-seconds", "extra-key",
                              "empty"])
@pytest.mark.parametrize("path", ["solve", "hint", "check", "replay"])
def test_wildfire_bad_input_names_the_field(client, path, body, needles):
    if path == "replay" and "position" in body:
        body = {"line": [], **body}
    if path in ("check", "replay") and "limit" in body:
        needles = ["body.limit", "Extra inputs"]  # only searches take a limit
    assert_problem(client.post(f"/v1/wildfire/{path}", json=body), 422, *needles)


def test_wildfire_bad_requests_elsewhere(client):
    hidden_start = {"start": {"n": 1}, "pool": [{"n": 2}], "turns": 1, "supply": [1]}
    assert_problem(client.post("/v1/wildfire/solve", json={"position": hidden_start}), 422, "known-order")
    for samples in (0, -1, 2.5, "many"):
        assert_problem(client.post("/v1/wildfire/hint", json={"position": WF_DEAL, "samples": samples}), 422,
                       "body.samples")
    assert_problem(client.post("/v1/wildfire/hint", json={"position": WF_DEAL, "seed": -1}), 422, "body.seed")
    assert_problem(client.post("/v1/wildfire/hint", json={"position": WF_HIDDEN, "drawn": {"n": 2}}), 422,
                   "body.drawn")
    # A drawn tile that is not in the pool.
    no_six = {**WF_HIDDEN, "pool": [t for t in WF_HIDDEN["pool"] if t["n"] != 6], "drawn": {"n": 6}}
    assert_problem(client.post("/v1/wildfire/check", json={"position": no_six}), 422, "drawn")
    line = [{"place": [1, 0], "pawns": None}] * (wildfire.MAX_TILES + 1)
    assert_problem(client.post("/v1/wildfire/replay", json={"position": WF_DEAL, "line": line}), 422,
                   "body.line", "at most")
    assert_problem(client.post("/v1/wildfire/replay", json={"position": WF_DEAL, "line": [{"place": [1]}]}), 422,
                   "body.line.0.place")
    bad_pawns = {"place": [1, 0], "pawns": {"color": 0, "tile": [0, 0], "count": 4}}
    assert_problem(client.post("/v1/wildfire/replay", json={"position": WF_DEAL, "line": [bad_pawns]}), 422,
                   "body.line.0.pawns.count")
    start = time.monotonic()
    huge = {"deal": [{"n": 1}] * 10_000}
    assert_problem(client.post("/v1/wildfire/solve", json={"position": huge}), 422, "body.position.deal", "at most")
    assert_problem(post_raw(client, "/v1/wildfire/hint", b"[" * 100_000), 422, "nested too deeply")
    assert time.monotonic() - start < 10


def test_wildfire_caps_override_the_request():
    with TestClient(create_app(settings(max_nodes=1000, max_hint_samples=3))) as c:
        result = search_past_the_caps(c, "/v1/wildfire/solve", WF_HARD, 1000)
        assert result["verdict"] == "unknown" and result["line"] is None
        # Samples beyond the cap are clamped to it; the answer says how many were asked.
        r = c.post("/v1/wildfire/hint", json={"position": WF_HIDDEN, "samples": 10**6})
        assert r.status_code == 200, r.text
        hint = r.json()
        assert hint["samples_requested"] == 3 and hint["samples"] <= 3


def test_wildfire_time_cap_stops_solve_and_hint():
    full_hidden = {"start": WF_FULL["deal"][0], "pool": [{"n": n} for n in range(1, 7) for _ in range(6)],
                   "turns": 35, "drawn": {"n": 1}}
    capped = settings(max_seconds=0.3, grace_seconds=0.2, max_hint_samples=wildfire.MAX_HINT_SAMPLES)
    with TestClient(create_app(capped)) as c:
        for path, body in (("solve", {"position": WF_HARD}), ("hint", {"position": full_hidden, "samples": 10**6})):
            search_past_the_time_cap(c, f"/v1/wildfire/{path}", body)


@pytest.mark.parametrize("search", ["solve", "hint"])
def test_wildfire_client_disconnect_stops_the_search(search):
    def run(control):
        if search == "solve":
            return wildfire.solve(WF_HARD, Limit(memory_mb=MB), control=control)
        return wildfire.hint(WF_HIDDEN, Limit(memory_mb=MB), samples=wildfire.MAX_HINT_SAMPLES,
                             sample_nodes=10**9, workers=1, control=control)

    stopped_when_the_client_leaves(run)


def test_page_has_the_wildfire_view_and_its_examples_are_valid(client):
    js = client.get("/static/games/wildfire.js").text
    for path in ("/v1/wildfire/check", "/v1/wildfire/solve", "/v1/wildfire/hint", "/v1/wildfire/replay"):
        assert path in js
    examples = page_examples(js)
    assert [e["name"] for e in examples] == list(WF_EXAMPLES)
    forms = set()
    for e in examples:
        assert e["note"]
        checked = client.post("/v1/wildfire/check", json={"position": e["position"]})
        assert checked.status_code == 200, (e["name"], checked.text)
        assert checked.json()["status"] == "ongoing" and checked.json()["moves"], e["name"]
        forms |= {key for key in ("deal", "deal_rest", "drawn") if key in e["position"]}
    assert forms == {"deal", "deal_rest", "drawn"}
    # The hidden-order example's pool is the 43-tile box less the tiles on the table.
    table = sorted(t["n"] for t in WF_HIDDEN["tiles"])
    assert sorted(sorted(t["n"] for t in WF_HIDDEN["pool"]) + table) == list(wf_ref.BOX)


def test_wildfire_settings_from_env():
    assert Settings.from_env({"SMOKEJUMPER_MAX_HINT_SAMPLES": "50"}).max_hint_samples == 50
    assert Settings.from_env({}).max_hint_samples == 1000
    with pytest.raises(ValueError, match="max_hint_samples"):
        Settings.from_env({"SMOKEJUMPER_MAX_HINT_SAMPLES": "0"})
