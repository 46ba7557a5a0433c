"""The ``smokejumper`` command. Other tools call it, so its JSON output and
exit codes are a contract: 0 success, 1 a replayed line that does not win
(an illegal step, or legal steps that end before a win), 2 bad input (one
line on stderr, never a traceback), 130 interrupted by Ctrl-C (the search is
stopped, nothing is printed on stdout), 141 standard output closed early (as
by ``| head``; quietly, like a tool killed by SIGPIPE)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any, Callable, NoReturn, TypeVar

from smokejumper import Control, InvalidPositionError, Limit, fire, volcano, wildfire
from smokejumper._inputs import MAX_INPUT_BYTES, input_bytes, load_model, parse_json
from smokejumper.limits import DEFAULT_MEMORY_MB
from smokejumper.stats import wilson_interval

# The CLI never runs unbounded unless asked: a user waiting at a terminal
# wants an answer or a clear "unknown".
DEFAULT_SECONDS = 60.0
GAMES = ("volcano", "fire")
ALL_GAMES = GAMES + ("wildfire",)
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for `yes | head`
STOP_GRACE_SECONDS = 1.0  # after Ctrl-C, how long a search may take to stop before the CLI leaves anyway
EXIT_CODES = ("exit codes: 0 success; 1 a replayed line that does not win; 2 bad input (a file, "
              "an option); 130 interrupted by Ctrl-C; 141 standard output closed early")

T = TypeVar("T")


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
    if input_bytes(data) > MAX_INPUT_BYTES:
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
    seconds = DEFAULT_SECONDS if args.max_seconds is None else args.max_seconds
    try:
        return Limit(nodes=args.max_nodes, seconds=seconds, memory_mb=args.max_memory_mb)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _search(run: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``run(*args, control=..., **kwargs)`` on a worker thread. The C++
    search runs with the GIL released, so a main thread waiting inside it
    would see Ctrl-C only when it ends; here the main thread waits in short
    steps, and Ctrl-C stops the search through its Control (the core polls
    it) and surfaces as KeyboardInterrupt at once. Every search of every
    verb goes through here; ``analyse`` batches stop their own (_batch.run)."""
    control = Control()
    outcome: list[tuple[bool, Any]] = []
    done = threading.Event()

    def work() -> None:
        try:
            outcome.append((True, run(*args, control=control, **kwargs)))
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
            # that does not poll the Control (fire.strategy's simulated
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


def _flight_text(f: volcano.Flight) -> str:
    return f"colour {f.color} into ({f.tile[0]}, {f.tile[1]}) flying {volcano.DIRECTIONS[f.dir]}"


def _emit(result: Any, as_json: bool, text: str) -> None:
    print(json.dumps(result.model_dump(mode="json"), separators=(",", ":")) if as_json else text)


def _value_text(v: fire.Value) -> str:
    lo, hi = v.interval
    return f"{v.win_probability:.9f}" if v.exact else f"in [{lo:.9f}, {hi:.9f}] (not exact)"


def _battery_text(b: fire.Battery) -> str:
    """``battery (energy 1, 2 crosshairs)``: two numbers that cannot be read as a fraction."""
    n = b.crosshairs or 0
    return f"battery (energy {b.energy}, {n} crosshair{'' if n == 1 else 's'})"


def _move_text(m: fire.Move) -> str:
    if m.give:
        return "give it to the partner"
    text = f"weapon {m.weapon}"
    if m.target is not None:
        text += f", fire at alien {m.target}"
        if m.destroy is not None:
            text += f", destroy {_battery_text(m.destroy)}"
    return text


def _cmd_solve_fire(args: argparse.Namespace) -> int:
    result = _search(fire.solve, _read(args.file), _limit(args))
    s = result.stats
    certain = {True: "yes", False: "no", None: "not settled"}[result.won_for_certain]
    text = (f"win probability: {_value_text(result)}\n"
            f"won whatever the reveals: {certain}\n"
            f"nodes: {s.nodes}  states: {s.states_stored}  seconds: {s.seconds:.3f}  stopped by: {s.stopped_by or '-'}")
    _emit(result, args.json, text)
    return 0


