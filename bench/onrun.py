"""Benchmarks for the On the Run! known-order solver (issue 20). Prints
markdown tables: the best score on seeded small deals side by side (C++
against the Python reference, C++ with against without its bound), then
seeded full deals (41 turns): the share decided exactly within the limit,
median time, nodes/s; and peak memory.

    .venv/bin/python bench/onrun.py [--seconds 60] [--deals 20] [--small 40] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import onrun_reference as ref  # noqa: E402  (the independent Python brute force)

from measure import peak_rss_mb  # noqa: E402
from smokejumper import Limit, onrun  # noqa: E402

# Small enough for the reference's exhaustive search (5 tiles: seconds a deal): (tiles, supply).
SMALL = [(4, [1, 1, 1, 1]), (4, [2, 2, 1, 1]), (5, [1, 1, 1, 1])]


def small_deals(count: int) -> None:
    print(f"\n## Best score on small seeded deals: C++ against the Python reference, with and without the bound "
          f"({count} deals per size, one core)\n")
    print("| tiles | supply | deals | agree | Python s | C++ s | Python / C++ | C++ nodes | "
          "no bound: nodes | no bound: s | no bound / bound: nodes | no bound / bound: s |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for tiles, supply in SMALL:
        t_py = t_cpp = t_plain = 0.0
        nodes = plain_nodes = agree = 0
        for seed in range(1, count + 1):
            position = onrun.deal(seed, tiles=tiles, supply=supply).position.model_dump(mode="json")
            start = time.perf_counter()
            score, won = ref.best(ref.load(position))
            t_py += time.perf_counter() - start
            r = onrun.solve(position, Limit(seconds=60))
            p = onrun.solve(position, Limit(seconds=60), use_bound=False)
            t_cpp += r.stats.seconds
            t_plain += p.stats.seconds
            nodes += r.stats.nodes
            plain_nodes += p.stats.nodes
            agree += r.exact and p.exact and r.best_score == p.best_score == score and r.won == won
        print(f"| {tiles} | {supply} | {count} | {agree} | {t_py:.3f} | {t_cpp:.4f} | "
              f"{t_py / max(t_cpp, 1e-9):,.0f}x | {nodes:,} | {plain_nodes:,} | {t_plain:.4f} | "
              f"{plain_nodes / max(nodes, 1):,.1f}x | {t_plain / max(t_cpp, 1e-9):,.1f}x |", flush=True)


def full_deals(count: int, seconds: float) -> None:
    print(f"\n## Full deals (41 turns, 12 pawns a colour), seeds 1-{count}: best score, limit {seconds:g} s each, "
          f"one core\n")
    print("| deals | decided exactly | won (a line found) | median s | max s | nodes/s | best scores (exact) | "
          "bounds of the undecided (seed: [lower, upper]) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    results = [(seed, onrun.solve(onrun.deal(seed).position, Limit(seconds=seconds))) for seed in range(1, count + 1)]
    times = [r.stats.seconds for _, r in results]
    nodes = sum(r.stats.nodes for _, r in results)
    exact = sorted(r.best_score for _, r in results if r.exact)
    undecided = ", ".join(f"{seed}: {list(r.score_bounds)}" for seed, r in results if not r.exact)
    print(f"| {count} | {len(exact)} | {sum(r.verdict == 'win' for _, r in results)} | "
          f"{statistics.median(times):.2f} | {max(times):.2f} | {nodes / max(sum(times), 1e-9):,.0f} | "
          f"{exact or '-'} | {undecided or '-'} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0, help="limit per full-deal solve")
    parser.add_argument("--deals", type=int, default=20, help="full deals")
    parser.add_argument("--small", type=int, default=40, help="small deals per size")
    parser.add_argument("--quick", action="store_true", help="a short run (smoke test)")
    args = parser.parse_args()
    print(f"# On the Run! benchmarks ({time.strftime('%Y-%m-%d')})")
    if args.quick:
        small_deals(min(args.small, 5))
        full_deals(min(args.deals, 3), min(args.seconds, 2))
    else:
        small_deals(args.small)
        full_deals(args.deals, args.seconds)
    print(f"\npeak RSS: {peak_rss_mb():.0f} MiB")


if __name__ == "__main__":
    main()
