"""How answers read for people (the CLI's text), where games share a form."""

from __future__ import annotations

import json
from typing import Any


def stopped_text(stats: Any) -> str:
    """``nodes: 1234  seconds: 0.012  stopped by: -`` of any search's stats."""
    return f"nodes: {stats.nodes}  seconds: {stats.seconds:.3f}  stopped by: {stats.stopped_by or '-'}"


def position_file(data: dict[str, Any]) -> str:
    """A position's JSON as a file a person can edit and the CLI can read back."""
    return json.dumps(data, indent=1)


def share_table(title: str, noun: str, result: Any, cost: dict[str, str]) -> str:
    """The summary of a batch of verdicts (an analysis with wins, losses,
    unknown, win_share and interval95), with the game's ``cost`` columns."""
    lo, hi = result.interval95
    count = result.wins + result.losses + result.unknown
    heads = [noun, "wins", "losses", "unknown", "winnable share", "95% interval", *cost]
    aligns = ["---:"] * 5 + ["---"] + ["---:"] * len(cost)
    cells = [str(count), str(result.wins), str(result.losses), str(result.unknown), f"{result.win_share:.3f}",
             f"[{lo:.3f}, {hi:.3f}]", *cost.values()]
    return "\n".join([title] + ["| " + " | ".join(row) + " |" for row in (heads, aligns, cells)])


def seeds_text(first: int, count: int) -> str:
    return f"seeds {first}..{first + count - 1}"


def replay_text(steps: list[str], result: Any) -> str:
    """A replay's steps, each with the status after it, its error and its end."""
    lines = [f"{i:2}. {text} -> {step.status}" for i, (text, step) in enumerate(zip(steps, result.steps), 1)]
    if result.error:
        lines.append(f"illegal: {result.error}")
    lines.append(f"result: {result.status}")
    return "\n".join(lines)


def replay_outcome(_request: Any, result: Any) -> tuple[int, str | None]:
    """A replayed line succeeds when every step is legal and the game ends won."""
    return (0 if result.status == "win" and result.error is None else 1), None