def _cmd_hint_fire(args: argparse.Namespace) -> int:
    result = _search(fire.hint, _read(args.file), _limit(args))

    def choices(cs: list[fire.Choice], indent: str) -> list[str]:
        return [f"{indent}{_value_text(c)}  {_move_text(c.move)}"
                + (f"  (+{len(c.equivalent)} equivalent)" if c.equivalent else "") for c in cs]

    lines = [f"{result.status}: win probability {_value_text(result)}"]
    lines += choices(result.choices, "  ")
    for r in result.reveals:
        lines.append(f"  if {_battery_text(r.battery)} comes up "
                     f"(probability {r.probability:.4f}): {_value_text(r)}")
        lines += choices(r.choices, "    ")
    lines.append(f"nodes: {result.stats.nodes}  seconds: {result.stats.seconds:.3f}")
    _emit(result, args.json, "\n".join(lines))
    return 0


def _wildfire_move_text(m: wildfire.Move) -> str:
    text = f"place at ({m.place[0]}, {m.place[1]})"
    if m.pawns is not None:
        p = m.pawns
        text += f", {p.count} pawn{'s' if p.count > 1 else ''} of colour {p.color} on ({p.tile[0]}, {p.tile[1]})"
    return text


def _cmd_solve_wildfire(args: argparse.Namespace) -> int:
    result = _search(wildfire.solve, _read(args.file), _limit(args))
    s = result.stats
    lines = [f"verdict: {result.verdict}"]
    lines += [f"  {i:2}. {_wildfire_move_text(m)}" for i, m in enumerate(result.line or [], 1)]
    lines.append(f"nodes: {s.nodes}  seconds: {s.seconds:.3f}  stopped by: {s.stopped_by or '-'}")
    _emit(result, args.json, "\n".join(lines))
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    if args.game == "fire":
        return _cmd_solve_fire(args)
    if args.game == "wildfire":
        return _cmd_solve_wildfire(args)
    result = _search(volcano.solve, _read(args.file), _limit(args))
    s = result.stats
    lines = [f"verdict: {result.verdict}"]
    for i, f in enumerate(result.line or [], 1):
        lines.append(f"  {i:2}. {_flight_text(f)}")
    lines.append(f"nodes: {s.nodes}  seconds: {s.seconds:.3f}  stopped by: {s.stopped_by or '-'}")
    _emit(result, args.json, "\n".join(lines))
    return 0


def _cmd_hint_wildfire(args: argparse.Namespace) -> int:
    try:
        options = {k: getattr(args, k) for k in ("samples", "seed", "sample_nodes") if getattr(args, k) is not None}
        result = _search(wildfire.hint, _read(args.file), _limit(args), workers=args.workers, **options)
    except ValueError as e:  # InvalidPositionError included
        raise UsageError(str(e)) from None
    d = result.drawn
    drawn = f"drawn: tile {d.n} with {d.spaces} space{'s' if d.spaces > 1 else ''}"
    if result.exact:
        lines = [f"{drawn}; one possible deal, so exact verdicts"]
        verdict = {(1, 0, 0): "win", (0, 1, 0): "loss"}
        lines += [f"  {verdict.get((c.wins, c.losses, c.unknown), 'unknown'):7} {_wildfire_move_text(c.move)}"
                  for c in result.choices]
    else:
        lines = [f"{drawn}; {result.samples} of {result.samples_requested} "
                 f"sampled deals counted (seed {result.seed})",
                 "| move | wins | losses | unknown | win share | 95% interval |",
                 "| --- | ---: | ---: | ---: | ---: | --- |"]
        lines += [f"| {_wildfire_move_text(c.move)} | {c.wins} | {c.losses} | {c.unknown} | {c.win_share:.3f} | "
                  f"[{c.interval95[0]:.3f}, {c.interval95[1]:.3f}] |" for c in result.choices]
    s = result.stats
    lines.append(f"nodes: {s.nodes}  solves: {s.solves}  seconds: {s.seconds:.3f}  stopped by: {s.stopped_by or '-'}")
    _emit(result, args.json, "\n".join(lines))
    return 0


def _cmd_hint(args: argparse.Namespace) -> int:
    if args.game == "wildfire":
        return _cmd_hint_wildfire(args)
    given = [f"--{k.replace('_', '-')}" for k in ("samples", "seed", "sample_nodes", "workers")
             if getattr(args, k) is not None]
    if given:
        raise UsageError(f"{', '.join(given)}: only for hint wildfire")
    if args.game == "fire":
        return _cmd_hint_fire(args)
    result = _search(volcano.hint, _read(args.file), _limit(args))
    lines = [f"{m.value:7} {_flight_text(m.flight)}" + (f"  (+{len(m.equivalent)} equivalent)" if m.equivalent else "")
             for m in result.moves]
    lines.append(f"nodes: {result.stats.nodes}  seconds: {result.stats.seconds:.3f}")
    _emit(result, args.json, "\n".join(lines))
    return 0


