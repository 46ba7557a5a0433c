"""Fire Tower's engine against the spec's exact legal-move counts (section
13: T1, T2, T3, the Level 7 start, the hawk follow-up, the enemy Bucket
tie), with the squares where the spec lists them; the set-up of every
level; records replayed; the numpy board; and bad input named."""

from __future__ import annotations

import json

import pytest

from firetower_positions import L7, T1, T2, T3, board, position, squares
from smokejumper import InvalidPositionError, Limit, firetower

WINDS = ["wind_n", "wind_e", "wind_s", "wind_w"]
DIAGONALS = {"NE": "wind_ne", "NW": "wind_nw", "SE": "wind_se", "SW": "wind_sw"}


def plays(rows: list[str], card: str, copies: int = 1, **kw) -> list[dict]:
    """The plays of `card` at the action on `rows` (the card alone in hand, with a discard to spare)."""
    state = firetower.check(position(rows, [card] * copies + ["ember"], **kw), max_moves=100_000)
    assert state.decision == "action"
    return [m for m in state.moves if m["type"] == "play" and m["card"] == card]


def count(rows: list[str], card: str, **kw) -> int:
    moves = plays(rows, card, **kw)
    return len([m for m in moves if not m.get("double")])


def decision_moves(pos: dict) -> list[dict]:
    state = firetower.check(pos, max_moves=100_000)
    return state.moves


# ------------------------------------------------------------ T1: the opening board
# Each T1 count is asked of the opening board and of the Level 7 start
# (its enemy firebreaks and hawks), where the spec says it is unchanged
# (section 13: only De/Reforest differs there, tested below).


@pytest.fixture(params=[(T1, 1), (L7, 7)], ids=["T1", "L7"])
def opening(request) -> dict:
    rows, level = request.param
    return {"rows": rows, "level": level}


@pytest.mark.parametrize("wind", "NESW")
def test_t1_wind_gem_has_two_squares(wind: str, opening: dict):
    moves = decision_moves(position(opening["rows"], ["ember"], phase="wind", wind=wind, level=opening["level"]))
    assert len(moves) == 2
    if wind == "N":
        assert squares(moves) == [[6, 7], [6, 8]]


@pytest.mark.parametrize("diagonal", ["NE", "NW", "SE", "SW"])
def test_t1_diagonal_wind_card_gem_has_three_squares(diagonal: str, opening: dict):
    moves = [m for m in plays(opening["rows"], DIAGONALS[diagonal], level=opening["level"]) if m["option"] == "gem"]
    assert len(moves) == 3
    if diagonal == "NE":
        assert squares(moves) == [[6, 8], [6, 9], [7, 9]]


@pytest.mark.parametrize("card, expected", [("flare_up", 40), ("burning_snag", 20), ("crown_fire", 28),
                                            ("explosion", 0), ("ember", 0), ("rolling_firebrand", 0),
                                            ("air_drop", 0), ("fire_engine", 0), ("smokejumper", 0),
                                            ("helitack", 0)])
def test_t1_card_counts(card: str, expected: int, opening: dict):
    assert count(opening["rows"], card, level=opening["level"]) == expected


def test_t1_crown_fire_pair_is_every_tetromino_but_the_t(opening: dict):
    doubles = [m for m in plays(opening["rows"], "crown_fire", copies=2, level=opening["level"]) if m.get("double")]
    assert len(doubles) == 192


def test_t1_creeping_fires_takes_three_of_four_disjoint_frontier_pairs(opening: dict):
    moves = plays(opening["rows"], "creeping_fires", level=opening["level"])
    assert len(moves) == 32 and all(len(m["squares"]) == 3 for m in moves)


def test_t1_de_reforest_adds_everywhere_but_the_flame_and_the_own_area():
    moves = plays(T1, "de_reforest")
    assert len([m for m in moves if m["option"] == "add"]) == 243
    assert not [m for m in moves if m["option"] == "remove"]


