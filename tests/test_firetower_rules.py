"""Hand-made rule tests of the Fire Tower engine (smokejumper.firetower, the
C++ engine through its Python binding).

Every test builds a small position by hand, plays moves and explicit chance
events through ``firetower.check`` (which replays a record exactly, so the
dice are ours), and compares with the result worked out by hand in its
comment from the spec (../shared/spec/firetower.md, "§n"; §15 are the
readings fixed after the second implementation) and the project's readings
(docs/rules/firetower.md).

Positions use a custom deck (options.deck = exactly the cards in hand, draw
pile and discard pile) and ``order_known``, so every draw has one outcome;
single-outcome draws are still written into the records, in the order the
engine asks for them.
"""

from __future__ import annotations

from collections import Counter
from math import comb

import pytest

from smokejumper import firetower
from smokejumper._core import InvalidPositionError

EMPTY = "." * 16
EF = [(7, 7), (7, 8), (8, 7), (8, 8)]
INFERNO = ["burning_snag", "explosion", "flare_up", "wind_n", "wind_w"]
LEVEL_HAND = {1: 6, 2: 6, 3: 5, 4: 5, 5: 4, 6: 4, 7: 4}
HAND6 = ["air_drop", "ember", "explosion", "fire_engine", "flare_up", "helitack"]  # no wind card
# Every NW-quadrant square a firebreak, but the EF square [7,7]: nothing in
# the NW quadrant is placeable.
NW_WALLED = {r: "#" * 8 + "." * 8 for r in range(7)} | {7: "#######." + "." * 8}


# ------------------------------------------------------------ helpers


def board(rows: dict[int, str] | None = None) -> list[str]:
    """16 rows from the non-empty ones given; the EF is always drawn."""
    out = [list((rows or {}).get(r, EMPTY)) for r in range(16)]
    for r, c in EF:
        out[r][c] = "E"
    return ["".join(r) for r in out]


def position(rows=None, hand=(), draw=(), discard=(), phase="action", wind="E", level=1, inferno_deck=None,
             inferno_discard=(), revealed=None, penalty=False, burned=(), buckets=None, specialty=None, turn=1,
             round=1, turn_limit=100, bucket_taken=False, derived=True) -> dict:
    """A spec position (§11.2) from a board and a hand. The deck is exactly
    the cards given (options.deck); the draw pile and the Inferno deck are
    lists, top first (order_known). ``derived`` adds hand_size and
    hawk_supply (§11.2: optional, checked if given)."""
    deck = Counter(hand) + Counter(draw) + Counter(discard)
    if inferno_deck is None:
        inferno_deck = [c for c in INFERNO if c not in inferno_discard and c != revealed]
    b = board(rows)
    p = {"game": "firetower-solo", "version": 1, "level": level, "board": b, "wind": wind,
         "hand": sorted(hand), "draw_pile": list(draw), "discard": dict(Counter(discard)),
         "inferno": {"deck": list(inferno_deck), "discard": list(inferno_discard), "revealed": revealed,
                     "penalty": penalty},
         "burned": {t: t in burned for t in ("NE", "SW", "SE")},
         "buckets": dict({"NW": "unused", "NE": "unused", "SW": "unused", "SE": "unused"}, **(buckets or {})),
         "bucket_taken": bucket_taken,
         "specialty": dict({"heavy_winds": "front", "lookout": "front"}, **(specialty or {})),
         "turn": turn, "round": round, "phase": phase,
         "options": {"challenges": "off", "order_known": True, "turn_limit": turn_limit, "deck": dict(deck)}}
    if derived:
        p["hand_size"] = LEVEL_HAND[level] + len(burned)
        p["hawk_supply"] = 18 - "".join(b).count("H")
    return p


def run(start: dict, *events: dict, max_moves: int = 2000) -> firetower.GameState:
    """The game after exactly these events (check replays a record)."""
    return firetower.check({"start": start, "events": list(events)}, max_moves=max_moves)


def die(d: str) -> dict:
    return {"chance": "die", "dir": d}


def draw(card: str) -> dict:
    return {"chance": "draw", "card": card}


def inferno(card: str) -> dict:
    return {"chance": "inferno", "card": card}


def sq(*cells) -> list[list[int]]:
    return [list(c) for c in sorted(cells)]


def cells(g: firetower.GameState, chars: str = "F") -> list[list[int]]:
    """The squares whose board char is in ``chars`` (sorted)."""
    return [[r, c] for r in range(16) for c in range(16) if g.board[r][c] in chars]


def dice(g: firetower.GameState) -> dict[str, float]:
    assert g.chance == "die", (g.chance, g.decision)
    return {c.event["dir"]: c.probability for c in g.chances}


def only_draw(g: firetower.GameState) -> str:
    """The card of the one possible draw."""
    assert g.chance == "draw" and len(g.chances) == 1, (g.chance, g.decision, g.chances)
    assert g.chances[0].probability == 1
    return g.chances[0].event["card"]


def of_type(g: firetower.GameState, t: str) -> list[dict]:
    return [m for m in g.moves if m["type"] == t]


def illegal(start: dict, *events: dict) -> None:
    """The last event is refused."""
    with pytest.raises(InvalidPositionError):
        run(start, *events)


FOUR = {d: 0.25 for d in "NESW"}


# ------------------------------------------------------------ 1. full Firestorm spread

# Gems: a vertical pair [2,10] [3,10], [5,3] with a firebreak south of it on
# [6,3], a horizontal pair [11,1] [11,2]; the EF.
STORM_ROWS = {2: "..........F.....", 3: "..........F.....", 5: "...F............", 6: "...#............",
              11: ".FF............."}
# §8 step 3: a gem on every placeable square s (whole board) with s - d
# fire, from the board before the storm: no chains (the square beyond a new
# gem gets nothing), a firebreak blocks only its own square, off-board
# squares nothing.
STORM_SPREAD = {
    # N: north of [2,10] -> [1,10] (not [0,10]: no chain); north of [3,10] is
    # the gem [2,10]; [4,3]; [10,1] [10,2]; north of the EF [6,7] [6,8].
    "N": sq((1, 10), (4, 3), (10, 1), (10, 2), (6, 7), (6, 8)),
    # S: [4,10] (not [5,10]; south of [2,10] is the gem [3,10]); [6,3] is a
    # firebreak: skipped; [12,1] [12,2]; [9,7] [9,8].
    "S": sq((4, 10), (12, 1), (12, 2), (9, 7), (9, 8)),
    # E: [2,11] [3,11]; [5,4]; [11,3] (east of [11,2]; not [11,4]); [7,9] [8,9].
    "E": sq((2, 11), (3, 11), (5, 4), (11, 3), (7, 9), (8, 9)),
    # W: [2,9] [3,9]; [5,2]; [11,0]; [7,6] [8,6].
    "W": sq((2, 9), (3, 9), (5, 2), (11, 0), (7, 6), (8, 6)),
}


@pytest.mark.parametrize("d", "NESW")
def test_full_firestorm_from_the_refill(d):
    # The action discards air_drop; the refill draws the Firestorm (§5.5): it
    # is set aside and replaced at once (smokejumper; the record order of the
    # project's reading, 15.2), then the storm (§8): the direction die is
    # uniform over N E S W (none barred, §6.9); no storm_reroll (no wind card
    # in hand); the spread of STORM_SPREAD[d]; the new-wind die, uniform over
    # N E S W (§8.4: may equal the old wind or the storm's); then the full
    # storm's storm_discard decision: any sub-multiset of the hand, 0 allowed
    # (§8.6): 6 distinct cards, 2^6 = 64 moves. Discarding nothing: the hand
    # is full (6); the Firestorm is in the discard pile; no NW-area gem, so no
    # Bucket and no end decision: turn 2's Inferno draw.
    start = position(STORM_ROWS, hand=HAND6, draw=["firestorm", "smokejumper", "crown_fire", "de_reforest"])
    events = [{"type": "discard", "cards": ["air_drop"]}]
    g = run(start, *events)
    assert only_draw(g) == "firestorm"
    events.append(draw("firestorm"))
    g = run(start, *events)
    assert only_draw(g) == "smokejumper"
    events.append(draw("smokejumper"))
    g = run(start, *events)
    assert dice(g) == FOUR  # the storm's direction
    before = cells(g)
    assert before == sq((2, 10), (3, 10), (5, 3), (11, 1), (11, 2))
    events.append(die(d))
    g = run(start, *events)
    # The spread is done before the new wind; the firebreak stays.
    assert cells(g) == sorted(before + STORM_SPREAD[d]) and g.board[6][3] == "#"
    assert dice(g) == FOUR  # the new wind: no reroll decision in between
    events.append(die("S"))
    g = run(start, *events)
    assert g.decision == "storm_discard" and g.wind == "S"
    assert g.move_count == 64 and {"type": "storm_discard", "cards": []} in g.moves
    events.append({"type": "storm_discard", "cards": []})
    g = run(start, *events)
    pos = g.position
    assert pos is not None and pos.phase == "inferno" and pos.turn == 2 and pos.wind == "S"
    assert g.discard == {"air_drop": 1, "firestorm": 1} and g.draw_pile == ["crown_fire", "de_reforest"]
    assert sorted(g.hand) == sorted(["smokejumper", "ember", "explosion", "fire_engine", "flare_up", "helitack"])
    assert cells(g) == sorted(before + STORM_SPREAD[d])


def test_storm_discard_draws_back_up():
    # The same storm (N, new wind E) then storm_discard of ember and
    # helitack: §8.6 "discard any number of cards and draw back up": 2 draws
    # (crown_fire, de_reforest), then turn 2.
    start = position(STORM_ROWS, hand=HAND6, draw=["firestorm", "smokejumper", "crown_fire", "de_reforest"])
    events = [{"type": "discard", "cards": ["air_drop"]}, draw("firestorm"), draw("smokejumper"), die("N"), die("E"),
              {"type": "storm_discard", "cards": ["ember", "helitack"]}]
    g = run(start, *events)
    assert only_draw(g) == "crown_fire"
    g = run(start, *events, draw("crown_fire"))
    assert only_draw(g) == "de_reforest"
    g = run(start, *events, draw("crown_fire"), draw("de_reforest"))
    assert g.position is not None and g.position.phase == "inferno" and g.turn == 2
    assert g.discard == {"air_drop": 1, "ember": 1, "firestorm": 1, "helitack": 1}
    assert sorted(g.hand) == sorted(["crown_fire", "de_reforest", "explosion", "fire_engine", "flare_up",
                                     "smokejumper"])


