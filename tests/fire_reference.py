"""Brute-force reference implementation of Fire! (battery sequencing).

Written only from ``/work/shared/spec/README.md``, ``/work/shared/spec/fire.md`` and
the team-mode reading below, deliberately simple and independent of the fast
solver, so the test suite can cross-check the two.  Standard library only.

Positions are the spec's JSON dicts.  Team mode (our extension) is
``{"mode": "team", "aliens": [...], "players": [p0, p1], "turn": t,
"revealed": battery | null, "order_known": bool}`` with each player
``{"weapons", "draw", "discard", "destroyed", "exchanges"}``.  Moves are
``{"weapon": w, "target": a | null, "destroy": battery | null}`` or, in team
mode, ``{"give": true}``.

Team rules as read here: turns alternate; the player on turn reveals the top of
their own draw pile (or holds ``revealed``, e.g. a gift) and places it on one of
their own weapons, or gives it (if ``exchanges`` > 0, which it decrements): the
partner's turn then starts with that battery revealed.  At the end of every turn
a player with an empty draw pile shuffles their discard pile into it.  A player
whose turn starts with nothing revealed and both piles empty passes; if both
players are in that state the game is lost.

Readings chosen where the spec leaves room:
- order carries no meaning on a weapon, in a discard or destroyed pile, or in a
  hidden draw pile: they are kept (and written back) sorted;
- when the last alien dies the shot's batteries go to the discard pile (none is
  destroyed, no reshuffle, the turn does not pass), so the written position is
  still a valid input; a won position has no legal moves and value 1;
- a gift may be given on again (the brief allows giving any revealed battery);
- strengths are any four integers >= 1 (not required to be decreasing);
  crosshairs any integer >= 1; 1..20 batteries in all, counting both players;
  each team player has 1..4 weapons; a team player without ``exchanges`` has 2;
- a team player dict may carry its own ``order_known`` (overriding the top-level
  flag), so that a position after one player's reshuffle can be written down.

The search state is plain: weapons and aliens are never merged.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from typing import NamedTuple, Optional

Battery = tuple  # (energy, crosshairs)

FIRE_AT = 10
MAX_ALIENS = 8
MAX_WEAPONS = 4
MAX_BATTERIES = 20
MAX_EXCHANGES = 2

# Small alien cards for random positions (strengths shown highest first).
SMALL_ALIENS = ((4, 3, 2, 1), (3, 3, 1, 1), (2, 2, 2, 2), (5, 4, 3, 2))


class Player(NamedTuple):
    """One player's side of the table.  ``draw`` is in order when ``known``, else sorted."""

    weapons: tuple    # one sorted tuple of batteries per weapon
    draw: tuple
    known: bool
    discard: tuple    # sorted
    destroyed: tuple  # sorted
    exchanges: int


class State(NamedTuple):
    strengths: tuple  # per alien, four values
    hits: tuple       # per alien, 0..4
    players: tuple    # one Player in solo mode, two in team mode
    turn: int         # the player who decides or reveals next (0 in solo)
    revealed: Optional[Battery]
    team: bool


# ---------------------------------------------------------------- parsing

def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _battery(obj, where: str) -> Battery:
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: a battery must be an object")
    e = obj.get("energy")
    if not _is_int(e) or not 1 <= e <= 5:
        raise ValueError(f"{where}: energy {e!r} not in 1..5")
    # Level 1 default: energy 1 cards have 2 crosshairs, the others 1.
    x = obj.get("crosshairs", 2 if e == 1 else 1)
    if not _is_int(x) or x < 1:
        raise ValueError(f"{where}: crosshairs {x!r} must be an integer >= 1")
    return (e, x)


def _batteries(obj, where: str) -> list:
    if obj is None:
        return []
    if not isinstance(obj, list):
        raise ValueError(f"{where}: must be a list of batteries")
    return [_battery(b, f"{where}[{i}]") for i, b in enumerate(obj)]


def _aliens(obj) -> tuple:
    if not isinstance(obj, list) or not obj:
        raise ValueError("aliens: need a non-empty list")
    if len(obj) > MAX_ALIENS:
        raise ValueError(f"aliens: {len(obj)} aliens, at most {MAX_ALIENS}")
    strengths, hits = [], []
    for i, a in enumerate(obj):
        if not isinstance(a, dict):
            raise ValueError(f"aliens[{i}]: must be an object")
        s = a.get("strengths")
        if not isinstance(s, list) or len(s) != 4 or not all(_is_int(v) and v >= 1 for v in s):
            raise ValueError(f"aliens[{i}]: strengths must be four integers >= 1")
        h = a.get("hits", 0)
        if not _is_int(h) or not 0 <= h <= 4:
            raise ValueError(f"aliens[{i}]: hits {h!r} not in 0..4")
        strengths.append(tuple(s))
        hits.append(h)
    return tuple(strengths), tuple(hits)


