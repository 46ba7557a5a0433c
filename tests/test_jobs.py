"""Jobs with live progress, API keys, the rate limit and the cache's
administration (issue 19), through the service as its users call it."""

from __future__ import annotations

import importlib
import json
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from service_support import assert_problem, at_once, events, metric, server
from smokejumper import Limit
from smokejumper.games import registered
from smokejumper.service.jobs import Jobs

FIRST = registered()[0]
HARD = importlib.import_module(f"contract.{FIRST.name}").HARD["solve"]  # a search of minutes
# The solve example the API documents: finished in microseconds.
EASY = {k: v for k, v in FIRST.operation("solve").request.model_json_schema()["examples"][0].items() if k != "limit"}

ENDED_STATES = ("done", "failed", "cancelled", "interrupted")


def job(game: str, operation: str, request: dict) -> dict:
    return {"game": game, "operation": operation, "request": request}


def until(c, job_id: str, states: tuple[str, ...], within: float = 60) -> dict:
    deadline = time.monotonic() + within
    while True:
        got = c.get(f"/v1/jobs/{job_id}").json()
        if got["state"] in states:
            return got
        assert time.monotonic() < deadline, got
        time.sleep(0.05)


def test_a_job_runs_to_its_answer_as_the_route_gives_it():
    with server() as c:
        r = c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY))
        assert r.status_code == 202 and r.headers["location"] == f"/v1/jobs/{r.json()['id']}", r.text
        assert r.json()["state"] in ("queued", "running", "done")
        done = until(c, r.json()["id"], ("done",))
        direct = c.post(f"/v1/{FIRST.name}/solve", json=EASY).json()
        assert {k: v for k, v in done["result"].items() if k != "stats"} == \
               {k: v for k, v in direct.items() if k not in ("stats", "limits")}  # "cached": false on both
        assert done["progress"]["nodes"] == done["result"]["stats"]["nodes"] > 0
        assert done["started"] >= done["created"] and done["finished"] >= done["started"]
        # The job's search is counted as a route's is (the direct solve too).
        text = c.get("/metrics").text
        assert metric(text, "smokejumper_searches_total", game=FIRST.name, operation="solve", source="searched") == 2
        assert metric(text, "smokejumper_search_nodes_total", game=FIRST.name, operation="solve") == \
               2 * done["progress"]["nodes"]


def test_a_job_the_cache_can_answer_is_answered_from_it(tmp_path: Path):
    """What a route kept (or a batch run through --cache) answers a job
    with no search, and says so; a job's own answer is kept for the routes."""
    with server(cache=str(tmp_path / "c.sqlite3")) as c:
        direct = c.post(f"/v1/{FIRST.name}/solve", json=EASY).json()
        assert direct["cached"] is False
        served = until(c, c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY)).json()["id"], ("done",))
        assert served["result"] == {**{k: v for k, v in direct.items() if k != "limits"}, "cached": True}
        assert served["progress"]["nodes"] == 0  # it searched nothing
        other = {**EASY, "position": {**EASY["position"], "supply": [12, 12, 12, 11]}}
        searched = until(c, c.post("/v1/jobs", json=job(FIRST.name, "solve", other)).json()["id"], ("done",))
        assert searched["result"]["cached"] is False and searched["progress"]["nodes"] > 0
        assert c.post(f"/v1/{FIRST.name}/solve", json=other).json()["cached"] is True
        text = c.get("/metrics").text
    count = lambda source: metric(text, "smokejumper_searches_total", game=FIRST.name, operation="solve",
                                  source=source)
    assert (count("searched"), count("cache")) == (2, 2)


