"""The result cache (issue 19): what it keeps and serves, its size cap, many
threads, a process killed while writing, a full disk; the service and the
CLI through it."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pydantic import BaseModel

from service_support import at_once, server
from smokejumper import Limit
from smokejumper.cache import ResultCache, request_key
from smokejumper.games import registered
from smokejumper.values import SearchCounts

CLI = [sys.executable, "-m", "smokejumper.cli"]


class Ask(BaseModel):
    position: list[int]
    seed: int = 0
    threads: int = 1
    limit: dict | None = None


class Answer(BaseModel):
    verdict: str
    stats: SearchCounts


def answer(verdict: str, nodes: int, stopped_by: str | None) -> Answer:
    return Answer(verdict=verdict, stats=SearchCounts(nodes=nodes, seconds=nodes / 1e6,
                                                      nodes_per_second=1e6, stopped_by=stopped_by))


def integrity(path: Path) -> str:
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0]


def test_a_finished_answer_serves_every_limit(tmp_path: Path):
    cache = ResultCache(tmp_path / "c.sqlite3")
    ask = Ask(position=[1, 2, 3])
    assert cache.lookup("g", "solve", ask, Limit(seconds=1)) is None
    assert cache.store("g", "solve", ask, answer("win", 500, None))
    for limit in (Limit(), Limit(nodes=10**9), Limit(seconds=1)):
        entry = cache.lookup("g", "solve", ask, limit)
        assert entry is not None and entry.read(Answer) == answer("win", 500, None)
    # The limit and the thread count never change an answer; the seed and the position do.
    assert cache.lookup("g", "solve", Ask(position=[1, 2, 3], threads=4, limit={"nodes": 5}), Limit()) is not None
    assert cache.lookup("g", "solve", Ask(position=[1, 2, 3], seed=1), Limit()) is None
    assert cache.lookup("g", "solve", Ask(position=[3, 2, 1]), Limit()) is None
    assert cache.lookup("g", "hint", ask, Limit()) is None
    assert cache.lookup("h", "solve", ask, Limit()) is None
    counts = cache.counts()
    size = len(answer("win", 500, None).model_dump_json())
    assert {k: counts[k] for k in ("entries", "bytes", "hits", "misses", "write_errors")} == \
        {"entries": 1, "bytes": size, "hits": 4, "misses": 5, "write_errors": 0}
    (kind,) = counts["by_operation"]
    assert (kind["game"], kind["operation"], kind["entries"], kind["bytes"], kind["finished"]) == ("g", "solve", 1, size, 1)
    assert kind["oldest_stored"] <= kind["last_used"] and counts["max_bytes"] == 512 * 2**20


def test_clearing_a_selection_keeps_the_rest(tmp_path: Path):
    cache = ResultCache(tmp_path / "c.sqlite3")
    for game, op, n in [("g", "solve", 0), ("g", "solve", 1), ("g", "hint", 2), ("h", "solve", 3)]:
        cache.store(game, op, Ask(position=[n]), answer("win", 1, None))
    assert cache.clear(unused_seconds=3600) == 0  # all used just now
    assert cache.clear("g", "hint") == 1
    assert [(k["game"], k["operation"], k["entries"]) for k in cache.counts()["by_operation"]] == \
        [("g", "solve", 2), ("h", "solve", 1)]
    assert cache.clear(operation="solve", game="h") == 1 and cache.clear("g") == 2
    assert cache.counts()["entries"] == 0 and cache.counts()["by_operation"] == []
    cache.store("g", "solve", Ask(position=[0]), answer("win", 1, None))
    time.sleep(0.01)
    assert cache.clear(unused_seconds=0.005) == 1
    with pytest.raises(ValueError, match="seconds >= 0"):
        cache.clear(unused_seconds=-1)


def test_a_stopped_answer_serves_no_more_than_its_effort_and_is_only_improved(tmp_path: Path):
    cache = ResultCache(tmp_path / "c.sqlite3")
    ask = Ask(position=[7])
    assert cache.store("g", "solve", ask, answer("unknown", 1000, "nodes"))
    assert cache.lookup("g", "solve", ask, Limit(nodes=1000)) is not None
    assert cache.lookup("g", "solve", ask, Limit(nodes=500, seconds=60)) is not None
    assert cache.lookup("g", "solve", ask, Limit(nodes=1001)) is None
    assert cache.lookup("g", "solve", ask, Limit()) is None  # unlimited: search
    assert not cache.store("g", "solve", ask, answer("unknown", 999, "time"))  # worse: kept the better
    assert cache.lookup("g", "solve", ask, Limit(nodes=1000)).nodes == 1000
    assert cache.store("g", "solve", ask, answer("unknown", 4000, "time"))
    assert cache.store("g", "solve", ask, answer("win", 3000, None))  # finished beats any stopped one
    assert not cache.store("g", "solve", ask, answer("unknown", 10**6, "nodes"))
    assert cache.lookup("g", "solve", ask, Limit()).read(Answer).verdict == "win"


def test_an_answer_without_search_counts_is_not_kept(tmp_path: Path):
    class Plain(BaseModel):
        status: str

    cache = ResultCache(tmp_path / "c.sqlite3")
    assert not cache.store("g", "check", Ask(position=[1]), Plain(status="ongoing"))
    assert cache.counts()["entries"] == 0


def test_the_size_cap_evicts_the_least_recently_used(tmp_path: Path):
    one = len(answer("win", 1, None).model_dump_json())
    cache = ResultCache(tmp_path / "c.sqlite3", max_mb=20 * one / 2**20)
    for i in range(20):
        cache.store("g", "solve", Ask(position=[i]), answer("win", 1, None))
        time.sleep(0.002)
    assert cache.lookup("g", "solve", Ask(position=[0]), Limit()) is not None  # used: now the newest
    cache.store("g", "solve", Ask(position=[100]), answer("win", 1, None))  # past the cap
    counts = cache.counts()
    assert counts["bytes"] <= 20 * one and counts["entries"] == 18
    assert cache.lookup("g", "solve", Ask(position=[0]), Limit()) is not None
    assert cache.lookup("g", "solve", Ask(position=[1]), Limit()) is None
    assert cache.lookup("g", "solve", Ask(position=[100]), Limit()) is not None


def test_many_threads_read_and_write_one_file(tmp_path: Path):
    path = tmp_path / "c.sqlite3"
    cache = ResultCache(path)

    def work(t: int) -> None:
        for i in range(150):
            ask = Ask(position=[i % 40])
            cache.store("g", "solve", ask, answer("unknown", 1 + t * 1000 + i, "nodes"))
            entry = cache.lookup("g", "solve", ask, Limit(nodes=1))
            assert entry is not None and entry.read(Answer).stats.nodes == entry.nodes

    assert at_once(work, 8) == []
    assert cache.counts()["write_errors"] == 0 and cache.counts()["entries"] == 40
    assert integrity(path) == "ok"
    for i in range(40):  # each key holds the most effort any thread gave it
        best = max(1 + t * 1000 + j for t in range(8) for j in range(150) if j % 40 == i)
        assert cache.lookup("g", "solve", Ask(position=[i]), Limit(nodes=1)).nodes == best


_WRITER = """
import sys
sys.path.insert(0, sys.argv[2])
from test_cache import Answer, Ask, ResultCache, answer
cache = ResultCache(sys.argv[1])
for i in range(10**6):
    cache.store("g", "solve", Ask(position=[i]), Answer(verdict="win" + "!" * 2000, stats=answer("win", i, None).stats))
    print(i, flush=True)  # after the commit: this one must survive