def _player(obj, where: str, known: bool, exchanges_default: int) -> Player:
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: must be an object")
    ws = obj.get("weapons")
    if not isinstance(ws, list) or not 1 <= len(ws) <= MAX_WEAPONS:
        raise ValueError(f"{where}weapons: need 1..{MAX_WEAPONS} weapons")
    weapons = []
    for w, batteries in enumerate(ws):
        loaded = _batteries(batteries, f"{where}weapons[{w}]")
        if sum(e for e, _ in loaded) >= FIRE_AT:
            raise ValueError(f"{where}weapons[{w}]: {FIRE_AT} or more energy (it would have fired)")
        weapons.append(tuple(sorted(loaded)))
    known = obj.get("order_known", known)
    if not isinstance(known, bool):
        raise ValueError(f"{where}order_known must be true or false")
    draw = _batteries(obj.get("draw"), f"{where}draw")
    ex = obj.get("exchanges", exchanges_default)
    if not _is_int(ex) or not 0 <= ex <= MAX_EXCHANGES:
        raise ValueError(f"{where}exchanges {ex!r} not in 0..{MAX_EXCHANGES}")
    return Player(
        weapons=tuple(weapons),
        draw=tuple(draw) if known else tuple(sorted(draw)),
        known=known,
        discard=tuple(sorted(_batteries(obj.get("discard"), f"{where}discard"))),
        destroyed=tuple(sorted(_batteries(obj.get("destroyed"), f"{where}destroyed"))),
        exchanges=ex,
    )


def parse(position: dict) -> State:
    """Parse a solo or team position dict; raise ValueError on invalid input."""
    if not isinstance(position, dict):
        raise ValueError("position must be an object")
    mode = position.get("mode", "solo")
    if mode not in ("solo", "team"):
        raise ValueError(f"mode {mode!r} must be 'solo' or 'team'")
    known = position.get("order_known", False)
    if not isinstance(known, bool):
        raise ValueError("order_known must be true or false")
    strengths, hits = _aliens(position.get("aliens"))
    revealed = position.get("revealed")
    revealed = None if revealed is None else _battery(revealed, "revealed")

    if mode == "solo":
        # Solo keeps its single flag: a per-player override is team-only.
        solo = {k: position.get(k) for k in ("weapons", "draw", "discard", "destroyed")}
        players = (_player(solo, "", known, 0),)
        turn = 0
    else:
        ps = position.get("players")
        if not isinstance(ps, list) or len(ps) != 2:
            raise ValueError("team mode needs exactly 2 players")
        players = tuple(_player(p, f"players[{i}].", known, MAX_EXCHANGES)
                        for i, p in enumerate(ps))
        turn = position.get("turn", 0)
        if not _is_int(turn) or turn not in (0, 1):
            raise ValueError(f"turn {turn!r} must be 0 or 1")

    total = (revealed is not None) + sum(
        len(p.draw) + len(p.discard) + len(p.destroyed) + sum(len(w) for w in p.weapons)
        for p in players)
    if not 1 <= total <= MAX_BATTERIES:
        raise ValueError(f"{total} batteries in all, need 1..{MAX_BATTERIES}")
    return State(strengths, hits, players, turn, revealed, mode == "team")


def _battery_dict(b: Battery) -> dict:
    return {"energy": b[0], "crosshairs": b[1]}


def to_position(state: State) -> dict:
    """Inverse of parse (crosshairs and every optional key written out)."""
    aliens = [{"strengths": list(s), "hits": h} for s, h in zip(state.strengths, state.hits)]
    revealed = None if state.revealed is None else _battery_dict(state.revealed)

    def side(p: Player) -> dict:
        return {
            "weapons": [[_battery_dict(b) for b in w] for w in p.weapons],
            "draw": [_battery_dict(b) for b in p.draw],
            "discard": [_battery_dict(b) for b in p.discard],
            "destroyed": [_battery_dict(b) for b in p.destroyed],
        }

    if not state.team:
        p = state.players[0]
        return {"aliens": aliens, **side(p), "order_known": p.known, "revealed": revealed}
    players = [{**side(p), "exchanges": p.exchanges, "order_known": p.known} for p in state.players]
    return {"mode": "team", "aliens": aliens, "players": players, "turn": state.turn,
            "revealed": revealed, "order_known": all(p.known for p in state.players)}


# ---------------------------------------------------------------- rules

