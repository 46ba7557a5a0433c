"""Hand-made scenarios of the Fire Tower turn flow (tests/firetower_game_reference.py),
each with the expected result worked out in its comments from
../shared/spec/firetower.md and the readings the project fixed for the
reference, then a seeded random-play soak over Levels 1-7.

Positions here use a custom deck (options.deck = the cards in play) and
order_known, so every draw has one outcome; chance points still stop."""

from __future__ import annotations

import os
import random
from collections import Counter
from fractions import Fraction

import pytest

import firetower_game_reference as fg
import firetower_reference as ref

EMPTY = "." * 16
INFERNO = ["burning_snag", "flare_up", "explosion", "wind_n", "wind_w"]


def board(rows: dict[int, str] | None = None) -> list[str]:
    """16 rows from the non-empty ones; the Eternal Flame is always drawn."""
    out = [list((rows or {}).get(r, EMPTY)) for r in range(16)]
    for r, c in ref.EF:
        out[r][c] = "E"
    return ["".join(r) for r in out]


def position(rows=None, hand=(), draw=(), discard=(), phase="action", wind="E", level=1, inferno_deck=None,
             inferno_discard=(), revealed=None, penalty=False, burned=(), buckets=None, specialty=None, turn=1,
             round=1, turn_limit=100, bucket_taken=False, round_ends=False) -> dict:
    deck = Counter(hand) + Counter(draw) + Counter(discard)
    if inferno_deck is None:
        inferno_deck = [c for c in INFERNO if c not in inferno_discard and c != revealed]
    return {"game": "firetower-solo", "version": 1, "level": level, "board": board(rows), "wind": wind,
            "hand": sorted(hand), "draw_pile": list(draw), "discard": dict(Counter(discard)),
            "inferno": {"deck": list(inferno_deck), "discard": list(inferno_discard), "revealed": revealed,
                        "penalty": penalty, "round_ends": round_ends},
            "burned": {t: t in burned for t in ("NE", "SW", "SE")},
            "buckets": dict({"NW": "unused", "NE": "unused", "SW": "unused", "SE": "unused"}, **(buckets or {})),
            "bucket_taken": bucket_taken, "specialty": dict({"heavy_winds": "front", "lookout": "front"},
                                                            **(specialty or {})),
            "turn": turn, "round": round, "phase": phase,
            "options": {"challenges": "off", "order_known": True, "turn_limit": turn_limit, "deck": dict(deck)}}


def sq(*cells) -> list[list[int]]:
    return [list(c) for c in sorted(cells)]


def gems(g: fg.Game) -> list[list[int]]:
    return sq(*g.s.board.gems)


def die(d):
    return {"chance": "die", "dir": d}


def draw(card):
    return {"chance": "draw", "card": card}


def drawn(g: fg.Game, card: str):
    """Apply the one possible draw, checking that it is ``card``."""
    assert g.chance() == [(draw(card), Fraction(1))], g.chance()
    g.apply(draw(card))


NW_WALLED = {r: "#" * 8 + "." * 8 for r in range(7)} | {7: "#######." + "." * 8}  # all NW squares but [7,7]
HAND6 = ["air_drop", "ember", "explosion", "fire_engine", "flare_up", "helitack"]  # no wind cards


# ------------------------------------------------------------ set-up and the data


def test_default_solo_deck_is_the_spec_list():
    # Section 2: 66 Action cards and the Firestorm.
    deck = fg.solo_deck(fg.DEFAULT_DATA)
    assert sum(deck.values()) == 67 and deck["firestorm"] == 1
    assert deck == Counter({"explosion": 3, "flare_up": 2, "burning_snag": 3, "ember": 3, "wind_n": 3, "wind_e": 4,
                            "wind_s": 4, "wind_w": 3, "de_reforest": 4, "smokejumper": 4, "air_drop": 4,
                            "fire_engine": 4, "crown_fire": 4, "creeping_fires": 3, "rolling_firebrand": 3,
                            "helitack": 3, "wind_nw": 2, "wind_ne": 2, "wind_sw": 2, "wind_se": 2, "hawks_2": 2,
                            "hawks_3": 2, "firestorm": 1})


def test_setup_flow():
    # Level 7 set-up: the own hawk goes on one of the 54 empty NW-quadrant
    # squares off the NW area and the EF (64 - 9 - [7,7]); then the starting
    # wind is a die over N, E, S, W (1/4 each); then turn 1's Inferno draw,
    # uniform over the five Inferno cards (1/5 each), a top-level point.
    p = fg.setup_position(7, random.Random(5))
    assert p["buckets"]["NW"] == "none" and len(p["hand"]) == 4
    g = fg.Game.load(p)
    assert g.decision() == "setup_hawk" and g.move_count() == 54 and g.position()["phase"] == "setup_hawk"
    g.apply({"type": "setup_hawk", "square": [4, 6]})
    assert g.decision() is None and g.chance() == [(die(d), Fraction(1, 4)) for d in "NESW"]
    assert g.position() is None  # the start wind roll is not a top-level point
    g.apply(die("S"))
    assert sorted(e["card"] for e, _ in g.chance()) == sorted(INFERNO)
    assert {p for _, p in g.chance()} == {Fraction(1, 5)}
    pos = g.position()
    assert pos["phase"] == "inferno" and pos["wind"] == "S" and pos["board"][4][6] == "H"
    assert pos["hawk_supply"] == 18 - 3 * 4 - 1 and pos["hand_size"] == 4 and pos["turn"] == 1


def test_level7_setup_board_is_the_spec_picture():
    p = fg.setup_position(7, random.Random(0))
    picture = ["............#...", "............H...", "............#...", "...........#H#H#",
               "...........H#...", "................", "................", ".......EE.......",
               ".......EE.......", "................", "................", "...#H......H#...",
               "#H#H#......#H#H#", "...#........#...", "...H........H...", "...#........#..."]
    assert p["board"] == picture


# ------------------------------------------------------------ a step with a hawk chain


