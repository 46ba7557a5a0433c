"""The ``smokejumper`` command. Other tools call it, so its JSON output and
exit codes are a contract: 0 success, 1 a replayed line that does not win,
2 bad input (one line on stderr, never a traceback)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from smokejumper import InvalidPositionError, Limit, volcano
from smokejumper._inputs import MAX_INPUT_BYTES, parse_json

# The CLI never runs unbounded unless asked: a user waiting at a terminal
# wants an answer or a clear "unknown".
DEFAULT_SECONDS = 60.0
GAMES = ("volcano",)


class UsageError(Exception):
    pass


def _fail(message: str) -> NoReturn:
    print(f"smokejumper: error: {message}", file=sys.stderr)
    raise SystemExit(2)


class _Parser(argparse.ArgumentParser):
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
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{path} is larger than {MAX_INPUT_BYTES} bytes")
    return data


def _read_line(path: str) -> list[Any]:
    """A line file holds a list of flights, or an object with a "line" (so
    that `solve --json` output can be replayed as it is)."""
    try:
        data = parse_json(_read(path))
    except InvalidPositionError as e:
        raise UsageError(f"{path}: {e}") from None
    if isinstance(data, dict) and "line" in data:
        data = data["line"]
    if not isinstance(data, list):
        raise UsageError(f"{path}: expected a list of flights or an object with a \"line\"")
    return data


def _limit(args: argparse.Namespace) -> Limit:
    try:
        return Limit(nodes=args.max_nodes, seconds=args.max_seconds, memory_mb=args.max_memory_mb)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _flight_text(f: volcano.Flight) -> str:
    return f"colour {f.color} into ({f.tile[0]}, {f.tile[1]}) flying {volcano.DIRECTIONS[f.dir]}"


def _emit(result: Any, as_json: bool, text: str) -> None:
    print(json.dumps(result.model_dump(mode="json"), separators=(",", ":")) if as_json else text)


def _cmd_solve(args: argparse.Namespace) -> int:
    result = volcano.solve(_read(args.file), _limit(args))
    s = result.stats
    lines = [f"verdict: {result.verdict}"]
    for i, f in enumerate(result.line or [], 1):
        lines.append(f"  {i:2}. {_flight_text(f)}")
    lines.append(f"nodes: {s.nodes}  seconds: {s.seconds:.3f}  stopped by: {s.stopped_by or '-'}")
    _emit(result, args.json, "\n".join(lines))
    return 0


def _cmd_hint(args: argparse.Namespace) -> int:
    result = volcano.hint(_read(args.file), _limit(args))
    lines = [f"{m.value:7} {_flight_text(m.flight)}" + (f"  (+{len(m.equivalent)} equivalent)" if m.equivalent else "")
             for m in result.moves]
    lines.append(f"nodes: {result.stats.nodes}  seconds: {result.stats.seconds:.3f}")
    _emit(result, args.json, "\n".join(lines))
    return 0


def _cmd_generate(args: argparse.Namespace) -> int:
    try:
        result = volcano.generate(args.seed, solvable=args.solvable, rate=args.rate, limit=_limit(args))
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.solvable and result.verdict != "win":
        _fail(f"no layout proved solvable within the limits ({result.attempts} attempts)")
    text = json.dumps(result.position.model_dump(mode="json", exclude={"setup"}), indent=1)
    _emit(result, args.json, text)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    result = volcano.replay(_read(args.file), _read_line(args.line))
    if args.json:
        _emit(result, True, "")
    else:
        for i, step in enumerate(result.steps, 1):
            print(f"{i:2}. {_flight_text(step.flight)}: dropped {step.dropped}, "
                  f"extinguished {len(step.extinguished)}, isolated {len(step.isolated)} -> {step.status}")
        if result.error:
            print(f"illegal: {result.error}")
        print(f"result: {result.status}")
    return 0 if result.status == "win" and not result.error else 1


def _cmd_analyse(args: argparse.Namespace) -> int:
    def progress(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="", file=sys.stderr, flush=True)
        if done == total:
            print(file=sys.stderr)

    try:
        result = volcano.analyse(args.layouts, seed=args.seed, limit=_limit(args), workers=args.workers,
                                 progress=None if args.json else progress)
    except ValueError as e:
        raise UsageError(str(e)) from None
    lo, hi = result.interval95
    text = "\n".join([
        f"standard layouts, seeds {args.seed}..{args.seed + args.layouts - 1}",
        "| layouts | wins | losses | unknown | winnable share | 95% interval | median nodes | median seconds |",
        "| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
        f"| {result.layouts} | {result.wins} | {result.losses} | {result.unknown} | {result.win_share:.3f} | "
        f"[{lo:.3f}, {hi:.3f}] | {result.median_nodes:,.0f} | {result.median_seconds:.3f} |",
    ])
    _emit(result, args.json, text)
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    uvicorn.run("smokejumper.service.app:app", host=args.host, port=args.port, log_level="info")
    return 0


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="smokejumper", description="Solve and analyse fire-themed tabletop games.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def game_command(name: str, help_text: str, handler) -> argparse.ArgumentParser:
        c = sub.add_parser(name, help=help_text)
        c.add_argument("game", choices=GAMES)
        c.set_defaults(handler=handler)
        return c

    def limits(c: argparse.ArgumentParser) -> None:
        c.add_argument("--max-seconds", type=float, default=DEFAULT_SECONDS, metavar="S")
        c.add_argument("--max-nodes", type=int, default=None, metavar="N")
        c.add_argument("--max-memory-mb", type=int, default=None, metavar="M")
        c.add_argument("--json", action="store_true", help="print the result as JSON")

    c = game_command("solve", "win/loss/unknown with a winning line", _cmd_solve)
    c.add_argument("file", help="position JSON, or - for standard input")
    limits(c)
    c = game_command("hint", "every distinct move with its value", _cmd_hint)
    c.add_argument("file", help="position JSON, or - for standard input")
    limits(c)
    c = game_command("generate", "a random standard layout", _cmd_generate)
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--solvable", action="store_true", help="only a layout proved winnable")
    c.add_argument("--rate", action="store_true", help="also measure its difficulty")
    limits(c)
    c = game_command("analyse", "the share of random standard layouts that can be won", _cmd_analyse)
    c.add_argument("--layouts", type=int, required=True, metavar="N")
    c.add_argument("--seed", type=int, default=1, help="first layout seed (default 1)")
    c.add_argument("--workers", type=int, default=None, help="threads (default: every core)")
    limits(c)
    c = game_command("replay", "play a line; exit 0 only if it wins", _cmd_replay)
    c.add_argument("file", help="position JSON, or - for standard input")
    c.add_argument("line", help="JSON list of moves, or an object with a \"line\"")
    c.add_argument("--json", action="store_true")
    s = sub.add_parser("serve", help="run the web service")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.set_defaults(handler=_cmd_serve)
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.handler(args)
    except (UsageError, InvalidPositionError) as e:
        _fail(str(e))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