def test_a_cancelled_job_stops_at_once_and_frees_its_worker():
    with server(job_workers=1) as c:
        long = c.post("/v1/jobs", json=job(FIRST.name, "solve", {**HARD, "limit": {"seconds": 120}})).json()
        running = until(c, long["id"], ("running",))
        time.sleep(0.3)
        assert c.get(f"/v1/jobs/{long['id']}").json()["progress"]["nodes"] > 0  # live counters
        nxt = c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY)).json()
        assert c.get(f"/v1/jobs/{nxt['id']}").json()["state"] == "queued"  # the only worker is busy
        start = time.monotonic()
        cancelled = c.delete(f"/v1/jobs/{long['id']}").json()
        assert cancelled["state"] == "cancelled" and time.monotonic() - start < 2, cancelled
        assert cancelled["result"]["stats"]["stopped_by"] == "stopped"
        until(c, nxt["id"], ("done",), within=30)  # the freed worker took the next job
        assert c.delete(f"/v1/jobs/{long['id']}").json()["state"] == "cancelled"  # an ended job stays so
        assert running["state"] == "running"


def test_a_queued_job_cancelled_never_runs_and_a_full_queue_is_503():
    with server(job_workers=1, max_jobs_queued=1) as c:
        long = c.post("/v1/jobs", json=job(FIRST.name, "solve", {**HARD, "limit": {"seconds": 120}})).json()
        until(c, long["id"], ("running",))
        queued = c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY)).json()
        full = c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY))
        assert_problem(full, 503, "jobs are waiting")
        assert full.headers["retry-after"]
        gone = c.delete(f"/v1/jobs/{queued['id']}").json()
        assert gone["state"] == "cancelled" and gone["started"] is None
        c.delete(f"/v1/jobs/{long['id']}")


@pytest.mark.parametrize("body, needle", [
    (job("chess", "solve", {}), "body.game: no game 'chess'"),
    (job(FIRST.name, "check", EASY), "body.operation"),
    (job(FIRST.name, "solve", {"position": 5}), "body.request.position"),
    (job(FIRST.name, "solve", {**EASY, "limit": {"seconds": "5"}}), "body.request.limit.seconds"),
    ({"game": FIRST.name, "operation": "solve"}, "body.request"),
])
def test_a_bad_job_is_a_422_naming_the_field(body: dict, needle: str):
    with server() as c:
        assert_problem(c.post("/v1/jobs", json=body), 422, needle)


def test_a_job_the_engine_refuses_reads_failed_with_the_routes_reason_and_the_worker_goes_on():
    """A position every field of which is valid but the engine refuses (a
    tile off the layout, a card that cannot follow): the job is accepted,
    then reads failed with the one-line reason the route's 422 gives."""
    with server(job_workers=1) as c:
        refused = 0
        for game in registered():
            search = next(o.name for o in game.operations.values() if o.kind == "search")
            for position, _needle in importlib.import_module(f"contract.{game.name}").BAD:
                r = c.post("/v1/jobs", json=job(game.name, search, {"position": position}))
                if r.status_code == 422:  # refused by the request's fields already
                    continue
                failed = until(c, r.json()["id"], ENDED_STATES)
                direct = assert_problem(c.post(f"/v1/{game.name}/{search}", json={"position": position}), 422)
                assert failed["state"] == "failed" and failed["result"] is None, failed
                assert failed["error"] == direct["detail"], (failed, direct)
                refused += 1
        assert refused >= 3  # the check is not vacuous
        after = c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY)).json()
        assert until(c, after["id"], ("done", "failed"))["state"] == "done"


def test_a_search_that_crashes_fails_its_job_alone():
    """An unexpected error inside a search (here MemoryError) ends that job
    failed, saved as such; its worker takes the next job at once, and the
    job running beside it finishes."""
    op = FIRST.operation("solve")

    def crash(*_args, **_kw):
        raise MemoryError("the engine could not allocate its table")

    request = op.request.model_validate(EASY)
    jobs = Jobs(workers=2, max_queued=8, cache=None)
    try:
        crashed = jobs.submit(FIRST.name, replace(op, call=crash), request, Limit(seconds=10))
        beside = jobs.submit(FIRST.name, op, op.request.model_validate(HARD), Limit(seconds=1))
        after = jobs.submit(FIRST.name, op, request, Limit(seconds=10))
        deadline = time.monotonic() + 30
        while any(jobs.get(j.id).state not in ENDED_STATES for j in (crashed, beside, after)):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        got = jobs.get(crashed.id)
        assert got.state == "failed" and got.error == "the engine could not allocate its table" and got.saved
        assert jobs.get(after.id).state == "done" and jobs.get(beside.id).state == "done"
    finally:
        jobs.close()


