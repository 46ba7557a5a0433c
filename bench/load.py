"""Load on the real server (issue 19): N clients for T seconds against a mix
of every game's routes (each route's OpenAPI examples; with ``--mix
searches`` only the searches), on loopback, while two more clients probe
every 50 ms: a monitor's /healthz, and a player's quick calls (check,
apply, replay, ... of every game in turn), which have workers of their own
and so should be answered while every search worker is busy. Prints throughput, latency
percentiles per route, status counts, the server's peak memory and its
result cache's hit rate, and checks the targets: no unexpected 5xx (a 503
with Retry-After is the queue saying wait), the server alive, every search
within its time cap plus 0.5 s from a worker taking it to the client
holding the answer (the server's Server-Timing header gives the wait for
a worker, which the queue bounds, not the cap), and /healthz p99 under
50 ms; exits 1 when any target is missed.

    .venv/bin/python bench/load.py [--clients 50] [--seconds 30] [--workers 2] [--max-seconds 1] [--mix all|searches]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import random
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from multiprocessing.connection import Connection
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from openapi_examples import request_examples  # noqa: E402
from served import HOST, serving  # noqa: E402

MAX_REQUESTS = 200_000  # bounded in count as well as in time
PROBE_EVERY = 0.05


def queue_seconds(server_timing: str | None) -> float:
    """The ``queue`` entry of a Server-Timing header, in seconds (0 without one)."""
    for entry in (server_timing or "").split(","):
        name, _, params = entry.strip().partition(";")
        if name == "queue" and params.startswith("dur="):
            return float(params[4:]) / 1000
    return 0.0


class Client:
    """One keep-alive connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def send(self, method: str, path: str, body: dict | None) -> tuple[int, bytes, float, float]:
        """Status, body, seconds until the answer was read, and of those the
        seconds the server says the request waited for a worker."""
        data = None if body is None else json.dumps(body).encode()
        start = time.perf_counter()
        for attempt in (0, 1):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(HOST, self.port, timeout=120)
                self.conn.request(method, path, body=data,
                                  headers={"content-type": "application/json"} if data else {})
                r = self.conn.getresponse()
                raw = r.read()
                return r.status, raw, time.perf_counter() - start, queue_seconds(r.getheader("server-timing"))
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn = None  # a kept-alive connection the server closed: once more
                if attempt:
                    raise
        raise AssertionError("unreachable")


Request = tuple[str, str, "dict | None"]


def routes(port: int) -> tuple[list[Request], list[Request]]:
    """(method, path with query, body) for every game route's examples,
    and of those the quick calls (check, apply, replay, ...)."""
    status, raw, _t, _q = Client(port).send("GET", "/openapi.json", None)
    assert status == 200
    spec = json.loads(raw)
    status, raw, _t, _q = Client(port).send("GET", "/v1/games", None)
    assert status == 200
    quick = {op["path"] for game in json.loads(raw)["games"] for op in game["operations"] if op["kind"] == "quick"}
    out = []
    for path, item in spec["paths"].items():
        if not path.startswith("/v1/") or "{" in path or path.startswith(("/v1/jobs", "/v1/cache")):
            continue
        for method in item:
            for example in request_examples(spec, method, path):
                if method == "get":
                    out.append(("GET", f"{path}?{urlencode(example)}" if example else path, None))
                else:
                    out.append((method.upper(), path, example))
    return out, [r for r in out if r[1] in quick]


def prober(port: int, seconds: float, requests: list[Request], out: Connection) -> None:
    """The ``requests`` in turn, one every PROBE_EVERY seconds for
    ``seconds``: the statuses and latencies."""
    me, stop, answers = Client(port), time.monotonic() + seconds, []
    while time.monotonic() < stop:
        method, path, body = requests[len(answers) % len(requests)]
        status, _raw, took, _queued = me.send(method, path, body)
        answers.append((status, took))
        time.sleep(PROBE_EVERY)
    out.send(answers)


