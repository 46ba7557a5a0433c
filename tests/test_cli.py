"""The ``smokejumper`` command's contract: exit codes (0 success, 1 a
replayed line that does not win, 2 bad input with exactly one line on stderr
and never a traceback, 130 interrupted by Ctrl-C, 141 standard output closed
early), help texts, files and standard input, on every registered game
(the command's main in this process, and in a real one where only a
process shows it: tests/cli_support.py); what one game's answers say is in
its own tests/test_<game>_cli.py."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess

import pytest

from cli_support import CLI, assert_bad_input, assert_interrupts, assert_replay, run, run_json, write
from smokejumper.games import Game, registered

GAMES = registered()
# Games whose solve answers with a winning line, not only a value.
LINE_GAMES = [g for g in GAMES if "solve" in g.operations and "line" in g.operation("solve").response.model_fields]

# Files no game reads as a position: the command refuses them before any game looks.
UNREADABLE = {
    "invalid_json": '{"a": [',
    "empty": "",
    "wrong_shape_list": [1, 2, 3],
    "deep_nesting": "[" * 100_000,
    "too_large": " " * (2 << 20),
    "not_utf8": b"\xff\xfe{\x00",
}
# Files no game reads as a line of steps.
UNREADABLE_LINES = {
    "invalid": "[",
    "object_without_line": {"not_a_line": []},
    "number": "17",
    "deep": "[" * 100_000,
    "not_utf8": b"\xff\xfe[",
}


def name(game: Game) -> str:
    return game.name


def contract(game: Game):
    """The game's file of the contract suite: its HARD requests and BAD positions."""
    return importlib.import_module(f"contract.{game.name}")


def searches(game: Game) -> list[str]:
    """The verbs that search a position."""
    return [op.name for op in game.operations.values() if op.kind == "search" and "position" in op.request.model_fields]


def search(game: Game) -> str:
    """The game's main search of a position: solve where it has one."""
    return "solve" if "solve" in game.operations else searches(game)[0]


def replays_a_line(game: Game) -> bool:
    """Whether the game's replay takes a file of steps besides the position."""
    return "replay" in game.operations and any(
        "list" in str(f.annotation) for n, f in game.operation("replay").request.model_fields.items() if n != "position")


@pytest.fixture(scope="module")
def positions(tmp_path_factory) -> dict[str, object]:
    """Per game, the position of seed 0 as its maker (`generate`) writes it."""
    d = tmp_path_factory.mktemp("positions")
    out = {}
    for game in GAMES:
        res = run(game.maker, game.name, "--seed", 0)
        assert res.returncode == 0, res.stderr
        out[game.name] = write(d / f"{game.name}.json", res.stdout)
    return out


# ---------------------------------------------------------------- help

def test_help_lists_every_exit_code():
    text = " ".join(run("--help", process=True).stdout.split())
    for code in ("0 success", "1 a replay that fails", "2 bad input", "130 interrupted",
                 "141 standard output closed"):
        assert code in text


@pytest.mark.parametrize("game", [g.name for g in GAMES if "replay" in g.operations])
def test_replay_help_says_what_the_exit_codes_mean(game):
    text = " ".join(run("replay", game, "--help").stdout.split())
    assert "0 success; 1 a replay that fails (an illegal step, or no win where one is asked); 2 bad input" in text


@pytest.mark.parametrize("game, op", [(g, op) for g in GAMES for op in g.operations.values() if op.takes_limit],
                         ids=lambda x: x.name)
def test_limit_options_have_help_with_their_defaults(game, op):
    text = " ".join(run(op.name, game.name, "--help").stdout.split())
    options = re.search(r" --max-seconds S (.*) --max-nodes N (.*) --max-memory-mb M (.*) --json ", text)
    assert options, text
    seconds, nodes, memory = options.groups()
    if op.default_limit is None:  # the house's: 60 s a search
        assert seconds.endswith("seconds (default: 60)") and nodes.endswith("(default: none)")
    else:  # the operation's own, where neither limit is given
        assert seconds.endswith("seconds (default: none)")
        assert nodes.endswith(f"(default: {op.default_limit.nodes:,} unless --max-seconds is given)")
    assert memory.endswith("MiB (default: 256)")


