"""Fire!'s answers through the service: values, reveals and moves, its
levels, its validation, and its page view. What the service does for every
game is in tests/test_service.py and tests/contract."""

from __future__ import annotations

import time

import pytest

from service_support import MB, assert_problem, search_past_the_time_cap, server
from smokejumper import fire
from smokejumper.fire import MAX_STEPS


def bat(energy, crosshairs=None):
    return {"energy": energy} if crosshairs is None else {"energy": energy, "crosshairs": crosshairs}


# One 9-7-4-3 alien, two empty weapons, six batteries to draw: at a reveal,
# won with probability 787/1080 under optimal play (tests/fire_reference.py);
# solved in milliseconds.
FIRE_SMALL = {"aliens": [{"strengths": [9, 7, 4, 3]}], "weapons": [[], []],
              "draw": [bat(1), bat(2), bat(3), bat(1), bat(3), bat(5)]}
# The same after a 3 went on weapon 0 and another 3 is revealed: weapon 0
# (3/4) is better than weapon 1 (7/12), as the reference says.
FIRE_DECISION = {"aliens": [{"strengths": [9, 7, 4, 3]}], "weapons": [[bat(3)], []],
                 "draw": [bat(1), bat(2), bat(1), bat(5)], "revealed": bat(3)}


@pytest.fixture(scope="module")
def fire_levels(client):
    r = client.get("/v1/fire/levels")
    assert r.status_code == 200, r.text
    return {entry["id"]: entry for entry in r.json()["levels"]}


def assert_value(v: dict) -> None:
    """A proved interval, with the headline only when exact (a search its
    limit stopped, as a slow build's 0.2 s may, gives none)."""
    lo, hi = v["interval"]
    assert 0 <= lo <= hi <= 1
    if v["exact"]:
        assert hi - lo < 1e-9 and lo <= v["win_probability"] <= hi
    else:
        assert v["win_probability"] is None


def assert_best_first(choices: list[dict]) -> None:
    values = [c["win_probability"] for c in choices]
    assert values == sorted(values, reverse=True)


def test_fire_solve_small(client):
    r = client.post("/v1/fire/solve", json={"position": FIRE_SMALL, "limit": {"seconds": 5}})
    assert r.status_code == 200, r.text
    result = r.json()
    assert_value(result)
    assert result["exact"] is True and result["stats"]["stopped_by"] is None
    assert result["win_probability"] == pytest.approx(787 / 1080, abs=1e-9)
    assert result["won_for_certain"] is False  # a value below 1: some reveals lose


def test_fire_split_shares_the_aliens_out(client):
    team = fire.levels.team_level1().position(aliens=4).model_dump(mode="json")
    r = client.post("/v1/fire/split", json={"position": team, "limit": {"seconds": 30}})
    assert r.status_code == 200, r.text
    result = r.json()
    assert_value(result)
    assert result["exact"] and result["win_probability"] == 1.0
    assert sorted(result["aliens"]) == [[0, 1], [2, 3]]
    solo = client.post("/v1/fire/split", json={"position": FIRE_SMALL})
    assert_problem(solo, 422, "team")


def test_fire_hint_at_a_decision_agrees_with_solve(client):
    solved = client.post("/v1/fire/solve", json={"position": FIRE_DECISION}).json()
    r = client.post("/v1/fire/hint", json={"position": FIRE_DECISION, "limit": {"seconds": 3}})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["status"] == "decision" and hint["reveals"] == []
    assert hint["exact"] and solved["exact"]
    choices = hint["moves"]
    assert [c["move"]["weapon"] for c in choices] == [0, 1]
    for c in choices:
        assert_value(c)
        assert c["exact"] is True
    assert_best_first(choices)
    assert choices[0]["win_probability"] == pytest.approx(3 / 4, abs=1e-9)
    assert choices[0]["win_probability"] == pytest.approx(solved["win_probability"], abs=1e-9)
    assert hint["win_probability"] == pytest.approx(solved["win_probability"], abs=1e-9)


