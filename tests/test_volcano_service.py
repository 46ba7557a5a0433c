"""Volcano!'s answers through the service: its routes, its validation of a
layout, and its page view. What the service does for every game is in
tests/test_service.py and tests/contract."""

from __future__ import annotations

import time

import pytest

from service_support import assert_problem, server
from volcano_positions import fl, pos

E, NE, NW, W, SW, SE = range(6)


@pytest.fixture(scope="module")
def seed3(client):
    r = client.post("/v1/volcano/generate", json={"seed": 3})
    assert r.status_code == 200, r.text
    return r.json()["position"]


# A row of two east of the volcano: (1,0) n=3 (2 spaces), (2,0) n=1 (1 space).
ROW = pos([(1, 0, 3), (2, 0, 1)])
# A small triangle-ish layout around the volcano.
SMALL = pos([(1, 0, 2), (1, -1, 1), (0, 1, 3), (-1, 1, 1)])


@pytest.mark.parametrize("position", [ROW, SMALL], ids=["row", "small"])
def test_solve_small_free_layout_and_replay_its_line(client, position):
    r = client.post("/v1/volcano/solve", json={"position": position})
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["verdict"] == "win"
    assert result["stats"]["stopped_by"] is None
    replay = client.post("/v1/volcano/replay", json={"position": position, "line": result["line"]})
    assert replay.status_code == 200, replay.text
    assert replay.json()["status"] == "win"
    assert replay.json()["error"] is None
    assert replay.json()["position"]["tiles"] == []


def test_hint_small(client):
    r = client.post("/v1/volcano/hint", json={"position": ROW, "limit": {"seconds": 2}})
    assert r.status_code == 200, r.text
    moves = r.json()["moves"]
    assert moves and moves[0]["value"] == "win"
    order = {"win": 0, "unknown": 1, "loss": 2}
    assert [order[m["value"]] for m in moves] == sorted(order[m["value"]] for m in moves)


def test_check_small(client):
    r = client.post("/v1/volcano/check", json={"position": ROW})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "ongoing"
    assert body["supply_total"] == 48
    legal = {(f["color"], *f["tile"], f["dir"]) for c in body["moves"] for f in [c["flight"], *c["equivalent"]]}
    assert (0, 2, 0, NE) in legal
    assert (0, 2, 0, W) not in legal  # the plane's cell (1,0) holds a tile


