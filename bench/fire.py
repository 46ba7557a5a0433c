"""Benchmarks for the Fire! solver. Prints markdown tables: ratios measured
side by side in one run (C++ against the Python reference, pruning on
against off), nodes/s, states stored and memory.

    .venv/bin/python bench/fire.py [--seconds 60] [--quick] [--tables NAME,...]   (cache: issue 19's figure)
                                   [--long SECONDS [--team [--first ENERGY:give|place]] [--memory-mb MB]]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fire_reference as ref  # noqa: E402  (the independent Python brute force)

from measure import peak_rss_mb  # noqa: E402
from served import serving  # noqa: E402
from smokejumper import Limit, fire  # noqa: E402


def value_text(v: fire.Value) -> str:
    lo, hi = v.interval
    return f"{v.win_probability:.9f}" if v.exact else f"[{lo:.9f}, {hi:.9f}]"


def levels(seconds: float, aliens: list[int], games: int) -> None:
    print(f"\n## Level 1 from its start (limit {seconds:g} s each, one core, 4 GiB table)\n")
    print("| level | aliens | optimal win probability | won for certain | nodes | states stored | seconds | nodes/s | "
          "fixed strategy (exact) | fixed strategy (simulated) |")
    print("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | --- | --- |")
    for level in (fire.levels.default_level1(), fire.levels.team_level1()):
        for a in aliens:
            position = level.position(aliens=a)
            limit = Limit(seconds=seconds, memory_mb=4096)
            r = fire.solve(position, limit)
            s = fire.strategy(position, games=games, seed=1, limit=limit)
            print(f"| {level.name} | {a} | {value_text(r)} | {r.won_for_certain} | {r.stats.nodes:,} | "
                  f"{r.stats.states_stored:,} | {r.stats.seconds:.1f} | {r.stats.nodes_per_second:,.0f} | {value_text(s)} | "
                  f"{s.wins / max(1, s.games):.4f} ({s.games:,} games) |", flush=True)
    print(f"\npeak RSS so far {peak_rss_mb():.0f} MiB")


def first_batteries(level: fire.levels.Level, aliens: int, n: int) -> fire.Position:
    """The level with `aliens` aliens and only the first `n` batteries of
    each deck."""
    position = level.position(aliens=aliens)
    if position.players:
        return position.model_copy(update={"players": [p.model_copy(update={"draw": p.draw[:n]})
                                                       for p in position.players]})
    return position.model_copy(update={"draw": position.draw[:n]})


def small_decks(seconds: float) -> None:
    """Exact values where the exact search finishes: one alien, the first
    batteries of the Level 1 deck; against the plain expectimax (no
    pruning, no certain-win question)."""
    print(f"\n## One alien, the first n batteries of the Level 1 deck (limit {seconds:g} s)\n")
    print("| n | win probability | exact | nodes | states | seconds | nodes/s | plain expectimax: nodes | ratio |")
    print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in (9, 10, 11, 12, 13):
        position = first_batteries(fire.levels.default_level1(), 1, n)
        r = fire.solve(position, Limit(seconds=seconds, memory_mb=4096))
        plain = fire.solve(position, Limit(seconds=seconds, memory_mb=4096), use_pruning=False, use_certain=False)
        ratio = plain.stats.nodes / max(1, r.stats.nodes)
        print(f"| {n} | {value_text(r)} | {r.exact} | {r.stats.nodes:,} | {r.stats.states_stored:,} | "
              f"{r.stats.seconds:.2f} | {r.stats.nodes_per_second:,.0f} | {plain.stats.nodes:,}"
              f"{'' if plain.exact else ' (unfinished)'} | {ratio:.2f}x |", flush=True)


def ratio_cells(on: fire.SolveResult, off: fire.SolveResult) -> str:
    """The node and time ratios of a side-by-side pair, as table cells."""
    return (f"{off.stats.nodes / max(1, on.stats.nodes):.2f}x | "
            f"{off.stats.seconds / max(1e-9, on.stats.seconds):.2f}x |")


def side_by_side(seconds: float, cases: list[tuple[str, int, int]], on: dict, off: dict):
    """Each (mode, aliens, batteries per deck) case solved with the `on`
    switches and then the `off` ones, under the same limit."""
    levels_by_mode = {"solo": fire.levels.default_level1(), "team": fire.levels.team_level1()}
    for mode, aliens, n in cases:
        position = first_batteries(levels_by_mode[mode], aliens, n)
        limit = Limit(seconds=seconds, memory_mb=4096)
        yield mode, aliens, n, fire.solve(position, limit, **on), fire.solve(position, limit, **off)


def dominance(seconds: float, cases: list[tuple[str, int, int]]) -> None:
    """The expectimax's dominance bounds (a hit or an exchange more never
    hurts) on against off, on decks where both runs finish."""
    print(f"\n## Dominance bounds on against off (limit {seconds:g} s each)\n")
    print("| level | aliens | batteries per deck | win probability | nodes | states | seconds | "
          "settled by dominance | off: nodes | off: seconds | node ratio | time ratio |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for mode, aliens, n, on, off in side_by_side(seconds, cases, {"use_certain": False},
                                                 {"use_certain": False, "use_dominance": False}):
        print(f"| {mode} | {aliens} | {n} | {value_text(on)} | {on.stats.nodes:,} | {on.stats.states_stored:,} | "
              f"{on.stats.seconds:.1f} | {on.stats.dominance_prunes:,} | {off.stats.nodes:,}"
              f"{'' if off.exact else ' (unfinished)'} | {off.stats.seconds:.1f} | " + ratio_cells(on, off), flush=True)


def certain(seconds: float, cases: list[tuple[str, int, int]]) -> None:
    """The AND-OR "won whatever the reveals?" search that solve runs first,
    against the expectimax alone (use_certain=False), side by side."""
    print(f"\n## Won for certain? solve against the expectimax alone (limit {seconds:g} s each)\n")
    print("| level | aliens | batteries per deck | won for certain | win probability | nodes | states | seconds | "
          "expectimax alone | its nodes | its seconds | node ratio | time ratio |")
    print("| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    # Without the team split plan, which would decide the team cases first.
    for mode, aliens, n, on, off in side_by_side(seconds, cases, {"use_split": False},
                                                 {"use_certain": False, "use_split": False}):
        print(f"| {mode} | {aliens} | {n} | {on.won_for_certain} | {value_text(on)} | {on.stats.nodes:,} | "
              f"{on.stats.states_stored:,} | {on.stats.seconds:.1f} | {value_text(off)} | {off.stats.nodes:,} | "
              f"{off.stats.seconds:.1f} | " + ratio_cells(on, off), flush=True)


def focus(seconds: float, cases: list[tuple[str, int, int]]) -> None:
    """The certain-win question asked first with the focused choices
    against asking it with every choice at once (use_focus=False)."""
    print(f"\n## Won for certain? focused choices first against every choice (limit {seconds:g} s each)\n")
    print("| level | aliens | batteries per deck | won for certain | decided by | nodes | states | seconds | "
          "every choice: won | its nodes | its seconds | node ratio | time ratio |")
    print("| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for mode, aliens, n, on, off in side_by_side(seconds, cases, {"use_split": False},
                                                 {"use_focus": False, "use_split": False}):
        print(f"| {mode} | {aliens} | {n} | {on.won_for_certain} | {on.stats.decided_by} | {on.stats.nodes:,} | "
              f"{on.stats.states_stored:,} | {on.stats.seconds:.1f} | {off.won_for_certain} | {off.stats.nodes:,} | "
              f"{off.stats.seconds:.1f} | " + ratio_cells(on, off), flush=True)


def split(seconds: float, aliens: list[int]) -> None:
    """Team Level 1: solve with the split plan first (each player destroys
    a share of the aliens alone) against solve without it, side by side."""
    print(f"\n## Team: the split plan first against without it (limit {seconds:g} s each)\n")
    print("| aliens | best split | its value | its seconds | solve: value | decided by | seconds | "
          "without: value | without: won for certain | without: seconds | time ratio |")
    print("| ---: | --- | --- | ---: | --- | --- | ---: | --- | --- | ---: | ---: |")
    for mode, a, n, on, off in side_by_side(seconds, [("team", a, 10) for a in aliens], {}, {"use_split": False}):
        t0 = time.perf_counter()
        plan = fire.split(first_batteries(fire.levels.team_level1(), a, n), Limit(seconds=seconds, memory_mb=4096))
        plan_seconds = time.perf_counter() - t0
        print(f"| {a} | {len(plan.aliens[0])} + {len(plan.aliens[1])} | {value_text(plan)} | {plan_seconds:.2f} | "
              f"{value_text(on)} | {on.stats.decided_by} | {on.stats.seconds:.1f} | {value_text(off)} | "
              f"{off.won_for_certain} | {off.stats.seconds:.1f} | {time_ratio(on, off)} |", flush=True)


def move_text(m: fire.Move) -> str:
    if m.give:
        return "give"
    if m.target is None:
        return f"weapon {m.weapon}"
    return f"weapon {m.weapon}, alien {m.target}, destroy {m.destroy.energy}/{m.destroy.crosshairs}" if m.destroy \
        else f"weapon {m.weapon}, alien {m.target}"


def team_hint(seconds: float) -> None:
    """The hint at the start of team Level 1 against solve under the same
    limit: each reveal's choices, best first, with their proved intervals."""
    position = fire.levels.team_level1().position()
    limit = Limit(seconds=seconds, memory_mb=4096)
    h = fire.hint(position, limit)
    r = fire.solve(position, limit)
    print(f"\n## Team Level 1: the hint at its start (limit {seconds:g} s, 4 GiB)\n")
    print(f"Hint: {value_text(h)} in {h.stats.seconds:.1f} s; solve under the same limit: {value_text(r)} "
          f"in {r.stats.seconds:.1f} s.\n")
    print("| first battery | probability | choice | its value |")
    print("| --- | ---: | --- | --- |")
    for reveal in h.reveals:
        for c in reveal.choices:
            print(f"| {reveal.battery.energy}/{reveal.battery.crosshairs} | {reveal.probability:.1f} | "
                  f"{move_text(c.move)} | {value_text(c)} |", flush=True)