"""


def test_a_process_killed_while_writing_loses_nothing_it_finished(tmp_path: Path):
    path = tmp_path / "c.sqlite3"
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(path), str(Path(__file__).parent)],
                              stdout=subprocess.PIPE, text=True)
    acknowledged = -1
    assert writer.stdout is not None
    for line in writer.stdout:
        acknowledged = int(line)
        if acknowledged >= 300:
            break
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    for line in writer.stdout:  # said before the kill landed, read only now (a busy machine)
        acknowledged = int(line)
    assert integrity(path) == "ok"
    cache = ResultCache(path)
    for i in range(acknowledged + 1):
        assert cache.lookup("g", "solve", Ask(position=[i]), Limit()) is not None, i
    assert cache.counts()["entries"] in (acknowledged + 1, acknowledged + 2)  # the last may have committed unsaid


def test_a_full_disk_loses_the_entry_not_the_answer(tmp_path: Path):
    """SQLite's own page cap stands for a full disk here (SQLITE_FULL, the
    error a full disk gives); test_a_real_full_disk mounts one where allowed."""
    cache = ResultCache(tmp_path / "c.sqlite3")
    cache.store("g", "solve", Ask(position=[0]), answer("win", 1, None))
    db = cache._connection()
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    big = Answer(verdict="w" * 100_000, stats=answer("win", 1, None).stats)
    assert not cache.store("g", "solve", Ask(position=[1]), big)
    assert cache.counts()["write_errors"] == 1
    assert cache.lookup("g", "solve", Ask(position=[0]), Limit()) is not None  # what was kept stays


def test_a_real_full_disk(tmp_path: Path):
    mount = tmp_path / "tiny"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=96k", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        cache = ResultCache(mount / "c.sqlite3")
        kept = [cache.store("g", "solve", Ask(position=[i]), Answer(verdict="w" * 8000, stats=answer("win", 1, None)
                                                                   .stats)) for i in range(40)]
        assert kept[0] and not all(kept) and cache.counts()["write_errors"] > 0
        cache.close()
        assert integrity(mount / "c.sqlite3") == "ok"
        again = ResultCache(mount / "c.sqlite3")
        assert all(again.lookup("g", "solve", Ask(position=[i]), Limit()) is not None
                   for i, k in enumerate(kept) if k)
        again.close()
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_cache_file_that_cannot_be_made_is_a_clear_error(tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ValueError, match="result cache"):
        ResultCache(blocker / "c.sqlite3")
    with pytest.raises(ValueError, match="size"):
        ResultCache(tmp_path / "c.sqlite3", max_mb=0)


def test_the_key_is_the_request_as_it_ran():
    assert request_key("g", "solve", Ask(position=[1], limit={"nodes": 1})) == request_key("g", "solve",
                                                                                            Ask(position=[1]))
    assert request_key("g", "solve", Ask(position=[1])) != request_key("g", "solve", Ask(position=[1], seed=2))

    class Threaded(BaseModel):  # a search's threads, by either name, change no answer
        position: list[int]
        workers: int | None = None
        threads: int | None = None

    keys = {request_key("g", "hint", Threaded(position=[1], **kw)) for kw in ({}, {"workers": 2}, {"threads": 8})}
    assert len(keys) == 1


# ---------------------------------------------------------------- service and CLI

FIRST = registered()[0]
# The solve example the API documents: finished in microseconds.
EASY = {k: v for k, v in FIRST.operation("solve").request.model_json_schema()["examples"][0].items() if k != "limit"}
SOLVE = f"/v1/{FIRST.name}/solve"


def test_the_service_serves_a_finished_answer_again_and_after_a_restart(tmp_path: Path):
    path = str(tmp_path / "c.sqlite3")
    body = {**EASY, "limit": {"seconds": 5}}
    with server(cache=path) as c:
        first = c.post(SOLVE, json=body).json()
        assert first["cached"] is False and first["stats"]["stopped_by"] is None, first
        second = c.post(SOLVE, json={**body, "limit": {"nodes": 1}}).json()
        assert second["cached"] is True
        assert {k: v for k, v in second.items() if k not in ("cached", "limits")} == \
               {k: v for k, v in first.items() if k not in ("cached", "limits")}
        assert second["limits"]["asked"]["nodes"] == 1  # the account is this request's
    with server(cache=path) as c:  # a new process would read the same file
        assert c.post(SOLVE, json=body).json()["cached"] is True
    with server() as c:  # no cache: every answer searched
        assert c.post(SOLVE, json=body).json()["cached"] is False


def test_the_cli_fills_what_the_service_serves(tmp_path: Path):
    path = tmp_path / "c.sqlite3"
    layout = tmp_path / "layout.json"
    layout.write_text(json.dumps(EASY["position"]))
    runs = [subprocess.run(CLI + ["solve", FIRST.name, str(layout), "--json", "--cache", str(path)],
                           capture_output=True, text=True, timeout=120) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs
    assert "from the cache" not in runs[0].stderr and "from the cache" in runs[1].stderr
    assert runs[0].stdout == runs[1].stdout
    with server(cache=str(path)) as c:
        assert c.post(SOLVE, json=EASY).json()["cached"] is True
    bad = subprocess.run(CLI + ["solve", FIRST.name, str(layout), "--cache", str(layout / "x")],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "result cache" in bad.stderr and "Traceback" not in bad.stderr


def test_the_cli_lists_and_clears_a_cache_file(tmp_path: Path):
    path = tmp_path / "c.sqlite3"
    layout = tmp_path / "layout.json"
    layout.write_text(json.dumps(EASY["position"]))
    subprocess.run(CLI + ["solve", FIRST.name, str(layout), "--cache", str(path)], capture_output=True, timeout=120,
                   check=True)

    def cache(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(CLI + ["cache", str(path), *args], capture_output=True, text=True, timeout=60)

    listed = cache()
    assert listed.returncode == 0 and f"{FIRST.name} solve: 1 entries (1 finished)" in listed.stdout, listed
    assert json.loads(cache("--json").stdout)["entries"] == 1
    assert json.loads(cache("--clear", "--game", FIRST.name, "--operation", "hint", "--json").stdout)["removed"] == 0
    assert json.loads(cache("--clear", "--unused-days", "1", "--json").stdout)["removed"] == 0  # used just now
    cleared = cache("--clear")
    assert cleared.returncode == 0 and "removed 1 entries" in cleared.stdout and "0 entries" in cleared.stdout
    for args, needle in [(["--game", FIRST.name], "add --clear"), (["--clear", "--unused-days", "-1"], ">= 0"),
                         (["--clear", "--game", "chess"], "invalid choice")]:
        bad = cache(*args)
        assert bad.returncode == 2 and needle in bad.stderr and "Traceback" not in bad.stderr, (args, bad)
    missing = subprocess.run(CLI + ["cache", str(tmp_path / "none.sqlite3")], capture_output=True, text=True,
                             timeout=60)
    assert missing.returncode == 2 and "no result cache at" in missing.stderr
    assert not (tmp_path / "none.sqlite3").exists()