def test_unknown_and_malformed_job_ids():
    with server() as c:
        assert_problem(c.get("/v1/jobs/" + "0" * 32), 404, "no job")
        assert_problem(c.delete("/v1/jobs/" + "0" * 32), 404, "no job")
        assert_problem(c.get("/v1/jobs/not-an-id"), 422, "job_id")


def test_the_job_caps_hold_its_limit():
    with server(job_max_seconds=1.5, max_seconds=0.5) as c:
        r = c.post("/v1/jobs", json=job(FIRST.name, "solve", {**HARD, "limit": {"seconds": 100}})).json()
        done = until(c, r["id"], ("done",), within=30)
        assert done["result"]["stats"]["stopped_by"] == "time"
        assert 1.0 <= done["result"]["stats"]["seconds"] < 5  # the job cap, not the request cap of 0.5 s
    with server(job_max_nodes=3000, max_nodes=1000) as c:
        asked = {**HARD, "limit": {"nodes": 100_000, "seconds": 100}}
        direct = c.post(f"/v1/{FIRST.name}/solve", json=asked).json()
        assert direct["stats"]["stopped_by"] == "nodes" and direct["stats"]["nodes"] <= 1000 * 1.01
        r = c.post("/v1/jobs", json=job(FIRST.name, "solve", asked)).json()
        done = until(c, r["id"], ("done",), within=30)
        assert done["result"]["stats"]["stopped_by"] == "nodes"
        assert 1000 * 1.01 < done["result"]["stats"]["nodes"] <= 3000 * 1.01  # the job cap, not the request's


def test_finished_jobs_survive_a_restart_and_running_ones_read_interrupted(tmp_path: Path):
    path = str(tmp_path / "c.sqlite3")
    with server(cache=path) as c:
        done = until(c, c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY)).json()["id"], ("done",))
        long = c.post("/v1/jobs", json=job(FIRST.name, "solve", {**HARD, "limit": {"seconds": 120}})).json()
        until(c, long["id"], ("running",))
    with server(cache=path) as c:  # the same file, as after a restart
        again = c.get(f"/v1/jobs/{done['id']}").json()
        assert again["state"] == "done" and again["result"] == done["result"]
        assert c.get(f"/v1/jobs/{long['id']}").json()["state"] == "interrupted"
        # A finished job's answer is in the result cache too.
        assert c.post(f"/v1/{FIRST.name}/solve", json=EASY).json()["cached"] is True


def test_a_job_streams_its_progress_then_its_end():
    with server() as c:
        r = c.post("/v1/jobs", json=job(FIRST.name, "solve", {**HARD, "limit": {"seconds": 1.5}})).json()
        seen = events(c, f"/v1/jobs/{r['id']}/events")
    assert seen[-1][0] == "end" and seen[-1][1]["state"] == "done"
    progress = [data["progress"]["nodes"] for name, data in seen if name == "progress"]
    assert len(progress) >= 3 and progress == sorted(progress) and progress[-1] > 0, progress