def test_fire_hint_before_a_reveal_lists_each_battery(client):
    r = client.post("/v1/fire/hint", json={"position": FIRE_SMALL, "limit": {"seconds": 3}})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["status"] == "reveal" and hint["moves"] == []
    reveals = hint["reveals"]
    assert {b["battery"]["energy"]: b["probability"] for b in reveals} == pytest.approx(
        {1: 2 / 6, 2: 1 / 6, 3: 2 / 6, 5: 1 / 6})
    assert sum(b["probability"] for b in reveals) == pytest.approx(1.0, abs=1e-12)
    for b in reveals:
        assert_value(b)
        assert b["moves"] and b["exact"]
        assert_best_first(b["moves"])
        assert b["win_probability"] == pytest.approx(b["moves"][0]["win_probability"], abs=1e-12)
    expected = sum(b["probability"] * b["win_probability"] for b in reveals)
    assert hint["win_probability"] == pytest.approx(expected, abs=1e-9)


def test_fire_check_apply_replay_round_trip(client):
    r = client.post("/v1/fire/check", json={"position": FIRE_SMALL})
    assert r.status_code == 200, r.text
    checked = r.json()
    assert checked["status"] == "reveal" and checked["moves"] == []
    assert checked["position"]["draw"][0]["crosshairs"] == 2  # the Level 1 default filled in

    r = client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": [{"reveal": bat(3)}]})
    assert r.status_code == 200, r.text
    revealed = r.json()
    assert revealed["error"] is None and revealed["status"] == "decision"
    assert revealed["steps"][0]["step"] == {"reveal": bat(3, 1)}
    decision = revealed["position"]
    assert decision["revealed"] == bat(3, 1) and len(decision["draw"]) == 5

    moves = client.post("/v1/fire/check", json={"position": decision}).json()["moves"]
    assert [m["weapon"] for m in moves] == [0, 1]
    for move in moves:
        r = client.post("/v1/fire/apply", json={"position": decision, "move": move})
        assert r.status_code == 200, r.text
        after = r.json()
        assert after["status"] == "reveal" and after["position"]["revealed"] is None
        assert after["position"]["weapons"][move["weapon"]] == [bat(3, 1)]
        replayed = client.post("/v1/fire/replay", json={"position": FIRE_SMALL,
                                                          "steps": [{"reveal": bat(3)}, move]}).json()
        assert replayed["error"] is None and replayed["position"] == after["position"]


def test_fire_apply_a_shot(client):
    # 3 + 3 + 5 on weapon 0: 11 energy, 3 crosshairs, 3 damage: no hit on a 9.
    pos = {**FIRE_DECISION, "weapons": [[bat(3), bat(3)], []], "draw": [bat(1), bat(2), bat(1)],
           "revealed": bat(5)}
    moves = client.post("/v1/fire/check", json={"position": pos}).json()["moves"]
    shots = [m for m in moves if m["weapon"] == 0]
    assert {m["destroy"]["energy"] for m in shots} == {3, 5} and all(m["target"] == 0 for m in shots)
    r = client.post("/v1/fire/apply", json={"position": pos, "move": {"weapon": 0, "target": 0, "destroy": bat(5)}})
    assert r.status_code == 200, r.text
    after = r.json()["position"]
    assert after["destroyed"] == [bat(5, 1)] and after["weapons"][0] == []
    assert after["aliens"][0]["hits"] == 0 and len(after["discard"]) == 2


def test_fire_apply_the_winning_shot(client):
    # 9 energy and 5 crosshairs on weapon 1, a 5 revealed: 14 energy, 6
    # crosshairs, 24 damage: the last three hits (7 + 4 + 3), a win at once.
    pos = {"aliens": [{"strengths": [9, 7, 4, 3], "hits": 1}],
           "weapons": [[], [bat(1), bat(2), bat(3), bat(3)]], "destroyed": [bat(1)], "revealed": bat(5)}
    move = {"weapon": 1, "target": 0, "destroy": None}
    legal = client.post("/v1/fire/check", json={"position": pos}).json()["moves"]
    assert move in [{k: m[k] for k in move} for m in legal]
    r = client.post("/v1/fire/apply", json={"position": pos, "move": move})
    assert r.status_code == 200, r.text
    won = r.json()
    assert won["status"] == "win" and won["moves"] == [] and won["position"]["aliens"][0]["hits"] == 4
    replayed = client.post("/v1/fire/replay", json={"position": pos, "steps": [move]}).json()
    assert replayed["status"] == "win" and replayed["position"] == won["position"]