def _misplaced(args: argparse.Namespace, options: dict[str, tuple[str, ...]]) -> None:
    """Refuse options given for a game that does not take them (an option
    left at its default, None or False, counts as not given)."""
    given = [f"--{k.replace('_', '-')}" for k, games in options.items()
             if getattr(args, k) is not None and getattr(args, k) is not False and args.game not in games]
    if given:
        raise UsageError(f"{args.command} {args.game} does not take {', '.join(given)}")


_LIMIT_OPTIONS = ("max_seconds", "max_nodes", "max_memory_mb")
_GENERATE_OPTIONS = {"solvable": ("volcano",), "rate": ("volcano",), "mode": ("fire",), "aliens": ("fire",),
                     "level": ("wildfire",), "hidden": ("wildfire",),
                     **{k: ("volcano",) for k in _LIMIT_OPTIONS}}


def _check_seed(seed: int | None) -> None:
    if seed is not None and not 0 <= seed < 2**64:
        raise UsageError(f"seed must be 0..2**64-1, got {seed}")


def _print_json_text(data: Any, as_json: bool) -> None:
    """A generated position: indented JSON (a position file) or one line."""
    print(json.dumps(data, separators=(",", ":")) if as_json else json.dumps(data, indent=1))


def _generate_summary(result: volcano.GenerateResult, rate: bool) -> list[str]:
    """What `generate --solvable/--rate` found, for people (stderr, so that
    standard output stays a position file)."""
    attempts = f"{result.attempts} attempt{'s' if result.attempts > 1 else ''}"
    found = f"layout seed {result.layout_seed} ({attempts}): {result.verdict}"
    if result.verdict == "win":
        found += f", won in {len(result.line or [])} flights"
    lines = [found]
    if rate:
        d = result.difficulty
        if d is None:
            lines.append(f"rating: none (only a layout proved won is rated; this one is {result.verdict})")
        elif not d.complete:
            lines.append(f"rating: unfinished, the limit stopped it after {d.steps} of "
                         f"{len(result.line or [])} steps (winning share unknown; raise --max-seconds "
                         f"or --max-nodes)")
        else:
            lines.append(f"rating: winning share {d.winning_share:.3f} (the mean share of flights that keep "
                         f"it winnable, along the line; lower is harder), {d.forced_steps} of {d.steps} steps "
                         f"forced, solved in {d.solve_nodes:,} nodes")
    return lines


def _cmd_generate(args: argparse.Namespace) -> int:
    _misplaced(args, _GENERATE_OPTIONS)
    _check_seed(args.seed)
    if args.game == "fire":
        return _cmd_generate_fire(args)
    if args.seed is None:
        raise UsageError(f"generate {args.game} needs --seed S")
    if args.game == "wildfire":
        return _cmd_generate_wildfire(args)
    try:
        result = _search(volcano.generate, args.seed, solvable=args.solvable, rate=args.rate, limit=_limit(args))
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.solvable and result.verdict != "win":
        _fail(f"no layout proved solvable within the limits ({result.attempts} attempts)")
    text = json.dumps(result.position.model_dump(mode="json", exclude={"setup"}), indent=1)
    _emit(result, args.json, text)
    if not args.json and (args.solvable or args.rate):
        print("\n".join(_generate_summary(result, args.rate)), file=sys.stderr)
    return 0


def _cmd_generate_fire(args: argparse.Namespace) -> int:
    """A Fire! level's start: hidden order, or a known order dealt with --seed."""
    level = fire.levels.team_level1() if args.mode == "team" else fire.levels.default_level1()
    if args.aliens is not None and not 1 <= args.aliens <= len(level.aliens):
        raise UsageError(f"--aliens must be 1..{len(level.aliens)}")
    position = level.position(aliens=args.aliens, seed=args.seed).model_dump(mode="json")
    if args.json:
        _print_json_text({"level": level.model_dump(mode="json"), "aliens": len(position["aliens"]),
                          "seed": args.seed, "position": position}, True)
    else:
        _print_json_text(position, False)
        order = "hidden" if args.seed is None else f"known (dealt with seed {args.seed})"
        print(f"{level.name}, {len(position['aliens'])} aliens, order {order}; assumed: "
              f"{'; '.join(level.assumptions)}", file=sys.stderr)
    return 0


