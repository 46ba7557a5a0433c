"""The web service: endpoints, caps, cancellation, hostile input, the page.

Every server here uses a small memory cap so that tests stay light."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx vs httpx2
    from fastapi.testclient import TestClient

from smokejumper import Limit, volcano
from smokejumper.service.app import create_app
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


def test_server_caps_override_the_request(hard):
    with TestClient(create_app(settings(max_nodes=1000))) as c:
        body = '{"position": %s, "limit": {"nodes": 1e9, "seconds": 1e6, "memory_mb": 16384}}' % json.dumps(hard)
        r = c.post("/v1/volcano/solve", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 200, r.text
        result = r.json()
        assert result["verdict"] == "unknown"
        assert result["stats"]["stopped_by"] == "nodes"
        assert result["stats"]["nodes"] <= 2000
        assert result["stats"]["table_bytes"] <= MB * 2**20


def test_request_without_limit_gets_the_caps(hard):
    with TestClient(create_app(settings(max_nodes=500))) as c:
        result = c.post("/v1/volcano/hint", json={"position": hard}).json()
        assert result["stats"]["stopped_by"] == "nodes"
        assert result["stats"]["nodes"] <= 1000


def test_request_may_ask_for_less_than_the_caps(client, hard):
    result = client.post("/v1/volcano/solve", json={"position": hard, "limit": {"nodes": 300}}).json()
    assert result["stats"]["stopped_by"] == "nodes" and result["stats"]["nodes"] <= 600


def test_time_cap_stops_a_hard_solve(hard):
    with TestClient(create_app(settings(max_seconds=0.5))) as c:
        start = time.monotonic()
        r = c.post("/v1/volcano/solve", json={"position": hard, "limit": {"seconds": 1e6}})
        elapsed = time.monotonic() - start
        assert r.status_code == 200, r.text
        assert r.json()["verdict"] == "unknown"
        assert r.json()["stats"]["stopped_by"] in ("time", "stopped")
        assert elapsed < 10  # stopped, where a full search would take minutes


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


def test_client_disconnect_stops_the_search(hard):
    runner = Runner(workers=1, queue_limit=0)
    try:
        start = time.monotonic()
        result = asyncio.run(runner.run(_unbounded_solve(hard), seconds=60, request=FakeRequest(0.3)))
        assert time.monotonic() - start < 10
        assert result.stats.stopped_by == "stopped"
        assert runner.running == 0
    finally:
        runner.close()


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


def test_overloaded_server_answers_503(hard):
    app = create_app(settings(workers=1, max_queue=0, max_seconds=1.0, grace_seconds=0.0))
    with TestClient(app) as c:
        results = {}

        def slow():
            results["slow"] = c.post("/v1/volcano/solve", json={"position": hard})

        t = threading.Thread(target=slow)
        t.start()
        deadline = time.monotonic() + 3
        while app.state.runner.running == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        r = c.post("/v1/volcano/hint", json={"position": ROW})
        t.join()
        assert_problem(r, 503, "busy")
        assert r.headers.get("retry-after") == "1"
        assert results["slow"].status_code == 200
        # check and replay do not search, so they are not queued.
        assert c.post("/v1/volcano/check", json={"position": ROW}).status_code == 200


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
    assert '<script src="/static/app.js">' in r.text
    assert 'href="/static/style.css"' in r.text
    assert "http://" not in r.text.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_static_files_are_served(client):
    js = client.get("/static/app.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    for path in ("/v1/volcano/generate", "/v1/volcano/hint", "/v1/volcano/solve",
                 "/v1/volcano/check", "/v1/volcano/replay"):
        assert path in js.text
    css = client.get("/static/style.css")
    assert css.status_code == 200 and "text/css" in css.headers["content-type"]


def test_docs_page_needs_nothing_from_the_internet(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert "cdn" not in page.text.lower() and "https://" not in page.text
    for asset in ("/docs-assets/swagger-ui-bundle.js", "/docs-assets/swagger-ui.css", "/static/favicon.svg"):
        assert asset in page.text
        assert client.get(asset).status_code == 200, asset


def test_openapi_has_an_example_per_endpoint(client):
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    for path in ("solve", "hint", "generate", "check", "replay"):
        op = spec["paths"][f"/v1/volcano/{path}"]["post"]
        ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        assert schemas[ref].get("examples"), path
        assert "application/problem+json" in op["responses"]["422"]["content"]
        assert "application/json" not in op["responses"]["422"]["content"]
        # The example is a request that works.
        r = client.post(f"/v1/volcano/{path}", json=schemas[ref]["examples"][0])
        assert r.status_code == 200, (path, r.text)
    assert "/healthz" in spec["paths"]
    assert client.get("/docs").status_code == 200


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