def probe(port: int, seconds: float, requests: list[Request]) -> tuple[multiprocessing.Process, Connection]:
    """A prober started in a process of its own: beside fifty client
    threads it would measure this process's GIL, not the server."""
    receiving, sending = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.Process(target=prober, args=(port, seconds, requests, sending))
    process.start()
    return process, receiving


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=1.0, help="the server's search time cap")
    parser.add_argument("--mix", choices=("all", "searches"), default="all",
                        help="what the clients send: every route, or only the searches (every search worker "
                             "busy, and the player probe the only one playing)")
    args = parser.parse_args()
    env = {"SMOKEJUMPER_WORKERS": str(args.workers), "SMOKEJUMPER_MAX_SECONDS": str(args.max_seconds),
           "SMOKEJUMPER_MAX_QUEUE": str(4 * args.workers)}
    with tempfile.TemporaryDirectory() as tmp:
        env["SMOKEJUMPER_CACHE"] = str(Path(tmp) / "cache.sqlite3")
        with serving(env, Path(tmp)) as server:
            mix, quick = routes(server.port)
            if args.mix == "searches":
                mix = [r for r in mix if r[0] == "POST" and r not in quick]
            latencies: dict[str, list[float]] = defaultdict(list)
            statuses: Counter[tuple[str, int]] = Counter()
            over_cap: list[str] = []
            waits: list[float] = []
            lock = threading.Lock()
            sent = 0
            stop = time.monotonic() + args.seconds

            def client(seed: int) -> None:
                nonlocal sent
                rng, me = random.Random(seed), Client(server.port)
                while time.monotonic() < stop:
                    with lock:
                        if sent >= MAX_REQUESTS:
                            return
                        sent += 1
                    method, path, body = rng.choice(mix)
                    status, raw, seconds, queued = me.send(method, path, body)
                    route = f"{method} {path.split('?')[0]}"
                    with lock:
                        latencies[route].append(seconds)
                        statuses[(route, status)] += 1
                    if status == 200 and b'"applied"' in raw:
                        # From a worker taking it to the client holding the whole answer.
                        cap = json.loads(raw)["limits"]["applied"]["seconds"]
                        took = seconds - queued
                        with lock:
                            waits.append(queued)
                            if cap is not None and took > cap + 0.5:
                                over_cap.append(f"{route}: {took:.2f} s under a {cap} s cap")

            threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
            start = time.monotonic()
            # Two probes beside the load: a monitor's /healthz, and a player's
            # quick calls (each game's check, apply, replay in turn).
            probes = [probe(server.port, args.seconds, [("GET", "/healthz", None)]),
                      probe(server.port, args.seconds, quick)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            health, player = (receiving.recv() for _process, receiving in probes)
            for process, _receiving in probes:
                process.join()
            elapsed = time.monotonic() - start
            alive = server.process.poll() is None
            peak_mb = int(next(line.split()[1] for line in Path(f"/proc/{server.process.pid}/status")
                               .read_text().splitlines() if line.startswith("VmHWM"))) / 1024
            _s, raw_metrics, _t, _q = Client(server.port).send("GET", "/metrics", None)
    metrics = {line.split(" ")[0]: float(line.split(" ")[1]) for line in raw_metrics.decode().splitlines()
               if line.startswith("smokejumper_cache_") and " " in line}
    total = sum(statuses.values())
    statuses.update(("quick calls (player probe)", status) for status, _took in player)
    unexpected = {k: v for k, v in statuses.items() if k[1] >= 500 and k[1] != 503}
    print(f"# Load: {args.clients} clients, {args.seconds:g} s, {args.workers} workers, "
          f"{args.max_seconds:g} s search cap, {len(mix)} requests in the mix ({args.mix})\n")
    print(f"{total:,} requests in {elapsed:.1f} s: {total / elapsed:,.0f} requests/s; "
          f"server peak RSS {peak_mb:,.0f} MB; cache hits {metrics.get('smokejumper_cache_hits', 0):,.0f} of "
          f"{metrics.get('smokejumper_cache_hits', 0) + metrics.get('smokejumper_cache_misses', 0):,.0f} "
          f"lookups; searches' wait for a worker p50 / p99 {1000 * percentile(waits, 0.5):,.0f} / "
          f"{1000 * percentile(waits, 0.99):,.0f} ms (outside the cap)\n")
    print("| route | requests | p50 ms | p95 ms | p99 ms | statuses |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for route in sorted(latencies):
        ms = [1000 * s for s in latencies[route]]
        codes = ", ".join(f"{code}: {n}" for (r, code), n in sorted(statuses.items()) if r == route)
        print(f"| {route} | {len(ms):,} | {percentile(ms, 0.5):,.1f} | {percentile(ms, 0.95):,.1f} | "
              f"{percentile(ms, 0.99):,.1f} | {codes} |")
    for name, answers in (("GET /healthz (probe)", health), ("quick calls (player probe)", player)):
        ms = [1000 * took for _status, took in answers]
        codes = ", ".join(f"{code}: {n}" for code, n in sorted(Counter(status for status, _ in answers).items()))
        print(f"| {name} | {len(ms):,} | {percentile(ms, 0.5):.1f} | {percentile(ms, 0.95):.1f} | "
              f"{percentile(ms, 0.99):.1f} | {codes} |")
    hp = [1000 * took for status, took in health if status == 200]
    checks = {"no unexpected 5xx": not unexpected, "server alive": alive, "/healthz always 200": len(hp) == len(health),
              "searches within cap + 0.5 s": not over_cap, "/healthz p99 < 50 ms": percentile(hp, 0.99) < 50}
    print("\n" + "; ".join(f"{name}: {'yes' if ok else 'NO'}" for name, ok in checks.items()))
    for line in list(unexpected.items())[:5] + over_cap[:5]:
        print("  ", line)
    return 0 if all(checks.values()) else 1  # a missed target fails `make bench`, after the others ran


if __name__ == "__main__":
    sys.exit(main())