def test_a_watched_search_streams_its_counters():
    with server() as c:
        answer: dict[str, Any] = {}
        body = {**HARD, "limit": {"seconds": 1.5}}
        worker = threading.Thread(target=lambda: answer.update(
            r=c.post(f"/v1/{FIRST.name}/solve", json=body, headers={"X-Search-Id": "sse-1"})))
        worker.start()
        while c.get("/v1/searches/sse-1").status_code == 404 and worker.is_alive():
            time.sleep(0.02)
        seen = events(c, "/v1/searches/sse-1/events")
        worker.join()
    assert seen[-1] == ("end", {"search_id": "sse-1"})
    nodes = [data["nodes"] for name, data in seen if name == "progress"]
    assert nodes and nodes == sorted(nodes) and answer["r"].status_code == 200
    # An interval only from a search that narrows one (tests/test_*_service.py).
    assert all(data["interval"] is None or data["interval"][0] <= data["interval"][1]
               for name, data in seen if name == "progress"), seen


def test_api_keys_guard_jobs_and_the_cache_not_the_rest(tmp_path: Path):
    with server(api_keys=("k-one", "k-two"), cache=str(tmp_path / "c.sqlite3")) as c:
        assert_problem(c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY)), 401, "API key")
        assert c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY)).headers["www-authenticate"] == "Bearer"
        assert_problem(c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY),
                              headers={"Authorization": "Bearer wrong"}), 401)
        r = c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY), headers={"Authorization": "Bearer k-one"})
        assert r.status_code == 202
        assert_problem(c.get(f"/v1/jobs/{r.json()['id']}"), 401)
        assert c.get(f"/v1/jobs/{r.json()['id']}", headers={"X-API-Key": "k-two"}).status_code == 200
        assert_problem(c.get("/v1/cache"), 401)
        assert_problem(c.delete("/v1/cache"), 401)
        assert c.get("/v1/cache", headers={"X-API-Key": "k-two"}).status_code == 200
        # Searches, quick routes and health stay open.
        assert c.post(f"/v1/{FIRST.name}/solve", json=EASY).status_code == 200
        assert c.post(f"/v1/{FIRST.name}/check", json=EASY).status_code == 200
        assert c.get("/healthz").status_code == 200


def test_the_cache_is_administered(tmp_path: Path):
    with server(cache=str(tmp_path / "c.sqlite3")) as c:
        c.post(f"/v1/{FIRST.name}/solve", json=EASY)
        c.post(f"/v1/{FIRST.name}/solve", json=EASY)
        counts = c.get("/v1/cache").json()
        assert counts["entries"] == 1 and counts["hits"] == 1 and counts["bytes"] > 0
        assert c.get("/v1/cache").json()["by_operation"][0]["operation"] == "solve"
        assert_problem(c.delete("/v1/cache", params={"game": "chess"}), 422, "query.game")
        for days in (-1, 1e300):
            assert_problem(c.delete("/v1/cache", params={"unused_days": days}), 422, "query.unused_days")
        kept = c.delete("/v1/cache", params={"game": FIRST.name, "unused_days": 1}).json()  # used just now
        assert (kept["removed"], kept["entries"]) == (0, 1)
        assert c.delete("/v1/cache", params={"game": FIRST.name, "operation": "hint"}).json()["removed"] == 0
        cleared = c.delete("/v1/cache").json()
        assert (cleared["removed"], cleared["entries"]) == (1, 0)
        assert c.post(f"/v1/{FIRST.name}/solve", json=EASY).json()["cached"] is False
    with server() as c:
        assert_problem(c.get("/v1/cache"), 404, "no result cache")


def test_the_rate_limit_answers_429_with_retry_after_and_spares_quick_routes():
    with server(rate_limit=12) as c:  # a burst of two, then one each five seconds
        codes = [c.post(f"/v1/{FIRST.name}/solve", json=EASY).status_code for _ in range(3)]
        assert codes == [200, 200, 429], codes
        r = c.post(f"/v1/{FIRST.name}/solve", json=EASY)
        assert_problem(r, 429, "requests a minute")
        assert 1 <= int(r.headers["retry-after"]) <= 5
        assert c.post("/v1/jobs", json=job(FIRST.name, "solve", EASY)).status_code == 429  # the same allowance
        assert all(c.post(f"/v1/{FIRST.name}/check", json=EASY).status_code == 200 for _ in range(10))
    # A made-up key buys no allowance of its own (else a new one a request
    # would lift the limit): it shares its address's. A key of the
    # server's has its own. (One a minute: no refill within the test.)
    with server(rate_limit=1, api_keys=("k-one",)) as c:
        solve = lambda key: c.post(f"/v1/{FIRST.name}/solve", json=EASY, headers={"X-API-Key": key}).status_code
        assert [solve("made-up"), solve("made-up"), solve("another"), solve(""), solve("k-one")] == [
            200, 429, 429, 429, 200]


