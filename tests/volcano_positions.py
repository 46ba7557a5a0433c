"""Volcano! positions and flights written briefly, for its tests."""

from __future__ import annotations


def pos(tiles, volcano=(0, 0), supply=(12, 12, 12, 12)) -> dict:
    """A position dict; tiles are (q, r, n), (q, r, n, pawns) or (q, r, n, pawns, spaces)."""
    out = []
    for t in tiles:
        d = {"q": t[0], "r": t[1], "n": t[2]}
        if len(t) > 3:
            d["pawns"] = t[3]
        if len(t) > 4:
            d["spaces"] = t[4]
        out.append(d)
    return {"tiles": out, "volcano": {"q": volcano[0], "r": volcano[1]}, "supply": list(supply)}


def fl(c, q, r, d) -> dict:
    """Fly colour ``c`` into the tile at (q, r) in direction ``d``."""
    return {"color": c, "tile": [q, r], "dir": d}
