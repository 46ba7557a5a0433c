"""Batch analysis past one machine (issue 21): every chunked batch of the
registry gives the same answer on threads here and on a Dask cluster,
resumes where an interrupted run stopped, and leaves tables and plots.

Names no game (tests/test_house.py): the games are the registry's, their
requests their examples made small, under a tight node limit."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from pydantic import BaseModel

from cli_support import assert_bad_input, run
from service_support import server
from smokejumper import Limit, _batch, batch
from smokejumper.cache import ResultCache
from smokejumper.games import Game, Operation, registered

CHUNKED = [(g, op) for g in registered() for op in g.operations.values() if op.chunked]
# Those whose every seed is a served search's answer, which a result cache keeps.
CACHED = [(g, op) for g, op in CHUNKED if op.seed_search]
LIMIT = Limit(nodes=2000)
COUNT = 8


def test_every_game_with_seeded_runs_offers_one():
    assert len(CHUNKED) >= 2


def count_field(op: Operation) -> str:
    """The request's field that says how many seeds (``le`` the batch's cap)."""
    (name,) = [n for n, f in op.request.model_fields.items()
               if any(getattr(m, "le", None) == _batch.MAX_COUNT for m in f.metadata)]
    return name


def small(op: Operation, count: int = COUNT, **more: Any) -> BaseModel:
    example = op.request.model_json_schema()["examples"][0]
    return op.request.model_validate({**example, count_field(op): count, "workers": 2, **more})


def per_seed(answer: BaseModel) -> list[dict]:
    """The results but their times, which no two runs share."""
    return [r.model_dump(exclude={"seconds"}) for r in answer.results]


@pytest.fixture(scope="module")
def client():
    c = batch.connect(threads=2)
    yield c
    cluster = c.cluster
    c.close()
    cluster.close()


@pytest.mark.parametrize(("game", "op"), CHUNKED, ids=[g.name for g, _ in CHUNKED])
def test_local_and_a_local_cluster_give_the_same_results(game: Game, op: Operation, client):
    q = small(op)
    here = op.call(q, LIMIT, _batch.Control(), None)
    there = op.call(q, LIMIT, _batch.Control(), None, client=batch.Engine(client=client, chunk=3))
    assert per_seed(here) == per_seed(there)
    assert [r.seed for r in there.results] == list(range(q.seed, q.seed + COUNT))
    assert batch.share(batch.table(here)) == batch.share(batch.table(there))


class Row(BaseModel):
    seed: int
    verdict: str
    nodes: int
    seconds: float
    stopped_by: str | None = None


def row(seed: int, _control: Any) -> Row:
    """A seed's result after a random wait, so chunks finish out of order."""
    time.sleep(random.random() * 0.01)
    return Row(seed=seed, verdict="win" if seed % 3 else "loss", nodes=seed, seconds=0.001)