def test_hawk_chain_in_the_wind_step():
    # Own hawks A [6,7] and B [5,5], enemy hawk C [7,9] (NE quadrant), a gem
    # on [5,4]; wind N. Wind squares (north of fire): [4,4], [6,7], [6,8].
    # The gem on [6,7] activates A. A's destinations (fire now: EF + [5,4]):
    # [4,4] [5,3] [5,5] [6,4] [6,8] [7,6] [7,9] [8,6] [8,9] [9,7] [9,8] = 11.
    # To [5,5] activates B: 11 again ([6,7] is free now, [5,5] excluded).
    # B to [7,9] activates the enemy hawk C: NW quadrant only,
    # [4,4] [5,3] [5,5] [6,4] [6,7] [7,6] = 6. C to [5,5]: a plain gem.
    # All three hawks are back in the supply (18).
    g = fg.Game.load(position({5: "....FH..........", 6: ".......H........", 7: ".........H......"},
                              hand=HAND6, wind="N", phase="wind"))
    assert g.decision() == "wind" and [m["square"] for m in g.moves()] == sq((4, 4), (6, 7), (6, 8))
    g.apply({"type": "wind_gem", "square": [6, 7]})
    assert g.decision() == "hawk" and g.position() is None
    assert [m["to"] for m in g.moves()] == sq((4, 4), (5, 3), (5, 5), (6, 4), (6, 8), (7, 6), (7, 9), (8, 6),
                                              (8, 9), (9, 7), (9, 8))
    assert g.s.board.gems >= {(6, 7)} and g.s.pending == {(6, 7)}
    g.apply({"type": "hawk", "from": [6, 7], "to": [5, 5]})
    assert g.decision() == "hawk" and {tuple(m["from"]) for m in g.moves()} == {(5, 5)} and g.move_count() == 11
    g.apply({"type": "hawk", "from": [5, 5], "to": [7, 9]})
    assert [m["to"] for m in g.moves()] == sq((4, 4), (5, 3), (5, 5), (6, 4), (6, 7), (7, 6))
    g.apply({"type": "hawk", "from": [7, 9], "to": [5, 5]})
    assert g.decision() == "action"
    pos = g.position()
    assert gems(g) == sq((5, 4), (5, 5)) and pos["hawk_supply"] == 18 and "H" not in "".join(pos["board"])


def test_hawk_without_destination_loses_its_gem():
    # The NW quadrant is all firebreaks (but the EF). An enemy hawk on [0,12]
    # (NE): the wind-E gem from [0,11] lands on it. An enemy hawk's gem may
    # only go to the NW quadrant: no destination, so the only move is
    # "to": null, applied automatically; the gem leaves the game.
    nw_wall = dict(NW_WALLED)
    nw_wall[0] = "########...FH..."
    g = fg.Game.load(position(nw_wall, hand=HAND6, wind="E", phase="wind"))
    moves = [m["square"] for m in g.moves()]
    assert [0, 12] in moves
    g.apply({"type": "wind_gem", "square": [0, 12]})
    assert g.decision() == "action"
    assert (0, 12) not in g.s.board.gems and (0, 12) not in g.s.board.hawks and gems(g) == sq((0, 11))


# ------------------------------------------------------------ enemy Bucket tie


def test_enemy_bucket_tie_is_a_decision():
    # T3 of section 13: the NE Bucket's best lines tie (2 inside, 3 in all):
    # {[1,13],[2,13],[3,13]} and {[2,12],[2,13],[2,14]}. Any step's checks
    # trigger it; here a discard. Taking the second leaves [1,13] [2,11] [3,13].
    t3 = {1: ".............F..", 2: "...........FFFF.", 3: ".............F.."}
    g = fg.Game.load(position(t3, hand=HAND6, draw=["smokejumper"], inferno_discard=["wind_w"]))
    g.apply({"type": "discard", "cards": ["air_drop"]})
    assert g.decision() == "enemy_bucket"
    assert g.moves() == [{"type": "enemy_bucket", "tower": "NE", "squares": sq((1, 13), (2, 13), (3, 13))},
                         {"type": "enemy_bucket", "tower": "NE", "squares": sq((2, 12), (2, 13), (2, 14))}]
    g.apply(g.moves()[1])
    drawn(g, "smokejumper")  # the refill
    # No Bucket usable (no NW gem): no end decision; the Inferno deck holds 4
    # cards: no round end; turn 2 starts at the Inferno draw.
    pos = g.position()
    assert gems(g) == sq((1, 13), (2, 11), (3, 13)) and pos["buckets"]["NE"] == "used"
    assert pos["phase"] == "inferno" and pos["turn"] == 2 and pos["round"] == 1


def test_enemy_bucket_single_best_is_automatic():
    # A gem on [2,13] and one on [3,13]: the best line removes both (1 inside,
    # 2 in all): {[1,13],[2,13],[3,13]}, {[2,13],[3,13],[4,13]} hold the same
    # gems, one result: applied automatically.
    g = fg.Game.load(position({2: ".............F..", 3: ".............F.."}, hand=HAND6, draw=["smokejumper"]))
    g.apply({"type": "discard", "cards": ["air_drop"]})
    assert g.chance() == [(draw("smokejumper"), 1)] and gems(g) == [] and g.s.buckets["NE"] == "used"


# ------------------------------------------------------------ a burn, its partial Firestorm and extra card


def test_partial_firestorm_after_a_burn():
    # Wind E, a gem on [0,14]: the wind gem on [0,15] burns NE (check 2).
    # Check 3: NE is burned, no Bucket. Check 4: a partial storm: the die is
    # uniform over N E S W (E is barred only with NE and SE burned). S: gems
    # under every fire: [1,14] [1,15] [9,7] [9,8]. New wind W. No discard step
    # (partial). Then 1 card is drawn: hand 7 = hand_size 6 + 1.
    g = fg.Game.load(position({0: "..............F."}, hand=HAND6, draw=["smokejumper", "crown_fire"],
                              phase="wind"))
    assert [m["square"] for m in g.moves()] == sq((0, 15), (7, 9), (8, 9))
    g.apply({"type": "wind_gem", "square": [0, 15]})
    assert g.chance() == [(die(d), Fraction(1, 4)) for d in "NESW"]
    g.apply(die("S"))
    assert gems(g) == sq((0, 14), (0, 15), (1, 14), (1, 15), (9, 7), (9, 8))
    g.apply(die("W"))
    drawn(g, "smokejumper")
    pos = g.position()
    assert pos["phase"] == "action" and pos["wind"] == "W" and pos["burned"]["NE"]
    assert pos["hand_size"] == 7 and len(pos["hand"]) == 7 and pos["buckets"]["NE"] == "unused"


def test_firestorm_drawn_in_a_step_waits_for_its_end():
    # As above, but the partial storm is W ([0,13] west of [0,14]; [7,6]
    # [8,6] west of the EF), new wind E, and the extra card is the Firestorm:
    # it is set aside and smokejumper replaces it at once; its storm comes
    # after the whole step (wind step + partial storm): die N puts [6,6]
    # (over [7,6]) and [6,7] [6,8] (over the EF); nothing fits over row 0,
    # and [7,6] over [8,6] already burns. New wind S; storm_discard of 0
    # cards (hand already 7 = hand_size); the Firestorm goes to the discard.
    g = fg.Game.load(position({0: "..............F."}, hand=HAND6, draw=["firestorm", "smokejumper", "ember"],
                              phase="wind"))
    g.apply({"type": "wind_gem", "square": [0, 15]})
    g.apply(die("W"))
    g.apply(die("E"))
    drawn(g, "firestorm")
    assert g.s.aside == ["firestorm"] and g.s.queued == ["firestorm"]
    drawn(g, "smokejumper")  # the replacement, before the storm
    assert g.chance() == [(die(d), Fraction(1, 4)) for d in "NESW"]  # now the full storm
    assert gems(g) == sq((0, 13), (0, 14), (0, 15), (7, 6), (8, 6))
    g.apply(die("N"))
    assert gems(g) == sq((0, 13), (0, 14), (0, 15), (6, 6), (6, 7), (6, 8), (7, 6), (8, 6))
    g.apply(die("S"))
    assert g.decision() == "storm_discard" and g.move_count() == 2 ** 7  # 7 distinct cards in hand
    g.apply({"type": "storm_discard", "cards": []})
    pos = g.position()
    assert pos["phase"] == "action" and pos["wind"] == "S" and pos["discard"] == {"firestorm": 1}
    assert pos["draw_pile"] == ["ember"] and len(pos["hand"]) == 7


