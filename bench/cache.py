"""The result cache (issue 19): a Fire! solo Level 1 solve, longer than the
service's default 10 s cap, searched once by the CLI into a cache file and
then served by the service from that file. Prints the search's time, the
CLI's second run (from the file), and the service's latency over repeated
requests, side by side with their ratio; exits 1 when a served answer did
not come from the cache or differs from the searched one.

    .venv/bin/python bench/cache.py [--requests 20] [--max-seconds 60]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from served import serving  # noqa: E402

CLI = [sys.executable, "-m", "smokejumper.cli"]


def timed(args: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=20)
    p.add_argument("--max-seconds", type=float, default=60.0, help="the CLI's search limit")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        cache = work / "cache.sqlite3"
        position = json.loads(subprocess.run(CLI + ["generate", "fire"], capture_output=True, text=True,
                                             check=True).stdout)
        (work / "position.json").write_text(json.dumps(position))
        solve = CLI + ["solve", "fire", str(work / "position.json"), "--cache", str(cache),
                       "--max-seconds", str(a.max_seconds), "--json"]
        searched_s, searched = timed(solve)
        again_s, again = timed(solve)
        answer = json.loads(searched)
        served: list[float] = []
        answers: list[dict] = []
        with serving({"SMOKEJUMPER_CACHE": str(cache)}, work) as server:
            for _ in range(a.requests):
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
    print("# Result cache: a Fire! solo Level 1 solve (order hidden), searched once, then served\n")
    print("| what | seconds | against the search |")
    print("| --- | ---: | ---: |")
    print(f"| searched by the CLI (`solve --cache`): {answer['stats']['nodes']:,} nodes, "
          f"{'stopped by ' + stopped if (stopped := answer['stats']['stopped_by']) else 'finished'} | "
          f"{searched_s:.2f} | 1 |")
    print(f"| the CLI again, from the file (Python's start-up included) | {again_s:.2f} | "
          f"{again_s / searched_s:.4f} |")
    print(f"| served by the service from the file, median of {a.requests} | {median:.4f} | "
          f"{median / searched_s:.6f} |")
    print(f"| served, max | {max(served):.4f} | {max(served) / searched_s:.6f} |")
    print(f"\nwin probability {answer['win_probability']}, won for certain {answer['won_for_certain']}; every served answer from the cache and equal to the searched one: "
          f"{'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
