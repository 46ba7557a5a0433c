"""What ``smokejumper VERB volcano`` answers: its JSON and text, its
verdicts and lines, and the positions and lines it refuses (tests/test_cli.py
holds the command's contract for every game)."""

from __future__ import annotations

import json

import pytest

from cli_support import assert_bad_input, assert_interrupts, run, run_json, write
from smokejumper import volcano

SMALL = {  # V(0,0) A(1,0) B(2,0) C(1,1): wins with a few pawns
    "tiles": [{"q": 1, "r": 0, "n": 3}, {"q": 2, "r": 0, "n": 1}, {"q": 1, "r": 1, "n": 3, "pawns": 1}],
    "volcano": {"q": 0, "r": 0},
    "supply": [3, 2],
}


def assert_flight_shape(f):
    assert set(f) == {"color", "tile", "dir"}
    assert isinstance(f["color"], int) and isinstance(f["dir"], int) and 0 <= f["dir"] <= 5
    assert isinstance(f["tile"], list) and len(f["tile"]) == 2 and all(isinstance(x, int) for x in f["tile"])


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("volcano_cli")
    out = {}
    # The text output of `generate` is itself a position file.
    res = run("generate", "volcano", "--seed", 3)
    assert res.returncode == 0 and res.stderr == ""
    out["g3"] = write(d / "g3.json", res.stdout)
    # undecided after minutes
    out["hard"] = write(d / "g24.json", volcano.generate(24).position.model_dump_json(exclude={"setup"}))
    out["small"] = write(d / "small.json", SMALL)
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
    path = write(files["dir"] / "loss.json", dict(SMALL, supply=[1]))
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


# ---------------------------------------------------------------- replay

@pytest.fixture(scope="module")
def solved(files):
    d = files["dir"]
    out = run_json("solve", "volcano", files["small"])
    assert out["verdict"] == "win" and len(out["line"]) >= 2
    write(d / "line.json", out["line"])
    write(d / "prefix.json", out["line"][:-1])
    write(d / "illegal.json", out["line"][:1] + [{"color": 0, "tile": [0, 0], "dir": 0}])  # into the volcano
    return d


def test_replay_winning_bare_list_exits_0(files, solved):
    res = run("replay", "volcano", files["small"], solved / "line.json")
    assert res.returncode == 0 and res.stderr == ""
    assert res.stdout.splitlines()[-1] == "result: win"


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


# ---------------------------------------------------------------- bad input

# Positions the rules refuse (tests/test_cli.py holds the files no game can read).
BAD_POSITIONS = {
    "wrong_shape_tiles": {"tiles": {"q": 1}, "volcano": {"q": 0, "r": 0}},
    "n_9": {"tiles": [{"q": 1, "r": 0, "n": 9}], "volcano": {"q": 0, "r": 0}},
    "deep_nesting_in_object": '{"tiles": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "unsettled": {"tiles": [{"q": 1, "r": 0, "n": 1, "pawns": 1}], "volcano": {"q": 0, "r": 0}},
    "disconnected": {"tiles": [{"q": 3, "r": 0, "n": 1}], "volcano": {"q": 0, "r": 0}},
    "bad_standard": {"tiles": [{"q": 1, "r": 0, "n": 1}], "volcano": {"q": 0, "r": 0}, "setup": "standard"},
}


@pytest.mark.parametrize("name", sorted(BAD_POSITIONS))
def test_bad_position_file_exits_2(tmp_path, name):
    assert_bad_input(run("solve", "volcano", write(tmp_path / "bad.json", BAD_POSITIONS[name])))


@pytest.mark.parametrize("name", ["n_9", "unsettled"])
def test_bad_position_file_exits_2_in_hint(tmp_path, name):
    assert_bad_input(run("hint", "volcano", write(tmp_path / "bad.json", BAD_POSITIONS[name])))


def test_bad_position_in_replay_exits_2(tmp_path, solved):
    path = write(tmp_path / "bad.json", BAD_POSITIONS["n_9"])
    assert_bad_input(run("replay", "volcano", path, solved / "line.json"))


@pytest.mark.parametrize("line", [
    [{"color": 0, "tile": [1], "dir": 0}], [{"color": 0, "tile": [1, 0], "dir": 9}], [1, 2],
], ids=["short_tile", "bad_dir", "not_flights"])
def test_bad_line_file_exits_2(files, tmp_path, line):
    assert_bad_input(run("replay", "volcano", files["small"], write(tmp_path / "bad_line.json", line)))


@pytest.mark.parametrize("args", [
    ["generate", "volcano"],
    ["generate", "volcano", "--seed", "3", "--hidden"],
], ids=" ".join)
def test_bad_arguments_exit_2(args):
    assert_bad_input(run(*args))


# ---------------------------------------------------------------- analyse, Ctrl-C

def test_analyse_json_summary():
    out = run_json("analyse", "volcano", "--layouts", 4, "--seed", 3, "--max-nodes", 100000, "--workers", 2)
    assert out["layouts"] == 4 and out["wins"] + out["losses"] + out["unknown"] == 4
    assert [r["seed"] for r in out["results"]] == [3, 4, 5, 6]


def test_analyse_text_shows_a_table_and_progress():
    r = run("analyse", "volcano", "--layouts", 2, "--seed", 3, "--max-nodes", 100000)
    assert r.returncode == 0 and "| layouts | wins |" in r.stdout and "2/2" in r.stderr


def test_analyse_help_says_the_limits_are_per_layout():
    text = " ".join(run("analyse", "volcano", "--help").stdout.split())
    assert "time limit for each layout, not for the whole run, in seconds" in text


@pytest.mark.parametrize("args", [
    ["generate", "volcano", "--seed", "24", "--rate", "--max-seconds", "60"],
    ["analyse", "volcano", "--layouts", "3", "--seed", "24", "--workers", "1", "--max-seconds", "60", "--json"],
], ids=lambda a: a[0])
def test_ctrl_c_stops_the_rating_and_the_batch_at_once(args):
    assert_interrupts(*args)


def test_check_json_still_sends_flights_beside_moves(files):
    # `flights` was check's list before the house name `moves` (issue 17).
    out = run_json("check", "volcano", files["small"])
    assert out["moves"] and out["flights"] == out["moves"]
