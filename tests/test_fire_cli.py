"""What ``smokejumper VERB fire`` answers: win probabilities, choices, the
words for batteries, Level 1 starts, and the steps it refuses
(tests/test_cli.py holds the command's contract for every game)."""

from __future__ import annotations

import json
import re

import pytest

from cli_support import assert_bad_input, assert_interrupts, assert_replay, run, run_json, write
from smokejumper import fire


def fire_level1(aliens: int, batteries: int) -> dict:
    """The default solo Level 1 with its first aliens and batteries."""
    deck = [{"energy": e, "crosshairs": 2 if e == 1 else 1} for e in (1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5)]
    return {"aliens": [{"strengths": [12, 9, 6, 3], "hits": 0}] * aliens, "weapons": [[], [], []],
            "draw": deck[:batteries], "order_known": False}


FIRE_LAST_SHOT = {  # one alien with 3 shown: weapon 0 at 9 energy fires with the 2 for (11-10) x 3 = 3
    "aliens": [{"strengths": [12, 9, 6, 3], "hits": 3}],
    "weapons": [[{"energy": 4}, {"energy": 5}], [], []],
    "draw": [{"energy": 1}], "revealed": {"energy": 2},
}
WIN_LINE = [{"weapon": 0, "target": 0, "destroy": None}]  # the last shot

FIRE_DESTROY = {  # weapon 0 holds 9, so the 3 fires it; every battery on it may be destroyed
    "aliens": [{"strengths": [12, 9, 6, 3], "hits": 0}],
    "weapons": [[{"energy": 5}, {"energy": 3}, {"energy": 1}], [], []],
    "draw": [{"energy": 2}, {"energy": 4}, {"energy": 1}], "revealed": {"energy": 3},
}

FRACTION = re.compile(r"\d+/\d+ crosshair")


@pytest.fixture(scope="module")
def fire_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("fire")
    out = {}
    for name, position in {"won": fire_level1(1, 11), "close": fire_level1(1, 10), "last": FIRE_LAST_SHOT}.items():
        out[name] = write(d / f"{name}.json", position)
    out["win_line"] = write(d / "win_line.json", WIN_LINE)
    out["no_win_line"] = write(d / "no_win_line.json", [{"weapon": 1, "target": None, "destroy": None}])
    out["bad"] = write(d / "bad.json", {**FIRE_LAST_SHOT, "weapons": [[{"energy": 5}, {"energy": 5}], [], []]})
    return out


@pytest.fixture(scope="module")
def level1(tmp_path_factory):
    """The default solo Level 1, hidden order (`generate fire` writes the same;
    won for certain, proved in about 10 s: long enough to interrupt)."""
    path = tmp_path_factory.mktemp("level1") / "level1.json"
    return write(path, fire.levels.default_level1().position().model_dump_json())


# ---------------------------------------------------------------- solve, hint, analyse

def test_solve_fire_json_says_won_for_certain(fire_files):
    out = run_json("solve", "fire", fire_files["won"], "--max-seconds", 30)
    assert set(out) == {"win_probability", "exact", "interval", "won_for_certain", "stats"}
    assert out["won_for_certain"] is True and out["exact"] is True
    assert out["win_probability"] == 1.0 and out["interval"] == [1.0, 1.0]
    close = run_json("solve", "fire", fire_files["close"], "--max-seconds", 30)
    assert close["won_for_certain"] is False and close["exact"] is True
    assert close["win_probability"] == pytest.approx(0.738609395104, abs=1e-9)


def test_solve_fire_text_says_whether_it_is_won_whatever_the_reveals(fire_files):
    res = run("solve", "fire", fire_files["won"], "--max-seconds", 30)
    assert res.returncode == 0 and res.stderr == ""
    assert "win probability: 1.000000000" in res.stdout and "won whatever the reveals: yes" in res.stdout


def test_hint_fire_lists_choices_best_first(fire_files):
    out = run_json("hint", "fire", fire_files["last"], "--max-seconds", 30)
    values = [c["win_probability"] for c in out["moves"]]
    assert values == sorted(values, reverse=True) and values[0] == 1.0
    assert out["moves"][0]["move"] == {"weapon": 0, "target": 0, "destroy": None}


def test_analyse_fire_compares_optimal_with_the_fixed_strategy():
    out = run_json("analyse", "fire", "--aliens", 1, "--games", 200, "--max-seconds", 30)
    assert out["optimal"]["won_for_certain"] is True and out["optimal"]["win_probability"] == 1.0
    assert 0 < out["strategy"]["win_probability"] < 1 and out["strategy"]["games"] == 200


