"""The ``smokejumper`` command: ``smokejumper VERB GAME [FILES] [OPTIONS]``
for every operation of every registered game (smokejumper.games), and
``serve``. A game's operation gives the verb its files (the request's
position, line or move fields) and options (its other fields, and its
limit as --max-seconds, --max-nodes, --max-memory-mb), and the text a
person reads. Other tools call it, so its JSON output and exit codes are a
contract: 0 success, 1 a replay that fails (an illegal step, or, where
the game asks for a win, legal steps that end before one), 2 bad input (one
line on stderr, never a traceback), 130 interrupted by Ctrl-C (the search is
stopped, nothing is printed on stdout), 141 standard output closed early (as
by ``| head``; quietly, like a tool killed by SIGPIPE)."""

from __future__ import annotations

import argparse
import json
import math
import os
import typing
import sqlite3
import sys
import textwrap
import threading
import time
import types
from pathlib import Path
from typing import Any, Callable, NoReturn, TypeVar

from pydantic import BaseModel, ValidationError

from smokejumper import Control, InvalidPositionError, Limit, batch
from smokejumper._inputs import MAX_INPUT_BYTES, describe_validation_error, input_bytes, parse_json
from smokejumper.cache import ResultCache
from smokejumper.games import Game, Operation, registered, search_operation_names
from smokejumper.limits import DEFAULT_MEMORY_MB, SPEC_LIMIT_FIELDS

# The CLI never runs unbounded unless asked: a user waiting at a terminal
# wants an answer or a clear "unknown".
DEFAULT_SECONDS = 60.0
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for `yes | head`
STOP_GRACE_SECONDS = 1.0  # after Ctrl-C, how long a search may take to stop before the CLI leaves anyway
EXIT_CODES = ("exit codes: 0 success; 1 a replay that fails (an illegal step, or no win where one is asked); "
              "2 bad input (a file, "
              "an option); 130 interrupted by Ctrl-C; 141 standard output closed early")

T = TypeVar("T")


class UsageError(Exception):
    pass


def _fail(message: str) -> NoReturn:
    print(f"smokejumper: error: {message}", file=sys.stderr)
    raise SystemExit(2)


class _Help(argparse.HelpFormatter):
    """argparse's help, but an option named in a text (--max-seconds) is
    never broken at its hyphen across two lines."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent,
                             break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # argparse exits 2 as well
        _fail(message)


def _read(path: str) -> str:
    if path == "-":
        data = sys.stdin.read(MAX_INPUT_BYTES + 1)
    else:
        try:
            with open(path, encoding="utf-8") as f:
                data = f.read(MAX_INPUT_BYTES + 1)
        except OSError as e:
            raise UsageError(f"cannot read {path}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise UsageError(f"{path} is not UTF-8 text") from None
    if input_bytes(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{path} is larger than {MAX_INPUT_BYTES} bytes")
    return data


def _file_fields(model: type[BaseModel]) -> list[str]:
    """The request fields given as JSON files: a position, a line, a move."""
    return [name for name, f in model.model_fields.items() if name != "limit" and _is_document(f.annotation)]


def _is_document(annotation: Any) -> bool:
    """A model, a union of models (a move or a chance event), or a list."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    members = [a for a in typing.get_args(annotation) if a is not type(None)]
    if members and typing.get_origin(annotation) is not list:
        return all(isinstance(a, type) and issubclass(a, BaseModel) for a in members)
    return typing.get_origin(annotation) is list


def _read_document(path: str, field: str) -> Any:
    """A JSON file for ``field``. A list field also takes an object holding
    the list under its name or "line" (so that `solve --json` output can be
    replayed as it is)."""
    try:
        data = parse_json(_read(path))
    except InvalidPositionError as e:
        raise UsageError(f"{path}: {e}") from None
    if field == "position" or not isinstance(data, dict):
        return data
    for key in (field, "line"):
        if key in data:
            return data[key]
    return data