def time_ratio(on: fire.SolveResult, off: fire.SolveResult) -> str:
    """How many times longer `off` took; a floor when it did not finish."""
    if not on.exact and not off.exact:
        return "both at the limit"
    return f"{'' if off.exact else '> '}{off.stats.seconds / max(1e-9, on.stats.seconds):.1f}x"


def reference_ratio(count: int) -> None:
    rng = random.Random(7)
    positions = [ref.random_position(rng, "solo", max_cards=8) for _ in range(count)]
    positions += [ref.random_position(rng, "team", max_cards=8) for _ in range(count)]
    t0 = time.perf_counter()
    mine = [fire.solve(p).win_probability for p in positions]
    t_cpp = time.perf_counter() - t0
    t0 = time.perf_counter()
    theirs = [float(ref.win_probability(p)) for p in positions]
    t_ref = time.perf_counter() - t0
    worst = max(abs(a - b) for a, b in zip(mine, theirs))
    print(f"\n## C++ against the Python reference ({len(positions)} small positions, solo and team)\n")
    print("| C++ seconds | reference seconds | ratio | largest difference |")
    print("| ---: | ---: | ---: | ---: |")
    print(f"| {t_cpp:.3f} | {t_ref:.3f} | {t_ref / t_cpp:.0f}x | {worst:.1e} |")
    # Tiny positions measure call overhead; a larger one measures the search.
    level = fire.levels.default_level1()
    larger = level.position(aliens=1).model_copy(update={"draw": level.deck[:10]}).model_dump(mode="json")
    t0 = time.perf_counter()
    mine = fire.solve(larger).win_probability
    t_cpp = time.perf_counter() - t0
    t0 = time.perf_counter()
    theirs = float(ref.win_probability(larger))
    t_ref = time.perf_counter() - t0
    print(f"\nOne alien, the first 10 Level 1 batteries: C++ {t_cpp:.3f} s, reference {t_ref:.1f} s, "
          f"ratio {t_ref / t_cpp:.0f}x, difference {abs(mine - theirs):.1e}")


