"""The ``smokejumper`` command's contract: JSON shapes and exit codes
(0 success, 1 a replayed line that does not win, 2 bad input with exactly one
line on stderr and never a traceback, 130 interrupted by Ctrl-C, 141 standard
output closed early). Every test runs the real command in a subprocess."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

from smokejumper import fire, volcano, wildfire
from smokejumper.games import registered

CLI = [sys.executable, "-m", "smokejumper.cli"]

SMALL = {  # V(0,0) A(1,0) B(2,0) C(1,1): wins with a few pawns
    "tiles": [{"q": 1, "r": 0, "n": 3}, {"q": 2, "r": 0, "n": 1}, {"q": 1, "r": 1, "n": 3, "pawns": 1}],
    "volcano": {"q": 0, "r": 0},
    "supply": [3, 2],
}


def run(*args, stdin=None, timeout=120):
    return subprocess.run(CLI + [str(a) for a in args], input=stdin, capture_output=True,
                          text=True, timeout=timeout)


def run_json(*args, stdin=None):
    res = run(*args, "--json", stdin=stdin)
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    assert len(res.stdout.strip().splitlines()) == 1, "JSON output is one line"
    return json.loads(res.stdout)


def assert_bad_input(res):
    assert res.returncode == 2, (res.returncode, res.stdout, res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("smokejumper: error:") and len(lines[0]) > len("smokejumper: error: ")
    assert "Traceback" not in res.stderr
    assert res.stdout == ""
    return lines[0]


def assert_flight_shape(f):
    assert set(f) == {"color", "tile", "dir"}
    assert isinstance(f["color"], int) and isinstance(f["dir"], int) and 0 <= f["dir"] <= 5
    assert isinstance(f["tile"], list) and len(f["tile"]) == 2 and all(isinstance(x, int) for x in f["tile"])


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    out = {}
    # The text output of `generate` is itself a position file.
    res = run("generate", "volcano", "--seed", 3)
    assert res.returncode == 0 and res.stderr == ""
    out["g3"] = d / "g3.json"
    out["g3"].write_text(res.stdout)
    out["hard"] = d / "g24.json"  # undecided after minutes
    out["hard"].write_text(volcano.generate(24).position.model_dump_json(exclude={"setup"}))
    out["small"] = d / "small.json"
    out["small"].write_text(json.dumps(SMALL))
    out["dir"] = d
    return out


# ---------------------------------------------------------------- solve

def test_generate_text_output_is_the_position(files):
    data = json.loads(files["g3"].read_text())
    assert "setup" not in data  # the spec's position JSON, nothing of ours
    generated = volcano.generate(3).position
    assert generated.setup == "standard"
    assert volcano.Position.model_validate(data) == generated.model_copy(update={"setup": "free"})


def test_solve_json_contract(files):
    out = run_json("solve", "volcano", files["g3"])
    assert set(out) == {"verdict", "line", "stats"}
    assert out["verdict"] == "win"
    stats = out["stats"]
    assert {"nodes", "seconds", "stopped_by"} <= set(stats)
    assert isinstance(stats["nodes"], int) and stats["nodes"] > 0
    assert isinstance(stats["seconds"], (int, float)) and stats["stopped_by"] is None
    for f in out["line"]:
        assert_flight_shape(f)
    r = volcano.replay(files["g3"].read_text(), out["line"])
    assert (r.status, r.error) == ("win", None)
    assert out["line"] == [f.model_dump(mode="json") for f in volcano.solve(files["g3"].read_text()).line]


def test_solve_text_output(files):
    res = run("solve", "volcano", files["small"])
    assert res.returncode == 0 and res.stderr == ""
    lines = res.stdout.splitlines()
    assert lines[0] == "verdict: win"
    assert lines[-1].startswith("nodes:")


def test_solve_loss_exits_zero(files):
    path = files["dir"] / "loss.json"
    path.write_text(json.dumps(dict(SMALL, supply=[1])))
    out = run_json("solve", "volcano", path)
    assert (out["verdict"], out["line"]) == ("loss", None)


def test_solve_reads_stdin(files):
    from_stdin = run_json("solve", "volcano", "-", stdin=files["small"].read_text())
    from_file = run_json("solve", "volcano", files["small"])
    assert from_stdin["verdict"] == "win"
    assert (from_stdin["verdict"], from_stdin["line"]) == (from_file["verdict"], from_file["line"])


def test_max_nodes_gives_unknown(files):
    out = run_json("solve", "volcano", files["hard"], "--max-nodes", 100)
    assert (out["verdict"], out["line"]) == ("unknown", None)
    assert out["stats"]["stopped_by"] == "nodes" and out["stats"]["nodes"] <= 101


def test_max_seconds_gives_unknown(files):
    out = run_json("solve", "volcano", files["hard"], "--max-seconds", 0.2)
    assert out["verdict"] == "unknown" and out["stats"]["stopped_by"] == "time"
    assert out["stats"]["seconds"] < 10


def test_max_memory_is_accepted(files):
    out = run_json("solve", "volcano", files["g3"], "--max-memory-mb", 1)
    assert out["verdict"] == "win" and out["stats"]["table_bytes"] <= 1 << 20


# ---------------------------------------------------------------- hint, generate

def test_hint_json(files):
    out = run_json("hint", "volcano", files["small"])
    assert set(out) == {"moves", "stats"}
    assert out["moves"]
    for m in out["moves"]:
        assert set(m) == {"flight", "equivalent", "value", "line"}
        assert_flight_shape(m["flight"])
        for f in m["equivalent"] + (m["line"] or []):
            assert_flight_shape(f)
        assert m["value"] in ("win", "loss", "unknown")
        assert (m["line"] is not None) == (m["value"] == "win")
    api = volcano.hint(SMALL)
    assert [m["flight"] for m in out["moves"]] == [m.flight.model_dump(mode="json") for m in api.moves]
    assert [m["value"] for m in out["moves"]] == [m.value for m in api.moves]


def test_hint_text_output(files):
    res = run("hint", "volcano", files["small"])
    assert res.returncode == 0 and res.stderr == ""
    assert res.stdout.splitlines()[0].split()[0] in ("win", "loss", "unknown")


def test_generate_json():
    out = run_json("generate", "volcano", "--seed", 3)
    assert set(out) == {"position", "layout_seed", "attempts", "verdict", "line", "difficulty", "stats"}
    assert (out["layout_seed"], out["attempts"], out["verdict"], out["line"]) == (3, 1, None, None)
    assert volcano.Position.model_validate(out["position"]) == volcano.generate(3).position
    assert out == run_json("generate", "volcano", "--seed", 3), "deterministic"
    assert len(out["position"]["tiles"]) == 35


def test_generate_solvable_json():
    out = run_json("generate", "volcano", "--seed", 3, "--solvable")
    assert out["verdict"] == "win"
    for f in out["line"]:
        assert_flight_shape(f)
    r = volcano.replay(out["position"], out["line"])
    assert (r.status, r.error) == ("win", None)


def test_generate_solvable_that_fails_within_limits_exits_2():
    assert "solvable" in assert_bad_input(run("generate", "volcano", "--seed", 1, "--solvable", "--max-nodes", 10))


# ---------------------------------------------------------------- replay

@pytest.fixture(scope="module")
def solved(files):
    d = files["dir"]
    out = run_json("solve", "volcano", files["small"])
    assert out["verdict"] == "win" and len(out["line"]) >= 2
    (d / "solve_out.json").write_text(json.dumps(out))
    (d / "line.json").write_text(json.dumps(out["line"]))
    (d / "prefix.json").write_text(json.dumps(out["line"][:-1]))
    illegal = out["line"][:1] + [{"color": 0, "tile": [0, 0], "dir": 0}]   # into the volcano
    (d / "illegal.json").write_text(json.dumps(illegal))
    return d


def test_replay_winning_bare_list_exits_0(files, solved):
    res = run("replay", "volcano", files["small"], solved / "line.json")
    assert res.returncode == 0 and res.stderr == ""
    assert res.stdout.splitlines()[-1] == "result: win"


def test_replay_solve_json_output_exits_0(files, solved):
    res = run("replay", "volcano", files["small"], solved / "solve_out.json")
    assert res.returncode == 0, res.stdout + res.stderr


def test_replay_from_stdin(files, solved):
    res = run("replay", "volcano", "-", solved / "line.json", stdin=files["small"].read_text())
    assert res.returncode == 0


def test_replay_json_output(files, solved):
    res = run("replay", "volcano", files["small"], solved / "line.json", "--json")
    assert res.returncode == 0
    out = json.loads(res.stdout)
    assert out["status"] == "win" and out["error"] is None and out["position"]["tiles"] == []


def test_replay_non_winning_line_exits_1(files, solved):
    res = run("replay", "volcano", files["small"], solved / "prefix.json")
    assert res.returncode == 1 and res.stderr == ""
    assert res.stdout.splitlines()[-1] in ("result: ongoing", "result: loss")
    res = run("replay", "volcano", files["small"], solved / "prefix.json", "--json")
    assert res.returncode == 1 and json.loads(res.stdout)["status"] != "win"


def test_replay_illegal_line_exits_1(files, solved):
    res = run("replay", "volcano", files["small"], solved / "illegal.json")
    assert res.returncode == 1 and res.stderr == ""
    assert "illegal: flight 1" in res.stdout
    res = run("replay", "volcano", files["small"], solved / "illegal.json", "--json")
    assert res.returncode == 1
    assert json.loads(res.stdout)["error"].startswith("flight 1")


def test_replay_empty_line_exits_1(files):
    path = files["dir"] / "empty_line.json"
    path.write_text("[]")
    assert run("replay", "volcano", files["small"], path).returncode == 1


# ---------------------------------------------------------------- bad input

def write(files, name, content):
    path = files["dir"] / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


BAD_POSITIONS = {
    "invalid_json": "{\"tiles\": [",
    "empty": "",
    "wrong_shape_list": [1, 2, 3],
    "wrong_shape_tiles": {"tiles": {"q": 1}, "volcano": {"q": 0, "r": 0}},
    "n_9": {"tiles": [{"q": 1, "r": 0, "n": 9}], "volcano": {"q": 0, "r": 0}},
    "deep_nesting": "[" * 100_000,
    "deep_nesting_in_object": '{"tiles": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "unsettled": {"tiles": [{"q": 1, "r": 0, "n": 1, "pawns": 1}], "volcano": {"q": 0, "r": 0}},
    "disconnected": {"tiles": [{"q": 3, "r": 0, "n": 1}], "volcano": {"q": 0, "r": 0}},
    "too_large": " " * (2 << 20),
    "not_utf8": b"\xff\xfe{\x00",
    "bad_standard": {"tiles": [{"q": 1, "r": 0, "n": 1}], "volcano": {"q": 0, "r": 0}, "setup": "standard"},
}


@pytest.mark.parametrize("name", sorted(BAD_POSITIONS))
def test_bad_position_file_exits_2(files, name):
    path = write(files, f"bad_{name}.json", BAD_POSITIONS[name])
    assert_bad_input(run("solve", "volcano", path))


@pytest.mark.parametrize("name", ["invalid_json", "n_9", "unsettled"])
def test_bad_position_file_exits_2_in_hint(files, name):
    path = write(files, f"bad_hint_{name}.json", BAD_POSITIONS[name])
    assert_bad_input(run("hint", "volcano", path))


def test_bad_position_on_stdin_exits_2():
    assert_bad_input(run("solve", "volcano", "-", stdin="[" * 100_000))
    assert_bad_input(run("solve", "volcano", "-", stdin="not json"))


def test_bad_position_in_replay_exits_2(files, solved):
    path = write(files, "bad_replay_pos.json", BAD_POSITIONS["n_9"])
    assert_bad_input(run("replay", "volcano", path, solved / "line.json"))


def test_missing_file_exits_2(files):
    message = assert_bad_input(run("solve", "volcano", files["dir"] / "nope.json"))
    assert "nope.json" in message
    assert_bad_input(run("solve", "volcano", files["dir"]))  # a directory


@pytest.mark.parametrize("line", [
    "[", "{\"moves\": []}", "17", "[" * 100_000,
    [{"color": 0, "tile": [1], "dir": 0}], [{"color": 0, "tile": [1, 0], "dir": 9}], [1, 2],
    b"\xff\xfe[",
], ids=["invalid", "object_without_line", "number", "deep", "short_tile", "bad_dir", "not_flights", "not_utf8"])
def test_bad_line_file_exits_2(files, line):
    path = write(files, "bad_line.json", line)
    assert_bad_input(run("replay", "volcano", files["small"], path))


def test_missing_line_file_exits_2(files):
    assert_bad_input(run("replay", "volcano", files["small"], files["dir"] / "missing_line.json"))


@pytest.mark.parametrize("args", [
    ["solve", "chess", "X"],
    ["hint", "wildfire", "X"],
    ["frobnicate"],
    [],
    ["solve", "volcano"],
    ["generate", "volcano"],
    ["generate", "volcano", "--seed", "-1"],
    ["generate", "volcano", "--seed", str(2**64)],
    ["generate", "volcano", "--seed", "abc"],
    ["solve", "volcano", "SMALL", "--max-nodes", "-5"],
    ["solve", "volcano", "SMALL", "--max-seconds", "nan"],
    ["solve", "volcano", "SMALL", "--max-memory-mb", "0"],
    ["solve", "volcano", "SMALL", "--bogus"],
    ["serve", "--port", "99999"],
    ["serve", "--port", "65536"],
    ["serve", "--port", "-1"],
    ["serve", "--port", "http"],
    ["generate", "wildfire"],
    ["generate", "wildfire", "--seed", "1", "--level", "4"],
    ["generate", "fire", "--aliens", "6"],
    ["generate", "fire", "--seed", "-1"],
    ["generate", "fire", "--max-seconds", "3"],
    ["generate", "wildfire", "--seed", "1", "--mode", "team"],
    ["generate", "volcano", "--seed", "3", "--hidden"],
], ids=lambda a: " ".join(a) or "no-args")
def test_bad_arguments_exit_2(files, args):
    args = [str(files["small"]) if a == "SMALL" else a for a in args]
    assert_bad_input(run(*args))


def test_analyse_json_summary():
    out = run_json("analyse", "volcano", "--layouts", 4, "--seed", 3, "--max-nodes", 100000, "--workers", 2)
    assert out["layouts"] == 4 and out["wins"] + out["losses"] + out["unknown"] == 4
    assert [r["seed"] for r in out["results"]] == [3, 4, 5, 6]


def test_analyse_text_shows_a_table_and_progress():
    r = run("analyse", "volcano", "--layouts", 2, "--seed", 3, "--max-nodes", 100000)
    assert r.returncode == 0 and "| layouts | wins |" in r.stdout and "2/2" in r.stderr


# ---------------------------------------------------------------- Fire!

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


@pytest.fixture(scope="module")
def fire_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("fire")
    out = {}
    for name, position in {"won": fire_level1(1, 11), "close": fire_level1(1, 10), "last": FIRE_LAST_SHOT}.items():
        out[name] = d / f"{name}.json"
        out[name].write_text(json.dumps(position))
    out["win_line"] = d / "win_line.json"
    out["win_line"].write_text(json.dumps([{"weapon": 0, "target": 0, "destroy": None}]))
    out["no_win_line"] = d / "no_win_line.json"
    out["no_win_line"].write_text(json.dumps([{"weapon": 1, "target": None, "destroy": None}]))
    out["bad"] = d / "bad.json"
    out["bad"].write_text(json.dumps({**FIRE_LAST_SHOT, "weapons": [[{"energy": 5}, {"energy": 5}], [], []]}))
    return out


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
    values = [c["win_probability"] for c in out["choices"]]
    assert values == sorted(values, reverse=True) and values[0] == 1.0
    assert out["choices"][0]["move"] == {"weapon": 0, "target": 0, "destroy": None}


def test_replay_fire_exit_code_says_whether_the_line_wins(fire_files):
    assert run("replay", "fire", fire_files["last"], fire_files["win_line"]).returncode == 0
    res = run("replay", "fire", fire_files["last"], fire_files["no_win_line"])
    assert res.returncode == 1 and "result: reveal" in res.stdout


def test_fire_bad_input_is_one_clear_line(fire_files):
    line = assert_bad_input(run("solve", "fire", fire_files["bad"]))
    assert "weapons[0]" in line and "10" in line


def test_analyse_fire_compares_optimal_with_the_fixed_strategy():
    out = run_json("analyse", "fire", "--aliens", 1, "--games", 200, "--max-seconds", 30)
    assert out["optimal"]["won_for_certain"] is True and out["optimal"]["win_probability"] == 1.0
    assert 0 < out["strategy"]["win_probability"] < 1 and out["strategy"]["games"] == 200


# ---------------------------------------------------------------- every game's replay exit code

@pytest.fixture(scope="module")
def lines(tmp_path_factory, fire_files):
    """Per game: a position, a winning line, and lines that hit an illegal step."""
    d = tmp_path_factory.mktemp("lines")
    out = {}
    # Volcano!: the solved small layout; a flight into the volcano; a flight after the win.
    small = d / "small.json"
    small.write_text(json.dumps(SMALL))
    win = volcano.solve(SMALL).line
    win = [f.model_dump(mode="json") for f in win]
    into_volcano = {"color": 0, "tile": [0, 0], "dir": 0}
    out["volcano"] = (small, win, {"illegal": win[:1] + [into_volcano], "after_the_win": win + [into_volcano]})
    # Fire!: the last shot; a battery put on a weapon before any is revealed.
    win = [{"weapon": 0, "target": 0, "destroy": None}]
    out["fire"] = (fire_files["last"], win, {"illegal": [{"reveal": {"energy": 3}}] + win,
                                             "after_the_win": win + [{"reveal": {"energy": 1}}]})
    # Wild Fire!: the known-order deal of seed 1.
    deal = d / "deal.json"
    deal.write_text(wildfire.deal(1).model_dump_json(exclude_none=True))
    win = [m.model_dump(mode="json") for m in wildfire.solve(wildfire.deal(1)).line]
    off_the_hottest = dict(win[3], place=[9, 9])
    out["wildfire"] = (deal, win, {"illegal": win[:3] + [off_the_hottest], "after_the_win": win + [win[0]]})
    for game, (position, win, bad) in out.items():
        for name, line in {"win": win, **bad}.items():
            (d / f"{game}_{name}.json").write_text(json.dumps(line))
    return {game: position for game, (position, _, _) in out.items()}, d


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("game", ["volcano", "fire", "wildfire"])
def test_replay_exits_0_only_for_a_legal_winning_line(lines, game, as_json):
    positions, d = lines
    flag = ["--json"] if as_json else []
    res = run("replay", game, positions[game], d / f"{game}_win.json", *flag)
    assert (res.returncode, res.stderr) == (0, ""), res.stdout
    for name in ("illegal", "after_the_win"):
        res = run("replay", game, positions[game], d / f"{game}_{name}.json", *flag)
        assert (res.returncode, res.stderr) == (1, ""), (name, res.stdout)
        if as_json:
            assert json.loads(res.stdout)["error"], name
        else:
            assert "illegal: " in res.stdout, name


@pytest.mark.parametrize("step", [{"weapon": 0, "bogus": 1}, {"reveal": {"energy": 9}}, "junk", 3],
                         ids=["unknown_key", "bad_battery", "string", "number"])
def test_replay_fire_malformed_step_is_bad_input_not_an_illegal_step(fire_files, tmp_path, step):
    path = tmp_path / "line.json"
    path.write_text(json.dumps([step]))
    message = assert_bad_input(run("replay", "fire", fire_files["last"], path))
    assert f"{path}: steps[0]" in message
    assert_bad_input(run("replay", "fire", fire_files["last"], path, "--json"))


@pytest.mark.parametrize("game", [g.name for g in registered() if "replay" in g.operations])
def test_replay_help_says_what_the_exit_codes_mean(game):
    text = " ".join(run("replay", game, "--help").stdout.split())
    assert "0 success; 1 a replayed line that does not win; 2 bad input" in text


# ---------------------------------------------------------------- closed stdout, ports

@pytest.mark.parametrize("args", [["solve", "volcano", "SMALL"], ["solve", "volcano", "SMALL", "--json"],
                                  ["generate", "volcano", "--seed", "3"]],
                         ids=lambda a: " ".join(a))
def test_closed_stdout_exits_141_without_a_word(files, args):
    """As `smokejumper solve ... | head -2` once the reader has gone: the
    read end is closed before the command writes anything."""
    args = [str(files["small"]) if a == "SMALL" else a for a in args]
    r, w = os.pipe()
    os.close(r)
    try:
        res = subprocess.run(CLI + args, stdout=w, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(w)
    assert (res.returncode, res.stderr) == (141, "")


def test_help_lists_every_exit_code():
    text = " ".join(run("--help").stdout.split())
    for code in ("0 success", "1 a replayed line that does not win", "2 bad input", "130 interrupted",
                 "141 standard output closed"):
        assert code in text


# ---------------------------------------------------------------- Ctrl-C

@pytest.fixture(scope="module")
def level1(tmp_path_factory):
    """The default solo Level 1, hidden order (`generate fire` writes the same;
    won for certain, proved in about 10 s: long enough to interrupt)."""
    path = tmp_path_factory.mktemp("level1") / "level1.json"
    path.write_text(fire.levels.default_level1().position().model_dump_json())
    return path


@pytest.mark.parametrize("args", [
    ["solve", "fire", "LEVEL1", "--max-seconds", "60"],
    ["solve", "fire", "LEVEL1", "--max-seconds", "60", "--json"],
    ["hint", "fire", "LEVEL1", "--max-seconds", "60"],
    ["solve", "volcano", "HARD", "--max-seconds", "60"],
    ["generate", "volcano", "--seed", "24", "--rate", "--max-seconds", "60"],
    ["analyse", "fire", "--max-seconds", "60"],
    ["analyse", "volcano", "--layouts", "3", "--seed", "24", "--workers", "1", "--max-seconds", "60", "--json"],
], ids=lambda a: " ".join(a[:2]) + (" --json" if "--json" in a else "") + (" --rate" if "--rate" in a else ""))
def test_ctrl_c_stops_the_search_at_once(files, level1, args):
    args = [str({"LEVEL1": level1, "HARD": files["hard"]}.get(a, a)) for a in args]
    proc = subprocess.Popen(CLI + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(2.0)  # imported and well into the search (it needs 10 s or more)
        assert proc.poll() is None, "the search ended before it could be interrupted"
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        waited = time.monotonic() - sent
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, (proc.returncode, err)
    assert waited < 3, f"took {waited:.1f} s to stop"
    assert out == "" and err == "smokejumper: interrupted\n"


# ---------------------------------------------------------------- Fire! wording

FIRE_DESTROY = {  # weapon 0 holds 9, so the 3 fires it; every battery on it may be destroyed
    "aliens": [{"strengths": [12, 9, 6, 3], "hits": 0}],
    "weapons": [[{"energy": 5}, {"energy": 3}, {"energy": 1}], [], []],
    "draw": [{"energy": 2}, {"energy": 4}, {"energy": 1}], "revealed": {"energy": 3},
}

FRACTION = re.compile(r"\d+/\d+ crosshair")


def test_fire_batteries_read_as_energy_and_crosshairs_not_a_fraction(tmp_path, level1):
    path = tmp_path / "destroy.json"
    path.write_text(json.dumps(FIRE_DESTROY))
    res = run("hint", "fire", path, "--max-seconds", 10)
    assert res.returncode == 0, res.stderr
    assert "destroy battery (energy 1, 2 crosshairs)" in res.stdout
    assert "destroy battery (energy 5, 1 crosshair)" in res.stdout
    reveals = run("hint", "fire", level1, "--max-nodes", 2000)
    assert "if battery (energy 1, 2 crosshairs) comes up" in reveals.stdout
    steps = tmp_path / "steps.json"
    steps.write_text(json.dumps([{"reveal": {"energy": 1}}]))
    replay = run("replay", "fire", level1, steps)
    assert " 1. reveal battery (energy 1, 2 crosshairs) -> decision" in replay.stdout
    for text in (res.stdout, reveals.stdout, replay.stdout):
        assert not FRACTION.search(text), text
    out = run_json("hint", "fire", path, "--max-seconds", 10)  # JSON as before
    destroyed = [c["move"]["destroy"] for c in out["choices"] if c["move"].get("destroy")]
    assert {"energy": 1, "crosshairs": 2} in destroyed


# ---------------------------------------------------------------- help, --rate

@pytest.mark.parametrize("command", [(op.name, g.name) for g in registered() for op in g.operations.values()
                                     if op.takes_limit], ids=" ".join)
def test_limit_options_have_help_with_their_defaults(command):
    text = " ".join(run(*command, "--help").stdout.split())
    options = re.search(r" --max-seconds S (.*) --max-nodes N (.*) --max-memory-mb M (.*) --json ", text)
    assert options, text
    seconds, nodes, memory = options.groups()
    assert seconds.endswith("seconds (default: 60)") and nodes.endswith("(default: none)")
    assert memory.endswith("MiB (default: 256)")


@pytest.mark.parametrize("game, each", [("volcano", "layout"), ("wildfire", "deal")])
def test_analyse_help_says_the_limits_are_per_layout_or_deal(game, each):
    text = " ".join(run("analyse", game, "--help").stdout.split())
    assert f"time limit for each {each}, not for the whole run, in seconds" in text


def test_generate_rate_prints_the_rating_without_json():
    rated = run_json("generate", "volcano", "--seed", 3, "--rate")
    d = rated["difficulty"]
    assert d["complete"] is True
    res = run("generate", "volcano", "--seed", 3, "--rate")
    assert res.returncode == 0
    assert volcano.Position.model_validate(json.loads(res.stdout)) == volcano.Position.model_validate(
        {**rated["position"], "setup": "free"}), "standard output is still the position file"
    assert f"rating: winning share {d['winning_share']:.3f}" in res.stderr
    assert f"{d['forced_steps']} of {d['steps']} steps forced" in res.stderr


def test_generate_unfinished_rating_is_not_a_winning_share_of_0():
    out = run_json("generate", "volcano", "--seed", 3, "--rate", "--max-nodes", 2000)
    assert out["verdict"] == "win" and out["difficulty"]["complete"] is False  # the JSON is as it was
    res = run("generate", "volcano", "--seed", 3, "--rate", "--max-nodes", 2000)
    assert res.returncode == 0
    assert "rating: unfinished" in res.stderr and "winning share unknown" in res.stderr
    assert "winning share 0" not in res.stderr


# ---------------------------------------------------------------- generate fire, wildfire

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


def test_generate_wildfire_writes_the_deal_known_or_hidden(tmp_path):
    res = run("generate", "wildfire", "--seed", 1, "--level", 2)
    assert res.returncode == 0 and res.stderr == ""
    assert wildfire.Position.model_validate(json.loads(res.stdout)) == wildfire.deal(1, 2)
    hidden = json.loads(run("generate", "wildfire", "--seed", 1, "--level", 2, "--hidden").stdout)
    deal = wildfire.deal(1, 2).model_dump(mode="json", exclude_none=True)["deal"]
    assert hidden["start"] == deal[0] and hidden["drawn"] == deal[1]
    assert hidden["turns"] == len(deal) - 1 and hidden["level"] == 2
    assert Counter(t["n"] for t in hidden["pool"]) == Counter(wildfire.BOX) - Counter([deal[0]["n"]])
    path = tmp_path / "hidden.json"
    path.write_text(json.dumps(hidden))
    out = run_json("hint", "wildfire", path, "--samples", 5, "--seed", 1, "--max-seconds", 10)
    assert out["exact"] is False and out["samples"] == 5 and out["drawn"]["n"] == deal[1]["n"]
    assert run_json("generate", "wildfire", "--seed", 1, "--hidden")["position"]["level"] == 1