def _yes_no(text: str) -> bool:
    if text.lower() in ("yes", "true", "1"):
        return True
    if text.lower() in ("no", "false", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected yes or no, got {text!r}")


def _option_kind(annotation: Any) -> tuple[Callable[[str], Any] | None, tuple[Any, ...] | None, str | None]:
    """(argparse type, choices, metavar) of a scalar request field; an
    optional flag (None: the game decides) is given as yes or no."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(annotation) if a is not type(None)]
        annotation = options[0] if len(options) == 1 else annotation
    if typing.get_origin(annotation) is typing.Literal:
        return None, typing.get_args(annotation), None
    if annotation is bool:
        return _yes_no, None, "yes|no"
    return (annotation if annotation in (int, float, str) else None), None, "N"


def _add_options(c: argparse.ArgumentParser, op: Operation) -> None:
    for name in _file_fields(op.request):
        help_text = "position JSON, or - for standard input" if name == "position" else (
            f"JSON {name} ({op.request.model_fields[name].description or 'a list'}), or an object with a \"line\"")
        c.add_argument(name, metavar=name.upper(), help=help_text)
    for name, f in op.request.model_fields.items():
        if name == "limit" or name in SPEC_LIMIT_FIELDS or name in _file_fields(op.request):
            continue  # limits are the --max-* options below
        flag = "--" + name.replace("_", "-")
        description = f.description or name
        if f.annotation is bool:
            c.add_argument(flag, action="store_true", help=description)
            continue
        kind, choices, metavar = _option_kind(f.annotation)
        if f.is_required():
            c.add_argument(flag, type=kind, choices=choices, required=True, metavar=metavar,
                           help=f"{description} (required)")
        else:
            shown = "none" if f.default is None else f"{f.default:,}" if isinstance(f.default, int) else f.default
            c.add_argument(flag, type=kind, choices=choices, default=None, metavar=metavar,
                           help=description if "default" in description else f"{description} (default: {shown})")
    if op.kind == "search" or op.seed_search:
        use = ("an answer kept there is given at once, and a new one is kept" if op.kind == "search" else
               f"each seed's {op.seed_search} is read from it when kept there, else kept there (the service "
               "serves it)")
        c.add_argument("--cache", metavar="FILE", default=None,
                       help=f"a result cache (SQLite, made if missing; the service's SMOKEJUMPER_CACHE file too): {use}")
    if op.takes_limit:
        scope = op.request.model_fields["limit"].description or "of the search"
        scope = scope[0].lower() + scope[1:]
        preset = _preset(op)
        # The house's 60 s holds with --max-nodes too; an operation's own default only when neither is given.
        seconds_default = "none" if preset.seconds is None else f"{preset.seconds:g}" + (
            " unless --max-nodes is given" if op.default_limit else "")
        nodes_default = "none" if preset.nodes is None else f"{preset.nodes:,}" + (
            " unless --max-seconds is given" if op.default_limit else "")
        c.add_argument("--max-seconds", type=float, default=None, metavar="S",
                       help=f"time limit {scope}, in seconds (default: {seconds_default})")
        c.add_argument("--max-nodes", type=int, default=None, metavar="N",
                       help=f"node limit {scope} (default: {nodes_default})")
        c.add_argument("--max-memory-mb", type=int, default=None, metavar="M",
                       help=f"transposition table size of each search, in MiB (default: {DEFAULT_MEMORY_MB})")
    if op.chunked:
        _add_engine_options(c)
    c.add_argument("--json", action="store_true", help="print the answer as JSON")


def _add_engine_options(c: argparse.ArgumentParser) -> None:
    """Where a batch over seeds runs, and what it leaves (smokejumper.batch)."""
    g = c.add_argument_group("engine and outputs (the dask engine, tables and plots need "
                             "pip install 'smokejumper[batch]')")
    g.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local: threads on this machine (default); dask: a Dask cluster, in chunks of seeds")
    g.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="the Dask scheduler's address, tcp://host:8786 (default: a LocalCluster here)")
    g.add_argument("--chunk", type=int, default=None, metavar="N",
                   help="seeds per chunk (default: sized to about 2 s of work each)")
    g.add_argument("--out", metavar="FILE", default=None,
                   help="the per-seed table, .csv or .parquet; finished chunks are kept in FILE.partial "
                        "until it is written, so the same command after an interruption does only the rest")
    g.add_argument("--plot", metavar="FILE", default=None,
                   help="plots, .png or .svg: the win share with its interval, solve times and nodes, "
                        "the share against the number of seeds")
    g.add_argument("--rerun-unknown", action="store_true",
                   help="keep the finished seeds of the --out table and run the unknown ones again "
                        "(under this command's limit), rewriting the table")


def _request(op: Operation, args: argparse.Namespace) -> BaseModel:
    """The operation's request from the command line, validated: a field at
    fault is named as the user wrote it (a file, or --option)."""
    files = _file_fields(op.request)
    data: dict[str, Any] = {name: _read_document(getattr(args, name), name) for name in files}
    for name in op.request.model_fields:
        value = getattr(args, name, None)
        if name not in files and name != "limit" and name not in SPEC_LIMIT_FIELDS and value is not None:
            data[name] = value
    try:
        return op.request.model_validate(data)
    except ValidationError as e:
        loc = e.errors()[0]["loc"]
        field = str(loc[0]) if loc else ""
        message = describe_validation_error(e, data)
        if field == "position":  # the file's own fields: "tiles.0.n", not "position.tiles.0.n"
            raise UsageError(f"{args.position}: {message.removeprefix('position.')}") from None
        if field in files:  # an item of a list: "steps[3].move.weapon"
            where = field + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc[1:])
            raise UsageError(f"{getattr(args, field)}: {where}: {message.split(': ', 1)[-1]}") from None
        raise UsageError(f"--{field.replace('_', '-')}: {message.split(': ', 1)[-1]}") from None


def _preset(op: Operation) -> Limit:
    """The limit an operation runs under when the command line gives none."""
    return op.default_limit or Limit(seconds=DEFAULT_SECONDS)


def _limit(args: argparse.Namespace, op: Operation) -> Limit:
    """The command line's limit; with neither time nor nodes given, the
    operation's default (else 60 s, which also holds beside --max-nodes)."""
    nodes, seconds = args.max_nodes, args.max_seconds
    if nodes is None and seconds is None:
        nodes, seconds = _preset(op).nodes, _preset(op).seconds
    elif seconds is None and op.default_limit is None:
        seconds = DEFAULT_SECONDS
    try:
        return Limit(nodes=nodes, seconds=seconds, memory_mb=args.max_memory_mb)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _search(run: Callable[[Control], T]) -> T:
    """``run(control)`` on a worker thread. The C++
    search runs with the GIL released, so a main thread waiting inside it
    would see Ctrl-C only when it ends; here the main thread waits in short
    steps, and Ctrl-C stops the search through its Control (the core polls
    it) and surfaces as KeyboardInterrupt at once. Every search and batch
    of every verb goes through here."""
    control = Control()
    outcome: list[tuple[bool, Any]] = []
    done = threading.Event()

    def work() -> None:
        try:
            outcome.append((True, run(control)))
        except BaseException as e:  # re-raised on the main thread
            outcome.append((False, e))
        finally:
            done.set()

    # Waits on an Event, not Thread.join: a join interrupted by Ctrl-C can
    # mark a running thread as ended (CPython gh-90882), and the interpreter
    # would then exit under a search still running in C++.
    worker = threading.Thread(target=work, name="smokejumper-search", daemon=True)
    worker.start()
    try:
        while not done.wait(0.1):
            pass
    except KeyboardInterrupt:
        control.stop()
        try:
            # A search sees the stop within milliseconds; a part of the core
            # that does not poll the Control (a strategy's simulated
            # games) would keep the user waiting, so give it a second.
            stopped = done.wait(STOP_GRACE_SECONDS)
        except KeyboardInterrupt:  # a second Ctrl-C
            stopped = False
        if not stopped:  # leave without waiting, and without finalizing under a running thread
            print("smokejumper: interrupted", file=sys.stderr, flush=True)
            os._exit(EXIT_INTERRUPTED)
        worker.join()
        raise
    worker.join()
    ok, value = outcome[0]
    if not ok:
        raise value
    return value


def _run(game: Game, op: Operation, args: argparse.Namespace) -> int:
    q = _request(op, args)
    try:
        if op.chunked:
            result = _search(lambda control: batch.analyse(
                game, op, q, _limit(args, op), engine=args.engine, scheduler=args.scheduler, chunk=args.chunk,
                out=args.out, plot_to=args.plot, rerun_unknown=args.rerun_unknown,
                cache=getattr(args, "cache", None),
                progress=None if args.json else _Progress(), control=control,
                say=lambda text: print(text, file=sys.stderr, flush=True)))
        elif op.kind == "batch":
            # Progress on stderr, from the worker thread; Ctrl-C stops every solve of the batch.
            result = _search(lambda control: op.call(q, _limit(args, op), control,
                                                     None if args.json else _Progress()))
        elif op.kind == "search":
            result = _cached_search(game, op, q, args)
        else:
            result = op.call(q)
    except (ValueError, ImportError) as e:  # InvalidPositionError included: the engine refused the input
        raise UsageError(str(e)) from None
    if op.chunked and args.out:
        unknown = batch.unknown_seeds(result)
        if unknown:
            shown = ", ".join(map(str, unknown[:20])) + (", ..." if len(unknown) > 20 else "")
            print(f"{len(unknown)} seed{'s' if len(unknown) > 1 else ''} stayed unknown ({shown}; stopped_by in "
                  f"{args.out}): rerun them with more time by the same command with --rerun-unknown and a larger "
                  "--max-seconds or --max-nodes", file=sys.stderr)
    code, why = op.outcome(q, result) if op.outcome else (0, None)
    if code == 2:
        _fail(why or f"{op.name} {game.name} failed")
    if args.json:
        print(json.dumps(result.model_dump(mode="json"), separators=(",", ":")))
    else:
        print(op.text(q, result))
        note = op.note(q, result) if op.note else None
        if note:
            print(note, file=sys.stderr)
    return code


def _cached_search(game: Game, op: Operation, q: BaseModel, args: argparse.Namespace) -> BaseModel:
    """The search's answer from ``--cache`` when it holds one as good as
    this limit would give (said on stderr), else searched and kept there."""
    limit = _limit(args, op)
    cache = ResultCache(args.cache) if args.cache else None
    entry = cache.lookup(game.name, op.name, op.cache_form(q), limit) if cache else None
    if entry is not None:
        print(f"from the cache {args.cache} (kept {time.strftime('%Y-%m-%d %H:%M', time.localtime(entry.stored))})",
              file=sys.stderr)
        return entry.read(op.response)
    result = _search(lambda control: op.call(q, limit, control))
    if cache and cache.store(game.name, op.name, op.cache_form(q), result) is None:
        print(f"the answer could not be kept in {args.cache} (a full disk, or a file not writable)", file=sys.stderr)
    return result


_progress_shown = False  # a progress bar is on stderr without its newline


class _Progress:
    """A progress bar on stderr with the rate and the time left, counted
    from the first call (a resumed run's seeds already done are no work)."""

    def __init__(self) -> None:
        self.start: tuple[float, int] | None = None
        self.width = 0  # of the last line: a shorter one is padded over it

    def __call__(self, done: int, total: int) -> None:
        global _progress_shown
        _progress_shown = done < total
        now = time.monotonic()
        if self.start is None:
            self.start = (now, done)
        began, first = self.start
        # A rate after a second (threads finish their first seeds together,
        # and two in a millisecond read as thousands a second), and at the end.
        measured = now > began and (now - began >= 1.0 or done == total)
        rate = (done - first) / (now - began) if measured else 0.0
        left = f", {_duration((total - done) / rate)} left" if rate > 0 and done < total else ""
        width = 30
        filled = width * done // total
        line = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
        line += f" ({rate:,.1f}/s{left})" if measured else ""
        print("\r" + line.ljust(self.width), end="", file=sys.stderr, flush=True)
        self.width = len(line)
        if done == total:
            print(file=sys.stderr)


def _duration(seconds: float) -> str:
    minutes, s = divmod(int(seconds), 60)
    hours, m = divmod(minutes, 60)
    return f"{hours}:{m:02}:{s:02}" if hours else f"{m}:{s:02}"


def _cmd_serve(args: argparse.Namespace) -> int:
    from smokejumper.service.server import serve

    serve(args.host, args.port)
    return 0


def _cmd_cache(args: argparse.Namespace) -> int:
    if not Path(args.file).is_file():
        raise UsageError(f"no result cache at {args.file}")
    if not args.clear and (args.game or args.operation or args.unused_days is not None):
        raise UsageError("--game, --operation and --unused-days select what --clear removes: add --clear")
    if args.unused_days is not None and not (math.isfinite(args.unused_days) and args.unused_days >= 0):
        raise UsageError(f"--unused-days must be a number of days >= 0, got {args.unused_days}")
    try:
        cache = ResultCache(args.file)
        removed = cache.clear(args.game, args.operation, None if args.unused_days is None else
                              args.unused_days * 86400) if args.clear else None
        counts = cache.counts()
    except (ValueError, sqlite3.Error) as e:
        raise UsageError(f"result cache {args.file}: {e}") from None
    counts.pop("max_bytes")  # the cap is the opener's (the service's setting), not the file's
    for what in ("hits", "misses", "write_errors"):  # this process's, not the file's
        counts.pop(what)
    if removed is not None:
        counts["removed"] = removed
    if args.json:
        print(json.dumps(counts, indent=2))
        return 0
    if removed is not None:
        print(f"removed {removed} entries")
    print(f"{counts['entries']} entries, {counts['bytes']:,} bytes")
    for k in counts["by_operation"]:
        print(f"  {k['game']} {k['operation']}: {k['entries']} entries ({k['finished']} finished), "
              f"{k['bytes']:,} bytes, last used {time.strftime('%Y-%m-%d %H:%M', time.localtime(k['last_used']))}")
    return 0


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid port {text!r}: expected a number 1-65535") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 1-65535, got {port}")
    return port


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="smokejumper", description="Solve and analyse fire-themed tabletop games.",
                epilog=EXIT_CODES)
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    verbs: dict[str, list[tuple[Game, Operation]]] = {}
    for game in registered():
        for op in game.operations.values():
            verbs.setdefault(op.name, []).append((game, op))
    for verb, offered in verbs.items():
        summary = "; ".join(f"{g.name}: {op.summary[0].lower()}{op.summary[1:]}" for g, op in offered)
        v = sub.add_parser(verb, help=", ".join(g.name for g, _ in offered), description=summary, epilog=EXIT_CODES)
        games = v.add_subparsers(dest="game", metavar="GAME", required=True, parser_class=_Parser)
        for game, op in offered:
            c = games.add_parser(game.name, help=op.summary, description=f"{game.title} {op.summary[0].lower()}"
                                 f"{op.summary[1:]}.", epilog=EXIT_CODES)
            _add_options(c, op)
            c.set_defaults(handler=lambda args, game=game, op=op: _run(game, op, args))
    s = sub.add_parser("serve", help="run the web service", description="Run the web service.", epilog=EXIT_CODES)
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    s.add_argument("--port", type=_port, default=8000, help="TCP port, 1-65535 (default: 8000)")
    s.set_defaults(handler=_cmd_serve)
    k = sub.add_parser("cache", help="what a result cache holds; clear it, or a part",
                       description="What a result cache file holds, per game and operation; with --clear, "
                                   "remove its entries (those of --game, --operation, or not used for "
                                   "--unused-days only, when given).", epilog=EXIT_CODES)
    k.add_argument("file", metavar="FILE", help="the cache file (--cache of a search, SMOKEJUMPER_CACHE)")
    k.add_argument("--clear", action="store_true", help="remove the entries selected (default: all)")
    k.add_argument("--game", choices=[g.name for g in registered()], default=None, help="only this game's entries")
    k.add_argument("--operation", choices=search_operation_names(), default=None, help="only this operation's entries")
    k.add_argument("--unused-days", type=float, default=None, metavar="D", help="only entries not used for D days")
    k.add_argument("--json", action="store_true", help="print the counts as JSON")
    k.set_defaults(handler=_cmd_cache)
    return p


def _main(argv: list[str] | None) -> int:
    try:
        args = _parser().parse_args(argv)
        return args.handler(args)
    except (UsageError, InvalidPositionError) as e:
        _fail(str(e))
    except KeyboardInterrupt:
        # Nothing on stdout: a half-done search is not an answer (ask for one
        # with --max-seconds); one line on stderr, as for bad input.
        print(("\n" if _progress_shown else "") + "smokejumper: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def main(argv: list[str] | None = None) -> int:
    try:
        try:
            return _main(argv)
        finally:
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
    except BrokenPipeError:
        # The reader left (`| head`): not an error worth a word. Point stdout
        # at /dev/null so the interpreter's final flush of what is still
        # buffered does not raise again, and exit as a tool killed by SIGPIPE.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