def test_full_firestorm_hawks_wait_for_the_discard_step():
    # An own hawk on [6,7]: a storm N puts gems on [6,7] (activating the
    # hawk: 'X') and [6,8]. §8: hawks come at step 7, after the new wind
    # (step 4) and storm_discard (step 6). The hawk's destinations (§7: fire
    # now = EF + [6,8], its own gem lifted, not its own square): round the EF
    # [7,6] [8,6] [7,9] [8,9] [9,7] [9,8], round [6,8] [5,8] [6,9]: 8.
    start = position({6: ".......H........"}, hand=HAND6, draw=["firestorm", "smokejumper", "crown_fire"])
    events = [{"type": "discard", "cards": ["air_drop"]}, draw("firestorm"), draw("smokejumper"), die("N")]
    g = run(start, *events)
    assert g.board[6] == ".......XF......." and g.chance == "die"
    g = run(start, *events, die("W"))
    assert g.decision == "storm_discard"
    g = run(start, *events, die("W"), {"type": "storm_discard", "cards": []})
    assert g.decision == "hawk" and g.move_count == 8
    assert sorted(m["to"] for m in g.moves) == sq((5, 8), (6, 9), (7, 6), (7, 9), (8, 6), (8, 9), (9, 7), (9, 8))
    assert {tuple(m["from"]) for m in g.moves} == {(6, 7)}


# ------------------------------------------------------------ 2. storm reroll

REROLL_HAND = ["air_drop", "ember", "explosion", "fire_engine", "wind_e", "wind_w"]
REROLL_START = [{"type": "discard", "cards": ["air_drop"]}, draw("firestorm"), draw("smokejumper")]


def test_storm_reroll_of_the_direction():
    # A Firestorm from the refill with wind_e and wind_w in hand. After the
    # direction die (N), §8.2: storm_reroll: reroll discarding either wind
    # card, or keep; canonical order (§12): {"discard":"wind_e",...} <
    # {"discard":"wind_w",...} < {"type":"keep"}. Nothing is placed yet (the
    # spread is step 3). Reroll wind_w: wind_w is discarded; then, 15.3, the
    # die event first (a fresh roll, uniform over N E S W: "the new result
    # stands"), then the draw of the replacement (crown_fire). The storm
    # blows W: [7,6] [8,6] only (the first roll N is void: no [6,7] [6,8]).
    # The new-wind die (E): no second storm_reroll (one per storm, §8.5),
    # although wind_e is still in hand: straight to storm_discard.
    start = position(hand=REROLL_HAND, draw=["firestorm", "smokejumper", "crown_fire", "helitack"])
    events = REROLL_START + [die("N")]
    g = run(start, *events)
    assert g.decision == "storm_reroll" and cells(g) == []
    assert g.moves == [{"type": "reroll", "discard": "wind_e"}, {"type": "reroll", "discard": "wind_w"},
                       {"type": "keep"}]
    events.append({"type": "reroll", "discard": "wind_w"})
    g = run(start, *events)
    assert dice(g) == FOUR and g.discard == {"air_drop": 1, "wind_w": 1} and "wind_w" not in g.hand
    events.append(die("W"))
    g = run(start, *events)
    assert only_draw(g) == "crown_fire"
    events.append(draw("crown_fire"))
    g = run(start, *events)
    assert cells(g) == sq((7, 6), (8, 6)) and dice(g) == FOUR and "wind_e" in g.hand
    events.append(die("E"))
    g = run(start, *events)
    assert g.decision == "storm_discard" and g.wind == "E"
    g = run(start, *events, {"type": "storm_discard", "cards": []})
    assert g.position is not None and g.position.phase == "inferno"
    assert g.discard == {"air_drop": 1, "firestorm": 1, "wind_w": 1} and g.draw_pile == ["helitack"]
    assert sorted(g.hand) == ["crown_fire", "ember", "explosion", "fire_engine", "smokejumper", "wind_e"]


def test_storm_reroll_record_order_is_die_then_draw():
    # 15.3: in a record, the reroll's die comes before the replacement draw.
    # The other order is refused by replay, at the draw (index 5).
    start = position(hand=REROLL_HAND, draw=["firestorm", "smokejumper", "crown_fire", "helitack"])
    good = REROLL_START + [die("N"), {"type": "reroll", "discard": "wind_w"}, die("W"), draw("crown_fire")]
    assert firetower.replay({"start": start, "events": good}).ok
    bad = REROLL_START + [die("N"), {"type": "reroll", "discard": "wind_w"}, draw("crown_fire"), die("W")]
    r = firetower.replay({"start": start, "events": bad})
    assert not r.ok and r.error.index == 5
    # apply samples the same order: reroll, die, draw, then the new-wind die
    # (the next decision is storm_discard).
    g = firetower.apply({"start": start, "events": REROLL_START + [die("N")]},
                        {"type": "reroll", "discard": "wind_w"}, seed=3)
    tail = g.record.events[len(REROLL_START) + 1:]
    assert [e.get("chance", e.get("type")) for e in tail] == ["reroll", "die", "draw", "die"]
    assert tail[2] == draw("crown_fire") and g.decision == "storm_discard"


def test_storm_reroll_of_the_new_wind():
    # Keep the direction N: the spread [6,7] [6,8] (step 3); the new-wind die
    # (N); the reroll is unused: storm_reroll again (§8.5). Reroll wind_e:
    # die (W), draw (crown_fire); the wind is W; storm_discard follows.
    start = position(hand=REROLL_HAND, draw=["firestorm", "smokejumper", "crown_fire", "helitack"])
    events = REROLL_START + [die("N"), {"type": "keep"}]
    g = run(start, *events)
    assert cells(g) == sq((6, 7), (6, 8)) and dice(g) == FOUR
    events.append(die("N"))
    g = run(start, *events)
    assert g.decision == "storm_reroll" and g.wind == "N" and len(g.moves) == 3
    events += [{"type": "reroll", "discard": "wind_e"}, die("W")]
    g = run(start, *events)
    assert only_draw(g) == "crown_fire"
    g = run(start, *events, draw("crown_fire"))
    assert g.decision == "storm_discard" and g.wind == "W" and cells(g) == sq((6, 7), (6, 8))
    assert sorted(g.hand) == ["crown_fire", "ember", "explosion", "fire_engine", "smokejumper", "wind_w"]


def test_storm_reroll_after_keep_and_keep():
    # Keeping both rolls: two storm_reroll decisions, nothing discarded.
    start = position(hand=REROLL_HAND, draw=["firestorm", "smokejumper", "crown_fire", "helitack"])
    g = run(start, *REROLL_START, die("S"), {"type": "keep"}, die("E"), {"type": "keep"})
    assert g.decision == "storm_discard" and g.wind == "E" and cells(g) == sq((9, 7), (9, 8))
    assert g.discard == {"air_drop": 1}


# ------------------------------------------------------------ 3. the player's Bucket

BUCKET_ROWS = {2: "..F.............", 3: "..F............."}  # [2,2] in the NW area, [3,2] just outside


def test_bucket_at_inferno_place():
    # §9.1: lines of 3 (row or column, may overhang) holding a NW-area gem;
    # the move gives the gems removed. Lines through [2,2]: row 2 -> {[2,2]};
    # column 2 rows 0-2 -> {[2,2]}, rows 1-3 and 2-4 -> {[2,2],[3,2]}. Two
    # distinct moves (T2: 2). At inferno_place (wind_n revealed) they come
    # with the Inferno move; canonical order: "[[2,2],[3,2]]" < "[[2,2]]".
    # After the Bucket the decision comes back with one move (the N storm),
    # applied at once: [6,7] over the EF ([6,8] is NE). Then the wind step.
    start = position(BUCKET_ROWS, hand=HAND6, draw=["smokejumper"], phase="inferno_place", revealed="wind_n")
    g = run(start)
    assert g.moves == [{"type": "bucket", "squares": sq((2, 2), (3, 2))}, {"type": "bucket", "squares": sq((2, 2))},
                       {"type": "inferno"}]
    g = run(start, {"type": "bucket", "squares": sq((2, 2), (3, 2))})
    assert g.decision == "wind" and cells(g) == sq((6, 7)) and g.buckets.NW == "used"
    assert not of_type(g, "bucket")


def test_bucket_at_wind():
    # Wind E: east of fire [2,3] [3,3] [7,9] [8,9] and the 2 Bucket lines.
    # The Bucket {[2,2]} (row 2) leaves [3,2]; the wind decision comes back
    # without [2,3] (its source is gone) and without Bucket moves (used once).
    start = position(BUCKET_ROWS, hand=HAND6, draw=["smokejumper"], phase="wind")
    g = run(start)
    assert g.decision == "wind" and len(g.moves) == 6 and len(of_type(g, "bucket")) == 2
    g = run(start, {"type": "bucket", "squares": sq((2, 2))})
    assert g.decision == "wind" and cells(g) == sq((3, 2)) and g.buckets.NW == "used"
    assert g.moves == [{"type": "wind_gem", "square": s} for s in sq((3, 3), (7, 9), (8, 9))]
    assert g.record.events == [{"type": "bucket", "squares": sq((2, 2))}]
    # A line with no NW-area gem ([3,2] alone) is not a Bucket.
    illegal(start, {"type": "bucket", "squares": sq((3, 2))})


