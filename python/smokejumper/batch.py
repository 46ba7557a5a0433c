"""Batch analysis past one machine (issue 21), the same for every game: a
chunked batch operation of the registry (``Operation.chunked``) run on an
engine (threads here, or a Dask cluster), resumed from a journal of the
chunks it finished, its per-seed results as a table (pandas, numpy, CSV,
Parquet) and its plots (matplotlib). See docs/batch.md.

Dask, pandas, pyarrow and matplotlib are the ``[batch]`` extra; each is
imported when first needed, with an error naming the extra when missing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from pydantic import BaseModel

from smokejumper import _batch
from smokejumper._batch import Engine, needs
from smokejumper._core import Control
from smokejumper.cache import ResultCache
from smokejumper.games import Game, Operation
from smokejumper.limits import Limit
from smokejumper.stats import wilson_interval

__all__ = ["Engine", "analyse", "connect", "plot", "read_table", "records", "rows", "table", "unknown_seeds",
           "write_table"]

TABLE_SUFFIXES = (".csv", ".parquet")
PLOT_SUFFIXES = (".png", ".svg")
# Where a row says how its seed ended, whichever the game calls it.
OUTCOME_COLUMNS = ("verdict", "status")


# ------------------------------------------------------------ engines

def connect(scheduler: str | None = None, threads: int | None = None, timeout: float = 10.0) -> Any:
    """A ``distributed.Client``: of the scheduler at ``scheduler``
    (``tcp://host:8786``, reached within ``timeout`` seconds), or of a new
    LocalCluster of ``threads`` threads (default: every core) in this
    process when None. The C++ releases the GIL, so threads of one process
    use every core."""
    distributed = needs("distributed", "the dask engine")
    if scheduler is None:
        # The dashboard on a free port (8787 may be another cluster's). Its
        # workers' logs stay quiet: a chunk's error reaches us through its
        # future, and a cancelled chunk is no error.
        cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=threads or os.cpu_count() or 1,
                                           processes=False, dashboard_address=":0",
                                           silence_logs=logging.CRITICAL)
        return distributed.Client(cluster)
    try:
        return distributed.Client(scheduler, timeout=f"{timeout}s")
    except (OSError, TimeoutError, ValueError) as e:
        raise ValueError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None


def _importable(module: str) -> bool:
    try:
        __import__(module)
        return True
    except ImportError:
        return False


# ------------------------------------------------------------ tables

def rows(analysis: BaseModel) -> list[dict[str, Any]]:
    """One dict per seed of a chunked batch's answer, in seed order: seed,
    the verdict (or status), nodes, seconds, stopped_by and the game's own
    fields."""
    return [r.model_dump(mode="json") for r in analysis.results]


def table(analysis: BaseModel | Sequence[Mapping[str, Any]]) -> Any:
    """The per-seed results as a pandas DataFrame (one row per seed)."""
    pandas = needs("pandas", "a results table")
    data = rows(analysis) if isinstance(analysis, BaseModel) else list(analysis)
    return pandas.DataFrame.from_records(data)


def records(analysis: BaseModel) -> Any:
    """The per-seed results as a numpy structured array (numpy only): text
    columns as fixed-width strings ("" for null), numbers with null as NaN."""
    import numpy as np  # here: the command never needs it, and starts faster without

    data = rows(analysis)
    columns = {}
    for name in data[0]:
        values = [row[name] for row in data]
        present = [v for v in values if v is not None]
        whole = bool(present) and len(present) == len(values)
        if whole and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
            columns[name] = np.array(values, dtype=np.uint64 if max(values) >= 2**63 else np.int64)
        elif present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
            columns[name] = np.array([math.nan if v is None else v for v in values], dtype=np.float64)
        elif whole and all(isinstance(v, bool) for v in present):
            columns[name] = np.array(values, dtype=bool)
        else:
            columns[name] = np.array(["" if v is None else str(v) for v in values], dtype=str)
    return np.rec.fromarrays(list(columns.values()), names=list(columns)).view(np.ndarray)


def _table_path(path: str | Path, what: str = "--out") -> Path:
    path = Path(path)
    if path.suffix.lower() not in TABLE_SUFFIXES:
        raise ValueError(f"{what} {path}: the table is written as CSV or Parquet, so the file must end in "
                         f"{' or '.join(TABLE_SUFFIXES)}")
    return path


def write_table(data: Any, path: str | Path) -> None:
    """The per-seed results (an answer, or its DataFrame) to ``path``, as
    CSV or Parquet by its suffix; written whole to a new file, then
    renamed, so a reader never sees half of it."""
    path = _table_path(path)
    frame = data if not isinstance(data, BaseModel) else table(data)
    partial = path.with_name(path.name + ".writing")
    if path.suffix.lower() == ".parquet":
        needs("pyarrow", "a Parquet table")
        frame.to_parquet(partial, index=False)
    else:
        frame.to_csv(partial, index=False)
    os.replace(partial, path)


def read_table(path: str | Path) -> Any:
    """A table that :func:`write_table` wrote, as a pandas DataFrame."""
    pandas = needs("pandas", "a results table")
    path = _table_path(path, "table")
    try:
        if path.suffix.lower() == ".parquet":
            needs("pyarrow", "a Parquet table")
            return pandas.read_parquet(path)
        # Only an empty cell is null: "None" or "NA" would be a text value.
        return pandas.read_csv(path, keep_default_na=False, na_values=[""])
    except OSError as e:
        raise ValueError(f"cannot read the table {path}: {e.strerror or e}") from None


def _revive(row_model: type[BaseModel], frame: Any) -> list[BaseModel]:
    """The rows of a table read back as the operation's result models."""
    out = []
    for row in frame.to_dict("records"):
        clean = {k: None if isinstance(v, float) and math.isnan(v) else v.item() if hasattr(v, "item") else v
                 for k, v in row.items()}
        out.append(row_model.model_validate(clean))
    return out


def unknown_seeds(analysis: BaseModel) -> list[int]:
    """Seeds whose result a limit or a stop cut short (``stopped_by`` set):
    rerun them with more time (``--rerun-unknown``)."""
    return [r.seed for r in analysis.results if r.stopped_by is not None]


# ------------------------------------------------------------ resuming

def row_model(op: Operation) -> type[BaseModel]:
    """The model of one seed's result of a chunked batch operation."""
    annotation = op.response.model_fields["results"].annotation
    return annotation.__args__[0]


def run_key(game: Game, op: Operation, request: BaseModel, limit: Limit) -> str:
    """What a resumed run must share with the run it resumes: the request
    (but its thread count, which never changes an answer) and the limit."""
    body = request.model_dump(mode="json", exclude={"workers"} & set(type(request).model_fields))
    text = json.dumps({"game": game.name, "operation": op.name, "request": body,
                       "limit": [limit.nodes, limit.seconds, limit.memory_mb]}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class Journal:
    """The results of the chunks a run finished, one JSON line per chunk
    after a header holding the run's key, in ``path``: a rerun with the same
    key runs only the other seeds. A torn last line (the run killed while
    writing) is dropped."""

    def __init__(self, path: Path, key: str, row: type[BaseModel]) -> None:
        self.path, self.key, self.row = path, key, row

    def done(self) -> dict[int, BaseModel]:
        if not self.path.exists():
            return {}
        lines = self.path.read_text().splitlines()
        try:
            header = json.loads(lines[0])["key"] if lines else None
        except (ValueError, KeyError, TypeError):
            header = None
        if header != self.key:
            raise ValueError(f"{self.path} holds the chunks of a run with other parameters; rerun with those, "
                             "or delete it to start again")
        out = {}
        for line in lines[1:]:
            try:
                chunk = json.loads(line)
            except ValueError:
                break
            for r in chunk:
                result = self.row.model_validate(r)
                out[result.seed] = result
        return out

    def keep(self, chunk: list[BaseModel]) -> None:
        new = not self.path.exists()
        with open(self.path, "a", encoding="utf-8") as f:
            if new:
                f.write(json.dumps({"key": self.key}) + "\n")
            f.write(json.dumps([r.model_dump(mode="json") for r in chunk], separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())


def journal_path(out: Path) -> Path:
    return out.with_name(out.name + ".partial")


# ------------------------------------------------------------ one analysis, any engine

def analyse(game: Game, op: Operation, request: BaseModel, limit: Limit, *, engine: str | None = None,
            scheduler: str | None = None, client: Any = None, chunk: int | None = None,
            out: str | Path | None = None, plot_to: str | Path | None = None, rerun_unknown: bool = False,
            cache: str | Path | None = None, progress: Callable[[int, int], None] | None = None,
            control: Control | None = None, say: Callable[[str], None] = lambda _: None) -> BaseModel:
    """A chunked batch ``op`` of ``game`` on ``engine`` ("local": threads
    here; "dask": the cluster of ``client``, or of ``scheduler``, or a new
    LocalCluster; default: dask when given either, else local), as the CLI
    runs it. With ``out``, finished chunks are
    kept beside it (``OUT.partial``) until the table is written, so a
    rerun with the same request and limit does only the rest; with
    ``rerun_unknown``, the seeds ``out`` holds as finished are kept and only
    the unknown ones run again (under this limit). ``plot_to`` draws the
    run. With ``cache`` (a result cache file), each seed's search is
    answered from it when it holds an answer as good as ``limit`` would
    give, and kept there otherwise, as the service keys it: a batch fills
    what the service serves. ``say`` hears what a person should know (the
    dashboard's link)."""
    if not op.chunked:
        raise ValueError(f"{game.title} {op.name} is not a batch over seeds; only those run on an engine")
    engine = engine or ("dask" if scheduler is not None or client is not None else "local")
    if engine not in ("local", "dask"):
        raise ValueError(f"engine must be local or dask, got {engine!r}")
    if engine == "local" and (scheduler is not None or client is not None):
        raise ValueError("a Dask scheduler or client needs the dask engine (--engine dask)")
    if cache is not None and op.seed_search is None:
        raise ValueError(f"{game.title} {op.name} plays whole games, which no service answer is, so it keeps "
                         "nothing in a result cache")
    if cache is not None and (scheduler is not None or client is not None):
        # SQLite wants its file on a local disk, and another machine's workers would open one of their own.
        raise ValueError("a result cache is a file on this machine, which the workers of a Dask cluster not made "
                         "here (a scheduler or client given) may not share; use it with the local engine or the "
                         "dask engine's own local cluster")
    results_cache = ResultCache(cache) if cache is not None else None
    out_path = _table_path(out) if out is not None else None
    if plot_to is not None and Path(plot_to).suffix.lower() not in PLOT_SUFFIXES:
        raise ValueError(f"--plot {plot_to}: the plot is written as PNG or SVG, so the file must end in "
                         f"{' or '.join(PLOT_SUFFIXES)}")
    if rerun_unknown and (out_path is None or not out_path.exists()):
        raise ValueError("--rerun-unknown reruns the unknown seeds of an earlier run's --out table, "
                         f"and {out_path or 'no --out'} is not there")
    # What the outputs need, before the run rather than after it.
    if out_path is not None or plot_to is not None:
        needs("pandas", "a results table")
    if out_path is not None and out_path.suffix.lower() == ".parquet":
        needs("pyarrow", "a Parquet table")
    if plot_to is not None:
        needs("matplotlib", "a plot")
    row = row_model(op)
    done: dict[int, BaseModel] = {}
    journal = None
    if out_path is not None:
        journal = Journal(journal_path(out_path), run_key(game, op, request, limit), row)
        if rerun_unknown:
            kept = _revive(row, read_table(out_path))
            done = {r.seed: r for r in kept if r.stopped_by is None}
        done.update(journal.done())
    own_client = engine == "dask" and client is None
    if own_client:
        client = connect(scheduler, getattr(request, "workers", None) if scheduler is None else None)
    try:
        if client is not None and client.dashboard_link and _importable("bokeh"):
            say(f"Dask dashboard: {client.dashboard_link}")
        runner = Engine(client=client, chunk=chunk, done=done, keep=journal.keep if journal else None,
                        cache=results_cache)
        result = op.call(request, limit, control or Control(), progress, client=runner)
    finally:
        if own_client:
            cluster = client.cluster
            client.close()
            if cluster is not None:
                cluster.close()
    if out_path is not None:
        write_table(result, out_path)
        journal.path.unlink(missing_ok=True)
    if plot_to is not None:
        plot(table(result), plot_to, title=f"{game.title} {op.name}: {_describe(request)}")
    return result


def _describe(request: BaseModel) -> str:
    """The request's scalar fields but its thread count, for a plot's title."""
    fields = request.model_dump(exclude={"workers", "limit"} & set(type(request).model_fields))
    return ", ".join(f"{k} {v}" for k, v in fields.items() if isinstance(v, (int, float, str)))


# ------------------------------------------------------------ plots

def _outcome(frame: Any) -> Any:
    for column in OUTCOME_COLUMNS:
        if column in frame:
            return frame[column]
    raise ValueError(f"the table has no outcome column ({' or '.join(OUTCOME_COLUMNS)})")


def share(frame: Any) -> tuple[int, int, int, tuple[float, float]]:
    """(wins, unknown, seeds, 95% interval) of a table, unknown seeds
    counted as losses for the lower end and as wins for the upper end.
    Unknown is neither won nor lost, as the analysis counts it: a search a
    limit stopped may still have found its win (its certificate)."""
    n = len(frame)
    outcome = _outcome(frame)
    wins = int((outcome == "win").sum())
    unknown = n - wins - int((outcome == "loss").sum())
    return wins, unknown, n, (wilson_interval(wins, n)[0], wilson_interval(wins + unknown, n)[1])


def plot(runs: Any, path: str | Path, title: str = "") -> None:
    """Plots of one table or of several by label ({"level 1": table, ...}):
    the win share of each with its 95% interval, the distributions of
    seconds and nodes per seed, and how the share's interval narrows with
    the number of seeds; PNG or SVG by the suffix of ``path``."""
    path = Path(path)
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise ValueError(f"plot {path}: the file must end in {' or '.join(PLOT_SUFFIXES)}")
    matplotlib = needs("matplotlib", "a plot")
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt
    import numpy as np

    runs = dict(runs) if isinstance(runs, Mapping) else {"this run": runs}
    fig, ((shares, times), (nodes, narrowing)) = plt.subplots(2, 2, figsize=(11, 8))
    for i, (label, frame) in enumerate(runs.items()):
        wins, _, n, (lo, hi) = share(frame)
        # A point and its interval, on an axis fitted to them: bars from 0
        # would hide an interval of a few thousandths.
        shares.errorbar(i, wins / n, yerr=[[wins / n - lo], [hi - wins / n]], fmt="o", capsize=6)
        positive = frame["seconds"][frame["seconds"] > 0]
        if len(positive):
            times.hist(positive, bins=np.geomspace(positive.min(), positive.max() * 1.0001, 40), alpha=0.6,
                       label=label)
        counted = frame["nodes"][frame["nodes"] > 0]
        if len(counted):
            nodes.hist(counted, bins=np.geomspace(counted.min(), counted.max() * 1.0001, 40), alpha=0.6,
                       label=label)
        won = (_outcome(frame) == "win").cumsum().to_numpy()
        seen = np.arange(1, n + 1)
        band = np.array([wilson_interval(int(w), int(k)) for w, k in zip(won, seen)])
        narrowing.plot(seen, won / seen, label=label)
        narrowing.fill_between(seen, band[:, 0], band[:, 1], alpha=0.25)
    shares.set_xticks(range(len(runs)), list(runs))
    shares.set(xlim=(-0.5, len(runs) - 0.5), ylabel="win share", title="win share, 95% interval (unknown both ways)")
    times.set(xscale="log", xlabel="seconds per seed", ylabel="seeds", title="solve times")
    nodes.set(xscale="log", xlabel="nodes per seed", ylabel="seeds", title="nodes")
    narrowing.set(xscale="log", ylim=(0, 1), xlabel="seeds", ylabel="win share",
                  title="win share against seeds, 95% interval")
    if len(runs) > 1:
        for axes in (times, nodes, narrowing):
            axes.legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