def _cmd_generate_wildfire(args: argparse.Namespace) -> int:
    """The full deal of a seed (wildfire.deal), known order or --hidden."""
    level = 1 if args.level is None else args.level
    try:
        position = wildfire.deal(args.seed, level)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.hidden:
        position = wildfire.hidden(position)
    data = position.model_dump(mode="json", exclude_none=True)  # no "spaces": null on every tile
    if args.json:
        _print_json_text({"seed": args.seed, "level": level, "hidden": args.hidden, "position": data}, True)
    else:
        _print_json_text(data, False)
    return 0


def _replay_step_text(game: str, step: Any) -> str:
    if game == "fire":
        return (f"reveal {_battery_text(step.step.reveal)}"
                if isinstance(step.step, fire.Reveal) else _move_text(step.step))
    if game == "wildfire":
        return _wildfire_move_text(step.move)
    return (f"{_flight_text(step.flight)}: dropped {step.dropped}, "
            f"extinguished {len(step.extinguished)}, isolated {len(step.isolated)}")


def _fire_steps(path: str, items: list[Any]) -> list[fire.Move | fire.Reveal]:
    """A Fire! line's steps checked for shape here, as the other games' are
    by their replay: a malformed step is a bad file (exit 2), and only a
    well-formed step the rules refuse is an illegal step (exit 1)."""
    steps: list[fire.Move | fire.Reveal] = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise UsageError(f"{path}: line[{i}]: expected a move or {{\"reveal\": battery}}")
        try:
            steps.append(load_model(fire.Reveal if "reveal" in item else fire.Move, item))
        except InvalidPositionError as e:
            raise UsageError(f"{path}: line[{i}]: {e}") from None
    return steps


def _cmd_replay(args: argparse.Namespace) -> int:
    replay = {"fire": fire.replay, "wildfire": wildfire.replay, "volcano": volcano.replay}[args.game]
    line = _read_line(args.line)
    if args.game == "fire":
        line = _fire_steps(args.line, line)
    result = replay(_read(args.file), line)
    if args.json:
        _emit(result, True, "")
    else:
        for i, step in enumerate(result.steps, 1):
            print(f"{i:2}. {_replay_step_text(args.game, step)} -> {step.status}")
        if result.error:
            print(f"illegal: {result.error}")
        print(f"result: {result.status}")
    # 0 only for a line that is legal to its end and wins, with or without --json.
    return 0 if result.status == "win" and result.error is None else 1


def _how(result: fire.SolveResult) -> str:
    return "proved won whatever the reveals" if result.won_for_certain else "expectimax"


def _cmd_analyse_fire(args: argparse.Namespace) -> int:
    level = fire.levels.team_level1() if args.mode == "team" else fire.levels.default_level1()
    if args.aliens is not None and not 1 <= args.aliens <= len(level.aliens):
        raise UsageError(f"--aliens must be 1..{len(level.aliens)}")
    position = level.position(aliens=args.aliens)
    limit = _limit(args)
    try:
        fixed = _search(fire.strategy, position, games=args.games, seed=args.seed, limit=limit)
    except ValueError as e:
        raise UsageError(str(e)) from None
    optimal = _search(fire.solve, position, limit)
    lo, hi = wilson_interval(fixed.wins, fixed.games) if fixed.games else (0.0, 1.0)
    result = fire.Analysis(level=level, aliens=len(position.aliens), optimal=optimal, strategy=fixed,
                           strategy_simulated=fixed.wins / fixed.games if fixed.games else 0.0,
                           strategy_interval95=(lo, hi))
    text = "\n".join([
        f"{level.name}, {len(position.aliens)} aliens (assumed: {'; '.join(level.assumptions)})",
        "| play | win probability | how |",
        "| --- | --- | --- |",
        f"| optimal | {_value_text(optimal)} | {_how(optimal)}, {optimal.stats.nodes:,} nodes, "
        f"{optimal.stats.seconds:.1f} s |",
        f"| fixed strategy | {_value_text(fixed)} | exact policy value |",
        f"| fixed strategy | {result.strategy_simulated:.4f} [{lo:.4f}, {hi:.4f}] | {fixed.games:,} simulated games, seed {args.seed} |",
    ])
    _emit(result, args.json, text)
    return 0


