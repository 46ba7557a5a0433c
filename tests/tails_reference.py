"""An independent Tails on Fire reference, written from the spec alone
(../shared/spec/tails.md) in plain Python with exact fractions. It shares
no code with the engine: it reads the spec's JSON positions and moves, and
answers in the spec's shapes. Slow and simple on purpose: brute force over
every line, memoised by the whole state."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

TRICK = "+1"


def succ(x: int) -> int:
    return x % 9 + 1


def pile_value(pile: tuple) -> int | None:
    """The value of the top card of a pile of (owner, card), bottom first."""
    value = None
    for _, card in pile:
        value = succ(value) if card == TRICK else card
    return value


def card_order(c: Any) -> tuple[int, int]:
    return (1, 0) if c == TRICK else (0, c)


class Round:
    """One round's hunt from a hunt position, by the spec's rules."""

    def __init__(self, position: dict):
        self.p = position
        self.n = len(position["players"])
        self.first = position.get("first", 0)
        rogue = position.get("rogue")
        self.has_rogue = rogue is not None
        self.known = bool(rogue) and rogue.get("order", "hidden") == "known"
        self.fire = position["iguana"][0]
        # seat order of one cycle: first, first+1, ..., then the Rogue
        self.order = [(self.first + k) % self.n for k in range(self.n)] + (["rogue"] if self.has_rogue else [])
        self.memo: dict = {}

    # ------------------------------------------------------------ state
    # (hands, pile, turn, lap, deck, reserve, ended)
    def start(self) -> tuple:
        p = self.p
        hands = tuple(tuple(sorted(pl["hand"], key=card_order)) for pl in p["players"])
        pile = tuple((d["owner"], d["card"]) for d in p.get("discard", []))
        rogue = p.get("rogue") or {}
        deck = tuple(rogue.get("deck", [])) if self.known else tuple(sorted(rogue.get("deck", [])))
        lap = p.get("lap") or 0
        return (hands, pile, p["turn"], lap if not pile else 0, deck, tuple(rogue.get("reserve", [])), False)

    def won(self, s: tuple) -> bool:
        hands, pile, turn, lap, deck, reserve, ended = s
        return bool(pile) and pile[-1][0] == turn

    def over(self, s: tuple) -> bool:
        return s[6] or self.won(s)

    def starting_number(self, lap: int) -> int:
        x = self.fire["start"]
        for _ in range(lap):
            x = succ(x)
        return x

    def wanted(self, s: tuple) -> int:
        """The number a numbered card must show to be played now."""
        hands, pile, turn, lap, deck, reserve, ended = s
        return self.starting_number(lap) if not pile else succ(pile_value(pile))

    def advance(self, s: tuple) -> tuple:
        """The next turn after the seat to move has acted."""
        hands, pile, turn, lap, deck, reserve, ended = s
        nxt = self.order[(self.order.index(turn) + 1) % len(self.order)]
        if nxt == self.first and not pile:
            if lap == 8:
                return (hands, pile, nxt, lap, deck, reserve, True)
            lap += 1
        return (hands, pile, nxt, lap, deck, reserve, False)

    def moves(self, s: tuple) -> list:
        """Legal human moves, canonical order."""
        if self.over(s) or s[2] == "rogue":
            return []
        hands, pile, turn, lap, deck, reserve, ended = s
        out: list = [{"pass": True}]
        want = self.wanted(s)
        if want in hands[turn]:
            out.append({"play": want})
        if pile and pile[-1][1] != TRICK and TRICK in hands[turn]:
            out.append({"play": TRICK})
        return out

    def play(self, s: tuple, move: dict) -> tuple:
        hands, pile, turn, lap, deck, reserve, ended = s
        if "play" in move:
            c = move["play"]
            hands = tuple(tuple(x for x in h if x != c) if i == turn else h for i, h in enumerate(hands))
            pile = pile + ((turn, c),)
        return self.advance((hands, pile, turn, lap, deck, reserve, ended))

    def rogue_outcomes(self, s: tuple) -> list[tuple[Fraction, tuple, int | None]]:
        """The Rogue's turn by its script: (probability, state after, card drawn)."""
        hands, pile, turn, lap, deck, reserve, ended = s
        want = self.wanted(s)
        if reserve and reserve[-1] == want:
            return [(Fraction(1), self.advance((hands, pile + (("rogue", reserve[-1]),), turn, lap, deck,
                                                reserve[:-1], ended)), None)]
        if not deck:
            return [(Fraction(1), self.advance(s), None)]
        picks = [0] if self.known else range(len(deck))
        out = []
        for i in picks:
            c = deck[i]
            rest = deck[:i] + deck[i + 1:]
            if c == want:
                t = (hands, pile + (("rogue", c),), turn, lap, rest, reserve, ended)
            else:
                t = (hands, pile, turn, lap, rest, reserve + (c,), ended)
            out.append((Fraction(1, len(picks)), self.advance(t), c))
        return out

    # ------------------------------------------------------------ values

    def stack_fire(self, seat: int) -> list[tuple[Any, int]]:
        return [(st["top"], sum(f["flames"] for f in st["fire"])) for st in self.p["players"][seat].get("stacks", [])]

    def end_flames(self, s: tuple) -> tuple[list[int], Any]:
        """Every seat's flames after step 3, and the winner (seat, "rogue" or "none")."""
        base = [sum(f for _, f in self.stack_fire(i)) for i in range(self.n)]
        if not self.won(s):
            return base, "none"
        pile = s[1]
        winner, x = pile[-1][0], pile_value(pile)
        flames = list(base)
        for j in range(self.n):
            if j == winner:
                continue
            for top, fire in self.stack_fire(j):
                if top == x:  # a number: a "+1" top never equals it
                    flames[j] -= fire
                    if winner != "rogue":
                        flames[winner] += fire
        if winner != "rogue":
            flames[winner] += self.fire["flames"]
        return flames, winner

    def value(self, s: tuple) -> tuple[tuple[Fraction, ...], dict]:
        """(flames per seat, chance of each winner) under the spec's backward induction."""
        if s in self.memo:
            return self.memo[s]
        if self.over(s):
            flames, winner = self.end_flames(s)
            v = (tuple(Fraction(f) for f in flames), {str(winner): Fraction(1)})
        elif s[2] == "rogue":
            total = [Fraction(0)] * self.n
            wins: dict = {}
            for prob, t, _ in self.rogue_outcomes(s):
                f, w = self.value(t)
                total = [a + prob * b for a, b in zip(total, f)]
                for k, q in w.items():
                    wins[k] = wins.get(k, Fraction(0)) + prob * q
            v = (tuple(total), wins)
        else:
            best = None
            for m in self.moves(s):
                child = self.value(self.play(s, m))
                if best is None or child[0][s[2]] > best[0][s[2]]:
                    best = child
            v = best
        self.memo[s] = v
        return v

    def settle(self, s: tuple) -> tuple[tuple, bool]:
        """The Rogue's turns with a single outcome, run; False at a real chance."""
        while not self.over(s) and s[2] == "rogue":
            outs = self.rogue_outcomes(s)
            if len(outs) > 1:
                return s, False
            s = outs[0][1]
        return s, True


