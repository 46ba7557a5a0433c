"""The batch engines (issue 21) on this machine: a game's chunked batch on
the local engine against a LocalCluster on the same seeds (the cluster's
overhead as a ratio of wall times), and the cluster's throughput against
the chunk size. Prints markdown tables. Any game: the request is JSON.

    .venv/bin/python bench/batch.py GAME OPERATION REQUEST_JSON [--max-nodes N] [--chunks 1,16,auto]
                                    [--repeat 2] [--threads 2] [--processes]
"""

from __future__ import annotations

import argparse
import json
import time

from smokejumper import Control, Limit, batch, load_game


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("operation")
    p.add_argument("request", type=json.loads)
    p.add_argument("--max-nodes", type=int, default=100_000)
    p.add_argument("--chunks", default="1,4,16,64,256,auto")
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--processes", action="store_true", help="also a LocalCluster of one-thread processes")
    a = p.parse_args()
    game = load_game(a.game)
    op = game.operation(a.operation)
    q = op.request.model_validate({**a.request, "workers": a.threads})
    limit = Limit(nodes=a.max_nodes, seconds=None)
    chunks = [None if c == "auto" else int(c) for c in a.chunks.split(",")]
    seeds = len(op.call(q, limit, Control(), None).results)  # also warms the caches

    def timed(client=None, chunk=None) -> float:
        start = time.perf_counter()
        op.call(q, limit, Control(), None, client=batch.Engine(client=client, chunk=chunk) if client else None)
        return time.perf_counter() - start

    local = batch.connect(threads=a.threads)
    clusters = {"LocalCluster, 1 process of threads": local}
    if a.processes:
        import distributed

        cluster = distributed.LocalCluster(n_workers=a.threads, threads_per_worker=1, processes=True,
                                           dashboard_address=":0")
        clusters["LocalCluster, 1-thread processes"] = distributed.Client(cluster)
    print(f"\n### {game.title} {op.name} {json.dumps(a.request)}, {a.max_nodes:,} nodes each: {seeds} seeds, "
          f"{a.threads} threads, best of {a.repeat}\n")
    print("| engine | chunk (seeds) | wall s | seeds/s | against local |")
    print("| --- | ---: | ---: | ---: | ---: |")
    here = min(timed() for _ in range(a.repeat))
    print(f"| local threads | - | {here:.2f} | {seeds / here:,.0f} | 1.00 |", flush=True)
    for name, client in clusters.items():
        for chunk in chunks:
            wall = min(timed(client, chunk) for _ in range(a.repeat))
            print(f"| {name} | {chunk or 'auto'} | {wall:.2f} | {seeds / wall:,.0f} | {wall / here:.2f} |",
                  flush=True)
    for client in clusters.values():
        cluster = client.cluster
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