def test_jobs_and_limits_from_env():
    from smokejumper.service.settings import Settings

    s = Settings.from_env({"SMOKEJUMPER_JOB_WORKERS": "2", "SMOKEJUMPER_MAX_JOBS_QUEUED": "3",
                           "SMOKEJUMPER_JOB_MAX_SECONDS": "3600", "SMOKEJUMPER_API_KEYS": "a, b",
                           "SMOKEJUMPER_JOB_MAX_NODES": "7", "SMOKEJUMPER_JOB_MAX_MEMORY_MB": "9",
                           "SMOKEJUMPER_RATE_LIMIT": "60", "SMOKEJUMPER_REQUEST_TIMEOUT": "5",
                           "SMOKEJUMPER_MAX_CONNECTIONS": "300"})
    assert (s.job_workers, s.max_jobs_queued, s.job_max_seconds, s.api_keys, s.rate_limit) == (
        2, 3, 3600.0, ("a", "b"), 60.0)
    assert (s.request_timeout, s.max_connections, s.job_max_nodes, s.job_max_memory_mb) == (5.0, 300, 7, 9)
    jobs = s.for_jobs()
    assert (jobs.max_seconds, jobs.max_nodes, jobs.max_memory_mb) == (3600.0, 7, 9)
    # Unset, a job's node and memory caps follow the request caps.
    derived = Settings.from_env({"SMOKEJUMPER_MAX_NODES": "1000", "SMOKEJUMPER_MAX_MEMORY_MB": "4096"}).for_jobs()
    assert (derived.max_seconds, derived.max_nodes, derived.max_memory_mb) == (600.0, 60_000, 16384)
    d = Settings.from_env({})
    assert (d.job_workers, d.api_keys, d.rate_limit, d.request_timeout) == (1, (), 0.0, 15.0)
    with pytest.raises(ValueError, match="rate_limit"):
        Settings.from_env({"SMOKEJUMPER_RATE_LIMIT": "-1"})


def test_many_clients_submit_follow_and_cancel_jobs_at_once():
    """Forty clients at once on two job workers: every job ends, each
    finished one with the answer the route gives, each cancelled one
    cancelled, and none is lost."""
    with server(job_workers=2, max_jobs_queued=100) as c:
        direct = c.post(f"/v1/{FIRST.name}/solve", json=EASY).json()
        ended: list[dict] = []

        def client(i: int) -> None:
            body = {**HARD, "limit": {"seconds": 30}} if i % 4 == 0 else EASY
            r = c.post("/v1/jobs", json=job(FIRST.name, "solve", body))
            assert r.status_code == 202, r.text
            if i % 4 == 0:
                c.delete(f"/v1/jobs/{r.json()['id']}")
            ended.append(until(c, r.json()["id"], ENDED_STATES, within=60))

        assert at_once(client, 40) == []
        assert sorted(j["state"] for j in ended) == ["cancelled"] * 10 + ["done"] * 30
        for j in ended:
            if j["state"] == "done":
                assert {k: v for k, v in j["result"].items() if k != "stats"} == \
                       {k: v for k, v in direct.items() if k not in ("stats", "limits")}
        assert c.app.state.metrics is not None and c.get("/metrics").status_code == 200