def test_fire_batteries_read_as_energy_and_crosshairs_not_a_fraction(tmp_path, level1):
    path = write(tmp_path / "destroy.json", FIRE_DESTROY)
    res = run("hint", "fire", path, "--max-seconds", 10)
    assert res.returncode == 0, res.stderr
    assert "destroy battery (energy 1, 2 crosshairs)" in res.stdout
    assert "destroy battery (energy 5, 1 crosshair)" in res.stdout
    reveals = run("hint", "fire", level1, "--max-nodes", 2000)
    assert "if battery (energy 1, 2 crosshairs) comes up" in reveals.stdout
    steps = write(tmp_path / "steps.json", [{"reveal": {"energy": 1}}])
    replay = run("replay", "fire", level1, steps)
    assert " 1. reveal battery (energy 1, 2 crosshairs) -> decision" in replay.stdout
    for text in (res.stdout, reveals.stdout, replay.stdout):
        assert not FRACTION.search(text), text
    out = run_json("hint", "fire", path, "--max-seconds", 10)  # JSON as before
    destroyed = [c["move"]["destroy"] for c in out["moves"] if c["move"].get("destroy")]
    assert {"energy": 1, "crosshairs": 2} in destroyed


# ---------------------------------------------------------------- replay

def test_replay_fire_exit_code_says_whether_the_line_wins(fire_files):
    assert run("replay", "fire", fire_files["last"], fire_files["win_line"]).returncode == 0
    res = run("replay", "fire", fire_files["last"], fire_files["no_win_line"])
    assert res.returncode == 1 and "result: reveal" in res.stdout


# Replays of the last shot: a reveal where none is awaited is illegal, before the win or after it.
REPLAYS = {"win": (WIN_LINE, 0), "illegal": ([{"reveal": {"energy": 3}}] + WIN_LINE, 1),
           "after_the_win": (WIN_LINE + [{"reveal": {"energy": 1}}], 1)}


@pytest.mark.parametrize("name", REPLAYS)
def test_replay_fire_exits_0_only_for_a_legal_winning_line(fire_files, tmp_path, name):
    line, code = REPLAYS[name]
    assert_replay("fire", fire_files["last"], write(tmp_path / f"{name}.json", line), code, illegal=code == 1)


@pytest.mark.parametrize("step", [{"weapon": 0, "bogus": 1}, {"reveal": {"energy": 9}}, "junk", 3],
                         ids=["unknown_key", "bad_battery", "string", "number"])
def test_replay_fire_malformed_step_is_bad_input_not_an_illegal_step(fire_files, tmp_path, step):
    path = write(tmp_path / "line.json", [step])
    message = assert_bad_input(run("replay", "fire", fire_files["last"], path))
    assert f"{path}: line[0]" in message
    assert_bad_input(run("replay", "fire", fire_files["last"], path, "--json"))


# ---------------------------------------------------------------- bad input, generate

def test_fire_bad_input_is_one_clear_line(fire_files):
    line = assert_bad_input(run("solve", "fire", fire_files["bad"]))
    assert "weapons[0]" in line and "10" in line


@pytest.mark.parametrize("args", [
    ["generate", "fire", "--aliens", "6"],
    ["generate", "fire", "--max-seconds", "3"],  # dealing a level is no search
], ids=" ".join)
def test_bad_arguments_exit_2(args):
    assert_bad_input(run(*args))


def test_generate_fire_writes_a_level_start():
    res = run("generate", "fire")
    assert res.returncode == 0 and "assumed" in res.stderr
    assert fire.Position.model_validate(json.loads(res.stdout)) == fire.levels.default_level1().position()
    team = json.loads(run("generate", "fire", "--mode", "team", "--aliens", 4).stdout)
    assert fire.Position.model_validate(team) == fire.levels.team_level1().position(aliens=4)
    known = json.loads(run("generate", "fire", "--aliens", 1, "--seed", 5).stdout)
    assert fire.Position.model_validate(known) == fire.levels.default_level1().position(aliens=1, seed=5)
    assert known["order_known"] is True
    out = run_json("generate", "fire", "--aliens", 2)
    assert out["aliens"] == 2 and out["seed"] is None and out["level"]["name"] == "Level 1 (solo)"
    assert fire.Position.model_validate(out["position"]) == fire.levels.default_level1().position(aliens=2)


# ---------------------------------------------------------------- Ctrl-C

@pytest.mark.parametrize("args", [
    ["hint", "fire", "LEVEL1", "--max-seconds", "60"],
    ["analyse", "fire", "--max-seconds", "60"],
], ids=lambda a: a[0])
def test_ctrl_c_stops_the_hint_and_the_batch_at_once(level1, args):
    assert_interrupts(*(level1 if a == "LEVEL1" else a for a in args))


def test_hint_json_still_sends_choices_beside_moves(fire_files):
    # `choices` was the hint's list before the house name `moves` (issue 17).
    out = run_json("hint", "fire", fire_files["last"], "--max-seconds", 30)
    assert out["moves"] and out["choices"] == out["moves"]
    for reveal in out["reveals"]:
        assert reveal["choices"] == reveal["moves"]