# ---------------------------------------------------------------- reading files and stdin

@pytest.mark.parametrize("game", GAMES, ids=name)
def test_the_command_in_a_process_of_its_own_answers_as_its_main_does(positions, game):
    """The other tests call the command's main in this process; here the
    real entry point, a new interpreter, on the same file and stdin."""
    path = positions[game.name]
    res = run("check", game.name, "-", "--json", stdin=path.read_text(), process=True)
    assert (res.returncode, res.stderr) == (0, "") and json.loads(res.stdout) == run_json("check", game.name, path)
    bad = run("check", game.name, "-", stdin="[1, 2]", process=True)
    assert_bad_input(bad)
    assert bad.stderr == run("check", game.name, "-", stdin="[1, 2]").stderr


@pytest.mark.parametrize("game", GAMES, ids=name)
def test_a_position_on_stdin_reads_as_from_a_file(positions, game):
    path = positions[game.name]
    assert run_json("check", game.name, "-", stdin=path.read_text()) == run_json("check", game.name, path)


@pytest.mark.parametrize("content", sorted(UNREADABLE))
@pytest.mark.parametrize("game", GAMES, ids=name)
def test_an_unreadable_position_file_exits_2(tmp_path, game, content):
    path = write(tmp_path / "bad.json", UNREADABLE[content])
    for verb in searches(game):
        assert_bad_input(run(verb, game.name, path))


@pytest.mark.parametrize("game", GAMES, ids=name)
def test_a_bad_position_file_exits_2_with_one_line_naming_the_field(tmp_path, game):
    """Each of the game's BAD positions (its contract file), in every search."""
    for i, (position, needle) in enumerate(contract(game).BAD):
        path = write(tmp_path / f"bad{i}.json", position)
        for verb in searches(game):
            assert needle.removeprefix("position.") in assert_bad_input(run(verb, game.name, path)), verb


@pytest.mark.parametrize("game", GAMES, ids=name)
def test_a_bad_position_on_stdin_exits_2(game):
    assert_bad_input(run(search(game), game.name, "-", stdin="[" * 100_000))
    assert_bad_input(run(search(game), game.name, "-", stdin="not json"))


@pytest.mark.parametrize("game", GAMES, ids=name)
def test_a_missing_file_exits_2(tmp_path, game):
    assert "nope.json" in assert_bad_input(run(search(game), game.name, tmp_path / "nope.json"))
    assert_bad_input(run(search(game), game.name, tmp_path))  # a directory


@pytest.mark.parametrize("game", [g for g in GAMES if replays_a_line(g)], ids=name)
def test_a_missing_or_unreadable_line_file_exits_2(positions, tmp_path, game):
    assert_bad_input(run("replay", game.name, positions[game.name], tmp_path / "missing_line.json"))
    for content, line in UNREADABLE_LINES.items():
        path = write(tmp_path / f"{content}.json", line)
        assert_bad_input(run("replay", game.name, positions[game.name], path))


# ---------------------------------------------------------------- arguments

@pytest.mark.parametrize("args", [
    ["solve", "chess", "X"],
    ["frobnicate"],
    [],
    ["serve", "--port", "99999"],
    ["serve", "--port", "65536"],
    ["serve", "--port", "-1"],
    ["serve", "--port", "http"],
], ids=lambda a: " ".join(a) or "no-args")
def test_bad_arguments_exit_2(args):
    assert_bad_input(run(*args))


@pytest.mark.parametrize("args", [
    ["solve"],
    ["solve", "POSITION", "--max-nodes", "-5"],
    ["solve", "POSITION", "--max-seconds", "nan"],
    ["solve", "POSITION", "--max-memory-mb", "0"],
    ["solve", "POSITION", "--bogus"],
    ["generate", "--seed", "-1"],
    ["generate", "--seed", str(2**64)],
    ["generate", "--seed", "abc"],
], ids=" ".join)
@pytest.mark.parametrize("game", GAMES, ids=name)
def test_bad_arguments_of_a_game_exit_2(positions, game, args):
    verb, *rest = args
    verb = {"solve": search(game), "generate": game.maker}[verb]
    assert_bad_input(run(verb, game.name, *(positions[game.name] if a == "POSITION" else a for a in rest)))