def hit_count(strengths, hits: int, damage: int) -> int:
    """Hits scored: the largest h with sum of the next h strengths (from index hits) <= damage."""
    return max(h for h in range(5 - hits) if sum(strengths[hits:hits + h]) <= damage)


def _damage(loaded) -> int:
    # X counts the crosshairs of every battery on the weapon, the new one included.
    return (sum(e for e, _ in loaded) - FIRE_AT) * sum(x for _, x in loaded)


def _won(state: State) -> bool:
    return all(h == 4 for h in state.hits)


def _with_player(state: State, i: int, player: Player) -> tuple:
    return state.players[:i] + (player,) + state.players[i + 1:]


def _moves(state: State) -> list:
    """Every legal move at a decision, unmerged, in weapon, target, destroy order; give last."""
    if state.revealed is None or _won(state):
        return []
    p = state.players[state.turn]
    live = [a for a, h in enumerate(state.hits) if h < 4]
    moves = []
    for w, weapon in enumerate(p.weapons):
        loaded = weapon + (state.revealed,)
        if sum(e for e, _ in loaded) < FIRE_AT:
            moves.append({"weapon": w, "target": None, "destroy": None})
            continue
        damage = _damage(loaded)
        for a in live:
            hits = list(state.hits)
            hits[a] += hit_count(state.strengths[a], hits[a], damage)
            if all(h == 4 for h in hits):
                # The last alien dies: the game is won at once, nothing is destroyed.
                moves.append({"weapon": w, "target": a, "destroy": None})
                continue
            for b in sorted(set(loaded)):
                moves.append({"weapon": w, "target": a, "destroy": _battery_dict(b)})
    if state.team and p.exchanges > 0:
        moves.append({"give": True})
    return moves


def _settle_turn(state: State) -> State:
    """Team mode: a player on turn with nothing revealed and both piles empty passes."""
    if not state.team or state.revealed is not None:
        return state
    me, partner = state.players[state.turn], state.players[1 - state.turn]
    if not me.draw and not me.discard and (partner.draw or partner.discard):
        return state._replace(turn=1 - state.turn)
    return state


def _play(state: State, move: dict) -> State:
    """Apply a legal move and the automatic steps after it, up to the next chance event."""
    t = state.turn
    p = state.players[t]
    card = state.revealed
    if move.get("give"):
        # Face up on the partner's draw pile: the partner's turn starts with it revealed.
        given = p._replace(exchanges=p.exchanges - 1)
        return state._replace(players=_with_player(state, t, given), turn=1 - t, revealed=card)

    w = move["weapon"]
    loaded = p.weapons[w] + (card,)
    hits, discard, destroyed = state.hits, p.discard, p.destroyed
    if sum(e for e, _ in loaded) >= FIRE_AT:
        a = move["target"]
        hits = list(hits)
        hits[a] += hit_count(state.strengths[a], hits[a], _damage(loaded))
        hits = tuple(hits)
        rest = list(loaded)
        if not all(h == 4 for h in hits):
            b = (move["destroy"]["energy"], move["destroy"]["crosshairs"])
            rest.remove(b)
            destroyed = tuple(sorted(destroyed + (b,)))
        discard = tuple(sorted(discard + tuple(rest)))
        loaded = ()
    weapons = p.weapons[:w] + (tuple(sorted(loaded)),) + p.weapons[w + 1:]
    player = p._replace(weapons=weapons, discard=discard, destroyed=destroyed)
    state = state._replace(hits=hits, players=_with_player(state, t, player), revealed=None)
    if state.team and not _won(state):
        state = _settle_turn(state._replace(turn=1 - t))
    return state


def _pending_reshuffle(state: State) -> Optional[int]:
    """A player whose draw pile ran out and whose discard pile is waiting to be shuffled.

    The player holding a revealed battery shuffles only at the end of the turn,
    so that the batteries a shot discards on this turn are shuffled in too.
    """
    for i, p in enumerate(state.players):
        if not p.draw and p.discard and not (i == state.turn and state.revealed is not None):
            return i
    return None


def _reshuffle(state: State, i: int) -> State:
    """The discard pile becomes the draw pile, order hidden (random even with order_known)."""
    p = state.players[i]
    shuffled = p._replace(draw=p.discard, discard=(), known=False)
    return state._replace(players=_with_player(state, i, shuffled))


def _reveal(state: State, index: int) -> State:
    """The player on turn reveals draw[index]."""
    p = state.players[state.turn]
    card = p.draw[index]
    rest = p._replace(draw=p.draw[:index] + p.draw[index + 1:])
    return state._replace(players=_with_player(state, state.turn, rest), revealed=card)


