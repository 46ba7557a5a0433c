"""What a search answer proves even when a limit cut it short: facts two
answers to one request must agree on (tests/test_stress.py compares
answers under load with answers alone by them). A game's rules are in its
tests/contract/<game>.py (PROVED)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Interval:
    """A proved interval: two answers for one position must overlap."""

    lo: float
    hi: float


def key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def verdict(answer: dict) -> dict:
    """A verdict proves itself, unless unknown."""
    return {} if answer["verdict"] == "unknown" else {"verdict": answer["verdict"]}


def disagree(a: dict, b: dict) -> list[str]:
    """Where two answers' facts contradict (intervals must overlap, the rest be equal)."""
    out = []
    for k in a.keys() & b.keys():
        x, y = a[k], b[k]
        agree = (x.lo <= y.hi + 1e-9 and y.lo <= x.hi + 1e-9) if isinstance(x, Interval) else x == y
        if not agree:
            out.append(f"{k}: {x} against {y}")
    return out


def watched(run: Callable[[], Any], control: Any, every: float = 0.001) -> tuple[Any, list[tuple[float, float]]]:
    """``run()`` on a thread, and each interval its ``control`` showed
    meanwhile (what a watcher of a running search sees, issue 19)."""
    out: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: out.setdefault("answer", run()))
    worker.start()
    seen: list[tuple[float, float]] = []
    while worker.is_alive():
        if (shown := control.interval) is not None and shown not in seen[-1:]:
            seen.append(shown)
        time.sleep(every)
    worker.join()
    return out["answer"], seen