_progress_shown = False  # a progress bar is on stderr without its newline


def _progress(done: int, total: int) -> None:
    global _progress_shown
    _progress_shown = done < total
    width = 30
    filled = width * done // total
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="", file=sys.stderr, flush=True)
    if done == total:
        print(file=sys.stderr)


def _share_table(title: str, noun: str, count: int, result: Any, cost: dict[str, str]) -> str:
    """The summary of a batch of verdicts, with the game's ``cost`` columns."""
    lo, hi = result.interval95
    heads = [noun, "wins", "losses", "unknown", "winnable share", "95% interval", *cost]
    aligns = ["---:"] * 5 + ["---"] + ["---:"] * len(cost)
    cells = [str(count), str(result.wins), str(result.losses), str(result.unknown), f"{result.win_share:.3f}",
             f"[{lo:.3f}, {hi:.3f}]", *cost.values()]
    return "\n".join([title] + ["| " + " | ".join(row) + " |" for row in (heads, aligns, cells)])


# Options of `analyse` that only some games take (those without a default).
_ANALYSE_OPTIONS = {"layouts": ("volcano",), "deals": ("wildfire",), "level": ("wildfire",),
                    "workers": ("volcano", "wildfire")}


def _cmd_analyse(args: argparse.Namespace) -> int:
    _misplaced(args, _ANALYSE_OPTIONS)
    if args.game == "fire":
        return _cmd_analyse_fire(args)
    wild = args.game == "wildfire"
    count, needed = (args.deals, "--deals N") if wild else (args.layouts, "--layouts N")
    if count is None or (wild and args.level is None):
        raise UsageError(f"analyse {args.game} needs {needed}" + (" --level L" if wild else ""))
    progress = None if args.json else _progress
    try:  # in this thread: _batch.run stops its solves itself on Ctrl-C
        if wild:
            result = wildfire.analyse(count, level=args.level, seed=args.seed, limit=_limit(args),
                                      workers=args.workers, progress=progress)
        else:
            result = volcano.analyse(count, seed=args.seed, limit=_limit(args), workers=args.workers,
                                     progress=progress)
    except ValueError as e:
        raise UsageError(str(e)) from None
    seeds = f"seeds {args.seed}..{args.seed + count - 1}"
    if wild:
        text = _share_table(
            f"Wild Fire! level {args.level}, full deals of {seeds}, order known", "deals", count, result,
            {"median ms": f"{1000 * result.median_seconds:,.2f}", "max ms": f"{1000 * result.max_seconds:,.2f}",
             "median nodes": f"{result.median_nodes:,.0f}", "nodes/s": f"{result.nodes_per_second:,.0f}"})
        text += f"\nwall time {result.wall_seconds:.1f} s on {result.workers} threads"
    else:
        text = _share_table(f"standard layouts, {seeds}", "layouts", count, result,
                            {"median nodes": f"{result.median_nodes:,.0f}",
                             "median seconds": f"{result.median_seconds:.3f}"})
    _emit(result, args.json, text)
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    uvicorn.run("smokejumper.service.app:app", host=args.host, port=args.port, log_level="info")
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

    def game_command(name: str, help_text: str, handler, games: tuple[str, ...] = GAMES,
                     epilog: str = EXIT_CODES) -> argparse.ArgumentParser:
        c = sub.add_parser(name, help=help_text, description=help_text, epilog=epilog)
        c.add_argument("game", choices=games)
        c.set_defaults(handler=handler)
        return c

    def limits(c: argparse.ArgumentParser, scope: str) -> None:
        """The limit options; ``scope`` says what one limit bounds. Their
        argparse defaults are None, so that a game that takes none can tell
        them given; the real defaults are in the help."""
        c.add_argument("--max-seconds", type=float, default=None, metavar="S",
                       help=f"time limit {scope}, in seconds (default: {DEFAULT_SECONDS:g})")
        c.add_argument("--max-nodes", type=int, default=None, metavar="N",
                       help=f"node limit {scope} (default: none)")
        c.add_argument("--max-memory-mb", type=int, default=None, metavar="M",
                       help=f"transposition table size of each search, in MiB (default: {DEFAULT_MEMORY_MB})")
        c.add_argument("--json", action="store_true", help="print the result as JSON")

    c = game_command("solve", "volcano, wildfire: win/loss/unknown with a winning line; fire: the win "
                     "probability", _cmd_solve, ALL_GAMES)
    c.add_argument("file", help="position JSON, or - for standard input")
    limits(c, "of the search")
    c = game_command("hint", "every distinct move with its value; wildfire: every legal move with its "
                     "share of won deals (hidden order: sampled deals; the position needs 'drawn')", _cmd_hint,
                     ALL_GAMES)
    c.add_argument("file", help="position JSON, or - for standard input")
    c.add_argument("--samples", type=int, default=None, metavar="N", help="wildfire: deals to sample (default 200)")
    c.add_argument("--seed", type=int, default=None, metavar="S", help="wildfire: sampling seed (default 0)")
    c.add_argument("--sample-nodes", type=int, default=None, metavar="N",
                   help=f"wildfire: node cap of each solve (default {wildfire.DEFAULT_SAMPLE_NODES:,})")
    c.add_argument("--workers", type=int, default=None, help="wildfire: threads (default: every core)")
    limits(c, "of the whole hint (its moves share it)")
    c = game_command("generate", "volcano: a random standard layout; fire: a level's start position; "
                     "wildfire: the full deal of a seed. Standard output is a position file", _cmd_generate,
                     ALL_GAMES)
    c.add_argument("--seed", type=int, default=None, metavar="S",
                   help="volcano, wildfire (required): the layout or deal; fire: deal a known order "
                        "(default: the order is hidden)")
    c.add_argument("--solvable", action="store_true", help="volcano: only a layout proved winnable")
    c.add_argument("--rate", action="store_true",
                   help="volcano: also measure its difficulty (on stderr, or in --json)")
    c.add_argument("--mode", choices=("solo", "team"), default=None, help="fire: the Level 1 (default: solo)")
    c.add_argument("--aliens", type=int, default=None, metavar="N",
                   help="fire: keep only the first N aliens (default: all five)")
    c.add_argument("--level", type=int, default=None, metavar="L", help="wildfire: the level, 1-3 (default: 1)")
    c.add_argument("--hidden", action="store_true",
                   help="wildfire: the deal as its player sees it at the first turn: order hidden, the "
                        "second tile drawn")
    limits(c, "of all the solving of --solvable and --rate together (volcano)")
    c = game_command("analyse", "volcano: the share of random standard layouts that can be won; "
                     "wildfire: the share of random full deals of a level that can be won with the order "
                     "known; fire: a level's optimal win probability against the fixed strategy. The limits "
                     "are per layout or deal, not for the whole run", _cmd_analyse, ALL_GAMES)
    c.add_argument("--layouts", type=int, default=None, metavar="N", help="volcano: how many layouts")
    c.add_argument("--deals", type=int, default=None, metavar="N", help="wildfire: how many deals")
    c.add_argument("--level", type=int, default=None, metavar="L", help="wildfire: the level, 1-3")
    c.add_argument("--seed", type=int, default=1,
                   help="first layout or deal seed, or the simulation seed (default 1)")
    c.add_argument("--workers", type=int, default=None, help="volcano, wildfire: threads (default: every core)")
    c.add_argument("--mode", choices=("solo", "team"), default="solo", help="fire: the Level 1 to analyse")
    c.add_argument("--aliens", type=int, default=None, help="fire: keep only the first N aliens")
    c.add_argument("--games", type=int, default=100000, help="fire: simulated games of the fixed strategy")
    limits(c, "per layout or deal, not for the whole run (fire: for the optimal solve and for the "
              "strategy's value, each)")
    c = game_command("replay", "play a line: exit 0 if every step is legal and the game ends won; exit 1 if "
                     "a step is illegal or the line ends before a win (with or without --json); exit 2 "
                     "if a file is bad", _cmd_replay, ALL_GAMES)
    c.add_argument("file", help="position JSON, or - for standard input")
    c.add_argument("line", help="JSON list of moves (fire: and reveals), or an object with a \"line\"")
    c.add_argument("--json", action="store_true", help="print the replay as JSON")
    s = sub.add_parser("serve", help="run the web service", description="Run the web service.", epilog=EXIT_CODES)
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    s.add_argument("--port", type=_port, default=8000, help="TCP port, 1-65535 (default: 8000)")
    s.set_defaults(handler=_cmd_serve)
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
