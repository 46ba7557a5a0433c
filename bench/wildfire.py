"""Benchmarks for the Wild Fire! solver, against issue 4's targets. Prints
markdown tables: known-order verdicts on seeded full deals (one core), the
layouts-first search against move by move on the same deals, hidden-order
hints, the winnable share per level (every core), and peak memory.

    .venv/bin/python bench/wildfire.py [--seconds 60] [--deals 1000] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from measure import peak_rss_mb  # noqa: E402
from smokejumper import Limit, wildfire

LEVELS = (1, 2, 3)


def known_order(count: int, seconds: float) -> dict[int, list[wildfire.SolveResult]]:
    """Seeds 1..count at every level, one at a time; win lines replayed."""
    print(f"\n## Known-order verdicts: full deals of seeds 1-{count} (limit {seconds:g} s each, one core)\n")
    print("| level | deals | decided | wins | losses | unknown (seeds) | median s | mean s | max s | nodes/s | "
          "decided by layouts | win lines replayed |")
    print("| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    runs = {}
    for level in LEVELS:
        results, unknown, replayed = [], [], 0
        for seed in range(1, count + 1):
            position = wildfire.deal(seed, level)
            r = wildfire.solve(position, Limit(seconds=seconds))
            results.append(r)
            if r.verdict == "unknown":
                unknown.append(seed)
            if r.verdict == "win":
                replayed += wildfire.replay(position, r.line).status == "win"
        runs[level] = results
        verdicts = Counter(r.verdict for r in results)
        times = [r.stats.seconds for r in results]
        nodes = sum(r.stats.nodes for r in results)
        by_layouts = sum(r.stats.decided_by == "layouts" for r in results)
        print(f"| {level} | {count} | {count - len(unknown)} | {verdicts['win']} | {verdicts['loss']} | "
              f"{len(unknown)}{' ' + str(unknown) if unknown else ''} | {statistics.median(times):.4f} | "
              f"{statistics.mean(times):.3f} | {max(times):.2f} | {nodes / sum(times):,.0f} | {by_layouts} | "
              f"{replayed}/{verdicts['win']} |", flush=True)
    return runs


def layouts_ablation(runs: dict[int, list[wildfire.SolveResult]], count: int, seconds: float) -> None:
    """The same deals move by move only (the layouts-first search off)."""
    print(f"\n## Layouts first against move by move only: seeds 1-{count} of each level "
          f"(move by move: limit {seconds:g} s each)\n")
    print("| level | layouts first: decided | median s | total s | move by move: decided | median s | total s | "
          "verdicts agree | slowdown: median | slowdown: total |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for level in LEVELS:
        first = runs[level][:count]
        plain = [wildfire.solve(wildfire.deal(seed, level), Limit(seconds=seconds), use_layouts=False)
                 for seed in range(1, count + 1)]
        agree = sum(a.verdict == b.verdict for a, b in zip(first, plain) if "unknown" not in (a.verdict, b.verdict))
        both = sum("unknown" not in (a.verdict, b.verdict) for a, b in zip(first, plain))
        t_first = [r.stats.seconds for r in first]
        t_plain = [r.stats.seconds for r in plain]
        # A move-by-move solve stopped at its limit took at least that long.
        at_least = ">= " if any(r.verdict == "unknown" for r in plain) else ""
        ratio = statistics.median(t_plain) / max(statistics.median(t_first), 1e-9)
        total = sum(t_plain) / max(sum(t_first), 1e-9)
        print(f"| {level} | {sum(r.verdict != 'unknown' for r in first)} | {statistics.median(t_first):.4f} | "
              f"{sum(t_first):.2f} | {sum(r.verdict != 'unknown' for r in plain)} | {statistics.median(t_plain):.4f} | "
              f"{sum(t_plain):.2f} | {agree}/{both} | {at_least}{ratio:,.0f}x | {at_least}{total:,.1f}x |", flush=True)


def hidden_position(seed: int, level: int, turns: int) -> wildfire.Position:
    """Deal ``seed`` after ``turns`` turns of the solver's winning line, as
    its player sees it (wildfire.hidden: the order hidden, the next tile
    drawn)."""
    known = wildfire.deal(seed, level)
    line = wildfire.solve(known, Limit(seconds=60)).line
    if line is None:
        raise SystemExit(f"deal {seed} at level {level} is not won within 60 s; pick another for the hints")
    return wildfire.hidden(wildfire.replay(known, line[:turns]).position)


def hints(seed: int, level: int, stages: dict[str, int], samples: int, seconds: float) -> None:
    print(f"\n## Hidden-order hints: deal {seed}, level {level}, after k turns of its winning line "
          f"({samples} samples, {wildfire.DEFAULT_SAMPLE_NODES:,} nodes per solve, every core, "
          f"limit {seconds:g} s per hint)\n")
    print("| stage | turns played | legal moves | samples counted | solves | seconds | seconds per "
          f"{samples} samples | nodes/s | best move: wins / losses / unknown |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for stage, turns in stages.items():
        position = hidden_position(seed, level, turns)
        r = wildfire.hint(position, Limit(seconds=seconds), samples=samples)
        s, best = r.stats, r.choices[0]
        per = f"{s.seconds * samples / r.samples:.1f}" if r.samples else "-"
        if r.samples < samples:
            per = f"~{per} (extrapolated)"
        print(f"| {stage} | {turns} | {len(r.choices)} | {r.samples} | {s.solves:,} | {s.seconds:.1f} | {per} | "
              f"{s.nodes_per_second:,.0f} | {best.wins} / {best.losses} / {best.unknown} |", flush=True)


def shares(count: int, seconds: float) -> None:
    print(f"\n## Winnable share per level: full deals of seeds 1-{count}, order known "
          f"(limit {seconds:g} s each, every core)\n")
    print("| level | deals | wins | losses | unknown | winnable share | 95% interval | median ms | max s | "
          "nodes/s per thread | wall s | threads |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    undecided = {}
    for level in LEVELS:
        a = wildfire.analyse(count, level=level, limit=Limit(seconds=seconds))
        lo, hi = a.interval95
        undecided[level] = [r.seed for r in a.results if r.verdict == "unknown"]
        print(f"| {level} | {a.deals} | {a.wins} | {a.losses} | {a.unknown} | {a.win_share:.4f} | "
              f"[{lo:.4f}, {hi:.4f}] | {1000 * a.median_seconds:.2f} | {a.max_seconds:.2f} | "
              f"{a.nodes_per_second:,.0f} | {a.wall_seconds:.1f} | {a.workers} |", flush=True)
    for level, seeds in undecided.items():
        if seeds:
            print(f"\nlevel {level} undecided: seeds {', '.join(map(str, seeds))}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0, help="limit per known-order solve")
    parser.add_argument("--deals", type=int, default=1000, help="deals per level for the winnable share")
    parser.add_argument("--quick", action="store_true", help="a short run (smoke test)")
    args = parser.parse_args()
    print(f"# Wild Fire! benchmarks ({time.strftime('%Y-%m-%d')})")
    if args.quick:
        runs = known_order(10, min(args.seconds, 5))
        layouts_ablation(runs, 5, 1.0)
        hints(1, 1, {"early": 3, "late": 30}, 10, 60)
        shares(min(args.deals, 50), min(args.seconds, 5))
    else:
        runs = known_order(100, args.seconds)
        layouts_ablation(runs, 20, 2.0)
        hints(1, 1, {"early": 3, "mid": 17, "late": 30}, 200, 600)
        shares(args.deals, args.seconds)
    print(f"\npeak RSS: {peak_rss_mb():.0f} MiB")


if __name__ == "__main__":
    main()