@pytest.mark.parametrize("card, expected", [("flare_up", 4), ("burning_snag", 2), ("explosion", 0)])
def test_t1_inferno_placements(card: str, expected: int, opening: dict):
    moves = decision_moves(position(opening["rows"], ["ember"], phase="inferno_place", revealed=card,
                                    level=opening["level"]))
    placements = [m for m in moves if m["type"] == "inferno"]
    assert len(placements) == expected
    if expected == 0:  # "An Explosion on your first turn will automatically trigger the penalty"
        assert moves == [{"storm": "N", "type": "penalty"}, {"storm": "W", "type": "penalty"}]


@pytest.mark.parametrize("card, gem", [("wind_n", [6, 7]), ("wind_w", [7, 6])])
def test_t1_inferno_storm_places_one_gem(card: str, gem: list[int], opening: dict):
    # The storm is the only move, so it is played on loading; its gem is on the board after.
    state = firetower.check(position(opening["rows"], ["ember", "ember"], phase="inferno_place", revealed=card,
                                     level=opening["level"]))
    assert state.decision == "wind"
    gems = [[r, c] for r, row in enumerate(state.board) for c, ch in enumerate(row) if ch == "F"]
    assert gems == [gem]


@pytest.mark.parametrize("direction", "NESW")
def test_t1_firestorm_places_two_gems(direction: str, opening: dict):
    # A discard, then the refill draws the Firestorm (known order): its die says the direction.
    start = position(opening["rows"], ["ember", "ember"], draw=["firestorm", "ember", "ember"],
                     level=opening["level"])
    state = firetower.check({"start": start, "events": [
        {"type": "discard", "cards": ["ember"]}, {"chance": "draw", "card": "firestorm"},
        {"chance": "draw", "card": "ember"}, {"chance": "die", "dir": direction}]})
    gems = [[r, c] for r, row in enumerate(state.board) for c, ch in enumerate(row) if ch == "F"]
    assert len(gems) == 2 and state.chance == "die"  # the new wind comes next


# ------------------------------------------------------------ T2: fire in the NW quadrant


@pytest.mark.parametrize("wind, expected", [("N", 6), ("E", 6), ("S", 7), ("W", 7)])
def test_t2_wind_gem(wind: str, expected: int):
    moves = decision_moves(position(T2, ["ember"], phase="wind", wind=wind, buckets={
        "NW": "used", "NE": "unused", "SW": "unused", "SE": "unused"}))
    assert len(moves) == expected
    if wind == "N":
        assert squares(moves) == [[1, 2], [3, 4], [5, 5], [6, 6], [6, 7], [6, 8]]


@pytest.mark.parametrize("diagonal, expected", [("NE", 11), ("NW", 5), ("SE", 5), ("SW", 11)])
def test_t2_diagonal_wind_card_gem(diagonal: str, expected: int):
    assert len([m for m in plays(T2, DIAGONALS[diagonal]) if m["option"] == "gem"]) == expected


@pytest.mark.parametrize("card, expected", [("flare_up", 94), ("burning_snag", 51), ("crown_fire", 64),
                                            ("explosion", 8), ("ember", 135), ("rolling_firebrand", 11),
                                            ("air_drop", 12), ("fire_engine", 14), ("smokejumper", 9),
                                            ("helitack", 45)])
def test_t2_card_counts(card: str, expected: int):
    assert count(T2, card) == expected


def test_t2_flare_up_pieces_at_a_firebreak():
    moves = [sorted(m["squares"]) for m in plays(T2, "flare_up")]
    for legal in ([[3, 4]], [[3, 1]], [[4, 5]], [[5, 5], [5, 6]], [[4, 5], [4, 6], [4, 7]]):
        assert legal in moves
    assert [[3, 5], [3, 6]] not in moves  # every line through both has a third placeable square


def test_t2_burning_snag_jumps_a_firebreak():
    assert [[4, 1], [4, 2], [5, 2]] in [m["squares"] for m in plays(T2, "burning_snag")]


def test_t2_crown_fire_pair():
    assert len([m for m in plays(T2, "crown_fire", copies=2) if m.get("double")]) == 327


def test_t2_creeping_fires():
    moves = plays(T2, "creeping_fires")
    assert len(moves) == 997 and all(len(m["squares"]) == 3 for m in moves)