def test_bucket_at_action():
    # The action's moves hold the 2 Bucket lines; after one, the action
    # decision again, without them; the Bucket was not the turn's action.
    start = position(BUCKET_ROWS, hand=HAND6, draw=["smokejumper"])
    g = run(start)
    assert len(of_type(g, "bucket")) == 2
    n = g.move_count
    g = run(start, {"type": "bucket", "squares": sq((2, 2), (3, 2))})
    assert g.decision == "action" and cells(g) == [] and not of_type(g, "bucket") and g.buckets.NW == "used"
    assert g.move_count < n and of_type(g, "discard")
    # Once per game: gems [0,1] and [2,2] (NW area, on no common line) give
    # two Buckets, {[0,1]} and {[2,2]}; after one, the other is gone.
    two = position({0: ".F..............", 2: "..F............."}, hand=HAND6, draw=["smokejumper"])
    assert of_type(run(two), "bucket") == [{"type": "bucket", "squares": sq((0, 1))},
                                           {"type": "bucket", "squares": sq((2, 2))}]
    g = run(two, {"type": "bucket", "squares": sq((0, 1))})
    assert g.decision == "action" and cells(g) == sq((2, 2)) and not of_type(g, "bucket")
    illegal(two, {"type": "bucket", "squares": sq((0, 1))}, {"type": "bucket", "squares": sq((2, 2))})


def test_bucket_at_end():
    # §5.1 step 6: the end decision: the Bucket {[1,1]} or end. After the
    # Bucket the end decision has one move (end), applied at once: turn 2.
    start = position({1: ".F.............."}, hand=HAND6, phase="end")
    g = run(start)
    assert g.moves == [{"type": "bucket", "squares": sq((1, 1))}, {"type": "end"}]
    g = run(start, {"type": "bucket", "squares": sq((1, 1))})
    assert g.position is not None and g.position.phase == "inferno" and g.turn == 2 and cells(g) == []
    assert g.buckets.NW == "used"
    # With the Bucket used, the end decision has the one move end: applied
    # on load.
    g = run(position({1: ".F.............."}, hand=HAND6, phase="end", buckets={"NW": "used"}))
    assert g.position.phase == "inferno" and g.turn == 2 and cells(g) == sq((1, 1))


@pytest.mark.parametrize("rows, lines", [({1: ".F.............."}, [sq((1, 1))]),
                                         ({1: ".F..............", 2: ".F.............."},
                                          [sq((1, 1), (2, 1)), sq((1, 1)), sq((2, 1))])])
def test_bucket_is_never_forced_when_no_action_is_legal(rows, lines):
    # An empty hand, empty piles, Lookout used (Patrol needs a hand card),
    # no wind card for Heavy Winds: no legal action (§4, §6: a card with no
    # legal play cannot be played), so the action is skipped, as the wind
    # step is when it has no square (§5.1). The Bucket is optional (§9.1
    # "may"; it "does not end the decision"): it must not be applied for the
    # player. After the (empty) refill: the end decision, Bucket lines + end,
    # the gems and the unused Bucket untouched.
    g = run(position(rows, hand=[], specialty={"lookout": "back"}))
    assert g.buckets.NW == "unused" and cells(g) == lines[0]  # the first line holds every gem
    assert g.decision == "end" and g.moves == [{"type": "bucket", "squares": x} for x in lines] + [{"type": "end"}]


# ------------------------------------------------------------ 4. the Inferno penalty

# Gems only outside the NW quadrant: [3,8] (NE) and [8,3] (SW).
PENALTY_ROWS = {3: "........F.......", 8: "...F............"}


@pytest.mark.parametrize("storm, placed", [("N", sq((6, 7), (7, 3))), ("W", sq((3, 7), (7, 6)))])
def test_penalty_storm(storm, placed):
    # Explosion with no NW gem has no legal placement (§5.3): the moves are
    # exactly the two penalties. §5.3 penalty: the card goes to the Inferno
    # discard; an Inferno storm: a gem on every placeable NW-quadrant square
    # s with s - d fire, sources anywhere, EF included: N -> [6,7] (over the
    # EF; [6,8] is NE) and [7,3] (over the SW gem [8,3]); W -> [3,7] (west of
    # the NE gem [3,8]) and [7,6] (west of the EF; [8,6] is SW). Then the
    # next Inferno draw (flare_up, the top), with penalty true.
    start = position(PENALTY_ROWS, hand=HAND6, draw=["smokejumper"], phase="inferno_place", revealed="explosion",
                     inferno_deck=["flare_up", "burning_snag", "wind_n", "wind_w"])
    g = run(start)
    assert g.moves == [{"type": "penalty", "storm": "N"}, {"type": "penalty", "storm": "W"}]
    g = run(start, {"type": "penalty", "storm": storm})
    assert cells(g) == sorted(sq((3, 8), (8, 3)) + placed) and g.wind == "E"  # the wind does not change
    assert g.chance == "inferno" and [c.event for c in g.chances] == [inferno("flare_up")]
    assert g.inferno.discard == ["explosion"] and g.position is None  # inside the turn: no position
    g = run(start, {"type": "penalty", "storm": storm}, inferno("flare_up"))
    pos = g.position
    assert g.decision == "inferno_place" and pos.phase == "inferno_place"
    assert pos.inferno.revealed == "flare_up" and pos.inferno.penalty and pos.inferno.discard == ["explosion"]
    assert pos.inferno.deck == ["burning_snag", "wind_n", "wind_w"]
    if storm == "N":
        # Inferno Flare Up lines (3 placeable NW squares, one next to fire):
        # NW squares next to fire: [3,7] [5,7] [6,6] [7,6] [6,3] [7,2] [7,4];
        # lines: through [3,7]: row 3 cols 5-7, col 7 rows 1-3 2-4 3-5 (4);
        # [5,7]: row 5 cols 5-7 (1); [6,6]: row 6 cols 4-6, col 6 rows 4-6
        # 5-7 (3); [7,6]: row 7 cols 4-6 (1); [6,3]: row 6 cols 1-3 2-4 3-5,
        # col 3 rows 4-6 (4); [7,2]: row 7 cols 0-2, col 2 rows 5-7 (2);
        # [7,4]: col 4 rows 5-7 (1). 16.
        assert g.move_count == 16
    # Once placed, the card joins the Inferno discard and penalty is off.
    g = run(start, {"type": "penalty", "storm": storm}, inferno("flare_up"), g.moves[0])
    assert g.decision == "wind" and g.inferno.discard == ["explosion", "flare_up"] and not g.inferno.penalty


def test_penalty_drawn_fire_card_without_placement_loses():
    # NW quadrant all firebreaks but a column of gems [0,1]..[3,1]. Explosion
    # cannot place (every surrounding square is a firebreak or a gem), so:
    # penalty (the Bucket lines are offered too: 7 of them). Storm N: nothing
    # (no placeable NW square). The next card, flare_up (penalty true), has
    # no placement: lost at once (§5.3, §5.4), although the unused Bucket on
    # column 1 rows 0-2 would make room for one: 15.6 "the player's Bucket
    # cannot be used to make room for it".
    rows = dict(NW_WALLED)
    for r in range(4):
        rows[r] = "#F######........"
    start = position(rows, hand=HAND6, draw=["smokejumper"], phase="inferno_place", revealed="explosion",
                     inferno_deck=["flare_up", "burning_snag", "wind_n", "wind_w"])
    g = run(start)
    assert of_type(g, "penalty") == [{"type": "penalty", "storm": "N"}, {"type": "penalty", "storm": "W"}]
    assert len(of_type(g, "bucket")) == 7
    g = run(start, {"type": "penalty", "storm": "N"})
    assert g.chance == "inferno" and cells(g) == sq((0, 1), (1, 1), (2, 1), (3, 1))
    g = run(start, {"type": "penalty", "storm": "N"}, inferno("flare_up"))
    assert g.status == "loss" and g.decision is None and g.chance is None and g.moves == [] and g.score is None


def test_penalty_with_an_empty_inferno_deck():
    # §5.3 step 3 / 15.4: the deck is empty at the penalty draw: all five
    # cards (the failed explosion included) are shuffled, 1/5 each. A drawn
    # wind card always succeeds: wind_n's NW storm: [6,6] (over the penalty
    # gem [7,6]) and [6,7] (over the EF). The position carries round_ends;
    # after this turn the round ends: round 2, all five cards back.
    start = position(hand=HAND6, draw=["smokejumper"], phase="inferno_place", revealed="explosion",
                     inferno_deck=[], inferno_discard=["burning_snag", "flare_up", "wind_n", "wind_w"], turn=5)
    g = run(start, {"type": "penalty", "storm": "W"})
    assert cells(g) == sq((7, 6))
    assert {c.event["card"]: c.probability for c in g.chances} == {c: pytest.approx(0.2) for c in INFERNO}
    events = [{"type": "penalty", "storm": "W"}, inferno("wind_n")]
    g = run(start, *events)
    assert g.decision == "wind" and cells(g) == sq((6, 6), (6, 7), (7, 6))
    assert g.position.inferno.round_ends and g.position.inferno.discard == ["wind_n"]
    assert g.position.inferno.deck == {"burning_snag": 1, "explosion": 1, "flare_up": 1, "wind_w": 1}
    g = run(start, *events, {"type": "wind_gem", "square": [7, 9]}, {"type": "discard", "cards": ["air_drop"]},
            draw("smokejumper"))
    pos = g.position
    assert (pos.phase, pos.turn, pos.round) == ("inferno", 6, 2) and not pos.inferno.round_ends
    assert pos.inferno.deck == {c: 1 for c in INFERNO} and pos.inferno.discard == []


def test_inferno_explosion_counts_own_hawk_squares():
    # G35 / §5.3: squares holding own hawks count as placed. Centre [3,3]:
    # its NW surroundings [2,3] [4,3] [4,4] empty, [3,4] a hawk, the rest
    # firebreaks: 4 gems with the hawk -> legal (3 without it); the one
    # centre is applied at once. [3,3] becomes a firebreak. The hawk then
    # throws its gem anywhere next to fire ([2,3] [4,3] [4,4] EF; its own
    # gem lifted): [1,3] [5,3] [5,4] + 8 round the EF = 11.
    rows = {2: "..#.#...........", 3: "..#FH...........", 4: "..#..#.........."}
    start = position(rows, hand=HAND6, draw=["smokejumper"], phase="inferno_place", revealed="explosion")
    g = run(start)
    assert g.decision == "hawk" and g.board[2:5] == ["..#F#...........", "..##X...........", "..#FF#.........."]
    assert sorted(m["to"] for m in g.moves) == sq((1, 3), (5, 3), (5, 4), (6, 7), (6, 8), (7, 6), (7, 9), (8, 6),
                                                   (8, 9), (9, 7), (9, 8))


