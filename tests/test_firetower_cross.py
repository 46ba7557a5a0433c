"""Fire Tower's C++ engine against the two independent Python readings
(tests/firetower_reference.py for the board rules, tests/firetower_game_
reference.py for the turn flow), which share no code with it:

- on seeded random boards, every legal move of every fire and water card,
  the wind step, wind cards, firebreaks, the Inferno and the Buckets;
- on seeded whole games (a set-up, or fire already spread near the enemy
  towers), step by step: the same decision or chance point, the same legal
  moves (or their number, for hawk cards too many to list), the same chance
  outcomes and probabilities, and the same position wherever one exists.

SMOKEJUMPER_CROSS_CASES scales both (the sanitizer run asks fewer)."""

from __future__ import annotations

import itertools
import json
import os
import random
from collections import Counter
from fractions import Fraction

import pytest

import firetower_game_reference as flow
import firetower_reference as ref
from firetower_positions import position
from smokejumper import _core, firetower
from test_firetower_game_reference import hot_start

CASES = int(os.environ.get("SMOKEJUMPER_CROSS_CASES", "480"))
LIST_AT_MOST = 3000  # moves compared one by one; past this, their number


def random_board(rng: random.Random) -> list[str]:
    """Gems, firebreaks and hawks scattered with a random density, denser
    in the NW quadrant; the Flame in place and [0,0] free of gems."""
    rows = [["." for _ in range(16)] for _ in range(16)]
    for r, c in ref.EF:
        rows[r][c] = "E"
    gems, breaks, hawks = rng.uniform(0.02, 0.3), rng.uniform(0, 0.08), rng.uniform(0, 0.05)
    for r in range(16):
        for c in range(16):
            if rows[r][c] == "E":
                continue
            near = 1.5 if r < 8 and c < 8 else 1.0
            x = rng.random()
            if x < gems * near and (r, c) != (0, 0):
                rows[r][c] = "F"
            elif x < gems * near + breaks:
                rows[r][c] = "#"
            elif x < gems * near + breaks + hawks:
                rows[r][c] = "H"
    return ["".join(r) for r in rows]


def texts(moves: list[dict]) -> list[str]:
    return sorted(json.dumps(m, sort_keys=True, separators=(",", ":")) for m in moves)


def engine_plays(rows: list[str], card: str, copies: int = 1) -> list[str]:
    state = firetower.check(position(rows, [card] * copies + ["ember"] * (card != "ember"),
                                     buckets={"NW": "used", "NE": "unused", "SW": "unused", "SE": "unused"}),
                            max_moves=10**6)
    return texts([m for m in state.moves if m["type"] == "play" and m["card"] == card])


def reference_plays(b: ref.Board, card: str, copies: int = 1) -> list[str]:
    rules = {"flare_up": ref.flare_up, "burning_snag": ref.burning_snag, "explosion": ref.explosion,
             "ember": ref.ember, "rolling_firebrand": ref.rolling_firebrand, "air_drop": ref.air_drop,
             "fire_engine": ref.fire_engine, "smokejumper": ref.smokejumper, "de_reforest": ref.de_reforest,
             "helitack": flow.helitack, "creeping_fires": lambda x: flow.CreepingFires(x).moves()}
    if card == "crown_fire":
        return texts(ref.crown_fire(b) + (ref.crown_fire_double(b) if copies > 1 else []))
    if card.startswith("wind_"):
        spec = {"wind_n": (["N"], "N"), "wind_ne": (["N", "E"], "NE"), "wind_sw": (["S", "W"], "SW")}[card]
        return texts(ref.wind_card(b, card, *spec, "N", {}))
    return texts(rules[card](b))