def test_fire_illegal_steps(client):
    r = client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": [{"reveal": bat(4)}]})
    assert r.status_code == 200
    body = r.json()
    assert body["steps"] == [] and body["status"] == "reveal"
    assert "steps[0]" in body["error"] and "no battery" in body["error"]
    r = client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": [{"reveal": bat(3)}, {"weapon": 3}]})
    assert len(r.json()["steps"]) == 1 and "steps[1]" in r.json()["error"]
    # A move where a reveal is due, and a strategy move with nothing revealed.
    assert_problem(client.post("/v1/fire/apply", json={"position": FIRE_SMALL, "move": {"weapon": 0}}), 422,
                   "no battery is revealed")
    assert_problem(client.post("/v1/fire/strategy-move", json={"position": FIRE_SMALL}), 422,
                   "no battery is revealed")


def test_fire_strategy_plays_a_game_that_replays(client):
    position = FIRE_SMALL
    steps = []
    status = "reveal"
    for _ in range(200):
        if status in ("win", "loss"):
            break
        if status == "reveal":
            draw = client.post("/v1/fire/check", json={"position": position}).json()["position"]["draw"]
            step = {"reveal": draw[0]}
            body = client.post("/v1/fire/replay", json={"position": position, "steps": [step]}).json()
            assert body["error"] is None
            position, status = body["position"], body["status"]
        else:
            r = client.post("/v1/fire/strategy-move", json={"position": position})
            assert r.status_code == 200, r.text
            step = r.json()
            assert set(step) == {"weapon", "target", "destroy"}  # the spec's move shape
            after = client.post("/v1/fire/apply", json={"position": position, "move": step}).json()
            position, status = after["position"], after["status"]
        steps.append(step)
    assert status in ("win", "loss")
    replayed = client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": steps}).json()
    assert replayed["error"] is None and replayed["status"] == status
    assert replayed["position"] == position


def test_fire_levels(client, fire_levels):
    assert set(fire_levels) == {"solo-1", "team-1"}
    solo, team = fire_levels["solo-1"], fire_levels["team-1"]
    for entry in (solo, team):
        assert entry["level"]["assumptions"] and any("crosshairs" in a for a in entry["level"]["assumptions"])
        assert len(entry["position"]["aliens"]) == 5
        assert entry["position"]["order_known"] is False
    assert "mode" not in solo["position"] and len(solo["position"]["weapons"]) == 3  # solo: the spec's shape
    assert sorted(b["energy"] for b in solo["position"]["draw"]) == [1] * 5 + [2] * 4 + [3] * 3 + [4] * 2 + [5]
    assert team["position"]["mode"] == "team" and len(team["position"]["players"]) == 2
    for player in team["position"]["players"]:
        assert len(player["weapons"]) == 2 and len(player["draw"]) == 10 and player["exchanges"] == 2

    small = client.get("/v1/fire/levels", params={"aliens": 2, "seed": 7}).json()["levels"]
    for entry in small:
        assert len(entry["position"]["aliens"]) == 2 and entry["position"]["order_known"] is True
    # A known order reveals by itself: the first battery of the draw pile.
    solo_known = small[0]["position"]
    checked = client.post("/v1/fire/check", json={"position": solo_known}).json()
    assert checked["status"] == "decision" and checked["position"]["revealed"] == solo_known["draw"][0]
    for bad in ({"aliens": 0}, {"aliens": 6}, {"aliens": "two"}, {"seed": -1}):
        assert_problem(client.get("/v1/fire/levels", params=bad), 422, f"query.{next(iter(bad))}")


def test_fire_team_give(client, fire_levels):
    start = fire_levels["team-1"]["position"]
    start = {**start, "aliens": start["aliens"][:1]}
    body = client.post("/v1/fire/replay", json={"position": start, "steps": [{"reveal": bat(4)}]}).json()
    assert body["error"] is None and body["status"] == "decision"
    decision = body["position"]
    moves = client.post("/v1/fire/check", json={"position": decision}).json()["moves"]
    assert {"give": True} in moves
    after = client.post("/v1/fire/apply", json={"position": decision, "move": {"give": True}}).json()
    assert after["status"] == "decision"
    p = after["position"]
    assert p["turn"] == 1 and p["revealed"] == bat(4, 1)
    assert [pl["exchanges"] for pl in p["players"]] == [1, 2]
    r = client.post("/v1/fire/strategy-move", json={"position": p})
    assert r.status_code == 200 and set(r.json()) in ({"give"}, {"weapon", "target", "destroy"})
    hint = client.post("/v1/fire/hint", json={"position": p, "limit": {"seconds": 0.2}}).json()
    assert hint["moves"]
    for c in hint["moves"]:
        assert_value(c)