# ------------------------------------------------------------ 5. hawk chains

# Own hawks A [4,4] and B [3,3], a gem on [4,3], an enemy (NE) hawk C on
# [6,8] next to the EF. Wind E.
CHAIN_ROWS = {3: "...H............", 4: "...FH...........", 6: "........H......."}


def test_hawk_chain():
    # Wind squares (east of fire): [4,4] (a hawk: placeable), [7,9], [8,9].
    # The gem on [4,4] activates A ('X'). §7 own hawk: any placeable square
    # but its own, adjacent to fire now with its gem lifted; fire = [4,3] +
    # EF: [3,3] (B) [4,2] [5,3]; [6,7] [6,8] (C) [7,6] [8,6] [7,9] [8,9] [9,7]
    # [9,8] -- 11, in every quadrant.
    # A -> [3,3] activates B: decision hawk again, from [3,3]; [4,4] is free
    # again: [4,2] [4,4] [5,3] + the 8 round the EF = 11.
    # B -> [6,8] activates the enemy hawk C: NW quadrant only: [3,3] [4,2]
    # [4,4] [5,3] [6,7] [7,6] = 6. C -> [4,4]: a plain gem; action next.
    # All three hawks are back in the supply (15 -> 18).
    start = position(CHAIN_ROWS, hand=HAND6, draw=["smokejumper"], phase="wind")
    g = run(start)
    assert g.hawk_supply == 15
    assert g.moves == [{"type": "wind_gem", "square": s} for s in sq((4, 4), (7, 9), (8, 9))]
    events = [{"type": "wind_gem", "square": [4, 4]}]
    g = run(start, *events)
    assert g.decision == "hawk" and g.position is None and g.board[4] == "...FX..........."
    assert {tuple(m["from"]) for m in g.moves} == {(4, 4)}
    assert sorted(m["to"] for m in g.moves) == sq((3, 3), (4, 2), (5, 3), (6, 7), (6, 8), (7, 6), (8, 6), (7, 9),
                                                   (8, 9), (9, 7), (9, 8))
    events.append({"type": "hawk", "from": [4, 4], "to": [3, 3]})
    g = run(start, *events)
    assert g.decision == "hawk" and g.board[3] == "...X............" and g.board[4] == "...F............"
    assert {tuple(m["from"]) for m in g.moves} == {(3, 3)}
    assert sorted(m["to"] for m in g.moves) == sq((4, 2), (4, 4), (5, 3), (6, 7), (6, 8), (7, 6), (8, 6), (7, 9),
                                                   (8, 9), (9, 7), (9, 8))
    events.append({"type": "hawk", "from": [3, 3], "to": [6, 8]})
    g = run(start, *events)
    assert g.decision == "hawk" and g.board[6] == "........X......."
    assert sorted(m["to"] for m in g.moves) == sq((3, 3), (4, 2), (4, 4), (5, 3), (6, 7), (7, 6))
    illegal(start, *events, {"type": "hawk", "from": [6, 8], "to": [7, 9]})  # outside the NW quadrant
    events.append({"type": "hawk", "from": [6, 8], "to": [4, 4]})
    g = run(start, *events)
    assert g.decision == "action" and cells(g) == sq((4, 3), (4, 4)) and cells(g, "HX") == [] and g.hawk_supply == 18


def test_hawk_without_destination():
    # NW quadrant all firebreaks; enemy (NE) hawks on [4,11] [4,12], a gem on
    # [4,10]. Flare Up [4,11] [4,12] [4,13] activates both. An enemy hawk's
    # gem may only go to the NW quadrant, where nothing is placeable: each
    # has the one move "to": null, and the player picks the order: 2 moves.
    # The second is then alone: applied at once. Both gems leave the game,
    # both hawks go back to the supply (16 -> 18).
    rows = dict(NW_WALLED)
    rows[4] = "########..FHH..."
    start = position(rows, hand=HAND6, draw=["smokejumper"])
    play = {"type": "play", "card": "flare_up", "squares": sq((4, 11), (4, 12), (4, 13))}
    g = run(start, play)
    assert g.decision == "hawk" and g.board[4] == "########..FXXF.."
    assert g.moves == [{"type": "hawk", "from": [4, 11], "to": None}, {"type": "hawk", "from": [4, 12], "to": None}]
    g = run(start, play, {"type": "hawk", "from": [4, 12], "to": None})
    assert g.chance == "draw" and g.board[4] == "########..F..F.." and g.hawk_supply == 18


def test_pending_gem_is_fire_for_the_other_hawks():
    # 15.9: own hawks on [5,5] and [5,6], a gem on [6,4]; Flare Up [5,4]
    # [5,5] [5,6] ([5,4] next to [6,4]) activates both. The hawk on [5,5]
    # (its own gem lifted; the pending [5,6] holds a gem, which is fire):
    # next to [6,4]: [6,3] [6,5] [7,4]; next to [5,4]: [4,4] [5,3]; ([5,5] is
    # its own square); next to pending [5,6]: [4,6] [5,7] [6,6]; next to the
    # EF: [6,7] [6,8] [7,6] [8,6] [7,9] [8,9] [9,7] [9,8]. 16 for it.
    start = position({5: ".....HH.........", 6: "....F..........."}, hand=HAND6, draw=["smokejumper"])
    play = {"type": "play", "card": "flare_up", "squares": sq((5, 4), (5, 5), (5, 6))}
    g = run(start, play)
    assert g.decision == "hawk" and g.board[5] == "....FXX........."
    to = sorted(m["to"] for m in g.moves if m["from"] == [5, 5])
    assert to == sq((6, 3), (6, 5), (7, 4), (4, 4), (5, 3), (4, 6), (5, 7), (6, 6), (6, 7), (6, 8), (7, 6), (8, 6),
                    (7, 9), (8, 9), (9, 7), (9, 8))


# ------------------------------------------------------------ 6. flocking


def test_hawk_card_rearranges_every_own_hawk():
    # One own hawk on [4,4], an enemy (SE) hawk on [12,8], supply 16. Pair
    # of Hawks (§6.10): placed = min(2, 16, free 53) = 2, no take (the supply
    # is not short). The move gives the final set of own-hawk squares,
    # 1 + 2 = 3, out of the pool: the empty NW-quadrant squares off the NW
    # area and the EF, plus the own hawks' = 64 - 9 - 1 = 54: C(54,3) = 24804
    # moves (counted, not listed). The old hawk may move too: {[0,5],[5,5],
    # [6,6]} leaves [4,4] empty; the enemy hawk stays. Supply 14.
    hand = ["air_drop", "ember", "explosion", "fire_engine", "flare_up", "hawks_2"]
    start = position({4: "....H...........", 12: "........H......."}, hand=hand, draw=["helitack"])
    g = run(start)
    assert [(u.card, u.moves) for u in g.unlisted] == [("hawks_2", comb(54, 3))]
    # What a frontend needs to write one of them: the play without its
    # squares, the 54 squares of the pool, 1 own + 2 placed, nothing to take.
    family = g.unlisted[0]
    nw_free = [(r, c) for r in range(8) for c in range(8) if not (r < 3 and c < 3) and (r, c) != (7, 7)]
    assert family.move == {"type": "play", "card": "hawks_2", "hawks": [], "take": []}
    assert family.squares == nw_free and len(nw_free) == 54
    assert (family.own, family.placed, family.max_take, family.takeable) == (1, 2, 0, [])
    move = {"type": "play", "card": "hawks_2", "hawks": sq((0, 5), (5, 5), (6, 6)), "take": []}
    g = run(start, move, draw("helitack"))
    assert cells(g, "H") == sq((0, 5), (5, 5), (6, 6), (12, 8)) and g.hawk_supply == 14
    assert g.discard == {"hawks_2": 1}
    # Wrong sizes, squares in the NW area, or a take while the supply is
    # not short are refused.
    illegal(start, dict(move, hawks=sq((0, 5), (4, 4))))
    illegal(start, dict(move, hawks=sq((0, 5), (4, 4), (5, 5), (6, 6))))
    illegal(start, dict(move, hawks=sq((1, 1), (4, 4), (5, 5))))
    illegal(start, dict(move, hawks=sq((6, 6), (7, 7), (4, 4))))  # the EF
    illegal(start, dict(move, hawks=sq((0, 5), (4, 4), (5, 5), (6, 6)), take=sq((12, 8))))  # supply not short


def test_hawk_card_takes_enemy_hawks_only_when_the_supply_is_short():
    # 17 hawks on the board: own [4,4], 16 enemy (rows 12-13, cols 8-15);
    # supply 1. Trio of Hawks: placed = 1, and up to min(3-1, 53-1) = 2 enemy
    # hawks may be taken. Final own sets: take 0: C(54,2); take 1:
    # 16*C(54,3); take 2: C(16,2)*C(54,4).
    rows = {4: "....H...........", 12: "........HHHHHHHH", 13: "........HHHHHHHH"}
    hand = ["air_drop", "ember", "explosion", "fire_engine", "flare_up", "hawks_3"]
    start = position(rows, hand=hand, draw=["helitack"])
    g = run(start, max_moves=0)
    assert g.hawk_supply == 1
    assert [(u.card, u.moves) for u in g.unlisted] == [
        ("hawks_3", comb(54, 2) + 16 * comb(54, 3) + comb(16, 2) * comb(54, 4))]
    family = g.unlisted[0]
    assert (family.own, family.placed, family.max_take) == (1, 1, 2)
    assert family.takeable == [(r, c) for r in (12, 13) for c in range(8, 16)]
    move = {"type": "play", "card": "hawks_3", "hawks": sq((0, 5), (4, 4), (5, 5), (6, 6)),
            "take": sq((12, 8), (13, 15))}
    g = run(start, move, draw("helitack"))
    assert cells(g, "H") == sq((0, 5), (4, 4), (5, 5), (6, 6), *[(12, c) for c in range(9, 16)],
                               *[(13, c) for c in range(8, 15)])
    assert g.hawk_supply == 0
    # Taking one, or none, is allowed (final sets of 3 and 2).
    run(start, dict(move, hawks=sq((0, 5), (4, 4), (5, 5)), take=sq((12, 8))))
    run(start, dict(move, hawks=sq((0, 5), (4, 4)), take=[]))
    illegal(start, dict(move, take=sq((12, 8))))  # 4 squares need 2 taken
    illegal(start, dict(move, hawks=sq((0, 5), (4, 4), (5, 5), (6, 6), (6, 5)),
                        take=sq((12, 8), (12, 9), (12, 10))))  # at most 2