# ------------------------------------------------------------ Firestorms in the refill, storm reroll


def test_firestorm_drawn_in_the_refill():
    # Discard air_drop; the refill draws the Firestorm: set aside, replaced at
    # once by smokejumper, then the storm (outside a step it resolves right
    # after the replacement): die N -> [6,7] [6,8]; new wind S (no reroll: no
    # wind card); storm_discard: any sub-multiset of the 6 distinct cards, 64
    # moves; discarding ember, the draw up brings crown_fire; the Firestorm
    # goes to the discard pile. The refill is then complete.
    g = fg.Game.load(position(hand=HAND6, draw=["firestorm", "smokejumper", "crown_fire", "de_reforest"]))
    g.apply({"type": "discard", "cards": ["air_drop"]})
    drawn(g, "firestorm")
    drawn(g, "smokejumper")
    g.apply(die("N"))
    assert gems(g) == sq((6, 7), (6, 8))
    g.apply(die("S"))
    assert g.decision() == "storm_discard" and g.move_count() == 64
    assert g.moves()[-1] == {"type": "storm_discard", "cards": []}  # '"' < ']': the empty list sorts last
    g.apply({"type": "storm_discard", "cards": ["ember"]})
    drawn(g, "crown_fire")
    pos = g.position()
    assert pos["phase"] == "inferno" and pos["turn"] == 2 and pos["wind"] == "S"
    assert pos["discard"] == {"air_drop": 1, "ember": 1, "firestorm": 1} and pos["draw_pile"] == ["de_reforest"]
    assert pos["hand"] == sorted(["crown_fire", "explosion", "fire_engine", "flare_up", "helitack", "smokejumper"])


def test_storm_reroll():
    # The same with wind_e and wind_w in hand: after the direction die, the
    # storm_reroll decision: keep, reroll wind_e, reroll wind_w. Reroll
    # wind_w: it is discarded, the die again (W), then 1 card drawn
    # (crown_fire). W: west of the EF, [7,6] [8,6]. New wind E: the reroll is
    # used, no second decision. storm_discard of nothing; hand already 6.
    hand = ["air_drop", "ember", "explosion", "fire_engine", "wind_e", "wind_w"]
    g = fg.Game.load(position(hand=hand, draw=["firestorm", "smokejumper", "crown_fire", "helitack"]))
    g.apply({"type": "discard", "cards": ["air_drop"]})
    drawn(g, "firestorm")
    drawn(g, "smokejumper")
    g.apply(die("N"))
    assert g.decision() == "storm_reroll"
    assert g.moves() == [{"type": "reroll", "discard": "wind_e"}, {"type": "reroll", "discard": "wind_w"},
                         {"type": "keep"}]  # canonical: {"discard":... sorts before {"type":"keep"}
    g.apply({"type": "reroll", "discard": "wind_w"})
    assert g.chance() == [(die(d), Fraction(1, 4)) for d in "NESW"]  # the die first, then the draw
    g.apply(die("W"))
    drawn(g, "crown_fire")
    assert gems(g) == sq((7, 6), (8, 6))
    g.apply(die("E"))
    assert g.decision() == "storm_discard"
    g.apply({"type": "storm_discard", "cards": []})
    pos = g.position()
    assert pos["wind"] == "E" and pos["discard"] == {"air_drop": 1, "firestorm": 1, "wind_w": 1}
    assert pos["draw_pile"] == ["helitack"] and "wind_e" in pos["hand"] and len(pos["hand"]) == 6


def test_storm_reroll_of_the_new_wind():
    # Keep the direction, reroll the new wind: decision after each die while
    # unused.
    hand = ["air_drop", "ember", "explosion", "fire_engine", "flare_up", "wind_e"]
    g = fg.Game.load(position(hand=hand, draw=["firestorm", "smokejumper", "crown_fire"]))
    g.apply({"type": "discard", "cards": ["air_drop"]})
    drawn(g, "firestorm")
    drawn(g, "smokejumper")
    g.apply(die("N"))
    g.apply({"type": "keep"})
    g.apply(die("N"))  # new wind N
    assert g.decision() == "storm_reroll"
    g.apply({"type": "reroll", "discard": "wind_e"})
    g.apply(die("W"))
    drawn(g, "crown_fire")
    assert g.decision() == "storm_discard" and g.s.wind == "W"


# ------------------------------------------------------------ the penalty, its loss, round end


def test_penalty_then_a_fire_card_that_cannot_be_placed_loses():
    # The NW quadrant is all firebreaks: Explosion (no NW gem) cannot be
    # placed: the moves are the two penalty storms. The storm N places
    # nothing (no placeable NW square). The next Inferno card, flare_up,
    # cannot be placed either: lost at once, before any decision.
    g = fg.Game.load(position(NW_WALLED, hand=HAND6, phase="inferno_place", revealed="explosion",
                              inferno_deck=["flare_up", "burning_snag", "wind_n", "wind_w"]))
    assert g.decision() == "inferno_place"
    assert g.moves() == [{"type": "penalty", "storm": "N"}, {"type": "penalty", "storm": "W"}]
    g.apply({"type": "penalty", "storm": "N"})
    assert g.chance() == [({"chance": "inferno", "card": "flare_up"}, 1)]
    g.apply({"chance": "inferno", "card": "flare_up"})
    assert g.status() == "loss" and g.decision() is None and g.chance() == [] and g.score() is None


