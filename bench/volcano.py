"""Benchmarks for the Volcano! solver. Prints markdown tables of ratios
measured side by side in one run, plus nodes/s and memory; absolute times
on shared machines are noise.

    .venv/bin/python bench/volcano.py [--seconds 60] [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import volcano_reference as ref  # noqa: E402  (the independent Python solver)

from measure import peak_rss_mb  # noqa: E402
from smokejumper import Limit, volcano  # noqa: E402


def standard_layouts(seconds: float, seeds: range) -> None:
    print(f"\n## Standard layouts, seeds {seeds.start}-{seeds.stop - 1} (limit {seconds:g} s each, one core)\n")
    print("| seed | verdict | nodes | seconds | nodes/s | line length |")
    print("| ---: | --- | ---: | ---: | ---: | ---: |")
    times, decided = [], 0
    for seed in seeds:
        position = volcano.generate(seed).position
        r = volcano.solve(position, Limit(seconds=seconds, memory_mb=1024))
        s = r.stats
        times.append(s.seconds)
        decided += r.verdict != "unknown"
        print(f"| {seed} | {r.verdict} | {s.nodes:,} | {s.seconds:.3f} | {s.nodes_per_second:,.0f} | "
              f"{len(r.line) if r.line else '-'} |", flush=True)
    print(f"\ndecided {decided}/{len(times)}; median {statistics.median(times):.3f} s; "
          f"max {max(times):.3f} s; peak RSS so far {peak_rss_mb():.0f} MiB")


def reference_ratio(count: int) -> None:
    rng = random.Random(2024)
    layouts = []
    while len(layouts) < count:
        n = rng.randint(5, 7)
        supply = [rng.randint(0, 3) for _ in range(rng.randint(1, 3))]
        if sum(supply):
            layouts.append(ref.random_free_layout(rng, n, supply))
    t0 = time.perf_counter()
    cpp = [volcano.solve(p).verdict for p in layouts]
    t_cpp = time.perf_counter() - t0
    t0 = time.perf_counter()
    plain = [volcano.solve(p, use_pruning=False, use_sleep_sets=False).verdict for p in layouts]
    t_plain = time.perf_counter() - t0
    t0 = time.perf_counter()
    py = [ref.solve(p)["verdict"] for p in layouts]
    t_py = time.perf_counter() - t0
    agree = sum(a == b == c for a, b, c in zip(cpp, py, plain))
    print(f"\n## C++ against the Python reference ({count} free layouts of 5-7 tiles)\n")
    print("| solver | total seconds | per layout (ms) |")
    print("| --- | ---: | ---: |")
    print(f"| C++ (table, pruning, merging) | {t_cpp:.3f} | {1000 * t_cpp / count:.2f} |")
    print(f"| C++ plain (table and merging only, like the reference) | {t_plain:.3f} | {1000 * t_plain / count:.2f} |")
    print(f"| Python reference (plain DFS, loss memo) | {t_py:.3f} | {1000 * t_py / count:.2f} |")
    print(f"\nratio: **{t_py / t_cpp:,.0f}x** (plain C++: {t_py / t_plain:,.0f}x); verdicts agree on "
          f"{agree}/{count}; C++ times include pybind11 and pydantic overhead per call")


def ablation(seeds: list[int], seconds: float) -> None:
    print(f"\n## What each optimisation is worth (limit {seconds:g} s each)\n")
    print("| seed | configuration | verdict | nodes | seconds | nodes/s | table MiB |")
    print("| ---: | --- | --- | ---: | ---: | ---: | ---: |")
    configs = [("all on", True, True, True), ("no table", False, True, True),
               ("no pruning", True, False, True), ("no sleep sets", True, True, False)]
    for seed in seeds:
        position = volcano.generate(seed).position
        for name, table, pruning, sleep in configs:
            r = volcano.solve(position, Limit(seconds=seconds, memory_mb=256), use_table=table,
                              use_pruning=pruning, use_sleep_sets=sleep)
            s = r.stats
            print(f"| {seed} | {name} | {r.verdict} | {s.nodes:,} | {s.seconds:.3f} | "
                  f"{s.nodes_per_second:,.0f} | {s.table_bytes / 2**20:.0f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0, help="limit per standard layout")
    parser.add_argument("--quick", action="store_true", help="a short run (smoke test)")
    args = parser.parse_args()
    print(f"# smokejumper benchmarks ({time.strftime('%Y-%m-%d')})")
    if args.quick:
        standard_layouts(min(args.seconds, 5), range(3, 8))
        reference_ratio(10)
        ablation([8], 5)
    else:
        standard_layouts(args.seconds, range(1, 21))
        reference_ratio(40)
        ablation([2, 9, 10, 17, 18], 30)
    print(f"\npeak RSS: {peak_rss_mb():.0f} MiB")


if __name__ == "__main__":
    main()