def test_replay_one_flight_and_illegal_flight(client):
    r = client.post("/v1/volcano/replay", json={"position": ROW, "line": [fl(0, 2, 0, NE)]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "ongoing" and body["error"] is None
    step = body["steps"][0]
    assert step["dropped"] == 1 and step["extinguished"] == [[2, 0]]
    assert body["position"]["supply"] == [11, 12, 12, 12]

    r = client.post("/v1/volcano/replay", json={"position": ROW, "line": [fl(0, 1, 0, E)]})
    assert r.status_code == 200
    assert r.json()["steps"] == [] and "not empty" in r.json()["error"]


def test_generate_seed3_solves_and_replays_to_win(client, seed3):
    assert len(seed3["tiles"]) == 35
    again = client.post("/v1/volcano/generate", json={"seed": 3, "solvable": False, "rate": False}).json()
    assert again["position"] == seed3  # deterministic
    r = client.post("/v1/volcano/solve", json={"position": seed3, "limit": {"seconds": 10}})
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["verdict"] == "win"
    replay = client.post("/v1/volcano/replay", json={"position": seed3, "line": result["line"]}).json()
    assert replay["status"] == "win" and replay["error"] is None
    assert client.post("/v1/volcano/check", json={"position": seed3}).json()["status"] == "ongoing"
    hint = client.post("/v1/volcano/hint", json={"position": seed3, "limit": {"seconds": 3}}).json()
    assert hint["moves"][0]["value"] == "win"


@pytest.mark.scale  # each generated layout solved in full
def test_generate_solvable_rated():
    # A node limit, so the rating finishes on a slow build too (it takes
    # about 335,000 nodes; the sanitizer build is several times slower).
    with server(max_seconds=300) as c:
        r = c.post("/v1/volcano/generate", json={"seed": 3, "solvable": True, "rate": True,
                                                 "limit": {"nodes": 5_000_000}})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["verdict"] == "win" and body["line"]
    assert body["difficulty"] is not None and 0 <= body["difficulty"]["winning_share"] <= 1

# ----------------------------------------------------------- hostile input


def with_tiles(base, tiles):
    return {**base, "tiles": tiles}


# A bad limit, an unknown key and no position are every game's
# (tests/test_service.py); these are the layout's own fields.
@pytest.mark.parametrize(
    "body, needles",
    [
        ({"position": with_tiles(ROW, [{"q": 1, "r": 0, "n": 9}])},
         ["body.position.tiles.0.n", "less than or equal to 6"]),
        ({"position": with_tiles(ROW, [{"q": 1, "r": 0, "n": "three"}])}, ["body.position.tiles.0.n", "integer"]),
        ({"position": with_tiles(ROW, [{"q": 1, "r": 0, "n": 3, "pawns": -1}])}, ["body.position.tiles.0.pawns"]),
        ({"position": {**ROW, "supply": [12, -1]}}, ["body.position.supply.1", "greater than or equal to 0"]),
        ({"position": {**ROW, "supply": []}}, ["body.position.supply"]),
        ({"position": {**ROW, "volcano": {"q": "x", "r": 0}}}, ["body.position.volcano.q"]),
        ({"position": with_tiles(ROW, [{"q": 1, "r": 0, "n": 3, "colour": 2}])},
         ["body.position.tiles.0.colour", "Extra inputs"]),
        ({"position": {**ROW, "tiles": "many"}}, ["body.position.tiles", "list"]),
    ],
)
def test_bad_bodies_name_the_field(client, body, needles):
    assert_problem(client.post("/v1/volcano/solve", json=body), 422, *needles)


@pytest.mark.parametrize(
    "position, needle",
    [
        (pos([(1, 0, 1, 2)]), "tile at (1, 0): pawns 2 must be 0..1"),  # pawns > spaces
        (pos([(1, 0, 3), (1, 0, 2)]), "tile at (1, 0) appears twice"),
        (pos([(1, 0, 3), (5, 0, 2)]), "tile at (5, 0) is not connected"),
        (pos([(0, 0, 3), (1, 0, 2)]), "tile at (0, 0) is on the volcano"),
        ({**pos([(1, 0, 3)]), "setup": "standard"}, "standard layout has 35 forest tiles"),
    ],
    ids=["pawns>spaces", "duplicate", "disconnected", "on-volcano", "standard"],
)
@pytest.mark.parametrize("path", ["solve", "hint", "check", "replay"])
def test_engine_rejections_name_the_cell(client, position, needle, path):
    body = {"position": position, **({"line": []} if path == "replay" else {})}
    assert_problem(client.post(f"/v1/volcano/{path}", json=body), 422, needle)


def test_ten_thousand_tiles_rejected_quickly(client):
    tiles = [{"q": i % 100, "r": i // 100, "n": 1} for i in range(10_000)]
    start = time.monotonic()
    r = client.post("/v1/volcano/solve", json={"position": with_tiles(ROW, tiles)})
    assert time.monotonic() - start < 10
    assert_problem(r, 422, "body.position.tiles", "at most")


def test_wrong_shapes_elsewhere(client):
    assert_problem(client.post("/v1/volcano/generate", json={"seed": -1}), 422, "body.seed")
    assert_problem(client.post("/v1/volcano/generate", json={"seed": 2**64}), 422, "body.seed")
    assert_problem(client.post("/v1/volcano/generate", json={"seed": 1.5}), 422, "body.seed")
    assert_problem(client.post("/v1/volcano/generate", json={}), 422, "body.seed", "Field required")
    assert_problem(client.post("/v1/volcano/replay", json={"position": ROW}), 422, "body.line")
    assert_problem(client.post("/v1/volcano/replay", json={"position": ROW, "line": [{"color": 0, "tile": [1], "dir": 0}]}),
                   422, "body.line.0.tile")
    assert_problem(client.post("/v1/volcano/replay", json={"position": ROW, "line": [fl(0, 1, 0, 6)]}),
                   422, "body.line.0.dir")
    assert_problem(client.post("/v1/volcano/replay", json={"position": ROW, "line": [fl(99, 1, 0, 0)]}),
                   422, "body.line.0.color")


# ------------------------------------------------------------------ page


def test_page_has_the_volcano_view(client):
    js = client.get("/static/games/volcano.js").text
    for path in ("/v1/volcano/generate", "/v1/volcano/hint", "/v1/volcano/solve",
                 "/v1/volcano/check", "/v1/volcano/replay"):
        assert path in js