def test_penalty_with_an_empty_inferno_deck_reshuffles_and_ends_the_round():
    # Explosion with no NW gem, the deck empty: penalty W places [7,6]; the
    # draw is over all five cards (1/5 each, the failed one included), the
    # round will end after this turn. wind_n is drawn with penalty true: its
    # only move (a storm N in the NW quadrant: [6,6] over [7,6], [6,7] over
    # the EF) is applied automatically. Wind E then offers [6,8] [7,9] [8,9].
    g = fg.Game.load(position(hand=HAND6, draw=["smokejumper"], phase="inferno_place", revealed="explosion",
                              inferno_deck=[], inferno_discard=["burning_snag", "flare_up", "wind_n", "wind_w"],
                              turn=5))
    g.apply({"type": "penalty", "storm": "W"})
    assert gems(g) == sq((7, 6))
    assert sorted((e["card"], p) for e, p in g.chance()) == [(c, Fraction(1, 5)) for c in sorted(INFERNO)]
    g.apply({"chance": "inferno", "card": "wind_n"})
    assert g.decision() == "wind" and gems(g) == sq((6, 6), (6, 7), (7, 6))
    pos = g.position()
    assert pos["inferno"] == {"deck": {"burning_snag": 1, "explosion": 1, "flare_up": 1, "wind_w": 1},
                              "discard": ["wind_n"], "revealed": None, "penalty": False, "round_ends": True}
    assert [m["square"] for m in g.moves()] == sq((6, 8), (7, 9), (8, 9))
    g.apply({"type": "wind_gem", "square": [7, 9]})
    g.apply({"type": "discard", "cards": ["air_drop"]})
    drawn(g, "smokejumper")
    # Round end: every Inferno card back in the deck, round 2, turn 6.
    pos = g.position()
    assert pos["phase"] == "inferno" and pos["round"] == 2 and pos["turn"] == 6
    assert pos["inferno"] == {"deck": {c: 1 for c in INFERNO}, "discard": [], "revealed": None,
                              "penalty": False, "round_ends": False}


def test_penalty_drawn_fire_card_with_a_placement_is_a_decision():
    # After the penalty W ([7,6]), burning_snag has legal 2x2s: a decision
    # with penalty true (a top-level point); once placed, penalty is false.
    g = fg.Game.load(position(hand=HAND6, phase="inferno_place", revealed="explosion",
                              inferno_deck=["burning_snag", "flare_up", "wind_n", "wind_w"]))
    g.apply({"type": "penalty", "storm": "W"})
    g.apply({"chance": "inferno", "card": "burning_snag"})
    pos = g.position()
    assert pos["phase"] == "inferno_place" and pos["inferno"]["penalty"] and pos["inferno"]["revealed"] == \
        "burning_snag" and pos["inferno"]["discard"] == ["explosion"]
    g.apply(g.moves()[0])
    assert g.s.penalty is False and g.s.inferno_discard == ["explosion", "burning_snag"]


def test_round_end_and_timeout():
    # Phase end with no usable Bucket and an empty Inferno deck: at once the
    # round ends (round 3 -> 4, all five back), turn 7 -> 8; the Inferno
    # draw is then over five unknown cards.
    g = fg.Game.load(position(hand=HAND6, phase="end", inferno_deck=[], inferno_discard=INFERNO, turn=7, round=3))
    pos = g.position()
    assert (pos["phase"], pos["turn"], pos["round"]) == ("inferno", 8, 4)
    assert pos["inferno"]["deck"] == {c: 1 for c in INFERNO} and pos["inferno"]["discard"] == []
    # The same at turn 7 with turn_limit 7: a timeout, no position, no score.
    g = fg.Game.load(position(hand=HAND6, phase="end", turn=7, turn_limit=7, inferno_deck=[],
                              inferno_discard=INFERNO))
    assert g.status() == "timeout" and g.position() is None and g.score() is None and g.decision() is None


# ------------------------------------------------------------ Heavy Winds, Light Breeze


def test_heavy_winds_run():
    # EF only. Hand wind_n x2, wind_ne + 3. Heavy Winds (front) is legal.
    # 1st: wind_n [6,7] [6,8]; wind_ne [6,8] [6,9] [7,9]: 5 moves, no stop.
    # 2nd (after wind_n [6,7]): wind_n [5,7] [6,8]; wind_ne [5,8] [6,8] [6,9]
    #     [7,9]; stop: 7 moves.
    # 3rd (after wind_ne [5,8], built off the run's [6,7]): wind_n [4,8]
    #     [5,7] [6,8]; stop: 4 moves.
    # After wind_n [4,8] no wind card is left: the run stops by itself; the
    # refill draws 3; Heavy Winds is now back (Light Breeze).
    hand = ["air_drop", "ember", "flare_up", "wind_n", "wind_n", "wind_ne"]
    g = fg.Game.load(position(hand=hand, draw=["helitack", "smokejumper", "fire_engine"]))
    g.apply({"type": "specialty", "card": "heavy_winds"})
    assert g.decision() == "heavy_wind" and g.move_count() == 5
    assert {"type": "heavy_wind", "card": None} not in g.moves()
    g.apply({"type": "heavy_wind", "card": "wind_n", "square": [6, 7]})
    assert g.move_count() == 7 and {"type": "heavy_wind", "card": None} in g.moves()
    g.apply({"type": "heavy_wind", "card": "wind_ne", "square": [5, 8]})
    assert g.moves() == [{"type": "heavy_wind", "card": "wind_n", "square": s} for s in sq((4, 8), (5, 7), (6, 8))] \
        + [{"type": "heavy_wind", "card": None}]  # canonical: '"card":"' sorts before '"card":null'
    g.apply({"type": "heavy_wind", "card": "wind_n", "square": [4, 8]})
    for c in ("helitack", "smokejumper", "fire_engine"):
        drawn(g, c)
    pos = g.position()
    assert gems(g) == sq((4, 8), (5, 8), (6, 7)) and pos["specialty"]["heavy_winds"] == "back"
    assert pos["discard"] == {"wind_n": 2, "wind_ne": 1} and pos["phase"] == "inferno"


def test_heavy_winds_stop_early_and_hawks_wait_for_the_run():
    # An own hawk on [6,7]: the first gem lands on it; it stays pending
    # (X) while the run goes on, and its gem is fire for the next card
    # (15.9): wind_n [5,7] is offered. Stopping ends the run; then the hawk.
    hand = ["air_drop", "ember", "flare_up", "wind_n", "wind_n", "wind_ne"]
    g = fg.Game.load(position({6: ".......H........"}, hand=hand, draw=["helitack", "smokejumper"]))
    g.apply({"type": "specialty", "card": "heavy_winds"})
    g.apply({"type": "heavy_wind", "card": "wind_n", "square": [6, 7]})
    assert g.decision() == "heavy_wind" and g.s.pending == {(6, 7)}
    assert {"type": "heavy_wind", "card": "wind_n", "square": [5, 7]} in g.moves()
    g.apply({"type": "heavy_wind", "card": None})
    assert g.decision() == "hawk"