# ------------------------------------------------------------ 7. tower burning


def test_tower_burn_partial_firestorm_and_extra_card():
    # Wind E, a gem on [0,14]: the wind gem on [0,15] (NE's back corner).
    # Checks (§5.2): 2. NE burned; 3. NE is burned: no Bucket although its
    # area holds gems; 4. the partial Firestorm (§8): direction die uniform
    # over N E S W (E is barred only with NE and SE burned); S: [1,14]
    # [1,15] [9,7] [9,8]; new wind die (W); no storm_reroll (no wind card),
    # no storm_discard (partial); then 1 card drawn: hand_size 6 + 1 = 7,
    # hand 7; the turn goes on at the action.
    start = position({0: "..............F."}, hand=HAND6, draw=["smokejumper", "crown_fire"], phase="wind")
    g = run(start)
    assert g.moves == [{"type": "wind_gem", "square": s} for s in sq((0, 15), (7, 9), (8, 9))]
    events = [{"type": "wind_gem", "square": [0, 15]}]
    g = run(start, *events)
    assert dice(g) == FOUR and g.burned.NE and g.hand_size == 7
    events.append(die("S"))
    g = run(start, *events)
    assert cells(g) == sq((0, 14), (0, 15), (1, 14), (1, 15), (9, 7), (9, 8)) and dice(g) == FOUR
    events.append(die("W"))
    g = run(start, *events)
    assert only_draw(g) == "smokejumper" and g.wind == "W"
    events.append(draw("smokejumper"))
    g = run(start, *events)
    pos = g.position
    assert g.decision == "action" and pos.phase == "action" and pos.hand_size == 7 and len(pos.hand) == 7
    assert pos.burned.NE and pos.buckets.NE == "unused" and pos.discard == {}


def test_tower_burn_partial_firestorm_has_rerolls_but_no_discard():
    # With wind_s in hand, the partial storm offers storm_reroll after each
    # die (§8 steps 2, 5) but never storm_discard (step 6: full only).
    hand = ["air_drop", "ember", "explosion", "fire_engine", "flare_up", "wind_s"]
    start = position({0: "..............F."}, hand=hand, draw=["smokejumper", "crown_fire"], phase="wind")
    events = [{"type": "wind_gem", "square": [0, 15]}, die("S")]
    g = run(start, *events)
    assert g.decision == "storm_reroll" and g.moves == [{"type": "reroll", "discard": "wind_s"}, {"type": "keep"}]
    events += [{"type": "keep"}, die("W")]
    assert run(start, *events).decision == "storm_reroll"
    events.append({"type": "keep"})
    g = run(start, *events)
    assert only_draw(g) == "smokejumper"
    g = run(start, *events, draw("smokejumper"))
    assert g.decision == "action" and len(g.hand) == 7 and g.hand_size == 7


def test_two_towers_burned_in_one_step():
    # Heavy Winds: wind_e on [0,15] (east of [0,14]) and wind_w on [15,0]
    # (west of [15,1]): one step. Checks: NE and SW burned; for each, in the
    # order NE, SW: a partial Firestorm, then 1 card. NE's storm E: [15,2]
    # (east of [15,1]) [7,9] [8,9]; new wind N; draw smokejumper. SW's storm
    # (die still over N E S W: neither E nor S is barred) N: [14,0] [14,1]
    # [14,2] [6,7] [6,8] [6,9]; new wind W; draw crown_fire. Then the refill
    # up to hand_size 6 + 2 = 8: 2 more cards.
    hand = ["air_drop", "ember", "explosion", "fire_engine", "wind_e", "wind_w"]
    start = position({0: "..............F.", 15: ".F.............."}, hand=hand,
                     draw=["smokejumper", "crown_fire", "helitack", "de_reforest", "ember"])
    events = [{"type": "specialty", "card": "heavy_winds"}, {"type": "heavy_wind", "card": "wind_e", "square": [0, 15]},
              {"type": "heavy_wind", "card": "wind_w", "square": [15, 0]}]
    g = run(start, *events)
    assert dice(g) == FOUR and g.burned.NE and g.burned.SW and not g.burned.SE and g.hand_size == 8
    events.append(die("E"))
    g = run(start, *events)
    assert cells(g) == sq((0, 14), (0, 15), (7, 9), (8, 9), (15, 0), (15, 1), (15, 2))
    events.append(die("N"))
    assert only_draw(run(start, *events)) == "smokejumper"
    events.append(draw("smokejumper"))
    g = run(start, *events)
    assert dice(g) == FOUR and len(g.hand) == 5
    events.append(die("N"))
    g = run(start, *events)
    assert cells(g) == sq((0, 14), (0, 15), (6, 7), (6, 8), (6, 9), (7, 9), (8, 9), (14, 0), (14, 1), (14, 2),
                          (15, 0), (15, 1), (15, 2))
    events.append(die("W"))
    assert only_draw(run(start, *events)) == "crown_fire"
    events.append(draw("crown_fire"))
    assert only_draw(run(start, *events)) == "helitack"
    events += [draw("helitack"), draw("de_reforest")]
    g = run(start, *events)
    pos = g.position
    assert pos.phase == "inferno" and pos.hand_size == 8 and len(pos.hand) == 8 and pos.wind == "W"
    assert pos.specialty.heavy_winds == "back" and pos.draw_pile == ["ember"]


def test_burn_inside_a_partial_firestorm_and_barred_east():
    # SE's Bucket used. The wind gem burns NE; NE's partial storm S puts a gem
    # on [15,15] (south of [14,15]). SE burns at that storm's own checks
    # (§5.2: after the storm's new wind), so NE's new-wind die is still over
    # N E S W. Then SE's partial storm: with NE and SE burned, E is barred
    # (§6.9): its dice are over N S W, 1/3 each. Then SE's card, then NE's:
    # hand_size 6 + 2 = 8.
    start = position({0: "..............F.", 14: "...............F"}, hand=HAND6,
                     draw=["smokejumper", "crown_fire", "ember"], phase="wind", buckets={"SE": "used"})
    events = [{"type": "wind_gem", "square": [0, 15]}, die("S")]
    g = run(start, *events)
    assert g.board[15][15] == "F" and not g.burned.SE and dice(g) == FOUR
    events.append(die("W"))
    g = run(start, *events)
    assert g.burned.SE and g.hand_size == 8
    assert dice(g) == {d: pytest.approx(1 / 3) for d in "NSW"}
    illegal(start, *events, die("E"))
    events.append(die("N"))
    g = run(start, *events)
    assert dice(g) == {d: pytest.approx(1 / 3) for d in "NSW"}
    events.append(die("S"))
    g = run(start, *events, draw("smokejumper"), draw("crown_fire"))
    assert g.decision == "action" and len(g.hand) == 8 and g.wind == "S"


def test_a_gem_gone_from_the_corner_before_the_check_burns_nothing():
    # An enemy (NE) hawk stands on NE's back corner [0,15]. The wind gem
    # [0,15] lands on it; the hawk's gem must go to the NW quadrant (next to
    # [5,4] or the EF): [4,4] [5,3] [5,5] [6,4] [6,7] [7,6]. At the checks
    # (§5.2, after the hawks) the corner holds nothing: NE is not burned; NE's
    # area holds [0,14]: its Bucket removes it (check 3); no partial storm.
    start = position({0: "..............FH", 5: "....F..........."}, hand=HAND6, draw=["smokejumper"], phase="wind")
    g = run(start, {"type": "wind_gem", "square": [0, 15]})
    assert g.decision == "hawk" and g.board[0] == "..............FX"
    assert sorted(m["to"] for m in g.moves) == sq((4, 4), (5, 3), (5, 5), (6, 4), (6, 7), (7, 6))
    g = run(start, {"type": "wind_gem", "square": [0, 15]}, {"type": "hawk", "from": [0, 15], "to": [5, 5]})
    assert g.decision == "action" and not g.burned.NE and g.buckets.NE == "used" and g.hand_size == 6
    assert cells(g) == sq((5, 4), (5, 5))


# ------------------------------------------------------------ 8. Levels 6-7 Bucket

L6_HAND = ["air_drop", "ember", "explosion", "fire_engine"]
L6_ROWS = {0: "..............F.", 2: "..F............."}


def test_level6_taking_an_unused_bucket():
    # Level 6: the player's Bucket is none: no Bucket move at the wind step
    # although [2,2] is in the NW area. The wind gem [0,15] burns NE whose
    # Bucket is unused (§5.2 check 2, G48): the player's Bucket becomes
    # unused, bucket_taken true, NE's field unchanged (15.10). Partial storm
    # N: [1,2] [6,7] [6,8]; wind N; 1 card: hand_size 4 + 1 = 5. At the
    # action the Bucket lines: {[1,2],[2,2]}, {[1,2]}, {[2,2]}.
    start = position(L6_ROWS, hand=L6_HAND, draw=["helitack", "smokejumper"], phase="wind", level=6,
                     buckets={"NW": "none"})
    g = run(start)
    assert g.buckets.NW == "none" and not of_type(g, "bucket")
    g = run(start, {"type": "wind_gem", "square": [0, 15]}, die("N"), die("N"), draw("helitack"))
    pos = g.position
    assert pos.phase == "action" and pos.bucket_taken and pos.hand_size == 5 and len(pos.hand) == 5
    assert pos.buckets.model_dump() == {"NW": "unused", "NE": "unused", "SW": "unused", "SE": "unused"}
    assert sorted(m["squares"] for m in of_type(g, "bucket")) == [sq((1, 2)), sq((1, 2), (2, 2)), sq((2, 2))]