BOARD_CASES = [(seed, card) for seed in range(max(1, CASES // 20))
               for card in ("flare_up", "burning_snag", "explosion", "ember", "rolling_firebrand", "air_drop",
                            "fire_engine", "smokejumper", "helitack", "creeping_fires", "de_reforest", "wind_ne",
                            "wind_sw")]


@pytest.mark.parametrize("seed, card", BOARD_CASES, ids=lambda x: str(x))
def test_a_cards_plays_agree_on_random_boards(seed: int, card: str):
    rng = random.Random(seed * 7919 + 1)
    rows = random_board(rng)
    b = ref.Board.parse(rows)
    if card == "creeping_fires" and (many := flow.CreepingFires(b)).count() > LIST_AT_MOST:
        # Tens of thousands of triples: their number, and a sample of the
        # engine's checked by the reference's rule.
        alone = position(rows, [card], buckets={"NW": "used", "NE": "unused", "SW": "unused", "SE": "unused"})
        session = _core.firetower.replay(firetower.data(), json.dumps(alone))[0]
        count, listed, _ = session.moves(LIST_AT_MOST)  # its plays come first in canonical order
        assert count - 2 == many.count()  # besides them: discarding it, and Lookout
        plays = [json.loads(m) for m in listed]
        assert all(m["card"] == card and many.legal(m) for m in rng.sample(plays, 200))
        return
    assert engine_plays(rows, card) == reference_plays(b, card), rows


@pytest.mark.parametrize("seed", range(max(1, CASES // 10)))
def test_the_step_rules_agree_on_random_boards(seed: int):
    """The wind step, a Crown Fire pair, the Inferno's cards and the player's Bucket."""
    rng = random.Random(seed * 104729 + 3)
    rows = random_board(rng)
    b = ref.Board.parse(rows)
    assert engine_plays(rows, "crown_fire", copies=2) == reference_plays(b, "crown_fire", copies=2)
    used = {"NW": "used", "NE": "unused", "SW": "unused", "SE": "unused"}
    for wind in "NESW":
        moves = firetower.check(position(rows, ["ember"], phase="wind", wind=wind, buckets=used), 10**6).moves
        expected = ref.wind_gem(b, wind)
        assert texts(moves) == texts(expected) or (not expected and moves and moves[0]["type"] != "wind_gem")
    for card, rule in (("flare_up", ref.inferno_flare_up), ("burning_snag", ref.inferno_burning_snag),
                       ("explosion", ref.inferno_explosion)):
        moves = firetower.check(position(rows, ["ember"], phase="inferno_place", revealed=card, buckets=used),
                                10**6).moves
        expected = rule(b) or [{"storm": "N", "type": "penalty"}, {"storm": "W", "type": "penalty"}]
        assert texts(moves) == texts(expected), card
    if any(ref.area_of(g) == "NW" for g in b.gems):
        moves = firetower.check(position(rows, ["ember"], phase="end"), 10**6).moves
        assert texts(moves) == texts(ref.player_bucket(b) + [{"type": "end"}])


# ------------------------------------------------------------ whole games, step by step


def engine_outcomes(session) -> dict[str, Fraction]:
    outcomes = session.outcomes()
    total = sum(w for _, w in outcomes)
    return {json.dumps(json.loads(e), sort_keys=True, separators=(",", ":")): Fraction(w, total) for e, w in outcomes}


def play_both(start: dict, rng: random.Random) -> Counter:
    """One game driven through both, each step compared; the counts of what it met."""
    seen: Counter = Counter()
    session, bad, reason, _ = _core.firetower.replay(firetower.data(), json.dumps(start))
    assert bad < 0, reason
    g = flow.Game.load(start)
    for _ in range(5000):
        assert session.status == g.status(), (seen, session.status, g.status())
        if session.status != "ongoing":
            break
        pos = session.position()
        assert (json.loads(pos) if pos else None) == g.position()
        assert session.decision == g.decision()
        if session.decision:
            seen[session.decision] += 1
            count, listed, unlisted = session.moves(LIST_AT_MOST)
            assert count == g.move_count(), session.decision
            if session.decision == "action":  # the random baseline's count, without listing
                assert _core.firetower.action_count(session) == count
                for card, (drawn, listed_plays) in _core.firetower.card_play_draws(session).items():
                    assert drawn == listed_plays, card  # the rollouts' draw of one card's play
                    seen["card draws"] += len(drawn) > 0
            if not unlisted and count <= LIST_AT_MOST:
                assert listed == texts(g.moves()), session.decision
            if unlisted and rng.random() < 0.5:
                event = g.random_move(rng)  # a hawk arrangement the engine did not list: it must take it
            else:
                event = json.loads(rng.choice(listed))
        else:
            expected = {json.dumps(e, sort_keys=True, separators=(",", ":")): p for e, p in g.chance()}
            got = engine_outcomes(session)
            assert got == expected
            seen["chance"] += 1
            event = json.loads(rng.choices(list(got), weights=[float(p) for p in got.values()])[0])
        session.apply(json.dumps(event), "event")
        g.apply(event)
    seen[session.status] += 1
    seen["burns"] += sum(json.loads(session.view())["burned"].values())
    return seen


GAME_SEEDS = range(max(1, CASES // 8))


def near_a_win(level: int, rng: random.Random) -> dict:
    """A hot start with two towers burned and fire two squares from the
    third's back corner: games that reach the win and its checks."""
    start = hot_start(level, rng)
    towers = {"NE": (0, 15), "SW": (15, 0), "SE": (15, 15)}
    last = rng.choice(sorted(towers))
    rows = [list(r) for r in start["board"]]
    for name, (r, c) in towers.items():
        start["burned"][name] = name != last
        if name != last:
            rows[r][c] = "F"
    r, c = towers[last]
    for dr, dc in ((0, 2), (2, 0), (1, 1)):  # toward the board's middle
        rr, cc = r + (dr if r == 0 else -dr), c + (dc if c == 0 else -dc)
        if rows[rr][cc] == ".":
            rows[rr][cc] = "F"
    start["board"] = ["".join(x) for x in rows]
    start["buckets"] = {"NW": start["buckets"]["NW"], "NE": "used", "SW": "used", "SE": "used"}
    return start


def test_whole_games_agree_step_by_step_and_meet_every_decision_and_end():
    # One test for every game, so that what they met is counted whole on any
    # worker (a fixture shared by parametrized cases sees only its worker's).
    met: Counter = Counter()
    for seed in GAME_SEEDS:
        rng = random.Random(seed)
        level = 1 + seed % 7
        if seed % 6 == 0:
            start = near_a_win(level, rng)
        else:
            start = flow.setup_position(level, rng, order_known=seed % 5 == 0) if seed % 2 else hot_start(level, rng)
        try:
            met.update(play_both(start, rng))
        except AssertionError as e:
            raise AssertionError(f"game seed {seed}: {e}") from e
    if len(GAME_SEEDS) < 60:
        return  # too few games to meet every decision (the sanitizer's short run)
    for name in ("setup_hawk", "inferno_place", "wind", "action", "end", "hawk", "enemy_bucket", "storm_reroll",
                 "storm_discard", "light_breeze", "heavy_wind", "pick", "win", "loss", "burns", "card draws"):
        assert met[name] > 0, (name, met)


# ------------------------------------------------------------ the greedy baseline

def greedy_h(g: flow.Game) -> float:
    """Section 14's h of the reference game where it stopped, worked out
    here: 1000 a burned tower, minus each unburned enemy's least Manhattan
    distance from fire (gems and the EF) to its back corner, plus 4 times
    the NW corner's, minus 2 a gem in the NW area; a win 10^6, a loss -10^6."""
    if g.status() in ("win", "loss"):
        return 1e6 if g.status() == "win" else -1e6
    fire = g.s.board.gems | ref.EF
    dist = {t: min(abs(r - br) + abs(c - bc) for r, c in fire) for t, (br, bc) in ref.BACK.items()}
    h = sum(1000 if g.s.burned[t] else -dist[t] for t in ("NE", "SW", "SE"))
    return h + 4 * dist["NW"] - 2 * sum(ref.area_of(s) == "NW" for s in g.s.board.gems)


def test_greedy_takes_the_first_move_of_the_highest_h_by_the_reference():
    """At seeded decisions of random reference games, the engine's greedy
    move is the first in canonical order of those whose next position (the
    reference's, forced moves played, stopped at a chance event or a
    decision) has the highest h. Hawk cards with unlisted arrangements
    are left out (the engine stands one arrangement for them)."""
    rng = random.Random(14)
    checked = Counter()
    wanted = max(20, CASES // 6)
    for seed in itertools.count():
        if checked["positions"] >= wanted:
            break
        start = hot_start(1 + seed % 7, rng) if seed % 2 else flow.setup_position(1 + seed % 7, rng)
        g = flow.Game.load(start)
        while g.status() == "ongoing" and checked["positions"] < wanted:
            # Every few decisions (a game's positions are alike), of at most 150 moves (each is replayed).
            if g.decision() and g.position() is not None and g.move_count() <= 150 and rng.random() < 0.3:
                moves = sorted(g.moves(), key=lambda m: json.dumps(m, sort_keys=True, separators=(",", ":")))
                values = []
                for m in moves:
                    after = g.copy()
                    after.apply(m)
                    values.append(greedy_h(after))
                expected = moves[values.index(max(values))]
                assert firetower.baseline_move(g.position(), "greedy") == expected, (g.position(), expected)
                checked["positions"] += 1
                checked["ties"] += values.count(max(values)) > 1
            if g.decision():
                g.apply(g.random_move(rng))
            else:
                outcomes = g.chance()
                g.apply(rng.choices([e for e, _ in outcomes], weights=[float(p) for _, p in outcomes])[0])
    assert checked["ties"] >= wanted // 10, checked  # the tie-break is put to the test