def test_t2_explosion_fills_the_ring():
    moves = plays(T2, "explosion")
    assert sorted(m["center"] for m in moves) == [[2, 2], [3, 2], [4, 3], [4, 4], [5, 4], [6, 4], [6, 5], [7, 6]]
    played = firetower.apply(position(T2, ["explosion", "ember"]), {"type": "play", "card": "explosion",
                                                                    "center": [4, 3]})
    rows = played.board
    assert rows[4][3] == "#"
    assert all(rows[r][c] == "F" for r, c in ([3, 4], [4, 2], [5, 2], [5, 3]))


def test_t2_ember_per_source():
    moves = plays(T2, "ember")
    per = {}
    for m in moves:
        per[tuple(m["from"])] = per.get(tuple(m["from"]), 0) + 1
    assert per == {(3, 2): 19, (4, 3): 20, (4, 4): 18, (5, 4): 20, (6, 4): 18, (6, 5): 20, (7, 6): 20}


def test_t2_rolling_firebrand_moves():
    moves = sorted((tuple(map(tuple, m["pair"])), m["dir"]) for m in plays(T2, "rolling_firebrand"))
    assert moves == sorted([
        (((2, 2), (3, 2)), "N"), (((2, 2), (3, 2)), "W"), (((4, 3), (4, 4)), "E"), (((4, 3), (4, 4)), "W"),
        (((4, 4), (5, 4)), "N"), (((4, 4), (5, 4)), "E"), (((5, 4), (6, 4)), "S"), (((5, 4), (6, 4)), "W"),
        (((6, 4), (6, 5)), "S"), (((6, 4), (6, 5)), "E"), (((6, 4), (6, 5)), "W")])


def test_t2_rolling_firebrand_capture_by_a_hawk():
    # [4,3]-[4,4] rolling E: the gem from [4,4] is caught by the hawk on [4,6].
    state = firetower.apply(position(T2, ["rolling_firebrand", "ember"]),
                            {"type": "play", "card": "rolling_firebrand", "pair": [[4, 3], [4, 4]], "dir": "E"})
    assert state.decision == "hawk" and state.board[4][5] == "F" and state.board[4][6] == "X"


@pytest.mark.parametrize("card, expected", [("flare_up", 22), ("burning_snag", 12), ("explosion", 7)])
def test_t2_inferno_placements(card: str, expected: int):
    moves = decision_moves(position(T2, ["ember"], phase="inferno_place", revealed=card,
                                    buckets={"NW": "used", "NE": "unused", "SW": "unused", "SE": "unused"}))
    assert len(moves) == expected
    if card == "explosion":
        assert [7, 6] not in [m["center"] for m in moves]  # only 3 NW squares around it


@pytest.mark.parametrize("card, expected", [("wind_n", 5), ("wind_w", 6)])
def test_t2_inferno_storm(card: str, expected: int):
    before = sum(row.count("F") for row in T2)
    state = firetower.check(position(T2, ["ember", "ember"], phase="inferno_place", revealed=card,
                                     buckets={"NW": "used", "NE": "unused", "SW": "unused", "SE": "unused"}))
    assert sum(row.count("F") + row.count("X") for row in state.board) - before == expected


def test_t2_player_bucket():
    moves = decision_moves(position(T2, ["ember"], phase="end"))
    assert moves == [{"squares": [[2, 2], [3, 2]], "type": "bucket"}, {"squares": [[2, 2]], "type": "bucket"},
                     {"type": "end"}]


def test_t2_de_reforest():
    moves = plays(T2, "de_reforest")
    assert len([m for m in moves if m["option"] == "add"]) == 227
    assert len([m for m in moves if m["option"] == "remove"]) == 2


def test_t2_hawk_follow_up():
    """After the Flare Up {[4,5],[4,6],[4,7]}, the own hawk on [4,6] has 23
    destinations; 16 of them are in the NW quadrant (an enemy hawk's)."""
    state = firetower.apply(position(T2, ["flare_up", "ember"]),
                            {"type": "play", "card": "flare_up", "squares": [[4, 5], [4, 6], [4, 7]]})
    assert state.decision == "hawk"
    destinations = [m["to"] for m in state.moves]
    assert all(m["from"] == [4, 6] for m in state.moves)
    assert len(destinations) == 23
    assert len([d for d in destinations if d[0] < 8 and d[1] < 8]) == 16