def test_a_server_killed_mid_job_comes_back_with_every_finished_result(tmp_path: Path):
    """kill -9 while a job runs and answers are being written: the next
    server on the same file has every finished job and answer, reads the
    cut-off job as interrupted, and the file is whole."""
    import sqlite3
    import urllib.request

    from served import serving

    cache = str(tmp_path / "c.sqlite3")
    env = {"SMOKEJUMPER_CACHE": cache, "SMOKEJUMPER_JOB_WORKERS": "1"}

    def call(server, method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(server.url + path, method=method, data=json.dumps(body).encode()
                                         if body is not None else None, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as r:
            return json.load(r)

    with serving(env, tmp_path) as server:
        done = call(server, "POST", "/v1/jobs", job(FIRST.name, "solve", EASY))
        while call(server, "GET", f"/v1/jobs/{done['id']}")["state"] != "done":
            time.sleep(0.05)
        long = call(server, "POST", "/v1/jobs", job(FIRST.name, "solve", {**HARD, "limit": {"seconds": 120}}))
        while call(server, "GET", f"/v1/jobs/{long['id']}")["state"] != "running":
            time.sleep(0.05)
        stop = threading.Event()
        answered: list[dict] = []

        def write_answers() -> None:  # searches whose answers are being kept as the process dies
            for i in range(13**4):
                if stop.is_set():
                    return
                body = {**EASY, "position": {**EASY["position"], "supply": [i // 13**k % 13 for k in range(4)]}}
                try:
                    call(server, "POST", f"/v1/{FIRST.name}/solve", body)
                except OSError:
                    return
                answered.append(body)

        writer = threading.Thread(target=write_answers)
        writer.start()
        time.sleep(0.5)
        server.kill()
        stop.set()
        writer.join()
    with sqlite3.connect(cache) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with serving(env, tmp_path) as server:
        again = call(server, "GET", f"/v1/jobs/{done['id']}")
        assert again["state"] == "done" and again["result"]["stats"]["nodes"] > 0
        assert call(server, "GET", f"/v1/jobs/{long['id']}")["state"] == "interrupted"
        assert call(server, "POST", f"/v1/{FIRST.name}/solve", EASY)["cached"] is True
        # A route keeps its answer before it sends it: every answer a client had is there.
        assert len(answered) > 20, len(answered)
        assert all(call(server, "POST", f"/v1/{FIRST.name}/solve", body)["cached"] for body in answered)


def test_a_full_disk_is_told_and_loses_no_answer(tmp_path: Path):
    """The result cache and the jobs in a real full disk (a tiny tmpfs, once
    a file has taken its room): a search's answer comes whole and says it
    was not kept; a job runs to its answer, which reads as unsaved."""
    import subprocess

    mount = tmp_path / "tiny"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    variant = lambda i: {**EASY, "position": {**EASY["position"], "supply": [12, 12, 12, 12 - i]}}
    try:
        with server(cache=str(mount / "c.sqlite3")) as c:
            kept = c.post(f"/v1/{FIRST.name}/solve", json=variant(0))
            assert kept.status_code == 200 and "x-cache-write" not in kept.headers
            with open(mount / "filler", "wb", buffering=0) as filler:  # the disk's last free bytes
                try:
                    while True:
                        filler.write(b"\0" * 4096)
                except OSError:
                    pass
            lost = c.post(f"/v1/{FIRST.name}/solve", json=variant(1))
            assert lost.status_code == 200 and lost.headers["x-cache-write"] == "failed", lost.headers
            assert lost.json()["verdict"] == kept.json()["verdict"] and lost.json()["cached"] is False
            assert c.post(f"/v1/{FIRST.name}/solve", json=variant(0)).json()["cached"] is True  # what was kept stays
            submitted = c.post("/v1/jobs", json=job(FIRST.name, "solve", variant(2))).json()
            done = until(c, submitted["id"], ("done",))
            assert done["result"]["verdict"] == kept.json()["verdict"] and done["saved"] is False
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