def long_run(seconds: float, team: bool, memory_mb: int, first: str | None) -> None:
    """Level 1 from its start with a long limit: the run that proves the
    solo level won for certain (value 1) stores tens of millions of states.
    With `first` ("4:give", "1:place"): the team level after that first
    battery and choice, asked "won for certain?" at once (no split plan),
    one of the subtrees whose proofs make up the level's."""
    level = fire.levels.team_level1() if team else fire.levels.default_level1()
    position, name = level.position(), level.name
    if first:
        energy, _, choice = first.partition(":")
        battery = next((b for b in level.deck if str(b.energy) == energy), None)
        if battery is None or choice not in ("give", "place"):
            sys.exit(f"--first {first}: need ENERGY:give or ENERGY:place, with a battery of that energy in the deck")
        move = {"give": True} if choice == "give" else {"weapon": 0}
        position = fire.replay(position, [{"reveal": battery.model_dump()}, move]).position
        name += f" after a first {energy} and {choice}"
    print(f"\n## {name}, one long run (limit {seconds:g} s, {memory_mb:,} MB)\n")
    r = fire.solve(position, Limit(seconds=seconds, memory_mb=memory_mb), use_split=not first)
    print(f"{value_text(r)}, exact {r.exact}, won for certain {r.won_for_certain}, {r.stats.nodes:,} nodes, {r.stats.states_stored:,} states, "
          f"{r.stats.seconds:.0f} s, {r.stats.nodes_per_second:,.0f} nodes/s, peak RSS {peak_rss_mb():.0f} MiB")


