"""The ``smokejumper`` command. Other tools call it, so its JSON output and
exit codes are a contract: 0 success, 1 a replayed line that does not win,
2 bad input (one line on stderr, never a traceback)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from smokejumper import InvalidPositionError, Limit, fire, volcano, wildfire
from smokejumper._inputs import MAX_INPUT_BYTES, input_bytes, parse_json
from smokejumper.stats import wilson_interval

# The CLI never runs unbounded unless asked: a user waiting at a terminal
# wants an answer or a clear "unknown".
DEFAULT_SECONDS = 60.0
GAMES = ("volcano", "fire")


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
    try:
        return Limit(nodes=args.max_nodes, seconds=args.max_seconds, memory_mb=args.max_memory_mb)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _flight_text(f: volcano.Flight) -> str:
    return f"colour {f.color} into ({f.tile[0]}, {f.tile[1]}) flying {volcano.DIRECTIONS[f.dir]}"


def _emit(result: Any, as_json: bool, text: str) -> None:
    print(json.dumps(result.model_dump(mode="json"), separators=(",", ":")) if as_json else text)


def _value_text(v: fire.Value) -> str:
    lo, hi = v.interval
    return f"{v.win_probability:.9f}" if v.exact else f"in [{lo:.9f}, {hi:.9f}] (not exact)"


def _move_text(m: fire.Move) -> str:
    if m.give:
        return "give it to the partner"
    text = f"weapon {m.weapon}"
    if m.target is not None:
        text += f", fire at alien {m.target}"
        if m.destroy is not None:
            text += f", destroy energy {m.destroy.energy}/{m.destroy.crosshairs} crosshairs"
    return text


def _cmd_solve_fire(args: argparse.Namespace) -> int:
    result = fire.solve(_read(args.file), _limit(args))
    s = result.stats
    certain = {True: "yes", False: "no", None: "not settled"}[result.won_for_certain]
    text = (f"win probability: {_value_text(result)}\n"
            f"won whatever the reveals: {certain}\n"
            f"nodes: {s.nodes}  states: {s.states_stored}  seconds: {s.seconds:.3f}  stopped by: {s.stopped_by or '-'}")
    _emit(result, args.json, text)
    return 0


def _cmd_hint_fire(args: argparse.Namespace) -> int:
    result = fire.hint(_read(args.file), _limit(args))

    def choices(cs: list[fire.Choice], indent: str) -> list[str]:
        return [f"{indent}{_value_text(c)}  {_move_text(c.move)}"
                + (f"  (+{len(c.equivalent)} equivalent)" if c.equivalent else "") for c in cs]

    lines = [f"{result.status}: win probability {_value_text(result)}"]
    lines += choices(result.choices, "  ")
    for r in result.reveals:
        lines.append(f"  if energy {r.battery.energy}/{r.battery.crosshairs} crosshairs comes up "
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
    result = wildfire.solve(_read(args.file), _limit(args))
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
    result = volcano.solve(_read(args.file), _limit(args))
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
        result = wildfire.hint(_read(args.file), _limit(args), workers=args.workers, **options)
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


def _replay_step_text(game: str, step: Any) -> str:
    if game == "fire":
        return (f"reveal energy {step.step.reveal.energy}/{step.step.reveal.crosshairs}"
                if isinstance(step.step, fire.Reveal) else _move_text(step.step))
    if game == "wildfire":
        return _wildfire_move_text(step.move)
    return (f"{_flight_text(step.flight)}: dropped {step.dropped}, "
            f"extinguished {len(step.extinguished)}, isolated {len(step.isolated)}")


def _cmd_replay(args: argparse.Namespace) -> int:
    replay = {"fire": fire.replay, "wildfire": wildfire.replay, "volcano": volcano.replay}[args.game]
    result = replay(_read(args.file), _read_line(args.line))
    if args.json:
        _emit(result, True, "")
    else:
        for i, step in enumerate(result.steps, 1):
            print(f"{i:2}. {_replay_step_text(args.game, step)} -> {step.status}")
        if result.error:
            print(f"illegal: {result.error}")
        print(f"result: {result.status}")
    return 0 if result.status == "win" and not result.error else 1


def _how(result: fire.SolveResult) -> str:
    return "proved won whatever the reveals" if result.won_for_certain else "expectimax"


def _cmd_analyse_fire(args: argparse.Namespace) -> int:
    level = fire.levels.team_level1() if args.mode == "team" else fire.levels.default_level1()
    if args.aliens is not None and not 1 <= args.aliens <= len(level.aliens):
        raise UsageError(f"--aliens must be 1..{len(level.aliens)}")
    position = level.position(aliens=args.aliens)
    limit = _limit(args)
    try:
        fixed = fire.strategy(position, games=args.games, seed=args.seed, limit=limit)
    except ValueError as e:
        raise UsageError(str(e)) from None
    optimal = fire.solve(position, limit)
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


def _progress(done: int, total: int) -> None:
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
    misplaced = [f"--{k}" for k, games in _ANALYSE_OPTIONS.items()
                 if getattr(args, k) is not None and args.game not in games]
    if misplaced:
        raise UsageError(f"analyse {args.game} does not take {', '.join(misplaced)}")
    if args.game == "fire":
        return _cmd_analyse_fire(args)
    wild = args.game == "wildfire"
    count, needed = (args.deals, "--deals N") if wild else (args.layouts, "--layouts N")
    if count is None or (wild and args.level is None):
        raise UsageError(f"analyse {args.game} needs {needed}" + (" --level L" if wild else ""))
    progress = None if args.json else _progress
    try:
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


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="smokejumper", description="Solve and analyse fire-themed tabletop games.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def game_command(name: str, help_text: str, handler, games: tuple[str, ...] = GAMES) -> argparse.ArgumentParser:
        c = sub.add_parser(name, help=help_text)
        c.add_argument("game", choices=games)
        c.set_defaults(handler=handler)
        return c

    def limits(c: argparse.ArgumentParser) -> None:
        c.add_argument("--max-seconds", type=float, default=DEFAULT_SECONDS, metavar="S")
        c.add_argument("--max-nodes", type=int, default=None, metavar="N")
        c.add_argument("--max-memory-mb", type=int, default=None, metavar="M")
        c.add_argument("--json", action="store_true", help="print the result as JSON")

    c = game_command("solve", "volcano, wildfire: win/loss/unknown with a winning line; fire: the win "
                     "probability", _cmd_solve, GAMES + ("wildfire",))
    c.add_argument("file", help="position JSON, or - for standard input")
    limits(c)
    c = game_command("hint", "every distinct move with its value; wildfire: every legal move with its "
                     "share of won deals (hidden order: sampled deals; the position needs 'drawn')", _cmd_hint,
                     GAMES + ("wildfire",))
    c.add_argument("file", help="position JSON, or - for standard input")
    c.add_argument("--samples", type=int, default=None, metavar="N", help="wildfire: deals to sample (default 200)")
    c.add_argument("--seed", type=int, default=None, metavar="S", help="wildfire: sampling seed (default 0)")
    c.add_argument("--sample-nodes", type=int, default=None, metavar="N",
                   help=f"wildfire: node cap of each solve (default {wildfire.DEFAULT_SAMPLE_NODES:,})")
    c.add_argument("--workers", type=int, default=None, help="wildfire: threads (default: every core)")
    limits(c)
    c = game_command("generate", "a random standard layout", _cmd_generate, ("volcano",))
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--solvable", action="store_true", help="only a layout proved winnable")
    c.add_argument("--rate", action="store_true", help="also measure its difficulty")
    limits(c)
    c = game_command("analyse", "volcano: the share of random standard layouts that can be won; "
                     "wildfire: the share of random full deals of a level that can be won with the order "
                     "known; fire: a level's optimal win probability against the fixed strategy", _cmd_analyse,
                     GAMES + ("wildfire",))
    c.add_argument("--layouts", type=int, default=None, metavar="N", help="volcano: how many layouts")
    c.add_argument("--deals", type=int, default=None, metavar="N", help="wildfire: how many deals")
    c.add_argument("--level", type=int, default=None, metavar="L", help="wildfire: the level, 1-3")
    c.add_argument("--seed", type=int, default=1,
                   help="first layout or deal seed, or the simulation seed (default 1)")
    c.add_argument("--workers", type=int, default=None, help="volcano, wildfire: threads (default: every core)")
    c.add_argument("--mode", choices=("solo", "team"), default="solo", help="fire: the Level 1 to analyse")
    c.add_argument("--aliens", type=int, default=None, help="fire: keep only the first N aliens")
    c.add_argument("--games", type=int, default=100000, help="fire: simulated games of the fixed strategy")
    limits(c)
    c = game_command("replay", "play a line; exit 0 only if it wins", _cmd_replay, GAMES + ("wildfire",))
    c.add_argument("file", help="position JSON, or - for standard input")
    c.add_argument("line", help="JSON list of moves (fire: and reveals), or an object with a \"line\"")
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