def test_light_breeze():
    # Heavy Winds back. wind_e played (set E from N); then light_breeze: stop,
    # or a wind card kind still in hand with its gem: wind_nw (NW of fire):
    # [6,6] [6,7] [7,6]; wind_e is gone (played). 4 moves.
    hand = ["air_drop", "ember", "flare_up", "wind_e", "wind_nw", "wind_nw"]
    g = fg.Game.load(position(hand=hand, wind="N", specialty={"heavy_winds": "back"},
                              draw=["helitack", "smokejumper"]))
    g.apply({"type": "play", "card": "wind_e", "option": "set", "wind": "E"})
    assert g.decision() == "light_breeze"
    assert g.moves() == [{"type": "light_breeze", "card": "wind_nw", "square": s} for s in sq((6, 6), (6, 7), (7, 6))] \
        + [{"type": "light_breeze", "card": None}]
    g.apply({"type": "light_breeze", "card": "wind_nw", "square": [6, 6]})
    drawn(g, "helitack")
    drawn(g, "smokejumper")
    pos = g.position()
    assert pos["wind"] == "E" and gems(g) == sq((6, 6)) and pos["discard"] == {"wind_e": 1, "wind_nw": 1}


def test_wind_roll_excludes_the_current_wind():
    # wind_s roll from E: the die over N, S, W (1/3 each); Light Breeze is not
    # available (Heavy Winds front).
    hand = ["air_drop", "ember", "explosion", "fire_engine", "flare_up", "wind_s"]
    g = fg.Game.load(position(hand=hand, draw=["helitack"]))
    g.apply({"type": "play", "card": "wind_s", "option": "roll"})
    assert g.chance() == [(die(d), Fraction(1, 3)) for d in "NSW"]
    g.apply(die("W"))
    drawn(g, "helitack")
    assert g.position()["wind"] == "W"


def test_barred_directions():
    # NE and SE burned: E is barred (hand_size 6 + 2). A Firestorm from the
    # refill: its die is over N, S, W (1/3 each); with SW and SE burned
    # instead, S is barred: N, E, W.
    for burned, dirs in ((("NE", "SE"), "NSW"), (("SW", "SE"), "NEW")):
        g = fg.Game.load(position(hand=HAND6 + ["ember", "ember"], draw=["firestorm", "smokejumper"],
                                  burned=burned))
        assert g.position()["hand_size"] == 8
        g.apply({"type": "discard", "cards": ["air_drop"]})
        drawn(g, "firestorm")
        drawn(g, "smokejumper")
        assert g.chance() == [(die(d), Fraction(1, 3)) for d in dirs]


# ------------------------------------------------------------ Lookout and Patrol


def test_lookout():
    # Lookout (front): 3 cards aside: flare_up (40 plays on the EF board),
    # air_drop (no gem: unplayable), wind_s (set S, roll, gem [9,7] [9,8]: 4).
    # 44 pick moves. Playing wind_s set S: the other two are discarded;
    # Lookout is back; no Light Breeze; the hand is full: no refill.
    g = fg.Game.load(position(hand=HAND6, draw=["flare_up", "air_drop", "wind_s", "ember"]))
    g.apply({"type": "specialty", "card": "lookout"})
    for c in ("flare_up", "air_drop", "wind_s"):
        drawn(g, c)
    assert g.decision() == "pick" and g.move_count() == 44
    assert {m["card"] for m in g.moves()} == {"flare_up", "wind_s"}
    assert {"type": "pick", "card": "wind_s", "option": "set", "wind": "S"} in g.moves()
    g.apply({"type": "pick", "card": "wind_s", "option": "set", "wind": "S"})
    pos = g.position()
    assert pos["wind"] == "S" and pos["specialty"]["lookout"] == "back" and pos["phase"] == "inferno"
    assert pos["discard"] == {"air_drop": 1, "flare_up": 1, "wind_s": 1} and pos["draw_pile"] == ["ember"]


def test_lookout_nothing_playable_and_a_firestorm_among_the_draws():
    # Draws: air_drop, the Firestorm (aside, replaced at once by
    # fire_engine), smokejumper: no water card can play on an empty board:
    # the only pick is {"card": null}, applied automatically; all three are
    # discarded. The Firestorm resolves after the action step: die, die,
    # storm_discard.
    g = fg.Game.load(position(hand=HAND6, draw=["air_drop", "firestorm", "fire_engine", "smokejumper", "ember"]))
    g.apply({"type": "specialty", "card": "lookout"})
    for c in ("air_drop", "firestorm", "fire_engine", "smokejumper"):
        drawn(g, c)
    assert g.chance() == [(die(d), Fraction(1, 4)) for d in "NESW"]
    assert Counter(g.s.discard) == Counter(["air_drop", "fire_engine", "smokejumper"])
    g.apply(die("E"))
    g.apply(die("E"))
    g.apply({"type": "storm_discard", "cards": []})
    pos = g.position()
    assert pos["discard"] == {"air_drop": 1, "fire_engine": 1, "firestorm": 1, "smokejumper": 1}
    assert gems(g) == sq((7, 9), (8, 9))


def test_patrol():
    # Lookout back: Patrol discards ember, draws flare_up and air_drop:
    # flare_up's 40 plays, each keeping air_drop; air_drop cannot play.
    g = fg.Game.load(position(hand=HAND6, draw=["flare_up", "air_drop", "smokejumper"],
                              specialty={"lookout": "back"}))
    assert {"type": "specialty", "card": "patrol", "discard": "ember"} in g.moves()
    g.apply({"type": "specialty", "card": "patrol", "discard": "ember"})
    drawn(g, "flare_up")
    drawn(g, "air_drop")
    assert g.move_count() == 40 and all(m["keep"] == "air_drop" and m["card"] == "flare_up" for m in g.moves())
    g.apply({"type": "pick", "card": "flare_up", "squares": sq((6, 5), (6, 6), (6, 7)), "keep": "air_drop"})
    pos = g.position()
    assert gems(g) == sq((6, 5), (6, 6), (6, 7)) and pos["discard"] == {"ember": 1, "flare_up": 1}
    assert Counter(pos["hand"]) == Counter(HAND6) - Counter(["ember"]) + Counter(["air_drop"])
    assert pos["draw_pile"] == ["smokejumper"]


def test_patrol_nothing_playable_and_one_card_left():
    # Neither air_drop nor fire_engine can play: keep one, discard the other.
    g = fg.Game.load(position(hand=HAND6, draw=["air_drop", "fire_engine"], specialty={"lookout": "back"}))
    g.apply({"type": "specialty", "card": "patrol", "discard": "ember"})
    drawn(g, "air_drop")
    drawn(g, "fire_engine")
    assert g.moves() == [{"type": "pick", "card": None, "keep": "air_drop"},
                         {"type": "pick", "card": None, "keep": "fire_engine"}]
    g.apply({"type": "pick", "card": None, "keep": "fire_engine"})
    assert g.position()["discard"] == {"air_drop": 1, "ember": 1}
    # Draw pile and discard pile empty: Patrol's own discard (flare_up) is
    # reshuffled and drawn back, the one card: its plays, without "keep".
    g = fg.Game.load(position(hand=HAND6, specialty={"lookout": "back"}))
    g.apply({"type": "specialty", "card": "patrol", "discard": "flare_up"})
    drawn(g, "flare_up")
    assert g.decision() == "pick" and g.move_count() == 40 and all("keep" not in m for m in g.moves())