def winner_dict(n: int, w: dict) -> dict[str, Fraction]:
    out = {str(i): Fraction(0) for i in range(n)} | {"rogue": Fraction(0), "none": Fraction(0)}
    for k, q in w.items():
        out[k] += q
    return out


def hunt(position: dict) -> dict:
    """The spec's hunt answer with Fractions: flames, winner, moves, best, line."""
    r = Round(position)
    s, _ = r.settle(r.start())
    flames, wins = r.value(s)
    moves = []
    for m in r.moves(s):
        f, w = r.value(r.play(s, m))
        moves.append({"move": m, "flames": list(f), "winner": winner_dict(r.n, w)})
    best = None
    for m in moves:
        if best is None or m["flames"][s[2]] > best["flames"][s[2]]:
            best = m
    line: list | None = []
    t = s
    while not r.over(t):
        t, plain = r.settle(t)
        if not plain:
            line = None
            break
        if r.over(t):
            break
        choice = None
        for m in r.moves(t):
            f, _ = r.value(r.play(t, m))
            if choice is None or f[t[2]] > choice[1][t[2]]:
                choice = (m, f)
        assert line is not None and choice is not None
        line.append(choice[0])
        t = r.play(t, choice[0])
    return {"flames": list(flames), "winner": winner_dict(r.n, wins), "moves": moves,
            "best": None if best is None else best["move"], "line": line, "turn": s[2]}