@pytest.mark.parametrize("chunk", [1, 3, None])
def test_chunks_finish_in_any_order_and_merge_in_seed_order(client, chunk):
    engine = batch.Engine(client=client, chunk=chunk)
    out = _batch.run(row, range(5, 25), 2, client=engine)
    assert [r.seed for r in out] == list(range(5, 25))
    if chunk:
        assert engine.chunks_run == -(-20 // chunk)
    else:  # sized from the first wave's times: far fewer chunks than seeds
        assert 1 < engine.chunks_run < 20


def until_stopped(seed: int, control: Any) -> Row:
    """A search that ends only when it is stopped."""
    while not control.stopped:
        time.sleep(0.01)
    return Row(seed=seed, verdict="unknown", nodes=0, seconds=0.0, stopped_by="stopped")


def test_a_stop_cancels_the_queued_chunks_and_stops_the_running_ones(client):
    control = _batch.Control()
    threading.Timer(0.5, control.stop).start()
    with pytest.raises(InterruptedError, match="stopped"):
        _batch.run(until_stopped, range(100), 2, control=control, client=batch.Engine(client=client, chunk=1))
    # Both worker threads are free again: their chunks heard the stop.
    assert client.submit(lambda: 1, pure=False).result(timeout=10) == 1


def test_a_chunk_size_out_of_range_is_refused():
    with pytest.raises(ValueError, match="chunk must be 1.."):
        batch.Engine(chunk=0)


@pytest.mark.parametrize("on", ["local", "dask"])
def test_a_rerun_after_an_interruption_runs_only_the_rest(tmp_path, monkeypatch, client, on):
    game, op = CHUNKED[0]
    q, out = small(op, 12), tmp_path / "run.csv"
    engine = {"engine": on, "client": client if on == "dask" else None, "chunk": 2}

    def stop_midway(done: int, total: int) -> None:
        if done >= 6:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        batch.analyse(game, op, q, LIMIT, out=out, progress=stop_midway, **engine)
    kept = batch.Journal(batch.journal_path(out), batch.run_key(game, op, q, LIMIT), batch.row_model(op)).done()
    assert 6 <= len(kept) < 12 and not out.exists()

    seen: list[int] = []
    chunks: list[list] = []
    keep = batch.Journal.keep
    monkeypatch.setattr(batch.Journal, "keep", lambda self, chunk: (chunks.append(chunk), keep(self, chunk)))
    answer = batch.analyse(game, op, q, LIMIT, out=out, progress=lambda done, _: seen.append(done), **engine)
    assert seen[0] == len(kept)  # the kept seeds are done at once
    assert len(chunks) == (12 - len(kept)) // 2  # and only the rest run, in chunks of 2
    assert not {r.seed for chunk in chunks for r in chunk} & set(kept)
    assert per_seed(answer) == per_seed(op.call(q, LIMIT, _batch.Control(), None))
    assert out.exists() and not batch.journal_path(out).exists()


@pytest.mark.scale  # searches run out their time on purpose
def test_the_unknown_seeds_rerun_with_more_time_and_the_rest_are_kept(tmp_path, monkeypatch):
    game, op = CHUNKED[0]
    q, out, more = small(op, 12), tmp_path / "run.parquet", Limit(nodes=200_000)
    first = batch.analyse(game, op, q, Limit(nodes=300), out=out)
    unknown = batch.unknown_seeds(first)
    assert 0 < len(unknown) < 12, "the tight limit should leave some seeds unknown, not all"
    chunks: list[list] = []
    keep = batch.Journal.keep
    monkeypatch.setattr(batch.Journal, "keep", lambda self, chunk: (chunks.append(chunk), keep(self, chunk)))
    again = batch.analyse(game, op, q, more, out=out, rerun_unknown=True, chunk=1)
    assert [r.seed for chunk in chunks for r in chunk] == unknown  # only they ran
    fresh = {r.seed: r for r in op.call(q, more, _batch.Control(), None).results}
    for before, after in zip(first.results, again.results):
        expected = fresh[before.seed] if before.seed in unknown else before
        assert after.model_dump(exclude={"seconds"}) == expected.model_dump(exclude={"seconds"})
    assert batch._revive(batch.row_model(op), batch.read_table(out)) == again.results


def stored_requests(monkeypatch) -> list[tuple[str, str, BaseModel]]:
    """Every (game, operation, request) kept in a result cache from here on."""
    kept: list[tuple[str, str, BaseModel]] = []
    store = ResultCache.store

    def spy(self, game: str, operation: str, request: BaseModel, answer: BaseModel) -> bool | None:
        kept.append((game, operation, request))
        return store(self, game, operation, request, answer)

    monkeypatch.setattr(ResultCache, "store", spy)
    return kept


def test_every_batch_of_searches_offers_a_result_cache_and_the_rest_refuse_one(tmp_path):
    assert len(CACHED) >= 3
    for game, op in CHUNKED:
        offered = "--cache" in run("analyse", game.name, "--help").stdout
        assert offered == bool(op.seed_search), game.name
        if not op.seed_search:
            with pytest.raises(ValueError, match="keeps nothing in a result cache"):
                batch.analyse(game, op, small(op), LIMIT, cache=tmp_path / "c.sqlite3")


@pytest.mark.parametrize(("game", "op"), CACHED, ids=[g.name for g, _ in CACHED])
def test_a_batch_fills_what_the_service_serves(tmp_path, monkeypatch, game: Game, op: Operation):
    path = tmp_path / "c.sqlite3"
    kept = stored_requests(monkeypatch)
    first = batch.analyse(game, op, small(op), LIMIT, cache=path)
    assert len(kept) == COUNT and {(g, o) for g, o, _ in kept} == {(game.name, op.seed_search)}
    # Again, every seed is read from the file: its search's own counts, time included, and nothing new kept.
    again = batch.analyse(game, op, small(op), LIMIT, cache=path)
    assert again.results == first.results and len(kept) == COUNT
    assert per_seed(first) == per_seed(op.call(small(op), LIMIT, _batch.Control(), None))  # as without a cache
    # The service asked for a seed's position under the same limit answers from the file.
    route = f"/v1/{game.name}/{op.seed_search}"
    with server(cache=str(path)) as c:
        for _, _, request in kept[:3]:
            body = {**request.model_dump(mode="json"), "limit": {"nodes": LIMIT.nodes}}
            answer = c.post(route, json=body)
            assert answer.status_code == 200 and answer.json()["cached"] is True, answer.text


def test_a_local_clusters_workers_fill_the_cache_too(tmp_path, client):
    game, op = CACHED[0]
    path = tmp_path / "c.sqlite3"
    there = op.call(small(op), LIMIT, _batch.Control(), None,
                    client=batch.Engine(client=client, chunk=3, cache=ResultCache(path)))
    assert ResultCache(path).counts()["entries"] == COUNT
    assert batch.analyse(game, op, small(op), LIMIT, cache=path).results == there.results


def test_a_cache_with_a_cluster_not_made_here_is_refused(tmp_path, client):
    game, op = CACHED[0]
    with pytest.raises(ValueError, match="may not share"):
        batch.analyse(game, op, small(op), LIMIT, client=client, cache=tmp_path / "c.sqlite3")


def test_a_journal_of_other_parameters_is_refused(tmp_path):
    game, op = CHUNKED[0]
    out = tmp_path / "run.csv"
    batch.journal_path(out).write_text('{"key": "another run"}\n')
    with pytest.raises(ValueError, match="other parameters"):
        batch.analyse(game, op, small(op), LIMIT, out=out)


@pytest.fixture(scope="module")
def answers():
    return {game.name: (op, op.call(small(op), LIMIT, _batch.Control(), None)) for game, op in CHUNKED}


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_tables_round_trip(tmp_path, answers, suffix):
    for name, (op, answer) in answers.items():
        path = tmp_path / f"{name}{suffix}"
        batch.write_table(answer, path)
        assert batch._revive(batch.row_model(op), batch.read_table(path)) == answer.results, name


def test_the_table_as_numpy_and_pandas(answers):
    for op, answer in answers.values():
        frame, array = batch.table(answer), batch.records(answer)
        assert list(frame.columns) == list(array.dtype.names) == list(batch.row_model(op).model_fields)
        assert list(frame["seed"]) == list(array["seed"]) == [r.seed for r in answer.results]


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plots_are_written(tmp_path, answers, suffix):
    path = tmp_path / f"runs{suffix}"
    batch.plot({name: batch.table(answer) for name, (_, answer) in answers.items()}, path, title="runs")
    head = path.read_bytes()[:200]
    assert head.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in path.read_bytes()


def test_a_scheduler_not_there_is_named():
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        batch.connect("tcp://127.0.0.1:9", timeout=0.5)


def test_a_missing_extra_is_named():
    with pytest.raises(ImportError, match=r"smokejumper\[batch\]"):
        _batch.needs("smokejumper_no_such_module", "a test")


def cli_args(op: Operation, count: int) -> list[str]:
    example = small(op, count).model_dump(exclude={"limit"})
    return [a for k, v in example.items() for a in (f"--{k.replace('_', '-')}", str(v))]


def test_the_command_end_to_end(tmp_path):
    out, picture = tmp_path / "run.parquet", tmp_path / "run.png"
    game, op = CACHED[0]
    cache = tmp_path / "c.sqlite3"
    r = run("analyse", game.name, *cli_args(op, 6), "--max-nodes", LIMIT.nodes, "--engine", "dask",
            "--chunk", 2, "--out", out, "--plot", picture, "--cache", cache)
    assert r.returncode == 0, r.stderr
    assert ResultCache(cache).counts()["entries"] == 6  # filled by the command's own cluster
    assert "6/6" in r.stderr and "/s" in r.stderr  # the bar, with its rate
    assert list(batch.read_table(out)["seed"]) == list(range(small(op).seed, small(op).seed + 6))
    assert picture.stat().st_size > 0


@pytest.mark.parametrize(("args", "says"), [
    (["--scheduler", "tcp://127.0.0.1:9"], "needs the dask engine"),
    (["--out", "run.txt"], "CSV or Parquet"),
    (["--plot", "run.pdf"], "PNG or SVG"),
    (["--rerun-unknown"], "--rerun-unknown"),
])
def test_the_command_refuses_bad_engine_options(args, says):
    game, op = CHUNKED[0]
    line = assert_bad_input(run("analyse", game.name, *cli_args(op, 2), *args))
    assert says in line