# ------------------------------------------------------------ Reckless Abandon, Crown Fire, Buckets


def test_reckless_abandon():
    # Bucket used, a gem on [1,1] (NW area): 4 water kinds in hand, C(4,3)=4
    # discards; 12 squares next to fire ([0,1] [1,0] [1,2] [2,1] and 8 round
    # the EF): C(12,2)=66 pairs; 264 moves. After it the refill draws 3.
    hand = ["air_drop", "fire_engine", "helitack", "smokejumper", "ember", "flare_up"]
    p = position({1: ".F.............."}, hand=hand, buckets={"NW": "used"}, draw=["wind_e", "wind_w", "ember"])
    g = fg.Game.load(p)
    reckless = [m for m in g.moves() if m["type"] == "reckless"]
    assert len(reckless) == 264
    g.apply({"type": "reckless", "discard": ["air_drop", "fire_engine", "helitack"], "squares": sq((1, 2), (6, 7))})
    for c in ("wind_e", "wind_w", "ember"):
        drawn(g, c)
    assert gems(g) == sq((1, 1), (1, 2), (6, 7))
    # Not while the Bucket is unused (here it is offered as a Bucket instead).
    p["buckets"]["NW"] = "unused"
    moves = fg.Game.load(p).moves()
    assert not [m for m in moves if m["type"] == "reckless"] and {"type": "bucket", "squares": sq((1, 1))} in moves


def test_crown_fire_double_needs_two():
    # One crown_fire: 28 single plays on the EF board; two: + 192 doubles.
    hand = ["air_drop", "ember", "explosion", "fire_engine", "flare_up", "crown_fire"]
    moves = fg.Game.load(position(hand=hand)).moves()
    assert sum(m.get("card") == "crown_fire" for m in moves) == 28
    hand[0] = "crown_fire"
    g = fg.Game.load(position(hand=hand, draw=["smokejumper", "helitack"]))
    doubles = [m for m in g.moves() if m.get("double")]
    assert len(doubles) == 192
    g.apply(doubles[0])
    drawn(g, "smokejumper")
    drawn(g, "helitack")  # draw 2
    assert g.position()["discard"] == {"crown_fire": 2}


def test_player_bucket_windows():
    # A gem on [2,2] (NW area) and the Bucket unused. At inferno_place
    # (wind_n, its one move) the Bucket makes a decision: inferno + 2 lines.
    # Using it, the same decision comes back with one move: applied at once.
    g = fg.Game.load(position({2: "..F.............", 3: "..F............."}, hand=HAND6,
                              phase="inferno_place", revealed="wind_n"))
    # (canonical order: "[[2,2],[3,2]]" sorts before "[[2,2]]", ',' < ']')
    assert g.moves() == [{"type": "bucket", "squares": sq((2, 2), (3, 2))},
                         {"type": "bucket", "squares": sq((2, 2))}, {"type": "inferno"}]
    g.apply({"type": "bucket", "squares": sq((2, 2), (3, 2))})
    # The Inferno N storm then ran ([6,7] over the EF, in the NW quadrant):
    assert g.decision() == "wind" and gems(g) == sq((6, 7)) and g.s.buckets["NW"] == "used"


def test_end_decision():
    # After the refill, the end decision: the Bucket lines, or end.
    g = fg.Game.load(position({1: ".F.............."}, hand=HAND6, phase="end"))
    assert g.moves() == [{"type": "bucket", "squares": sq((1, 1))}, {"type": "end"}]
    g.apply({"type": "bucket", "squares": sq((1, 1))})
    assert g.position()["phase"] == "inferno" and gems(g) == []


def test_hawk_card():
    # Pair of Hawks on the EF board, no hawk on it: 2 placed, 54 free squares:
    # C(54,2) = 1431 moves (the count matches the list).
    hand = ["air_drop", "ember", "explosion", "fire_engine", "flare_up", "hawks_2"]
    g = fg.Game.load(position(hand=hand, draw=["helitack"]))
    hawk_moves = [m for m in g.moves() if m.get("card") == "hawks_2"]
    assert len(hawk_moves) == 1431 and g.move_count() == len(g.moves())
    g.apply({"type": "play", "card": "hawks_2", "hawks": sq((4, 4), (5, 6)), "take": []})
    drawn(g, "helitack")
    assert g.position()["hawk_supply"] == 16


def test_hawk_card_takes_enemy_hawks_when_the_supply_is_short():
    # 17 hawks on the board (1 own at [4,4], 16 enemy), supply 1: a Trio places
    # 1 and may take up to 2 enemy hawks. free = 53. Counts: take 0: C(53+1,2)
    # (final set of 2 from the 54 pool squares), take 1: 16*C(54,3), take 2:
    # C(16,2)*C(54,4).
    from math import comb
    rows = {4: "....H...........", 12: "........HHHHHHHH", 13: "........HHHHHHHH"}
    hand = ["air_drop", "ember", "explosion", "fire_engine", "flare_up", "hawks_3"]
    g = fg.Game.load(position(rows, hand=hand))
    hp = ref.hawk_play(g.s.board, "hawks_3", 3)
    assert (hp.placed, hp.take_max, len(hp.pool)) == (1, 2, 54)
    assert hp.count() == comb(54, 2) + 16 * comb(54, 3) + comb(16, 2) * comb(54, 4)
    m = {"type": "play", "card": "hawks_3", "hawks": sq((0, 5), (4, 4), (5, 5), (6, 6)), "take": sq((12, 8),
                                                                                                  (13, 15))}
    g.apply(m)
    assert (12, 8) not in g.s.board.hawks and {(0, 5), (4, 4), (5, 5), (6, 6)} <= g.s.board.hawks
    with pytest.raises(ValueError):
        fg.Game.load(position(rows, hand=hand)).apply(dict(m, take=sq((12, 8))))  # 3 + 1: wrong size


# ------------------------------------------------------------ Levels 6-7, win, loss


def test_level6_bucket_taking():
    # Level 6: no player Bucket. Burning NE while its Bucket is unused gives
    # the player a Bucket (bucket_taken); NE's field stays "unused" (15.10).
    hand = ["air_drop", "ember", "explosion", "fire_engine"]
    p = position({0: "..............F."}, hand=hand, draw=["helitack", "smokejumper"], phase="wind", level=6,
                 buckets={"NW": "none"})
    g = fg.Game.load(p)
    g.apply({"type": "wind_gem", "square": [0, 15]})
    g.apply(die("N"))
    g.apply(die("N"))
    drawn(g, "helitack")
    pos = g.position()
    assert pos["buckets"] == {"NW": "unused", "NE": "unused", "SW": "unused", "SE": "unused"}
    assert pos["bucket_taken"] and pos["hand_size"] == 5 and len(pos["hand"]) == 5
    # A tower whose Bucket was used gives nothing.
    p["buckets"]["NE"] = "used"
    g = fg.Game.load(p)
    g.apply({"type": "wind_gem", "square": [0, 15]})
    g.apply(die("N"))
    g.apply(die("N"))
    drawn(g, "helitack")
    assert g.position()["buckets"]["NW"] == "none" and not g.position()["bucket_taken"]