def legal_moves(position: dict) -> list[dict]:
    r = Round(position)
    s, plain = r.settle(r.start())
    return r.moves(s) if plain else []


def play_line(position: dict, line: list[dict]) -> dict:
    """Plays a line with a known (or no) Rogue deck: the final state's facts."""
    r = Round(position)
    s, plain = r.settle(r.start())
    pile = s[1]
    for k, m in enumerate(line):
        assert plain, "a hidden draw"
        assert m in r.moves(s), (k, m, r.moves(s))
        s = r.play(s, m)
        s, plain = r.settle(s)
    flames, winner = r.end_flames(s) if r.over(s) else (None, None)
    del pile
    return {"over": r.over(s), "winner": winner, "flames": flames, "pile": list(s[1]), "hands": s[0]}


def prepare(position: dict, line: list[dict]) -> dict:
    """Step 4 after a line that ends the round: the next round's choose
    position as plain facts (every list sorted), or the final scores."""
    r = Round(position)
    s, _ = r.settle(r.start())
    for m in line:
        s = r.play(s, m)
        s, _ = r.settle(s)
    assert r.over(s)
    hands, pile = s[0], s[1]
    winner = pile[-1][0] if r.won(s) else None
    x = pile_value(pile) if winner is not None else None
    won_fire = [r.fire]
    players = []
    for i, pl in enumerate(position["players"]):
        hand = list(hands[i]) + list(pl.get("den", [])) + list(pl.get("exhausted", []))
        mine = [c for o, c in pile if o == i]
        if winner == i:
            mine = mine[:-1]
        stacks = []
        for st in pl.get("stacks", []):
            if winner is not None and winner != i and st["top"] == x:
                hand.append(st["top"])
                won_fire += st["fire"]
            else:
                stacks.append(st)
        players.append({"hand": hand, "exhausted": mine, "stacks": stacks, "bonfire": pl.get("bonfire")})
    if winner is not None and winner != "rogue":
        players[winner]["stacks"].append({"top": pile[-1][1], "fire": won_fire})
    flames = [sum(f["flames"] for st in p["stacks"] for f in st["fire"]) for p in players]
    out = {"players": [{"hand": sorted(p["hand"], key=card_order), "exhausted": sorted(p["exhausted"], key=card_order),
                        "bonfire": p["bonfire"],
                        "stacks": sorted([(card_order(st["top"]), sorted((f["start"], f["flames"]) for f in st["fire"]))
                                          for st in p["stacks"]])} for p in players],
           "first": winner if isinstance(winner, int) else position.get("first", 0),
           "iguana": [(f["start"], f["flames"]) for f in position["iguana"][1:]], "flames": flames}
    if position.get("rogue") is not None:
        out["rogue"] = list(range(1, 10))  # "the Rogue's nine cards are all shuffled into a new deck"
    if not out["iguana"]:
        top = max(flames)
        out["winners"] = [i for i, f in enumerate(flames) if f == top]
    return out


# ------------------------------------------------------------ the choice


def choices(hand: list) -> list[list]:
    h = sorted(hand, key=card_order)
    return [h] if len(h) <= 3 else [list(c) for c in combinations(h, 3)]


def choose(position: dict) -> list[tuple[list, Fraction]]:
    """Every choice of the hero with its exact expected flames, best first."""
    hero = position["hero"]
    n = len(position["players"])
    options = [choices(pl["hand"]) for pl in position["players"]]
    out = []
    for mine in options[hero]:
        total, count = Fraction(0), 0

        def rec(i: int, picked: list) -> None:
            nonlocal total, count
            if i == n:
                hunt_pos = {"players": [{"hand": picked[k], "stacks": position["players"][k].get("stacks", [])}
                                        for k in range(n)],
                            "first": position.get("first", 0), "turn": position.get("first", 0), "lap": 0,
                            "iguana": position["iguana"],
                            "rogue": None if position.get("rogue") is None else
                            {"deck": position["rogue"].get("deck", list(range(1, 10))), "order": "hidden"}}
                r = Round(hunt_pos)
                total += r.value(r.start())[0][hero]
                count += 1
                return
            for o in ([mine] if i == hero else options[i]):
                rec(i + 1, picked + [o])

        rec(0, [])
        out.append((mine, total / count))
    out.sort(key=lambda cv: (-cv[1], [card_order(c) for c in cv[0]]))
    return out
