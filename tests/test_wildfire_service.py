"""Wild Fire!'s answers through the service: solves, hints known and
hidden, its validation, the hint's samples cap, and its page view and
examples. What the service does for every game is in tests/test_service.py
and tests/contract."""

from __future__ import annotations

import json
import re
import time

import pytest

import wildfire_reference as wf_ref
from service_support import assert_problem, server
from smokejumper import wildfire
from smokejumper.service.app import STATIC_DIR


def page_examples(module_text: str) -> list[dict]:
    """The example positions of the page's Wild Fire! view (strict JSON in its module)."""
    found = re.search(r"^const EXAMPLES = (\[.*?^\]);$", module_text, re.MULTILINE | re.DOTALL)
    assert found, "games/wildfire.js has no EXAMPLES"
    return json.loads(found.group(1))


WF_EXAMPLES = {e["name"]: e["position"] for e in page_examples((STATIC_DIR / "games" / "wildfire.js").read_text())}
# Five tiles, two colours of two pawns: won, and every move of the first
# turn is solved at once.
WF_DEAL = {"deal": [{"n": 1}, {"n": 5}, {"n": 3}, {"n": 1}, {"n": 2}], "level": 1, "supply": [2, 2]}
WF_SMALL = WF_EXAMPLES["Small deal (known order)"]
WF_HIDDEN = WF_EXAMPLES["Mid-game (hidden order, tile drawn)"]


def move_key(m: dict) -> str:
    return json.dumps(m, sort_keys=True)


def without_drawn(position: dict) -> dict:
    return {k: v for k, v in position.items() if k != "drawn"}


def wf_shares_best_first(choices: list[dict], moves: list[dict]) -> list[float]:
    """A hint's choices are the legal moves, once each, best first: their win shares."""
    assert sorted(move_key(c["move"]) for c in choices) == sorted(move_key(m) for m in moves)
    shares = [c["value"] for c in choices]
    assert shares == sorted(shares, reverse=True)
    return shares


@pytest.mark.parametrize("position", [WF_DEAL, WF_SMALL], ids=["five-tiles", "small-example"])
def test_wildfire_solve_returns_a_line_that_replays_to_a_win(client, position):
    r = client.post("/v1/wildfire/solve", json={"position": position, "limit": {"seconds": 10}})
    assert r.status_code == 200, r.text
    result = r.json()
    assert list(result) == ["verdict", "line", "stats", "limits", "cached"]
    assert result["verdict"] == "win" and result["stats"]["stopped_by"] is None
    line = result["line"]
    assert len(line) == len(position["deal"]) - 1
    replay = client.post("/v1/wildfire/replay", json={"position": position, "line": line})
    assert replay.status_code == 200, replay.text
    body = replay.json()
    assert body["status"] == "win" and body["error"] is None and len(body["steps"]) == len(line)
    # The independent reference agrees, move by move.
    played = position
    for move in line:
        played = wf_ref.apply(played, move)
    assert wf_ref.is_won(played)


def test_wildfire_check_lists_the_reference_moves(client):
    r = client.post("/v1/wildfire/check", json={"position": WF_DEAL})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "ongoing" and body["turn"] == 0 and body["turns_left"] == 4
    assert sorted(map(tuple, body["hottest"])) == sorted((dq, dr) for dq, dr in wf_ref.DIRECTIONS)
    assert body["position"]["deal_rest"][0] == {"n": 5, "spaces": 3}  # spaces written out
    assert [move_key(m) for m in body["moves"]] == [move_key(m) for m in wf_ref.legal_moves(WF_DEAL)]