def _check_move(state: State, move: dict) -> dict:
    """Normalise a move dict and check it is legal; raise ValueError otherwise."""
    if not isinstance(move, dict):
        raise ValueError("move must be an object")
    if _won(state):
        raise ValueError("the game is already won")
    if state.revealed is None:
        raise ValueError("nothing is revealed: the next event is a reveal (chance)")
    if move.get("give"):
        if not state.team:
            raise ValueError("giving a battery is a team-mode move")
        if state.players[state.turn].exchanges < 1:
            raise ValueError("no exchanges left to give a battery")
        return {"give": True}
    w, a, d = move.get("weapon"), move.get("target"), move.get("destroy")
    if not _is_int(w) or not 0 <= w < len(state.players[state.turn].weapons):
        raise ValueError(f"weapon {w!r} out of range")
    if a is not None and (not _is_int(a) or not 0 <= a < len(state.hits)):
        raise ValueError(f"target {a!r} out of range")
    norm = {"weapon": w, "target": a,
            "destroy": None if d is None else _battery_dict(_battery(d, "destroy"))}
    legal = _moves(state)
    winning = {"weapon": w, "target": a, "destroy": None}
    if a is not None and d is not None and winning in legal:
        # The winning shot destroys nothing, whatever battery on the weapon the move names.
        loaded = state.players[state.turn].weapons[w] + (state.revealed,)
        if (norm["destroy"]["energy"], norm["destroy"]["crosshairs"]) in loaded:
            norm = winning
    if norm not in legal:
        raise ValueError(f"illegal move {move!r}")
    return norm


# ---------------------------------------------------------------- public API

def legal_moves(position: dict) -> list:
    """Every legal move at a position with a revealed battery (none once won)."""
    state = parse(position)
    if state.revealed is None:
        raise ValueError("nothing is revealed: the next event is a reveal (chance)")
    return _moves(state)


def apply(position: dict, move: dict) -> dict:
    """The position after a legal move, before the next reshuffle or reveal."""
    state = parse(position)
    return to_position(_play(state, _check_move(state, move)))


def _value(state: State, memo: dict) -> Fraction:
    """Expectimax: max at decisions, card-count weighted mean at reveals."""
    if state in memo:
        return memo[state]
    i = _pending_reshuffle(state)
    if _won(state):
        v = Fraction(1)
    elif i is not None:
        v = _value(_reshuffle(state, i), memo)
    elif state.revealed is not None:
        v = Fraction(0)
        for m in _moves(state):
            v = max(v, _value(_play(state, m), memo))
            if v == 1:
                break  # nothing beats a certain win
    else:
        settled = _settle_turn(state)
        p = settled.players[settled.turn]
        if not p.draw:
            v = Fraction(0)  # every pile empty, an alien alive: lost
        elif p.known:
            v = _value(_reveal(settled, 0), memo)
        else:
            v = sum((Fraction(n, len(p.draw)) * _value(_reveal(settled, p.draw.index(card)), memo)
                     for card, n in Counter(p.draw).items()), Fraction(0))
    memo[state] = v
    return v


def win_probability(position: dict) -> Fraction:
    """The exact win probability under optimal play."""
    return _value(parse(position), {})


def move_values(position: dict) -> list:
    """[(move, win probability after it)] for every legal move, in legal_moves order."""
    state = parse(position)
    if state.revealed is None:
        raise ValueError("nothing is revealed: the next event is a reveal (chance)")
    memo = {}
    return [(m, _value(_play(state, m), memo)) for m in _moves(state)]


# ---------------------------------------------------------------- second method

def _orderings(cards) -> list:
    """Every distinct ordering of a multiset; a uniform shuffle makes them equally likely."""
    return sorted(set(itertools.permutations(cards)))


def _by_orders(state: State, belief: dict, memo: dict) -> Fraction:
    """Value given ``belief``: {(one draw ordering per player): probability}.

    The draw piles in ``state`` are multisets; the player only learns an
    ordering's first card when it is revealed, so decisions are taken on the
    whole belief, never on one ordering.
    """
    key = (state, frozenset(belief.items()))
    if key in memo:
        return memo[key]
    i = _pending_reshuffle(state)
    if _won(state):
        v = Fraction(1)
    elif i is not None:
        fresh = _orderings(state.players[i].discard)
        expanded = {combo[:i] + (order,) + combo[i + 1:]: q * Fraction(1, len(fresh))
                    for combo, q in belief.items() for order in fresh}
        v = _by_orders(_reshuffle(state, i), expanded, memo)
    elif state.revealed is not None:
        v = max(_by_orders(_play(state, m), belief, memo) for m in _moves(state))
    else:
        settled = _settle_turn(state)
        t = settled.turn
        if not settled.players[t].draw:
            v = Fraction(0)
        else:
            # The top card is all the player learns: group the orderings by it.
            mass = Counter()
            for combo, q in belief.items():
                mass[combo[t][0]] += q
            v = Fraction(0)
            for card, m in mass.items():
                after = {combo[:t] + (combo[t][1:],) + combo[t + 1:]: q / m
                         for combo, q in belief.items() if combo[t][0] == card}
                child = _reveal(settled, settled.players[t].draw.index(card))
                v += m * _by_orders(child, after, memo)
    memo[key] = v
    return v