def test_level6_burning_a_used_bucket_tower_gives_nothing():
    start = position(L6_ROWS, hand=L6_HAND, draw=["helitack", "smokejumper"], phase="wind", level=6,
                     buckets={"NW": "none", "NE": "used"})
    g = run(start, {"type": "wind_gem", "square": [0, 15]}, die("N"), die("N"), draw("helitack"))
    assert g.buckets.NW == "none" and not g.bucket_taken and not of_type(g, "bucket")


def test_level6_bucket_taken_only_once():
    # The Bucket already taken and used: burning SW (Bucket unused) gives
    # nothing more ("once per game").
    start = position({15: ".F..............", 2: "..F............."}, hand=L6_HAND, draw=["helitack"],
                     phase="wind", wind="W", level=6, buckets={"NW": "used"}, bucket_taken=True)
    g = run(start, {"type": "wind_gem", "square": [15, 0]}, die("N"), die("N"), draw("helitack"))
    assert g.burned.SW and g.buckets.NW == "used" and g.bucket_taken and g.buckets.SW == "unused"


# ------------------------------------------------------------ 9. Reckless Abandon

RECKLESS_HAND = ["air_drop", "de_reforest", "de_reforest", "de_reforest", "fire_engine", "smokejumper"]


def test_reckless_abandon():
    # §9.3: Bucket used, a gem on [1,1] (NW area). Discards: exactly 3 water
    # (air_drop fire_engine smokejumper: 1 set) or 3 de_reforest (1 set).
    # Squares next to pre-existing fire: [0,1] [1,0] [1,2] [2,1] and 8 round
    # the EF: 12, C(12,2) = 66 pairs; 2 * 66 = 132 moves. Play 3 de_reforest
    # on [1,2] and [6,7]: the 3 cards go to the discard, 3 are drawn.
    start = position({1: ".F.............."}, hand=RECKLESS_HAND, buckets={"NW": "used"},
                     draw=["wind_e", "wind_w", "ember", "helitack"])
    g = run(start)
    reckless = of_type(g, "reckless")
    assert len(reckless) == 132
    assert sorted({tuple(m["discard"]) for m in reckless}) == [("air_drop", "fire_engine", "smokejumper"),
                                                                ("de_reforest", "de_reforest", "de_reforest")]
    move = {"type": "reckless", "discard": ["de_reforest"] * 3, "squares": sq((1, 2), (6, 7))}
    g = run(start, move)
    assert cells(g) == sq((1, 1), (1, 2), (6, 7)) and g.discard == {"de_reforest": 3}
    g = run(start, move, draw("wind_e"), draw("wind_w"), draw("ember"))
    assert g.position.phase == "inferno" and len(g.hand) == 6 and g.draw_pile == ["helitack"]
    # A square not next to pre-existing fire ([0,2] touches only the other
    # new gem [0,1]), a mixed discard, or one gem while 12 squares qualify:
    # refused.
    illegal(start, dict(move, squares=sq((0, 1), (0, 2))))
    illegal(start, dict(move, discard=["air_drop", "de_reforest", "fire_engine"]))
    illegal(start, dict(move, squares=sq((1, 2))))


def test_reckless_abandon_needs_a_used_bucket_and_a_nw_area_gem():
    # Bucket unused: the Bucket is offered instead; no gem in the NW area:
    # nothing. (Level 6 with Bucket none: not either.)
    for rows, buckets, level in (({1: ".F.............."}, {"NW": "unused"}, 1),
                                 ({3: ".F.............."}, {"NW": "used"}, 1),
                                 ({1: ".F.............."}, {"NW": "none"}, 6)):
        hand = RECKLESS_HAND[:4] if level == 6 else RECKLESS_HAND
        g = run(position(rows, hand=hand, buckets=buckets, level=level, draw=["wind_e"]))
        assert not of_type(g, "reckless")


def test_reckless_abandon_one_square():
    # Every square next to fire is a firebreak but [1,2]: 1 gem (§9.3); with
    # none at all it is illegal (15.10).
    rows = {0: ".#..............", 1: "#F..............", 2: ".#..............", 6: ".......##.......",
            7: "......#EE#......", 8: "......#EE#......", 9: ".......##......."}
    g = run(position(rows, hand=RECKLESS_HAND, buckets={"NW": "used"}, draw=["wind_e"]))
    assert of_type(g, "reckless") == [
        {"type": "reckless", "discard": ["air_drop", "fire_engine", "smokejumper"], "squares": sq((1, 2))},
        {"type": "reckless", "discard": ["de_reforest"] * 3, "squares": sq((1, 2))}]
    rows[1] = "#F#............."
    g = run(position(rows, hand=RECKLESS_HAND, buckets={"NW": "used"}, draw=["wind_e"]))
    assert not of_type(g, "reckless")


# ------------------------------------------------------------ 10. Heavy Winds

HW_HAND = ["air_drop", "ember", "flare_up", "wind_e", "wind_e", "wind_se"]


def test_heavy_winds_run():
    # EF only, wind N; hand wind_e x2, wind_se. §10 Heavy Winds (front), then
    # heavy_wind decisions, each square tested on the board at that moment:
    # 1st: wind_e (s - E fire): [7,9] [8,9]; wind_se (s - (1,1) fire): [8,9]
    #      [9,8] [9,9] ([8,8] is the EF): 5 moves, no stop (none played yet).
    # 2nd, after wind_e [7,9]: wind_e [7,10] [8,9]; wind_se [8,10] (off the
    #      run's own [7,9]) [8,9] [9,8] [9,9]; stop: 7.
    # 3rd, after wind_se [8,10]: wind_e [7,10] [8,9] [8,11] (east of the run's
    #      [8,10]); stop: 4.
    # Stop: one step ends; the 2 cards are discarded, 2 drawn; the card is
    # flipped (back: Light Breeze); the wind is still N.
    start = position(hand=HW_HAND, draw=["helitack", "smokejumper", "fire_engine"], wind="N")
    g = run(start)
    assert {"type": "specialty", "card": "heavy_winds"} in g.moves
    events = [{"type": "specialty", "card": "heavy_winds"}]
    g = run(start, *events)
    assert g.decision == "heavy_wind"
    assert sorted((m["card"], m["square"]) for m in g.moves) == [
        ("wind_e", [7, 9]), ("wind_e", [8, 9]), ("wind_se", [8, 9]), ("wind_se", [9, 8]), ("wind_se", [9, 9])]
    events.append({"type": "heavy_wind", "card": "wind_e", "square": [7, 9]})
    g = run(start, *events)
    assert g.move_count == 7 and {"type": "heavy_wind", "card": None} in g.moves
    assert sorted((m["card"], m["square"]) for m in g.moves if m["card"]) == [
        ("wind_e", [7, 10]), ("wind_e", [8, 9]), ("wind_se", [8, 9]), ("wind_se", [8, 10]), ("wind_se", [9, 8]),
        ("wind_se", [9, 9])]
    events.append({"type": "heavy_wind", "card": "wind_se", "square": [8, 10]})
    g = run(start, *events)
    assert sorted((m["card"], m["square"]) for m in g.moves if m["card"]) == [
        ("wind_e", [7, 10]), ("wind_e", [8, 9]), ("wind_e", [8, 11])]
    assert g.moves[-1] == {"type": "heavy_wind", "card": None} and g.move_count == 4
    events.append({"type": "heavy_wind", "card": None})
    g = run(start, *events)
    assert only_draw(g) == "helitack" and cells(g) == sq((7, 9), (8, 10))
    g = run(start, *events, draw("helitack"), draw("smokejumper"))
    pos = g.position
    assert pos.phase == "inferno" and pos.specialty.heavy_winds == "back" and pos.wind == "N"
    assert pos.discard == {"wind_e": 1, "wind_se": 1} and sorted(pos.hand) == sorted(
        ["air_drop", "ember", "flare_up", "wind_e", "helitack", "smokejumper"])
    # On the back side Heavy Winds is no longer an action.
    again = position(hand=HW_HAND, draw=["helitack"], wind="N", specialty={"heavy_winds": "back"})
    assert {"type": "specialty", "card": "heavy_winds"} not in run(again).moves


def test_heavy_winds_stop_before_any_card_is_refused():
    start = position(hand=HW_HAND, draw=["helitack", "smokejumper", "fire_engine"], wind="N")
    illegal(start, {"type": "specialty", "card": "heavy_winds"}, {"type": "heavy_wind", "card": None})


def test_heavy_winds_run_ends_by_itself_and_hawks_wait():
    # An own hawk on [7,6]; hand wind_w, wind_n x2. wind_w [7,6] (west of
    # the EF) lands on the hawk: pending ('X'), no hawk decision yet (§10:
    # hawks wait for the run's end) and its gem is fire for the next card
    # (15.9): wind_n [6,6] (north of [7,6]) [6,7] [6,8]; + stop. wind_n [6,6];
    # then wind_n [5,6] [6,7] [6,8]; wind_n [5,6]: no wind card left: the run
    # ends by itself; then the hawk: fire now [5,6] [6,6] EF, its gem lifted:
    # [4,6] [5,5] [5,7] [6,5] [6,7] [6,8] [8,6] [7,9] [8,9] [9,7] [9,8] = 11.
    hand = ["air_drop", "ember", "flare_up", "wind_n", "wind_n", "wind_w"]
    start = position({7: "......H........."}, hand=hand, draw=["helitack", "smokejumper", "ember"])
    events = [{"type": "specialty", "card": "heavy_winds"}, {"type": "heavy_wind", "card": "wind_w", "square": [7, 6]}]
    g = run(start, *events)
    assert g.decision == "heavy_wind" and g.board[7] == "......XEE......."
    assert g.moves == [{"type": "heavy_wind", "card": "wind_n", "square": s} for s in sq((6, 6), (6, 7), (6, 8))] \
        + [{"type": "heavy_wind", "card": None}]
    events += [{"type": "heavy_wind", "card": "wind_n", "square": [6, 6]},
               {"type": "heavy_wind", "card": "wind_n", "square": [5, 6]}]
    g = run(start, *events)
    assert g.decision == "hawk"
    assert sorted(m["to"] for m in g.moves) == sq((4, 6), (5, 5), (5, 7), (6, 5), (6, 7), (6, 8), (8, 6), (7, 9),
                                                   (8, 9), (9, 7), (9, 8))