def test_wildfire_replay_stops_at_an_illegal_move(client):
    first = {"place": [1, 0], "pawns": {"color": 0, "tile": [0, 0], "count": 1}}
    bad = {"place": [5, 5], "pawns": None}
    r = client.post("/v1/wildfire/replay", json={"position": WF_DEAL, "line": [first, bad]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert len(body["steps"]) == 1 and body["status"] == "ongoing"
    assert "move 1" in body["error"] and "(5, 5) is not a hottest cell" in body["error"]
    assert body["position"] == body["steps"][0]["position"]


def test_wildfire_hint_known_order_gives_every_move_its_verdict(client):
    moves = client.post("/v1/wildfire/check", json={"position": WF_DEAL}).json()["moves"]
    r = client.post("/v1/wildfire/hint", json={"position": WF_DEAL})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["exact"] is True and hint["stats"]["stopped_by"] is None
    choices = hint["moves"]
    shares = wf_shares_best_first(choices, moves)
    assert shares[0] == 1.0 and shares[-1] == 0.0
    # Each verdict is the solve of the position after the move.
    for c in choices:
        after = client.post("/v1/wildfire/replay", json={"position": WF_DEAL, "line": [c["move"]]}).json()
        verdict = client.post("/v1/wildfire/solve", json={"position": after["position"]}).json()["verdict"]
        assert (c["wins"], c["losses"]) == ((1, 0) if verdict == "win" else (0, 1)), c


def test_wildfire_hint_hidden_order_samples_every_move(client):
    checked = client.post("/v1/wildfire/check", json={"position": WF_HIDDEN})
    assert checked.status_code == 200, checked.text
    moves = checked.json()["moves"]
    assert moves == wf_ref.legal_moves(without_drawn(WF_HIDDEN), tile=WF_HIDDEN["drawn"])
    body = {"position": WF_HIDDEN, "samples": 8, "seed": 5}
    r = client.post("/v1/wildfire/hint", json=body)
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["exact"] is False and hint["seed"] == 5 and hint["drawn"]["n"] == WF_HIDDEN["drawn"]["n"]
    assert hint["samples"] == hint["samples_requested"] == 8
    choices = hint["moves"]
    wf_shares_best_first(choices, moves)
    for c in choices:
        assert c["wins"] + c["losses"] + c["unknown"] == 8
        lo, hi = c["interval95"]
        assert 0 <= lo <= c["win_share"] <= hi <= 1
    # Same position, samples and seed: the same answer.
    again = client.post("/v1/wildfire/hint", json=body).json()
    assert again["moves"] == choices


def test_wildfire_hint_needs_a_drawn_tile(client):
    assert_problem(client.post("/v1/wildfire/hint", json={"position": without_drawn(WF_HIDDEN)}), 422, "drawn")


WF_BAD_BODIES = [
    ({"position": {"deal": [{"n": 7}]}}, ["body.position.deal.0.n", "less than or equal to 6"]),
    ({"position": {**WF_DEAL, "start": {"n": 1}}}, ["body.position", "exactly one of"]),
    ({"position": {**WF_DEAL, "colour": 1}}, ["body.position.colour", "Extra inputs"]),
    ({"position": {**WF_DEAL, "supply": [1, 1, 1, 1, 1]}}, ["body.position.supply", "at most 4"]),
    ({"position": {**WF_DEAL, "supply": [-1]}}, ["body.position.supply.0"]),
    ({"position": {"tiles": [{"q": 0, "r": 0, "n": 1}, {"q": 3, "r": 0, "n": 1}], "turn": 1, "deal_rest": []}},
     ["tiles[1] at (3, 0)", "not connected"]),
    ({"position": {"tiles": [{"q": 0, "r": 0, "n": 1, "spaces": 1, "pawns": [2]}], "turn": 0, "deal_rest": [],
                   "supply": [1]}}, ["tiles[0]"]),
    ({"position": {**WF_DEAL, "drawn": {"n": 1}}}, ["body.position", "drawn", "not allowed"]),
]


# A bad limit, an unknown key and no position are every game's
# (tests/test_service.py); these are the deal's own.
@pytest.mark.parametrize("body, needles", WF_BAD_BODIES,
                         ids=["number-7", "two-forms", "unknown-key", "five-colours", "negative-supply",
                              "disconnected", "pawns>spaces", "drawn-known"])
@pytest.mark.parametrize("path", ["solve", "hint", "check", "replay"])
def test_wildfire_bad_input_names_the_field(client, path, body, needles):
    if path == "replay":
        body = {"line": [], **body}
    assert_problem(client.post(f"/v1/wildfire/{path}", json=body), 422, *needles)


def test_wildfire_bad_requests_elsewhere(client):
    hidden_start = {"start": {"n": 1}, "pool": [{"n": 2}], "turns": 1, "supply": [1]}
    assert_problem(client.post("/v1/wildfire/solve", json={"position": hidden_start}), 422, "known-order")
    for samples in (0, -1, 2.5, "many"):
        assert_problem(client.post("/v1/wildfire/hint", json={"position": WF_DEAL, "samples": samples}), 422,
                       "body.samples")
    assert_problem(client.post("/v1/wildfire/hint", json={"position": WF_DEAL, "seed": -1}), 422, "body.seed")
    assert_problem(client.post("/v1/wildfire/hint", json={"position": WF_HIDDEN, "drawn": {"n": 2}}), 422,
                   "body.drawn")
    # A drawn tile that is not in the pool.
    no_six = {**WF_HIDDEN, "pool": [t for t in WF_HIDDEN["pool"] if t["n"] != 6], "drawn": {"n": 6}}
    assert_problem(client.post("/v1/wildfire/check", json={"position": no_six}), 422, "drawn")
    line = [{"place": [1, 0], "pawns": None}] * (wildfire.MAX_TILES + 1)
    assert_problem(client.post("/v1/wildfire/replay", json={"position": WF_DEAL, "line": line}), 422,
                   "body.line", "at most")
    assert_problem(client.post("/v1/wildfire/replay", json={"position": WF_DEAL, "line": [{"place": [1]}]}), 422,
                   "body.line.0.place")
    bad_pawns = {"place": [1, 0], "pawns": {"color": 0, "tile": [0, 0], "count": 4}}
    assert_problem(client.post("/v1/wildfire/replay", json={"position": WF_DEAL, "line": [bad_pawns]}), 422,
                   "body.line.0.pawns.count")
    start = time.monotonic()
    huge = {"deal": [{"n": 1}] * 10_000}
    assert_problem(client.post("/v1/wildfire/solve", json={"position": huge}), 422, "body.position.deal", "at most")
    assert time.monotonic() - start < 10


def test_wildfire_hint_samples_are_held_to_the_cap():
    with server(max_hint_samples=3) as c:
        # Samples beyond the cap are clamped to it; the answer says how many were asked.
        r = c.post("/v1/wildfire/hint", json={"position": WF_HIDDEN, "samples": 10**6})
        assert r.status_code == 200, r.text
        hint = r.json()
        assert hint["samples_requested"] == 3 and hint["samples"] <= 3


def test_page_has_the_wildfire_view_and_its_examples_are_valid(client):
    js = client.get("/static/games/wildfire.js").text
    for path in ("/v1/wildfire/check", "/v1/wildfire/solve", "/v1/wildfire/hint", "/v1/wildfire/replay"):
        assert path in js
    examples = page_examples(js)
    assert [e["name"] for e in examples] == list(WF_EXAMPLES)
    forms = set()
    for e in examples:
        assert e["note"]
        checked = client.post("/v1/wildfire/check", json={"position": e["position"]})
        assert checked.status_code == 200, (e["name"], checked.text)
        assert checked.json()["status"] == "ongoing" and checked.json()["moves"], e["name"]
        forms |= {key for key in ("deal", "deal_rest", "drawn") if key in e["position"]}
    assert forms == {"deal", "deal_rest", "drawn"}
    # The hidden-order example's pool is the 43-tile box less the tiles on the table.
    table = sorted(t["n"] for t in WF_HIDDEN["tiles"])
    assert sorted(sorted(t["n"] for t in WF_HIDDEN["pool"]) + table) == list(wf_ref.BOX)