def win_probability_by_orders(position: dict) -> Fraction:
    """The same value by enumerating every ordering of each hidden pile (tiny decks only)."""
    state = parse(position)
    per_player = [[p.draw] if p.known else _orderings(p.draw) for p in state.players]
    combos = list(itertools.product(*per_player))
    belief = {combo: Fraction(1, len(combos)) for combo in combos}
    return _by_orders(state, belief, {})


# ---------------------------------------------------------------- random positions

class _TooBig(Exception):
    pass


class _CappedMemo(dict):
    """A memo that gives up past ``cap`` states (keeps random positions cheap to solve)."""

    def __init__(self, cap: int):
        super().__init__()
        self.cap = cap

    def __setitem__(self, key, value):
        if len(self) >= self.cap:
            raise _TooBig
        super().__setitem__(key, value)


def _deal(rng: random.Random, cards: list, n_weapons: int) -> dict:
    """Spread batteries over weapons (each kept below 10), draw, discard and destroyed."""
    weapons = [[] for _ in range(n_weapons)]
    side = {"weapons": weapons, "draw": [], "discard": [], "destroyed": []}
    for card in cards:
        pile = rng.choice(["weapon"] * 2 + ["draw"] * 4 + ["discard", "destroyed"])
        if pile == "weapon":
            w = rng.choice(weapons)
            if sum(b["energy"] for b in w) + card["energy"] < FIRE_AT:
                w.append(card)
                continue
            pile = "draw"
        side[pile].append(card)
    return side


def _candidate(rng: random.Random, mode: str, order_known: bool, revealed: bool,
               max_cards: int) -> dict:
    aliens = [{"strengths": list(rng.choice(SMALL_ALIENS)), "hits": rng.choice((0, 1, 2, 3, 3))}
              for _ in range(rng.randint(1, 3))]
    # Mostly one crosshair: damage then lands near the strengths, so order matters.
    cards = [{"energy": rng.randint(1, 5), "crosshairs": rng.choice((1, 1, 1, 2, 3))}
             for _ in range(rng.randint(3, max_cards))]
    shown = cards.pop() if revealed else None
    position = {"aliens": aliens, "order_known": order_known, "revealed": shown}
    if mode == "solo":
        position.update(_deal(rng, cards, rng.choice((1, 1, 2, 3))))
        return position
    cut = rng.randint(0, len(cards))
    players = [_deal(rng, part, rng.randint(1, 2)) for part in (cards[:cut], cards[cut:])]
    for p in players:
        p["exchanges"] = rng.randint(0, MAX_EXCHANGES)
    position.update({"mode": "team", "players": players, "turn": rng.randint(0, 1)})
    return position


def random_position(rng: random.Random, mode: str = "solo", order_known: bool = False,
                    revealed: bool = False, max_cards: int = 6, max_states: int = 2000,
                    keep_decided: float = 0.2) -> dict:
    """A random valid tiny position: 1-3 small aliens, 3..max_cards batteries.

    Candidates are solved (at most ``max_states`` memo states, else redrawn) and a
    certainly won or lost one is kept with probability ``keep_decided`` only:
    without that bias under one position in six is undecided.
    """
    if mode not in ("solo", "team"):
        raise ValueError(f"mode {mode!r} must be 'solo' or 'team'")
    if max_cards < 3:
        raise ValueError("max_cards must be at least 3")
    while True:
        position = _candidate(rng, mode, order_known, revealed, max_cards)
        state = parse(position)
        piles = [b for p in state.players for b in p.draw + p.discard]
        piles += [state.revealed] if state.revealed else []
        top = max(sum(e for e, _ in w) for p in state.players for w in p.weapons)
        if len(piles) < 2 or sum(e for e, _ in piles) + top < FIRE_AT:
            continue  # no chance left, or no weapon can ever fire: certainly decided
        try:
            value = _value(state, _CappedMemo(max_states))
        except _TooBig:
            continue
        if 0 < value < 1 or rng.random() < keep_decided:
            return position