def test_win_and_score():
    # NE and SW burned; the wind gem on [15,15] burns SE: won at once (no
    # partial storm, no draw). Score: the NW area's 9 squares less the gem on
    # [2,2] = 8.
    g = fg.Game.load(position({2: "..F.............", 15: "..............F."}, hand=HAND6, phase="wind",
                              burned=("NE", "SW"), buckets={"NW": "used"}))
    g.apply({"type": "wind_gem", "square": [15, 15]})
    assert g.status() == "win" and g.score() == 8 and g.position() is None and g.chance() == []


def test_loss_before_win_in_one_step():
    # Heavy Winds: wind_n on [0,0] (north of [1,0]) then wind_e on [15,15]
    # (east of [15,14]), NE and SW burned: the checks see [0,0] first: lost.
    hand = ["air_drop", "ember", "explosion", "fire_engine", "wind_n", "wind_e"]
    g = fg.Game.load(position({1: "F...............", 15: "..............F."}, hand=hand, burned=("NE", "SW"),
                              buckets={"NW": "used"}))
    g.apply({"type": "specialty", "card": "heavy_winds"})
    g.apply({"type": "heavy_wind", "card": "wind_n", "square": [0, 0]})
    g.apply({"type": "heavy_wind", "card": "wind_e", "square": [15, 15]})
    assert g.status() == "loss" and g.score() is None


# ------------------------------------------------------------ interface


def test_illegal_events_are_refused_with_a_reason():
    g = fg.Game.load(position(hand=HAND6, draw=["helitack"]))
    with pytest.raises(ValueError, match="illegal move at decision action"):
        g.apply({"type": "play", "card": "flare_up", "squares": sq((0, 0))})
    with pytest.raises(ValueError, match="decision action is pending"):
        g.apply(draw("helitack"))
    g.apply({"type": "discard", "cards": ["ember"]})
    with pytest.raises(ValueError, match="impossible chance event"):
        g.apply(draw("ember"))
    with pytest.raises(ValueError, match="hand"):
        fg.Game.load(position(hand=HAND6 + ["ember"]))  # 7 cards, hand_size 6
    bad = position(hand=HAND6)
    bad["options"]["deck"]["ember"] = 2
    with pytest.raises(ValueError, match="deck"):
        fg.Game.load(bad)


def test_copy_and_position_round_trip():
    g = fg.Game.load(position({0: "..............F."}, hand=HAND6, draw=["firestorm", "smokejumper", "ember"],
                              phase="wind"))
    g.apply({"type": "wind_gem", "square": [0, 15]})
    g.apply(die("W"))
    c = g.copy()
    assert c.chance() == g.chance() and c.s.board == g.s.board
    for e in (die("E"), draw("firestorm"), draw("smokejumper"), die("N"), die("S"),
              {"type": "storm_discard", "cards": []}):
        g.apply(e)
        c.apply(e)
    assert c.position() == g.position() is not None
    assert fg.Game.load(g.position()).position() == g.position()


def test_unknown_order_draws_are_uniform_over_the_pile():
    p = position(hand=HAND6, draw=["ember", "ember", "wind_e"])
    p["options"]["order_known"] = False
    p["draw_pile"] = {"ember": 2, "wind_e": 1}
    g = fg.Game.load(p)
    g.apply({"type": "discard", "cards": ["air_drop"]})
    assert g.chance() == [(draw("ember"), Fraction(2, 3)), (draw("wind_e"), Fraction(1, 3))]
    assert g.position() is None


def test_position_keys():
    g = fg.Game.load(fg.setup_position(3, random.Random(1)))
    pos = g.position()
    assert list(pos) == sorted(pos) and list(pos["inferno"]) == sorted(pos["inferno"])
    assert set(pos) == {"game", "version", "level", "board", "wind", "hand", "draw_pile", "discard", "inferno",
                        "burned", "buckets", "bucket_taken", "specialty", "turn", "round", "phase", "options",
                        "hand_size", "hawk_supply"}
    assert pos["options"] == {"challenges": "off", "order_known": False, "turn_limit": 100, "deck": "default"}


@pytest.mark.parametrize("seed", range(3))
def test_fast_helitack_agrees_with_the_template_search(seed):
    rng = random.Random(seed)
    free = [s for s in ((r, c) for r in range(16) for c in range(16)) if s not in ref.EF]
    picked = rng.sample(free, 50)
    b = ref.Board(set(picked[:35]), set(picked[35:45]), set(picked[45:]))
    assert fg.helitack(b) == ref.helitack(b)


def random_board(seed: int, gems: int) -> ref.Board:
    rng = random.Random(seed)
    free = [s for s in ((r, c) for r in range(16) for c in range(16)) if s not in ref.EF]
    picked = rng.sample(free, gems + 20)
    return ref.Board(set(picked[:gems]), set(picked[gems:gems + 10]), set(picked[gems + 10:]))


@pytest.mark.parametrize("seed, n", [(0, 0), (1, 3), (2, 12), (3, 20)])
def test_creeping_fires_count_and_moves_agree_with_the_reference(seed, n):
    b = random_board(seed, n)
    cf = fg.CreepingFires(b)
    want = ref.creeping_fires(b)
    assert cf.count() == len(want) and ref.canonical(list(cf.moves())) == want
    assert all(cf.legal(m) for m in want[:200])
    assert not cf.legal({"type": "play", "card": "creeping_fires", "squares": [[0, 0]]}) or cf.size == 1
    t1 = ref.Board(set(), set(), set())
    assert fg.CreepingFires(t1).count() == 32  # section 13, T1


def test_reference_additions():
    # The set-up hawk: 54 squares on the EF board; at Level 7 too (enemy
    # hawks are outside the NW quadrant).
    empty = ref.Board(set(), set(), set())
    assert len(ref.setup_hawk(empty)) == 54
    # Hawk cards: the count agrees with the list and with the legality test.
    b = ref.Board({(5, 5)}, {(4, 4)}, {(3, 5), (12, 12)})
    hp = ref.hawk_play(b, "hawks_2", 2)
    # free: 54 - [4,4] firebreak - [5,5] gem - [3,5] own hawk = 51; pool 52;
    # final own set of 1 + 2 = 3 squares: C(52,3) = 22100.
    assert (len(hp.pool), hp.placed, hp.take_max, hp.count()) == (52, 2, 0, 22100)
    moves = ref.hawk_card(b, "hawks_2", 2)
    assert len(moves) == 22100 and all(hp.legal(m) for m in moves[::97])
    assert hp.legal(hp.sample(random.Random(1)))
    # Backburn (out of the solo deck) needs a gem: none on the EF board; the
    # gem [5,5] has no orthogonally adjacent firebreak ([4,4] is diagonal).
    assert ref.backburn(empty) == [] and len(ref.backburn(b)) == 1


