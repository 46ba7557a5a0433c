"""Fire Tower positions for the tests: boards of the spec's section 13 and a
builder that gives a board any hand at any phase (a small deck of its own,
spec 11.2, so that the piles need not hold the whole deck)."""

from __future__ import annotations

from collections import Counter
from typing import Any

INFERNO = ["burning_snag", "explosion", "flare_up", "wind_n", "wind_w"]

EMPTY = ["." * 16] * 16


def board(rows: dict[int, str]) -> list[str]:
    """The 16 rows: the Eternal Flame, and the given rows (their first
    characters; the rest of each row empty)."""
    out = ["." * 16 for _ in range(16)]
    out[7] = out[8] = ".......EE......."
    for r, text in rows.items():
        out[r] = (text + "." * 16)[:16]
    return out


T1 = board({})
T2 = board({2: "..F", 3: "..F#", 4: "...FF.H", 5: ".#..F", 6: "....FF", 7: "......FEE"})
T3 = board({1: ".............F", 2: "...........FFFF", 3: ".............F"})
# The spec's Level 7 start (section 3), before the own hawk.
L7 = [
    "............#...", "............H...", "............#...", "...........#H#H#", "...........H#...",
    "................", "................", ".......EE.......", ".......EE.......", "................",
    "................", "...#H......H#...", "#H#H#......#H#H#", "...#........#...", "...H........H...",
    "...#........#...",
]


def position(rows: list[str], hand: list[str] = (), *, phase: str = "action", wind: str | None = "N", level: int = 1,
             revealed: str | None = None, draw: list[str] | dict[str, int] | None = None,
             discard: dict[str, int] | None = None, burned: dict[str, bool] | None = None,
             buckets: dict[str, str] | None = None, specialty: dict[str, str] | None = None, **more: Any) -> dict:
    """A position whose deck is exactly its hand, draw pile and discard."""
    draw = draw if draw is not None else {}
    deck = Counter(hand) + (Counter(draw) if isinstance(draw, dict) else Counter(draw)) + Counter(discard or {})
    inferno = [c for c in INFERNO if c != revealed]
    out = {
        "level": level, "board": list(rows), "wind": wind, "hand": sorted(hand), "draw_pile": draw,
        "discard": discard or {},
        "inferno": {"deck": {c: 1 for c in inferno}, "discard": [], "revealed": revealed, "penalty": False},
        "burned": burned or {"NE": False, "SW": False, "SE": False},
        "buckets": buckets or {"NW": "unused", "NE": "unused", "SW": "unused", "SE": "unused"},
        "specialty": specialty or {"heavy_winds": "front", "lookout": "front"},
        "turn": 1, "round": 1, "phase": phase,
        "options": {"deck": dict(deck) or {"ember": 0}},
    }
    out.update(more)
    return out


def squares(moves: list[dict], key: str = "square") -> list[list[int]]:
    return sorted(m[key] for m in moves)