# ------------------------------------------------------------ 11. Light Breeze

LB_HAND = ["air_drop", "ember", "flare_up", "wind_e", "wind_nw", "wind_nw"]


def test_light_breeze_after_a_wind_card():
    # Heavy Winds back. wind_e set E (from N); then §10 Light Breeze: one
    # more wind card from the hand as a gem, or stop. wind_e is played (it
    # was the only one); wind_nw (s - (-1,-1) fire): [6,6] [6,7] [7,6] ([7,7]
    # is the EF): 3 + stop. wind_nw [6,6]: both cards discarded, 2 drawn.
    start = position(hand=LB_HAND, wind="N", specialty={"heavy_winds": "back"}, draw=["helitack", "smokejumper"])
    assert not [m for m in run(start).moves if m.get("card") == "heavy_winds"]
    play = {"type": "play", "card": "wind_e", "option": "set", "wind": "E"}
    g = run(start, play)
    assert g.decision == "light_breeze" and g.wind == "E"
    assert g.moves == [{"type": "light_breeze", "card": "wind_nw", "square": s} for s in sq((6, 6), (6, 7), (7, 6))] \
        + [{"type": "light_breeze", "card": None}]
    events = [play, {"type": "light_breeze", "card": "wind_nw", "square": [6, 6]}]
    assert only_draw(run(start, *events)) == "helitack"
    g = run(start, *events, draw("helitack"), draw("smokejumper"))
    assert g.position.phase == "inferno" and cells(g) == sq((6, 6)) and g.wind == "E"
    assert g.discard == {"wind_e": 1, "wind_nw": 1} and g.specialty.heavy_winds == "back"
    # "card": null: only the first card; 1 draw.
    g = run(start, play, {"type": "light_breeze", "card": None}, draw("helitack"))
    assert g.position.phase == "inferno" and cells(g) == [] and g.discard == {"wind_e": 1}
    assert sorted(g.hand) == ["air_drop", "ember", "flare_up", "helitack", "wind_nw", "wind_nw"]


def test_light_breeze_after_a_roll():
    # G51: the second card is chosen after the first resolves, its die
    # included: wind_e roll from N: the die over E S W (not the current wind,
    # §6.9), 1/3 each; then light_breeze.
    start = position(hand=LB_HAND, wind="N", specialty={"heavy_winds": "back"}, draw=["helitack", "smokejumper"])
    g = run(start, {"type": "play", "card": "wind_e", "option": "roll"})
    assert dice(g) == {d: pytest.approx(1 / 3) for d in "ESW"}
    g = run(start, {"type": "play", "card": "wind_e", "option": "roll"}, die("S"))
    assert g.decision == "light_breeze" and g.wind == "S" and g.move_count == 4


def test_no_light_breeze_on_the_front_side():
    start = position(hand=LB_HAND, wind="N", draw=["helitack", "smokejumper"])
    g = run(start, {"type": "play", "card": "wind_e", "option": "set", "wind": "E"})
    assert g.decision is None and only_draw(g) == "helitack"


# ------------------------------------------------------------ 12. Lookout


def test_lookout():
    # Lookout (front): 3 cards drawn aside: flare_up (40 plays on the EF
    # board, T1), air_drop (no gem: unplayable), wind_s (set S, roll, gem
    # [9,7] [9,8]: 4). pick: 44 moves, carrying the play's fields. Picking
    # wind_s set S: the other two are discarded, Lookout flips to back
    # (Patrol); the hand was never touched: no refill; ember stays on the
    # pile.
    start = position(hand=HAND6, draw=["flare_up", "air_drop", "wind_s", "ember"])
    events = [{"type": "specialty", "card": "lookout"}]
    assert only_draw(run(start, *events)) == "flare_up"
    events += [draw("flare_up"), draw("air_drop"), draw("wind_s")]
    g = run(start, *events)
    assert g.decision == "pick" and g.move_count == 44 and sorted(g.hand) == sorted(HAND6)
    assert {m["card"] for m in g.moves} == {"flare_up", "wind_s"}
    assert [m for m in g.moves if m["card"] == "wind_s"] == [
        {"type": "pick", "card": "wind_s", "option": "gem", "square": [9, 7]},
        {"type": "pick", "card": "wind_s", "option": "gem", "square": [9, 8]},
        {"type": "pick", "card": "wind_s", "option": "roll"},
        {"type": "pick", "card": "wind_s", "option": "set", "wind": "S"}]
    assert {"type": "pick", "card": "flare_up", "squares": sq((6, 5), (6, 6), (6, 7))} in g.moves
    g = run(start, *events, {"type": "pick", "card": "wind_s", "option": "set", "wind": "S"})
    pos = g.position
    assert pos.phase == "inferno" and pos.wind == "S" and pos.specialty.lookout == "back"
    assert pos.discard == {"air_drop": 1, "flare_up": 1, "wind_s": 1} and pos.draw_pile == ["ember"]
    assert sorted(pos.hand) == sorted(HAND6)
    # A pattern pick: its gems.
    g = run(start, *events, {"type": "pick", "card": "flare_up", "squares": sq((6, 5), (6, 6), (6, 7))})
    assert cells(g) == sq((6, 5), (6, 6), (6, 7)) and g.discard == {"air_drop": 1, "flare_up": 1, "wind_s": 1}


def test_lookout_wind_pick_gives_no_light_breeze():
    # G51/G52: a card played by Lookout is alone: no Light Breeze even with
    # Heavy Winds on its back side and a wind card in hand.
    hand = ["air_drop", "ember", "explosion", "fire_engine", "flare_up", "wind_e"]
    start = position(hand=hand, draw=["flare_up", "air_drop", "wind_s", "ember"], specialty={"heavy_winds": "back"})
    g = run(start, {"type": "specialty", "card": "lookout"}, draw("flare_up"), draw("air_drop"), draw("wind_s"),
            {"type": "pick", "card": "wind_s", "option": "set", "wind": "S"})
    assert g.decision is None and g.position.phase == "inferno"


def test_lookout_nothing_playable_with_a_firestorm_drawn():
    # Draws: air_drop, the Firestorm (aside, replaced at once by
    # fire_engine), smokejumper: no water card can play (no gem): the only
    # pick {"card": null} is applied at once; all three are discarded. The
    # Firestorm resolves after the action (§10): die, die, storm_discard.
    start = position(hand=HAND6, draw=["air_drop", "firestorm", "fire_engine", "smokejumper", "ember"])
    events = [{"type": "specialty", "card": "lookout"}, draw("air_drop"), draw("firestorm"), draw("fire_engine"),
              draw("smokejumper")]
    g = run(start, *events)
    assert dice(g) == FOUR and g.discard == {"air_drop": 1, "fire_engine": 1, "smokejumper": 1}
    g = run(start, *events, die("E"), die("E"))
    assert g.decision == "storm_discard" and cells(g) == sq((7, 9), (8, 9))
    g = run(start, *events, die("E"), die("E"), {"type": "storm_discard", "cards": []})
    assert g.position.phase == "inferno" and g.specialty.lookout == "back"
    assert g.discard == {"air_drop": 1, "fire_engine": 1, "firestorm": 1, "smokejumper": 1}


# ------------------------------------------------------------ 13. Patrol


def test_patrol():
    # Lookout back: Patrol, one move per hand card to discard (6). Discard
    # ember, draw flare_up and wind_s: play one, keep the other: flare_up's
    # 40 plays keeping wind_s, wind_s's 4 keeping flare_up: 44. Play wind_s
    # gem [9,7], keep flare_up: hand = HAND6 - ember + flare_up; no refill.
    start = position(hand=HAND6, draw=["flare_up", "wind_s", "smokejumper"], specialty={"lookout": "back"})
    g = run(start)
    assert of_type(g, "specialty") == [{"type": "specialty", "card": "patrol", "discard": c} for c in HAND6]
    events = [{"type": "specialty", "card": "patrol", "discard": "ember"}]
    g = run(start, *events)
    assert only_draw(g) == "flare_up" and g.discard == {"ember": 1}
    events += [draw("flare_up"), draw("wind_s")]
    g = run(start, *events)
    assert g.decision == "pick" and g.move_count == 44
    assert Counter((m["card"], m["keep"]) for m in g.moves) == {("flare_up", "wind_s"): 40, ("wind_s", "flare_up"): 4}
    g = run(start, *events, {"type": "pick", "card": "wind_s", "option": "gem", "square": [9, 7], "keep": "flare_up"})
    pos = g.position
    assert pos.phase == "inferno" and cells(g) == sq((9, 7)) and pos.specialty.lookout == "back"
    assert pos.discard == {"ember": 1, "wind_s": 1} and pos.draw_pile == ["smokejumper"]
    assert Counter(pos.hand) == Counter(HAND6) - Counter(["ember"]) + Counter(["flare_up"])


def test_patrol_nothing_playable_keeps_one():
    # air_drop and fire_engine cannot play (no gem): keep one (the player's
    # choice), discard the other.
    start = position(hand=HAND6, draw=["air_drop", "fire_engine", "smokejumper"], specialty={"lookout": "back"})
    events = [{"type": "specialty", "card": "patrol", "discard": "ember"}, draw("air_drop"), draw("fire_engine")]
    g = run(start, *events)
    assert g.moves == [{"type": "pick", "card": None, "keep": "air_drop"},
                       {"type": "pick", "card": None, "keep": "fire_engine"}]
    g = run(start, *events, {"type": "pick", "card": None, "keep": "fire_engine"})
    assert g.discard == {"air_drop": 1, "ember": 1} and Counter(g.hand)["fire_engine"] == 2


