"""Benchmarks for the On the Run! solvers (issue 20). Prints markdown
tables: the best score on seeded small deals side by side (C++ against the
Python reference, C++ with against without its bound), then seeded full
deals (41 turns): the share decided exactly within the limit, median time,
nodes/s, and the best line found against the solve without its walks,
without its beams and depth-first only; their endgames (k turns from the
end) decided exactly with the bound against without it; the hint's lines
with and without the beams; then the order hidden: the exact expected
score on small pools (C++ against the Python brute force) and a full
game's sampled bounds with their intervals, from the start and 16 turns
from the end, the fixed policy's lower side against the lookahead one's;
and peak memory.

    .venv/bin/python bench/onrun.py [--seconds 60] [--deals 20] [--small 40] [--samples 64] [--quick]
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
    spread_against_depth_first(results, seconds)


def spread_against_depth_first(results: list, seconds: float) -> None:
    """The same deals solved without the walks (``walks=False``), without
    the beams (``beams=False``) and depth-first from the start
    (``spread=False``): what the walks, the beams, and the dive and the
    shares for every first move, are worth, at the run's limit and at
    tight ones, where a share may be too thin to reach a leaf."""
    limits = sorted({0.2, 1.0, seconds})
    print("\n### The best line found: solve, without its walks, without its beams, and depth-first only (mean "
          "over the deals; each deal's lines at the run's limit)\n")
    print("| limit s | deals | solve | without the walks | without the beams | depth-first only | "
          "solve / without the walks | solve / without the beams | solve / depth-first | "
          "deals with no scoring line (solve / depth-first) | "
          "lines, seed by seed (solve / without the walks / without the beams / depth-first) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")

    def lines(limit: float, **options: bool) -> list[int]:
        return [onrun.solve(onrun.deal(seed).position, Limit(seconds=limit), **options).score_bounds[0]
                for seed, _ in results]

    for limit in limits:
        full = [r.score_bounds[0] for _, r in results] if limit == seconds else lines(limit)
        no_walks, no_beams, plain = lines(limit, walks=False), lines(limit, beams=False), lines(limit, spread=False)
        seeds = ", ".join(f"{seed}: {a}/{b}/{c}/{d}"
                          for (seed, _), a, b, c, d in zip(results, full, no_walks, no_beams, plain))
        print(f"| {limit:g} | {len(results)} | {statistics.mean(full):.1f} | {statistics.mean(no_walks):.1f} | "
              f"{statistics.mean(no_beams):.1f} | {statistics.mean(plain):.1f} | "
              f"{sum(full) / max(sum(no_walks), 1):.2f}x | {sum(full) / max(sum(no_beams), 1):.2f}x | "
              f"{sum(full) / max(sum(plain), 1):.2f}x | {sum(v <= 0 for v in full)} / {sum(v <= 0 for v in plain)} | "
              f"{seeds if limit == seconds else '-'} |", flush=True)


def hints(count: int, nodes: int) -> None:
    """The known-order hint on full deals, with each move's dive and beams
    and without (``beams=False``: depth-first under each move): the best
    move's line and the mean of every move's line under one node limit
    (the same on any machine), and the CPU each took."""
    print(f"\n## The hint on full deals, seeds 1-{count}: {nodes:,} nodes a hint, with the beams and without\n")
    print("| deals | best move's line (mean) | without | every move's line (mean) | without | ratio, every move | "
          "CPU s, with / without |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    found: dict[bool, tuple[list[int], list[float], float]] = {}
    for beams in (True, False):
        best, mean, cpu = [], [], time.process_time()
        for seed in range(1, count + 1):
            h = onrun.hint(onrun.deal(seed).position, Limit(nodes=nodes), beams=beams)
            best.append(h.moves[0].score_bounds[0])
            mean.append(statistics.mean(m.score_bounds[0] for m in h.moves))
        found[beams] = (best, mean, time.process_time() - cpu)
    (best, mean, cpu), (best0, mean0, cpu0) = found[True], found[False]
    print(f"| {count} | {statistics.mean(best):.1f} | {statistics.mean(best0):.1f} | {statistics.mean(mean):.1f} | "
          f"{statistics.mean(mean0):.1f} | {sum(mean) / max(sum(mean0), 1e-9):.2f}x | {cpu:.1f} / {cpu0:.1f} |",
          flush=True)


def endgames(count: int, seconds: float, turns: tuple[int, ...] = (2, 3, 4, 5, 6)) -> None:
    """How far from the end the search still decides a full deal exactly:
    positions k turns before the end of a line found quickly (20,000
    nodes), with the bound against without it (cut only by every pawn
    saved). The bound's upper end, where undecided, says how loose it is."""
    print(f"\n### Endgames of full deals: decided exactly within {seconds:g} s, with the bound against without it "
          f"(seeds 1-{count}, k turns before the end of a 20,000-node line; one core)\n")
    print("| turns left | positions | decided, bound | decided, without | median s, bound | nodes/s, bound | "
          "mean upper / lower of the undecided, bound |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    lines = {}
    for seed in range(1, count + 1):
        start = onrun.deal(seed).position
        lines[seed] = (start, onrun.solve(start, Limit(nodes=20_000, seconds=1e9)).line)
    for k in turns:
        positions = [onrun.replay(start, line[:len(line) - k]).position for start, line in lines.values()]
        bound = [onrun.solve(p, Limit(seconds=seconds)) for p in positions]
        without = [onrun.solve(p, Limit(seconds=seconds), use_bound=False) for p in positions]
        loose = [r.score_bounds[1] / max(r.score_bounds[0], 1) for r in bound if not r.exact]
        nodes = sum(r.stats.nodes for r in bound) / max(sum(r.stats.seconds for r in bound), 1e-9)
        print(f"| {k} | {len(positions)} | {sum(r.exact for r in bound)} | {sum(r.exact for r in without)} | "
              f"{statistics.median(r.stats.seconds for r in bound):.2f} | {nodes:,.0f} | "
              f"{f'{statistics.mean(loose):.1f}x' if loose else '-'} |", flush=True)


def hidden_small(count: int) -> None:
    print(f"\n## Order hidden: exact expected score on small pools, C++ against the Python brute force "
          f"({count} positions per size, one core)\n")
    print("| pool | supply | positions | agree | Python s | C++ s | C++ nodes | positive values |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for pool_size, supply in [(2, [1, 1, 0, 0]), (3, [1, 1, 1, 0])]:
        t_py = t_cpp = 0.0
        nodes = agree = positive = 0
        for seed in range(1, count + 1):
            tiles = [{"n": n, "spaces": s} for n, s in onrun._native.deal(seed, pool_size + 2)]
            position = {"start": tiles[:2], "pool": tiles[2:], "supply": supply}
            start = time.perf_counter()
            want = ref.expected_score(ref.Hidden(position))
            t_py += time.perf_counter() - start
            r = onrun.solve(position, Limit(seconds=60))
            t_cpp += r.stats.seconds
            nodes += r.stats.nodes
            agree += r.expected_score == f"{want.numerator}/{want.denominator}"
            positive += want > 0
        print(f"| {pool_size} | {supply} | {count} | {agree} | {t_py:.3f} | {t_cpp:.4f} | {nodes:,} | {positive} |",
              flush=True)


def hidden_full(seconds: float, samples: int) -> None:
    print(f"\n## Order hidden, a full game (box seed 1, 12 pawns a colour): sampled bounds, {samples} deals "
          f"(seed 1), limit {seconds:g} s, one core; the fixed policy against the lookahead one on the same deals\n")
    print("| turns left | policy | samples | policy mean (LOWER bound) [95%] | clairvoyant mean (UPPER bound) [95%] | "
          "clairvoyant from proved bounds | s | stopped by |")
    print("| ---: | --- | ---: | --- | --- | ---: | ---: | --- |")
    box = [t.model_dump() for t in onrun.deal(1).position.deal or []]
    start = {"start": box[:2], "pool": box[2:]}
    # 16 turns from the end: the table after 25 turns of the fixed policy's game.
    played = onrun.replay({"deal": box}, onrun.play_policy({"deal": box}).line[:25]).position
    later = {**played.model_dump(mode="json", include={"tiles", "edge", "supply", "next"}), "pool": box[27:]}
    for position in (start, later):
        for lookahead in (False, True):
            r = onrun.solve(position, Limit(seconds=seconds), seed=1, samples=samples, lookahead=lookahead)
            s = r.sampled
            assert s is not None
            print(f"| {len(position['pool'])} | {'lookahead' if lookahead else 'fixed'} | {s.samples} | "
                  f"{s.policy.estimate:.1f} [{s.policy.interval[0]:.1f}, {s.policy.interval[1]:.1f}] | "
                  f"{s.clairvoyant.estimate:.1f} [{s.clairvoyant.interval[0]:.1f}, {s.clairvoyant.interval[1]:.1f}] | "
                  f"{s.clairvoyant_bounded} | {r.stats.seconds:.1f} | {r.stats.stopped_by or '-'} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0, help="limit per full-deal solve")
    parser.add_argument("--deals", type=int, default=20, help="full deals")
    parser.add_argument("--small", type=int, default=40, help="small deals per size")
    parser.add_argument("--samples", type=int, default=64, help="sampled deals of the hidden-order full game")
    parser.add_argument("--quick", action="store_true", help="a short run (smoke test)")
    args = parser.parse_args()
    print(f"# On the Run! benchmarks ({time.strftime('%Y-%m-%d')})")
    if args.quick:
        small_deals(min(args.small, 5))
        full_deals(min(args.deals, 3), min(args.seconds, 2))
        endgames(min(args.deals, 3), min(args.seconds, 2), (2, 3))
        hints(min(args.deals, 2), 20_000)
        hidden_small(min(args.small, 2))
        hidden_full(min(args.seconds, 10), min(args.samples, 16))
    else:
        small_deals(args.small)
        full_deals(args.deals, args.seconds)
        endgames(args.deals, min(args.seconds, 20))
        hints(min(args.deals, 10), 200_000)
        hidden_small(args.small)
        hidden_full(args.seconds, args.samples)
    print(f"\npeak RSS: {peak_rss_mb():.0f} MiB")


if __name__ == "__main__":
    main()
