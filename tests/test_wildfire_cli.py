"""What ``smokejumper VERB wildfire`` answers: the deals it writes, known or
hidden, and the moves and options it refuses (tests/test_cli.py holds the
command's contract for every game)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from cli_support import assert_bad_input, assert_replay, run, run_json, write
from smokejumper import wildfire


def test_generate_wildfire_writes_the_deal_known_or_hidden(tmp_path):
    res = run("generate", "wildfire", "--seed", 1, "--level", 2)
    assert res.returncode == 0 and res.stderr == ""
    assert wildfire.Position.model_validate(json.loads(res.stdout)) == wildfire.deal(1, 2)
    hidden = json.loads(run("generate", "wildfire", "--seed", 1, "--level", 2, "--hidden").stdout)
    deal = wildfire.deal(1, 2).model_dump(mode="json", exclude_none=True)["deal"]
    assert hidden["start"] == deal[0] and hidden["drawn"] == deal[1]
    assert hidden["turns"] == len(deal) - 1 and hidden["level"] == 2
    assert Counter(t["n"] for t in hidden["pool"]) == Counter(wildfire.BOX) - Counter([deal[0]["n"]])
    path = write(tmp_path / "hidden.json", hidden)
    out = run_json("hint", "wildfire", path, "--samples", 5, "--seed", 1, "--max-seconds", 10)
    assert out["exact"] is False and out["samples"] == 5 and out["drawn"]["n"] == deal[1]["n"]
    assert run_json("generate", "wildfire", "--seed", 1, "--hidden")["position"]["level"] == 1


def test_replay_off_the_hottest_cell_is_illegal(tmp_path):
    """The known-order deal of seed 1, its winning line with the fourth tile
    placed away from the hottest cells."""
    deal = write(tmp_path / "deal.json", wildfire.deal(1).model_dump_json(exclude_none=True))
    win = [m.model_dump(mode="json") for m in wildfire.solve(wildfire.deal(1)).line]
    line = win[:3] + [dict(win[3], place=[9, 9])]
    assert_replay("wildfire", deal, write(tmp_path / "illegal.json", line), 1, illegal=True)


@pytest.mark.parametrize("args", [
    ["generate", "wildfire"],
    ["generate", "wildfire", "--seed", "1", "--level", "4"],
    ["generate", "wildfire", "--seed", "1", "--mode", "team"],  # another game's option
], ids=" ".join)
def test_bad_arguments_exit_2(args):
    assert_bad_input(run(*args))


def test_analyse_help_says_the_limits_are_per_deal():
    text = " ".join(run("analyse", "wildfire", "--help").stdout.split())
    assert "time limit for each deal, not for the whole run, in seconds" in text


def test_hint_json_still_sends_the_earlier_names(tmp_path):
    # Before the house names (issue 17): `choices` for `moves`, and per move
    # `win_share` for `value`, `interval95` for `ci95`.
    path = write(tmp_path / "hidden.json", json.loads(run("generate", "wildfire", "--seed", 2, "--hidden").stdout))
    out = run_json("hint", "wildfire", path, "--samples", 5, "--seed", 1, "--max-seconds", 10)
    assert out["moves"] and out["choices"] == out["moves"]
    for move in out["moves"]:
        assert (move["win_share"], move["interval95"], move["n"]) == (move["value"], move["ci95"], 5)