FIRE_BAD_POSITIONS = [
    ({**FIRE_SMALL, "weapons": [[bat(5), bat(5)], []]}, ["weapons[0]", "10 energy"]),
    ({**FIRE_SMALL, "weapons": [[bat(6)], []]}, ["body.position.weapons.0.0.energy", "less than or equal to 5"]),
    ({**FIRE_SMALL, "aliens": []}, ["body.position.aliens", "at least 1"]),
    ({**FIRE_SMALL, "colour": 2}, ["body.position.colour", "Extra inputs"]),
    ({"mode": "team", "aliens": FIRE_SMALL["aliens"]}, ["body.position", "players"]),
    ({**FIRE_SMALL, "mode": "team"}, ["body.position", "players"]),
    ({**FIRE_SMALL, "aliens": [{"strengths": [9, 7, 4]}]}, ["body.position.aliens.0.strengths"]),
    ({**FIRE_SMALL, "aliens": [{"strengths": [9, 7, 4, 0]}]}, ["body.position.aliens.0", "strengths must be"]),
    ({**FIRE_SMALL, "draw": []}, ["batteries", "1..20"]),
    ({**FIRE_SMALL, "revealed": {"energy": 2, "crosshairs": 10}}, ["body.position.revealed.crosshairs"]),
]


@pytest.mark.parametrize("position, needles", FIRE_BAD_POSITIONS,
                         ids=["ten-energy", "energy-6", "no-aliens", "unknown-key", "team-no-players",
                              "team-solo-piles", "three-strengths", "strength-0", "no-batteries", "crosshairs-10"])
@pytest.mark.parametrize("path", ["solve", "hint", "check", "apply", "replay", "strategy-move"])
def test_fire_invalid_positions_name_the_field(client, path, position, needles):
    extra = {"move": {"weapon": 0}} if path == "apply" else {"steps": []} if path == "replay" else {}
    assert_problem(client.post(f"/v1/fire/{path}", json={"position": position, **extra}), 422, *needles)


@pytest.mark.parametrize(
    "body, needles",
    [
        ({"position": FIRE_DECISION, "move": {"target": 0}}, ["body.move", "needs a weapon"]),
        ({"position": FIRE_DECISION, "move": {"give": True, "weapon": 0}}, ["body.move", "give move"]),
        ({"position": FIRE_DECISION, "move": {"weapon": 4}}, ["body.move.weapon"]),
        ({"position": FIRE_DECISION, "move": {"weapon": 0, "fire": True}}, ["body.move.fire", "Extra inputs"]),
        ({"position": FIRE_DECISION}, ["body.move", "Field required"]),
    ],
)
def test_fire_bad_moves(client, body, needles):
    assert_problem(client.post("/v1/fire/apply", json=body), 422, *needles)