# ------------------------------------------------------------ T3: the NE enemy Bucket


@pytest.mark.parametrize("card, expected", [("flare_up", 82), ("burning_snag", 48), ("ember", 50),
                                            ("rolling_firebrand", 3), ("air_drop", 4), ("helitack", 7)])
def test_t3_card_counts(card: str, expected: int):
    assert count(T3, card) == expected


def test_t3_enemy_bucket_tie_is_the_players_choice():
    # A wind gem far away; at the step's checks the NE Bucket ties between two lines.
    state = firetower.apply(position(T3, ["ember"], phase="wind"), {"type": "wind_gem", "square": [6, 7]})
    assert state.decision == "enemy_bucket"
    assert state.moves == [{"squares": [[1, 13], [2, 13], [3, 13]], "tower": "NE", "type": "enemy_bucket"},
                           {"squares": [[2, 12], [2, 13], [2, 14]], "tower": "NE", "type": "enemy_bucket"}]


# ------------------------------------------------------------ the Level 7 start


def test_level_7_start_is_the_spec_picture():
    start = firetower.new(level=7, seed=1).record.start
    assert start.board == L7
    assert start.buckets.NW == "none" and start.hand_size == 4


def test_level_7_de_reforest():
    moves = plays(L7, "de_reforest", level=7)
    assert len([m for m in moves if m["option"] == "add"]) == 186
    assert len([m for m in moves if m["option"] == "remove"]) == 18


# ------------------------------------------------------------ set-up, records, formats


@pytest.mark.parametrize("level", range(1, 8))
def test_every_levels_set_up(level: int):
    game = firetower.new(level=level, seed=level)
    start = game.record.start
    hand = {1: 6, 2: 6, 3: 5, 4: 5, 5: 4, 6: 4, 7: 4}[level]
    assert len(start.hand) == hand and "firestorm" not in start.hand
    assert sum(start.draw_pile.values()) + hand == 67 and start.draw_pile["firestorm"] == 1
    assert start.phase == "setup_hawk" and start.wind is None and game.decision == "setup_hawk"
    assert start.buckets.NW == ("none" if level >= 6 else "unused")
    # The own hawk: an empty NW-quadrant square outside the tower area and the Flame.
    assert all(m["square"][0] < 8 and m["square"][1] < 8 and not (m["square"][0] < 3 and m["square"][1] < 3)
               for m in game.moves)


def test_a_record_replays_to_every_position_it_passed():
    game = firetower.play(level=2, seed=5, policy="random")
    assert firetower.replay(game.record).ok
    # Position by position: replaying each prefix gives the state the whole replay passed through.
    record = game.record.model_dump(mode="json")
    seen = []
    for i in range(0, len(record["events"]) + 1, 7):
        state = firetower.check({"start": record["start"], "events": record["events"][:i]})
        if state.position is not None:
            seen.append(state.position.model_dump(mode="json"))
            again = firetower.check(state.position)  # a position read back is the same game
            assert again.position.model_dump(mode="json") == seen[-1]
    assert seen


def test_a_bad_event_is_named_with_its_index():
    game = firetower.play(level=1, seed=3, policy="random")
    record = game.record.model_dump(mode="json")
    record["events"].insert(4, {"type": "end"})
    r = firetower.replay(record)
    assert not r.ok and r.error.index == 4 and "not a legal" in r.error.reason or "chance" in r.error.reason
    with pytest.raises(InvalidPositionError, match=r"events\[4\]"):
        firetower.check(record)


def test_the_board_as_an_array():
    state = firetower.check(position(T2, ["ember"]))
    grid = firetower.board_array(state.record)
    assert grid.shape == (16, 16) and grid.dtype.name == "uint8"
    codes = {".": 0, "F": 1, "E": 2, "#": 3, "H": 4}
    assert grid.tolist() == [[codes[ch] for ch in row] for row in T2]