def test_patrol_with_one_card_to_draw():
    # 15.10: both piles empty: Patrol's own discard (flare_up) is reshuffled
    # and drawn back, the one card: it is played (40 picks, no "keep").
    start = position(hand=HAND6, specialty={"lookout": "back"})
    g = run(start, {"type": "specialty", "card": "patrol", "discard": "flare_up"}, draw("flare_up"))
    assert g.decision == "pick" and g.move_count == 40 and all("keep" not in m for m in g.moves)


# ------------------------------------------------------------ 14. enemy Buckets

T3_ROWS = {1: ".............F..", 2: "...........FFFF.", 3: ".............F.."}


def test_enemy_bucket_tie_is_the_players_choice():
    # §13 T3: NE's best lines remove 2 inside its area and 3 in all:
    # {[1,13],[2,13],[3,13]} and {[2,12],[2,13],[2,14]} ({[2,11],[2,12],
    # [2,13]} removes 3 but only 1 inside). Any step's checks trigger it
    # (here the action, a discard): decision enemy_bucket, 2 moves. The
    # second leaves [1,13] [2,11] [3,13]; NE used; then the refill.
    start = position(T3_ROWS, hand=HAND6, draw=["smokejumper"])
    g = run(start)
    assert not of_type(g, "enemy_bucket")  # no step yet: no check
    g = run(start, {"type": "discard", "cards": ["air_drop"]})
    assert g.decision == "enemy_bucket"
    assert g.moves == [{"type": "enemy_bucket", "tower": "NE", "squares": sq((1, 13), (2, 13), (3, 13))},
                       {"type": "enemy_bucket", "tower": "NE", "squares": sq((2, 12), (2, 13), (2, 14))}]
    illegal(start, {"type": "discard", "cards": ["air_drop"]},
            {"type": "enemy_bucket", "tower": "NE", "squares": sq((2, 11), (2, 12), (2, 13))})
    g = run(start, {"type": "discard", "cards": ["air_drop"]}, g.moves[1])
    assert only_draw(g) == "smokejumper"
    assert cells(g) == sq((1, 13), (2, 11), (3, 13)) and g.buckets.NE == "used"
    g = run(start, {"type": "discard", "cards": ["air_drop"]},
            {"type": "enemy_bucket", "tower": "NE", "squares": sq((1, 13), (2, 13), (3, 13))}, draw("smokejumper"))
    assert cells(g) == sq((2, 11), (2, 12), (2, 14)) and g.position.phase == "inferno" and g.turn == 2


def test_enemy_bucket_single_best_is_automatic():
    # Gems [2,13] [3,13]: the best (1 inside, 2 in all) lines {[1,13],[2,13],
    # [3,13]} and {[2,13],[3,13],[4,13]} remove the same gems: one result,
    # applied at once.
    start = position({2: ".............F..", 3: ".............F.."}, hand=HAND6, draw=["smokejumper"])
    g = run(start, {"type": "discard", "cards": ["air_drop"]})
    assert only_draw(g) == "smokejumper" and cells(g) == [] and g.buckets.NE == "used"


def test_enemy_buckets_in_order_ne_then_sw():
    # T3 at NE and its mirror at SW: NE's tie first, then SW's (§5.2 check 3
    # order NE, SW, SE).
    rows = dict(T3_ROWS) | {12: "..F.............", 13: ".FFFF...........", 14: "..F............."}
    start = position(rows, hand=HAND6, draw=["smokejumper"])
    g = run(start, {"type": "discard", "cards": ["air_drop"]})
    assert {m["tower"] for m in g.moves} == {"NE"} and len(g.moves) == 2
    g = run(start, {"type": "discard", "cards": ["air_drop"]}, g.moves[0])
    assert g.decision == "enemy_bucket" and g.moves == [
        {"type": "enemy_bucket", "tower": "SW", "squares": sq((12, 2), (13, 2), (14, 2))},
        {"type": "enemy_bucket", "tower": "SW", "squares": sq((13, 1), (13, 2), (13, 3))}]


# ------------------------------------------------------------ 15. loss on [0,0]


def test_loss_by_a_gem_on_the_own_back_corner():
    # Wind W, a gem on [0,1]: [0,0] is a legal wind square (G58: legal, but
    # any gem on [0,0] loses at the check).
    start = position({0: ".F.............."}, hand=HAND6, phase="wind", wind="W", buckets={"NW": "used"})
    g = run(start)
    assert {"type": "wind_gem", "square": [0, 0]} in g.moves
    g = run(start, {"type": "wind_gem", "square": [0, 0]})
    assert g.status == "loss" and g.score is None and g.decision is None and g.chance is None


def test_loss_before_win_in_one_step():
    # NE and SW burned. Heavy Winds: wind_n on [0,0] (north of [1,0]), then
    # wind_e on [15,15] (east of [15,14]): one step; its checks see [0,0]
    # first (§5.2 check 1): lost, though SE's corner burns in the same step.
    hand = ["air_drop", "ember", "explosion", "fire_engine", "wind_e", "wind_n"]
    start = position({1: "F...............", 15: "..............F."}, hand=hand, burned=("NE", "SW"),
                     buckets={"NW": "used"})
    g = run(start, {"type": "specialty", "card": "heavy_winds"},
            {"type": "heavy_wind", "card": "wind_n", "square": [0, 0]},
            {"type": "heavy_wind", "card": "wind_e", "square": [15, 15]})
    assert g.status == "loss" and g.score is None and g.decision is None and g.chance is None


def test_loss_by_a_hawk_gem_on_the_back_corner():
    # G58: a hawk destination on [0,0] (next to the gem [0,1]) is legal; it loses.
    start = position({0: ".F..............", 4: "...FH..........."}, hand=HAND6, draw=["smokejumper"],
                     phase="wind", buckets={"NW": "used"})
    g = run(start, {"type": "wind_gem", "square": [4, 4]})
    assert [0, 0] in [m["to"] for m in g.moves]
    g = run(start, {"type": "wind_gem", "square": [4, 4]}, {"type": "hawk", "from": [4, 4], "to": [0, 0]})
    assert g.status == "loss"


def test_loss_by_a_firestorm_comes_after_its_discard_step():
    # A full storm N puts a gem on [0,0] (north of [1,0]): §8 the storm runs
    # its steps (new wind, storm_discard), then the checks: lost.
    start = position({1: "F..............."}, hand=HAND6, draw=["firestorm", "smokejumper", "crown_fire"],
                     buckets={"NW": "used"})
    events = [{"type": "discard", "cards": ["air_drop"]}, draw("firestorm"), draw("smokejumper"), die("N"), die("E")]
    g = run(start, *events)
    assert g.status == "ongoing" and g.decision == "storm_discard" and g.board[0][0] == "F"
    g = run(start, *events, {"type": "storm_discard", "cards": []})
    assert g.status == "loss"


# ------------------------------------------------------------ 16. win


def test_win_and_score():
    # NE and SW burned; the wind gem on [15,15] burns SE: won at once (§5.2
    # check 2: before SE's Bucket at check 3, though SE's area holds
    # [15,14]; no partial storm, no draw). Score (§5.4): the 9 NW-area
    # squares less the gems [1,1] [2,2] = 7 (the firebreak [0,2] counts as
    # unburned).
    start = position({0: "..#.............", 1: ".F..............", 2: "..F.............", 15: "..............F."},
                     hand=HAND6, draw=["smokejumper"], phase="wind", burned=("NE", "SW"))
    g = run(start, {"type": "wind_gem", "square": [15, 15]})
    assert g.status == "win" and g.score == 7
    assert g.decision is None and g.chance is None and g.moves == [] and g.chances == []
    assert g.burned.SE and g.buckets.SE == "unused" and g.draw_pile == ["smokejumper"]


# ------------------------------------------------------------ 17. turn limit


def test_turn_limit_timeout():
    # §5.4: turn_limit 7; the end of turn 7 (the end decision with one move,
    # end, is applied on load): timeout, no score, no decision.
    start = position(hand=HAND6, phase="end", turn=7, turn_limit=7, inferno_deck=[], inferno_discard=INFERNO)
    g = run(start)
    assert g.status == "timeout" and g.score is None and g.decision is None and g.chance is None
    # Turn 6 of 7: the round ends (empty Inferno deck), turn 7 starts.
    g = run(position(hand=HAND6, phase="end", turn=6, turn_limit=7, round=2, inferno_deck=[],
                     inferno_discard=INFERNO))
    assert g.status == "ongoing" and g.position.phase == "inferno" and (g.turn, g.round) == (7, 3)


def test_turn_limit_reached_after_the_refill():
    # Turn 3 of 3 at the action: a discard, its refill draw, then the turn
    # ends: timeout.
    start = position(hand=HAND6, draw=["smokejumper"], turn=3, turn_limit=3)
    g = run(start, {"type": "discard", "cards": ["ember"]})
    assert g.status == "ongoing" and only_draw(g) == "smokejumper"
    g = run(start, {"type": "discard", "cards": ["ember"]}, draw("smokejumper"))
    assert g.status == "timeout" and g.score is None


# ------------------------------------------------------------ records and positions


def test_position_without_derived_fields():
    # §11.2: hand_size and hawk_supply are derived, optional.
    start = position(hand=HAND6, draw=["smokejumper"], derived=False)
    assert "hand_size" not in start and "hawk_supply" not in start
    g = firetower.check(start)
    assert g.decision == "action" and g.hand_size == 6 and g.hawk_supply == 18


def test_record_may_leave_out_single_outcome_chance_events():
    # §15.5 (and the API notes): chance events with a single outcome may be
    # left out of a record. Here the two draws of the refill (firestorm,
    # its replacement smokejumper) are left out before the storm's die: the
    # same game as with them written.
    start = position(STORM_ROWS, hand=HAND6, draw=["firestorm", "smokejumper", "crown_fire", "de_reforest"])
    full = run(start, {"type": "discard", "cards": ["air_drop"]}, draw("firestorm"), draw("smokejumper"), die("N"))
    short = run(start, {"type": "discard", "cards": ["air_drop"]}, die("N"))
    assert short.board == full.board and short.hand == full.hand and short.chance == full.chance == "die"