# ---------------------------------------------------------------- replay's exit code

@pytest.fixture(scope="module", params=LINE_GAMES, ids=name)
def won(request, tmp_path_factory):
    """(game, a position of a seed, the folder) where `solve --json` wrote a
    win to answer.json."""
    game = request.param.name
    d = tmp_path_factory.mktemp(f"won_{game}")
    for seed in range(8):
        position = write(d / "position.json", run("generate", game, "--seed", seed).stdout)
        # 5 s: a search that cannot finish (a full deal) answers by then.
        answer = run_json("solve", game, position, "--max-seconds", 5)
        if answer["verdict"] == "win":
            write(d / "answer.json", answer)
            return game, position, d
    pytest.fail(f"no position of seeds 0-7 of {game} was won; pick others")


def test_replay_exits_0_only_for_a_legal_winning_line(won):
    game, position, d = won
    line = json.loads((d / "answer.json").read_text())["line"]
    assert_replay(game, position, d / "answer.json", 0)  # `solve --json` output replays as it is
    assert_replay(game, position, write(d / "line.json", line), 0)
    assert_replay(game, position, write(d / "prefix.json", line[:-1]), 1)  # legal, not yet won
    assert_replay(game, position, write(d / "after_the_win.json", line + line[:1]), 1, illegal=True)


@pytest.mark.parametrize("game", [g for g in GAMES if replays_a_line(g)], ids=name)
def test_replay_of_no_steps_exits_1(positions, tmp_path, game):
    assert_replay(game.name, positions[game.name], write(tmp_path / "empty.json", []), 1)


# ---------------------------------------------------------------- closed stdout, Ctrl-C

@pytest.mark.parametrize("args", [["generate", "--seed", "0"], ["solve", "POSITION", "--max-nodes", "1000"],
                                  ["solve", "POSITION", "--max-nodes", "1000", "--json"]], ids=" ".join)
@pytest.mark.parametrize("game", GAMES, ids=name)
def test_closed_stdout_exits_141_without_a_word(positions, game, args):
    """As `smokejumper solve ... | head -2` once the reader has gone: the
    read end is closed before the command writes anything."""
    verb, *rest = args
    verb = {"solve": search(game), "generate": game.maker}[verb]
    args = [verb, game.name, *(str(positions[game.name]) if a == "POSITION" else a for a in rest)]
    r, w = os.pipe()
    os.close(r)
    try:
        res = subprocess.run(CLI + args, stdout=w, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(w)
    assert (res.returncode, res.stderr) == (141, ""), res.stderr


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("game", GAMES, ids=name)
def test_ctrl_c_stops_the_search_at_once(tmp_path, game, as_json):
    """On the game's HARD search (its contract file): minutes of search."""
    path = write(tmp_path / "hard.json", contract(game).HARD[search(game)]["position"])
    assert_interrupts(search(game), game.name, path, "--max-seconds", 60, *(["--json"] if as_json else []))


def test_option_kinds_follow_the_request_fields():
    # A Literal field offers its values, optional or not (a plain Literal was
    # read as a number); an optional flag (None: the game decides) takes yes
    # or no (it took no value the model would accept).
    from typing import Literal, Optional

    from smokejumper.cli import _option_kind, _yes_no

    assert _option_kind(Literal["known", "hidden"]) == (None, ("known", "hidden"), None)
    assert _option_kind(Optional[Literal["a", "b"]]) == (None, ("a", "b"), None)
    assert _option_kind(bool | None) == (_yes_no, None, "yes|no")
    assert _option_kind(int | None) == (int, None, "N") and _option_kind(float) == (float, None, "N")
    assert [_yes_no(t) for t in ("yes", "No", "true", "0")] == [True, False, True, False]
    with pytest.raises(Exception, match="expected yes or no"):
        _yes_no("maybe")