def test_reference_backburn():
    b = ref.Board({(5, 5), (4, 5)}, {(3, 5)}, set())
    # [4,5] touches the firebreak [3,5]; [5,5] does not.
    assert ref.backburn(b) == [{"type": "play", "card": "backburn", "square": [5, 5]}]
    # Dozer / Scratch Line: both squares buildable (empty, off the NW area and
    # the EF, no firebreak next to them).
    dozer = {tuple(map(tuple, m["squares"])) for m in ref.dozer_line(b)}
    assert ((2, 6), (2, 7)) in dozer and ((2, 4), (2, 5)) not in dozer  # [2,5] touches [3,5]
    scratch = {tuple(map(tuple, m["squares"])) for m in ref.scratch_line(b)}
    assert ((9, 9), (9, 11)) in scratch and ((0, 0), (0, 2)) not in scratch  # NW area


def test_reshuffle_makes_the_order_unknown():
    # The draw pile is empty: the discard pile (air_drop just discarded,
    # ember, wind_e) becomes the draw pile, in unknown order (1/3 each), even
    # with order_known; the position then gives it as a map.
    g = fg.Game.load(position(hand=HAND6, discard=["ember", "wind_e"]))
    g.apply({"type": "discard", "cards": ["air_drop"]})
    assert g.chance() == [(draw(c), Fraction(1, 3)) for c in ("air_drop", "ember", "wind_e")]
    g.apply(draw("ember"))
    pos = g.position()
    assert pos["draw_pile"] == {"air_drop": 1, "wind_e": 1} and pos["discard"] == {}


def test_action_skipped_with_no_legal_action():
    # An empty hand, nothing to draw, Lookout used (Patrol needs a hand card),
    # Heavy Winds needs a wind card: no action; straight to turn 2.
    g = fg.Game.load(position(hand=[], specialty={"lookout": "back"}))
    pos = g.position()
    assert pos["phase"] == "inferno" and pos["turn"] == 2 and pos["hand"] == []


# ------------------------------------------------------------ seeded random-play soak


# Pure Python: the sanitizer run, which checks the C++, asks a tenth.
SOAK_GAMES = 350 * int(os.environ.get("SMOKEJUMPER_SOAK_GAMES", "2000")) // 2000


def hot_start(level: int, rng: random.Random) -> dict:
    """A set-up position with fire already spread outside the NW quadrant
    (much of it near the enemy back corners), 0-2 towers burned, the own
    hawk placed, at the turn's Inferno draw: games reach burns, partial
    storms, enemy Buckets and wins."""
    p = fg.setup_position(level, rng, turn_limit=rng.choice([3, 8, 30]))
    rows = [list(r) for r in p["board"]]
    burned = rng.sample(["NE", "SW", "SE"], rng.randint(0, 2))
    for t in burned:
        r, c = ref.BACK[t]
        rows[r][c] = "F"
        p["burned"][t] = True
    spots = [(r, c) for r in range(16) for c in range(16) if rows[r][c] == "." and not (r < 8 and c < 8)
             and (r, c) not in ref.BACK.values()]
    near = [s for s in spots if min(abs(s[0] - r) + abs(s[1] - c) for r, c in ref.BACK.values()) <= 5]
    for r, c in rng.sample(spots, rng.randint(3, 12)) + rng.sample(near, rng.randint(3, 10)):
        rows[r][c] = "F"
    nw = [(r, c) for r in range(8) for c in range(8) if rows[r][c] == "." and ref.area_of((r, c)) != "NW"]
    r, c = rng.choice(nw)
    rows[r][c] = "H"
    p["board"] = ["".join(x) for x in rows]
    p["phase"], p["wind"] = "inferno", rng.choice("NESW")
    if rng.random() < 0.3:
        p["specialty"] = {"heavy_winds": "back", "lookout": "back"}
    return p


def conserved(g: fg.Game, deck: Counter):
    s = g.s
    pile = s.draw if isinstance(s.draw, Counter) else Counter(s.draw)
    assert +(s.hand + pile + s.discard + Counter(s.aside)) == deck
    infer = s.inferno_deck if isinstance(s.inferno_deck, Counter) else Counter(s.inferno_deck)
    assert +(infer + Counter(s.inferno_discard) + Counter([s.revealed] if s.revealed else [])) == Counter(INFERNO)
    assert len(s.board.hawks) <= 18
    assert s.pending <= s.board.hawks and s.pending <= s.board.gems


def test_soak():
    rng = random.Random(20240601)
    seen = Counter()
    for game in range(SOAK_GAMES):
        level = 1 + game % 7
        start = fg.setup_position(level, rng) if game % 2 else hot_start(level, rng)
        g = fg.Game.load(start)
        deck = fg.solo_deck(fg.DEFAULT_DATA)
        for _ in range(5000):
            if g.status() != "ongoing":
                break
            conserved(g, deck)
            pos = g.position()
            if pos is not None:
                assert not g.s.aside and not g.s.pending and not g.s.queued and g.s.depth == 0
                assert len(pos["hand"]) <= pos["hand_size"] and 0 <= pos["hawk_supply"] <= 18
                if pos["phase"] in ("inferno", "end") and pos["turn"] > start["turn"]:  # after a refill
                    assert len(pos["hand"]) == pos["hand_size"] or not (pos["draw_pile"] or pos["discard"])
                if rng.random() < 0.1:
                    assert fg.Game.load(pos).position() == pos
            if g.decision():
                seen[g.decision()] += 1
                event = g.random_move(rng)
                if rng.random() < 0.02:  # a copy follows the same path
                    c = g.copy()
                    assert c.decision() == g.decision() and c.s.board == g.s.board and c.s.pending == g.s.pending
            else:
                outcomes = g.chance()
                assert outcomes and sum(p for _, p in outcomes) == 1
                event = rng.choices([e for e, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
            g.apply(event)
        assert g.status() in ("win", "loss", "timeout"), "a game did not end"
        seen[g.status()] += 1
        seen["burns"] += sum(g.s.burned.values()) - sum(start["burned"].values())
        if g.status() == "win":
            assert 1 <= g.score() <= 9
    if SOAK_GAMES < 350:
        return  # fewer games need not meet every flow
    # Every flow was visited (the counts are for the record).
    for name in ("setup_hawk", "inferno_place", "wind", "action", "end", "hawk", "enemy_bucket", "storm_reroll",
                 "storm_discard", "light_breeze", "heavy_wind", "pick", "win", "loss", "timeout", "burns"):
        assert seen[name] > 0, (name, seen)