def served_from_the_cache(seconds: float, requests: int = 20) -> None:
    """The result cache (issue 19): solo Level 1 with the order hidden,
    longer than the service's default 10 s cap, searched once by the CLI
    into a cache file, then asked of a server on that file; exits 1 unless
    every served answer came from the file and equals the searched one."""
    cli = [sys.executable, "-m", "smokejumper.cli"]

    def timed(args: list[str]) -> tuple[float, str]:
        start = time.perf_counter()
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        return time.perf_counter() - start, out

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        position = fire.levels.default_level1().position().model_dump(mode="json")
        (work / "position.json").write_text(json.dumps(position))
        solve = cli + ["solve", "fire", str(work / "position.json"), "--cache", str(work / "cache.sqlite3"),
                       "--max-seconds", str(seconds), "--json"]
        searched_s, searched = timed(solve)
        again_s, again = timed(solve)
        answer = json.loads(searched)
        served: list[float] = []
        answers: list[dict] = []
        with serving({"SMOKEJUMPER_CACHE": str(work / "cache.sqlite3")}, work) as server:
            for _ in range(requests):
                request = urllib.request.Request(server.url + "/v1/fire/solve",
                                                 data=json.dumps({"position": position}).encode(),
                                                 headers={"Content-Type": "application/json"})
                start = time.perf_counter()
                with urllib.request.urlopen(request, timeout=60) as r:
                    answers.append(json.load(r))
                served.append(time.perf_counter() - start)
    same = json.loads(again) == answer and all(
        s["cached"] and {k: v for k, v in s.items() if k not in ("limits", "cached")} == answer for s in answers)
    median = statistics.median(served)
    stopped = answer["stats"]["stopped_by"]
    print(f"\n## Solo Level 1 searched once into the result cache, then served (limit {seconds:g} s)\n")
    print("| what | seconds | against the search |")
    print("| --- | ---: | ---: |")
    print(f"| searched by the CLI (`solve --cache`): {answer['stats']['nodes']:,} nodes, "
          f"{'stopped by ' + stopped if stopped else 'finished'} | {searched_s:.2f} | 1 |")
    print(f"| the CLI again, from the file (Python's start-up included) | {again_s:.2f} | "
          f"{again_s / searched_s:.4f} |")
    print(f"| served by the service from the file, median of {requests} | {median:.4f} | "
          f"{median / searched_s:.6f} |")
    print(f"| served, max | {max(served):.4f} | {max(served) / searched_s:.6f} |")
    print(f"\nwin probability {answer['win_probability']}, won for certain {answer['won_for_certain']}; every "
          f"served answer from the cache and equal to the searched one: {'yes' if same else 'NO'}")
    if not same:
        sys.exit("served from the cache: an answer differed from the searched one")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0, help="limit per search")
    parser.add_argument("--quick", action="store_true", help="a short run (smoke test)")
    parser.add_argument("--long", type=float, metavar="SECONDS",
                        help="only Level 1 from its start, with this limit (try 2400)")
    parser.add_argument("--team", action="store_true", help="with --long: the team level")
    parser.add_argument("--memory-mb", type=int, default=8000, help="with --long: the memory limit")
    parser.add_argument("--first", metavar="ENERGY:give|place",
                        help="with --long --team: start after this first battery and choice")
    parser.add_argument("--tables", help="only these tables of the full run, comma-separated: "
                                         "reference, small, certain, focus, dominance, split, hint, levels, cache")
    args = parser.parse_args()
    print(f"# Fire! benchmarks ({time.strftime('%Y-%m-%d')})")
    if args.long:
        long_run(args.long, args.team, args.memory_mb, args.first)
        return
    if args.quick:
        reference_ratio(10)
        small_decks(min(args.seconds, 5))
        certain(min(args.seconds, 5), [("solo", 1, 15), ("team", 1, 7)])
        focus(min(args.seconds, 5), [("solo", 3, 13), ("team", 1, 7)])
        dominance(min(args.seconds, 5), [("solo", 2, 11), ("team", 1, 6)])
        split(min(args.seconds, 5), [2, 4])
        team_hint(min(args.seconds, 5))
        levels(min(args.seconds, 5), [1], 2000)
    else:
        s = args.seconds
        tables = {
            "reference": lambda: reference_ratio(40),
            "small": lambda: small_decks(s),
            "certain": lambda: certain(s, [("solo", 1, 15), ("solo", 2, 11), ("solo", 3, 13), ("solo", 4, 14),
                                           ("solo", 5, 15), ("team", 1, 7), ("team", 1, 10), ("team", 2, 10),
                                           ("team", 3, 10)]),
            "focus": lambda: focus(s, [("solo", 3, 13), ("solo", 4, 14), ("solo", 5, 15), ("solo", 2, 11),
                                       ("team", 2, 10), ("team", 3, 10), ("team", 1, 7)]),
            "dominance": lambda: dominance(s, [("solo", 2, 11), ("solo", 3, 12), ("solo", 3, 13), ("solo", 4, 14),
                                               ("team", 1, 7), ("team", 2, 7)]),
            "split": lambda: split(s, [1, 2, 3, 4, 5]),
            "hint": lambda: team_hint(s),
            "levels": lambda: levels(s, [1, 2, 5], 100000),
            "cache": lambda: served_from_the_cache(s),
        }
        chosen = args.tables.split(",") if args.tables else list(tables)
        unknown = set(chosen) - set(tables)
        if unknown:
            parser.error(f"--tables: no table named {', '.join(sorted(unknown))}; choose from {', '.join(tables)}")
        for name in chosen:
            tables[name]()
    print(f"\npeak RSS: {peak_rss_mb():.0f} MiB")


if __name__ == "__main__":
    main()