@pytest.mark.parametrize("change, where", [
    ({"board": board({0: "F"})}, "board"),
    ({"board": board({2: "..E"})}, "board[2]"),
    ({"hand": ["ember", "ember"]}, "hand + draw_pile + discard"),
    ({"inferno": {"deck": {"wind_n": 1}, "discard": [], "revealed": None, "penalty": False}}, "inferno"),
    ({"phase": "hawk"}, "phase"),
    ({"level": 8}, "level"),
])
def test_bad_positions_are_named(change: dict, where: str):
    bad = {**position(T1, ["ember"]), **change}
    with pytest.raises((InvalidPositionError, ValueError), match=where.replace("[", r"\[").replace("+", r"\+")):
        firetower.check(bad)


def test_a_move_that_is_not_legal_is_refused():
    with pytest.raises(InvalidPositionError, match="not a legal action move"):
        firetower.apply(position(T1, ["ember"]), {"type": "play", "card": "ember", "from": [7, 7], "to": [6, 7]})


def test_positions_round_trip_through_json():
    game = firetower.new(level=4, seed=9)
    text = json.dumps(game.record.start.model_dump(mode="json"))
    assert firetower.check(text).record.start == game.record.start


def test_a_game_state_passes_straight_back_in():
    """What new and apply answer is what a notebook hands to the next call."""
    game = firetower.new(level=2, seed=3)
    after = firetower.apply(game, game.moves[0])
    assert after.record.events[0] == game.moves[0]
    assert firetower.check(after) == after
    assert firetower.hint(after, Limit(nodes=8), workers=1).best in after.moves


def test_the_cli_replays_what_it_wrote(tmp_path):
    """`play --json` and `check --json` answers hold a record: replay and
    check read them as they are."""
    import subprocess
    import sys
    cli = [sys.executable, "-m", "smokejumper.cli"]
    played = subprocess.run(cli + ["play", "firetower", "--level", "2", "--seed", "4", "--policy", "random", "--json"],
                            capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    (tmp_path / "played.json").write_text(played.stdout)
    replayed = subprocess.run(cli + ["replay", "firetower", str(tmp_path / "played.json")], capture_output=True,
                              text=True, timeout=120)
    assert replayed.returncode == 0 and "events replayed" in replayed.stdout, replayed.stderr
    record = json.loads(played.stdout)["record"]
    record["events"].insert(3, {"type": "end"})
    (tmp_path / "bad.json").write_text(json.dumps(record))
    bad = subprocess.run(cli + ["replay", "firetower", str(tmp_path / "bad.json")], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 1 and "event 3" in bad.stdout
    # An event that is not even an object is a bad event too, judged in
    # its turn: one after it named first, the replay exits 1, not 2.
    record["events"].insert(20, "end")
    (tmp_path / "worse.json").write_text(json.dumps(record))
    bad = subprocess.run(cli + ["replay", "firetower", str(tmp_path / "worse.json")], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 1 and "event 3" in bad.stdout
    del record["events"][3]
    (tmp_path / "worse.json").write_text(json.dumps(record))
    bad = subprocess.run(cli + ["replay", "firetower", str(tmp_path / "worse.json")], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 1 and "event 19" in bad.stdout and "expected an object" in bad.stdout, bad.stdout



def test_every_answer_reports_challenges_off_and_the_datas_assumptions():
    # Spec section 3: "every answer reports "challenges":"off""; the
    # issue: the assumptions in every answer. The data file's own list.
    listed = json.loads(firetower.DATA_FILE.read_text())["assumptions"]
    assert listed
    game = firetower.new(level=2, seed=3)
    after = firetower.apply(game.record, game.moves[0], seed=3)
    answers = {
        "new": game, "check": firetower.check(game.record), "apply": after,
        "replay": firetower.replay(after.record),
        "hint": firetower.hint(after.record, Limit(nodes=16)),
        "play": firetower.play(level=1, seed=2, policy="random"),
        "analyse": firetower.analyse(1, 2, policy="random", workers=1),
    }
    for name, answer in answers.items():
        dumped = answer.model_dump(mode="json")
        assert dumped["challenges"] == "off" and dumped["assumptions"] == listed, name