@pytest.mark.parametrize(
    "steps, needles",
    [
        ([{"weapon": 9}], ["body.steps.0.move.weapon"]),
        ([{"reveal": {"energy": 7}}], ["body.steps.0.reveal.reveal.energy", "less than or equal to 5"]),
        ([{"reveal": bat(1)}, {"foo": 1}], ["body.steps.1.move.foo", "Extra inputs"]),
        (["x"], ["body.steps.0.move"]),
        ("many", ["body.steps", "list"]),
    ],
)
def test_fire_bad_replay_steps(client, steps, needles):
    assert_problem(client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": steps}), 422, *needles)


def test_fire_engine_rejects_an_illegal_move(client):
    # Weapon 1 does not fire with the 3, so it takes no target.
    r = client.post("/v1/fire/apply", json={"position": FIRE_DECISION,
                                            "move": {"weapon": 1, "target": 0, "destroy": bat(3)}})
    assert_problem(r, 422, "move")


def test_fire_hostile_bodies_are_refused_quickly(client):
    start = time.monotonic()
    huge = [
        ({**FIRE_SMALL, "aliens": [{"strengths": [9, 7, 4, 3]}] * 10_000}, "body.position.aliens"),
        ({**FIRE_SMALL, "draw": [bat(1)] * 10_000}, "body.position.draw"),
        ({**FIRE_SMALL, "weapons": [[]] * 10_000}, "body.position.weapons"),
        ({**FIRE_SMALL, "weapons": [[bat(1)] * 10_000, []]}, "body.position.weapons.0"),
        ({"mode": "team", "aliens": FIRE_SMALL["aliens"], "players": [{"weapons": [[]]}] * 1000},
         "body.position.players"),
    ]
    for position, needle in huge:
        assert_problem(client.post("/v1/fire/solve", json={"position": position}), 422, needle, "at most")
    steps = [{"reveal": bat(1)}] * (MAX_STEPS + 1)
    assert_problem(client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": steps}), 422,
                   "body.steps", "at most")
    big = {**FIRE_SMALL, "aliens": [{"strengths": [10**30, 1, 1, 1]}]}
    assert_problem(client.post("/v1/fire/check", json={"position": big}), 422, "body.position.aliens.0")
    assert time.monotonic() - start < 10


def test_fire_time_cap_leaves_an_interval_and_no_headline(fire_levels):
    full = fire_levels["solo-1"]["position"]
    with server(max_seconds=0.3, grace_seconds=0.2) as c:
        for path in ("solve", "hint"):
            result = search_past_the_time_cap(c, f"/v1/fire/{path}", {"position": full})
            assert result["exact"] is False
            lo, hi = result["interval"]
            assert 0 <= lo < hi <= 1 and result["win_probability"] is None  # no headline unless exact
            assert result["stats"]["table_bytes"] <= MB * 2**20


def test_page_has_the_fire_view(client):
    js = client.get("/static/games/fire.js").text
    for path in ("/v1/fire/levels", "/v1/fire/hint", "/v1/fire/solve", "/v1/fire/check", "/v1/fire/apply",
                 "/v1/fire/replay", "/v1/fire/strategy-move"):
        assert path in js


def test_replay_takes_its_steps_as_line_like_every_game_and_as_steps_as_before(client):
    steps = [{"reveal": bat(3)}, {"weapon": 0}]
    as_line = client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "line": steps})
    as_steps = client.post("/v1/fire/replay", json={"position": FIRE_SMALL, "steps": steps})
    assert as_line.status_code == as_steps.status_code == 200, as_line.text
    assert as_line.json() == as_steps.json() and len(as_line.json()["steps"]) == 2


def test_a_fire_job_streams_the_interval_it_has_proved():
    # Live progress (issue 19): a solve's proved bounds as they narrow, each
    # holding the value the answer proves in the end. Three aliens on 16
    # cards outlast the 3 s limit on a fast machine too (two aliens were
    # solved by the policy pass alone on CI, before the main search noted
    # anything).
    from service_support import events

    level = fire.levels.default_level1()
    position = level.position(aliens=3).model_copy(update={"draw": level.deck[:16]}).model_dump(mode="json")
    job = {"game": "fire", "operation": "solve", "request": {"position": position, "limit": {"seconds": 3}}}
    with server() as c:
        r = c.post("/v1/jobs", json=job)
        assert r.status_code == 202, r.text
        seen = events(c, f"/v1/jobs/{r.json()['id']}/events")
    assert seen[-1][0] == "end" and seen[-1][1]["state"] == "done"
    lo, hi = seen[-1][1]["result"]["interval"]
    shown = [data["progress"]["interval"] for name, data in seen if name == "progress" and data["progress"]["interval"]]
    assert shown, seen
    for a, b in shown:  # two proved intervals of one value overlap
        assert 0 <= a <= b <= 1 and a <= hi + 1e-9 and lo <= b + 1e-9, (a, b, lo, hi)


def test_a_symmetric_position_is_served_from_the_cache(tmp_path):
    # The same game with the aliens, the weapons and the hidden draw listed
    # in another order: one cache entry (its answer names no index).
    position = {"aliens": [{"strengths": [9, 7, 4, 3]}, {"strengths": [5, 4, 2, 1], "hits": 1}],
                "weapons": [[bat(3), bat(1)], [], [bat(2)]], "draw": [bat(1), bat(2), bat(3), bat(5)]}
    other = {"aliens": position["aliens"][::-1], "weapons": [[bat(2)], [bat(1), bat(3)], []],
             "draw": position["draw"][::-1]}
    with server(cache=str(tmp_path / "c.sqlite3")) as c:
        first = c.post("/v1/fire/solve", json={"position": position}).json()
        second = c.post("/v1/fire/solve", json={"position": other}).json()
        assert (first["cached"], second["cached"]) == (False, True)
        assert second["win_probability"] == first["win_probability"] is not None
        # A hint names weapons and aliens by index: each order has its own.
        hints = [c.post("/v1/fire/hint", json={"position": p}).json()["cached"] for p in (position, other, position)]
        assert hints == [False, False, True]

