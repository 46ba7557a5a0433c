"""The contract every registered game keeps, in the spirit of OpenSpiel's
shared basic tests: a game gets all of these by registering, plus a small
file of its own here (``tests/contract/<game>.py``) naming a hard position,
bad positions, and how its check and hint list the next steps."""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
import threading
import time
import typing
import warnings
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from openapi_examples import request_examples
from smokejumper import Control, Limit
from smokejumper.cache import ResultCache
from smokejumper.games import Game, Operation, registered
from smokejumper.service.app import STATIC_DIR, create_app
from smokejumper.service.settings import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx vs httpx2
    from fastapi.testclient import TestClient

GAMES = registered()
# 40 seeded playouts a game; the sanitizer's run (SMOKEJUMPER_CROSS_CASES=100)
# plays 10, the ones the hint and line tests take.
PLAYOUT_SEEDS = range(max(10, 40 * int(os.environ.get("SMOKEJUMPER_CROSS_CASES", "2000")) // 2000))
PLAYOUT_STEPS = 1000  # past the longest game of any registered game
MB = 16
CLI = [sys.executable, "-m", "smokejumper.cli"]


def ids(game: Game) -> str:
    return game.name


def own(game: Game):
    """The game's file in this folder; a game registered without one fails here."""
    return importlib.import_module(f"contract.{game.name}")


def jsonable(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def ask(op: Operation, body: dict, limit: Limit | None = None, control: Control | None = None) -> Any:
    """``op`` called as every caller calls it: its request model, validated."""
    q = op.request.model_validate(body)
    if op.kind == "batch":
        return op.call(q, limit or Limit(), control or Control(), None)
    if op.takes_limit:
        return op.call(q, limit or Limit(), control or Control())
    return op.call(q)


def start(game: Game, seed: int) -> dict:
    """The position the game makes from ``seed``, as JSON (a game whose
    maker answers otherwise says how to read it: ``made``)."""
    made = ask(game.operation(game.maker), {"seed": seed})
    read = getattr(own(game), "made", None)
    return read(made) if read else made.position.model_dump(mode="json")


def replay_field(game: Game) -> str:
    """The replay request's list of steps (a line of moves, or of moves and chance outcomes)."""
    fields = game.operation("replay").request.model_fields
    return next(name for name, f in fields.items() if name != "position" and "list" in str(f.annotation))


def replay(game: Game, position: dict, steps: list[dict]) -> Any:
    """``steps`` played from ``position`` (a game whose replay takes one
    record says how to make it: ``replay_body``)."""
    body = getattr(own(game), "replay_body", None)
    return ask(game.operation("replay"),
               body(position, steps) if body else {"position": position, replay_field(game): steps})


def next_steps(game: Game, position: dict) -> list[dict]:
    return own(game).steps(ask(game.operation("check"), {"position": position}))


def playout(game: Game, seed: int) -> list[tuple[dict, list[dict], dict | None]]:
    """A seeded random game: (position, its legal steps, the step taken)
    along it, each step played by a replay of one step, until the game is
    over (no steps).

    A step's answer says when it ends the game: a position written after a
    loss need not show the loss (a tile the loss removed has left the board),
    so play stops there rather than going on from it."""
    rng = random.Random(seed)
    position, seen = start(game, seed), []
    for _ in range(PLAYOUT_STEPS):
        steps = next_steps(game, position)
        if not steps:
            break
        step = rng.choice(steps)
        seen.append((position, steps, step))
        played = replay(game, position, [step])
        assert played.error is None, (game.name, seed, step, played.error)
        position = played.position.model_dump(mode="json")
        if played.status in ("win", "loss"):
            break
    seen.append((position, [], None))
    return seen


@pytest.fixture(scope="module", params=GAMES, ids=ids)
def game(request) -> Game:
    return request.param


@pytest.fixture(scope="module")
def playouts(game: Game) -> list[list[tuple[dict, list[dict]]]]:
    return [playout(game, seed) for seed in PLAYOUT_SEEDS]


# ------------------------------------------------------------ the description


def test_a_game_describes_itself_completely(game: Game):
    assert game.title and game.summary and game.operations
    for name in (game.maker, "check", "replay", "hint"):  # solve too, where a game can be solved
        assert name in game.operations, f"{game.title} has no {name}"
    for op in game.operations.values():
        assert op.summary and issubclass(op.request, BaseModel) and issubclass(op.response, BaseModel)
        assert (not op.takes_limit) or "limit" in op.request.model_fields, op.name
        assert set(op.capped) <= set(op.request.model_fields), op.name
        examples = op.request.model_json_schema().get("examples")
        assert examples, f"{op.name} has no request example"
    mine = own(game)
    assert mine.BAD and callable(mine.steps) and callable(mine.hint_steps)


def test_the_page_has_the_games_view(game: Game):
    module = STATIC_DIR / "games" / f"{game.name}.js"
    assert module.is_file(), f"the page has no view for {game.title}"
    assert "export function mount(" in module.read_text()


# ------------------------------------------------------------ the rules engine


@pytest.mark.parametrize("seed", [0, 1, 2**40 + 7])
def test_a_seed_makes_the_same_position_every_time_and_it_round_trips(game: Game, seed: int):
    first, again = start(game, seed), start(game, seed)
    assert first == again
    model = game.position.model_validate(first)
    assert model.model_dump(mode="json") == first
    assert game.position.model_validate_json(json.dumps(first)).model_dump(mode="json") == first


def test_seeded_random_playouts_stay_legal_and_replay(game: Game, playouts):
    """Played whole from the start, each playout's line is legal, ends where
    its steps one by one ended, and a finished game takes no step more."""
    for seen in playouts:
        begin, end = seen[0][0], seen[-1][0]
        line = [step for _, _, step in seen[:-1]]
        whole = replay(game, begin, line)
        assert whole.error is None and len(whole.steps) == len(line), (game.name, whole.error)
        assert whole.position.model_dump(mode="json") == end
        assert whole.status in ("win", "loss"), f"a {game.title} playout did not end in {PLAYOUT_STEPS} steps"
        if line:
            assert replay(game, begin, line + [line[-1]]).error, "a step after the end"


def test_every_legal_move_reads_as_a_line_of_its_own(game: Game, playouts):
    """How a move is written for a person tells every legal move apart (the
    chance outcomes among the steps, such as a reveal, are not moves)."""
    read = 0
    for seen in playouts[:10]:
        for _, steps, _ in seen:
            moves = []
            for step in steps:
                try:
                    moves.append(game.move.model_validate(step))
                except ValidationError:
                    continue
            texts = [game.move_text(m) for m in moves]
            assert all(t and "\n" not in t for t in texts), texts
            assert len(set(texts)) == len(texts), (game.name, texts)
            read += len(texts)
    assert read


def test_every_hint_lists_exactly_the_legal_steps(game: Game, playouts):
    hint = game.operation("hint")
    checked = 0
    # A game whose hint costs more per node (a whole simulated game) asks
    # fewer and smaller: what is checked is the listing, not the values.
    every = getattr(own(game), "HINT_EVERY", 7)
    nodes = getattr(own(game), "HINT_NODES", 2_000)
    for seen in playouts[:10]:
        for position, steps, _ in seen[::every]:
            if not steps:
                continue
            answer = ask(hint, {"position": position}, Limit(nodes=nodes, memory_mb=MB))
            listed = sorted(jsonable(s) for s in own(game).hint_steps(answer))
            assert listed == sorted(jsonable(s) for s in steps), (game.name, position)
            checked += 1
    assert checked


def test_every_solve_line_replays_as_a_win(game: Game):
    if "solve" not in game.operations:
        pytest.skip(f"{game.title} is not solved, only searched by sampling")
    solve = game.operation("solve")
    if "line" not in solve.response.model_fields:
        pytest.skip(f"{game.title}'s solve gives a value, not a line")
    wins = 0
    for seed in range(8):
        position = start(game, seed)
        answer = ask(solve, {"position": position}, Limit(seconds=20, memory_mb=64))
        if answer.verdict == "win":
            played = replay(game, position, [m.model_dump(mode="json") for m in answer.line])
            assert played.error is None and played.status == "win", (game.name, seed)
            wins += 1
    assert wins, f"no {game.title} position of seeds 0-7 was won; pick others"


# ------------------------------------------------------------ limits


def searches(game: Game) -> list[Operation]:
    """The searches of a position (each needs a HARD request in the game's file)."""
    return [op for op in game.operations.values() if op.kind == "search" and "position" in op.request.model_fields]


def hard_body(game: Game, op: Operation) -> dict:
    hard = own(game).HARD
    assert op.name in hard, f"tests/contract/{game.name}.py: HARD has no request for {op.name}"
    return {**hard[op.name], "limit": None}


def search_nodes(game: Game) -> int:
    """A node count for the tests of limits: 2,000, or fewer for a game
    whose node is a whole simulated game."""
    return getattr(own(game), "SEARCH_NODES", 2_000)


@pytest.mark.parametrize("kind", ["nodes", "time"])
def test_every_search_obeys_its_limit_and_says_which_stopped_it(game: Game, kind: str):
    limit = Limit(nodes=search_nodes(game), memory_mb=MB) if kind == "nodes" else Limit(seconds=0.2, memory_mb=MB)
    for op in searches(game):
        answer = ask(op, hard_body(game, op), limit)
        assert answer.stats.stopped_by == kind, (op.name, answer.stats)
        if kind == "nodes":
            assert answer.stats.nodes <= 2 * limit.nodes + 10_000, op.name  # a poll's slack, not a second search
        if hasattr(answer.stats, "table_bytes"):
            assert answer.stats.table_bytes <= MB * 2**20, op.name


def test_the_stop_flag_stops_every_search(game: Game):
    for op in searches(game):
        control = Control()
        control.stop()
        answer = ask(op, hard_body(game, op), Limit(memory_mb=MB), control)
        assert answer.stats.stopped_by == "stopped", (op.name, answer.stats)


def test_every_search_counts_its_nodes_live(game: Game):
    """What the page shows of a long search: its Control's node count grows
    while it runs, not only in the answer at the end. Stopped once seen, so
    a slow machine (a sanitizer build under load) may take its time."""
    for op in searches(game):
        control, seen = Control(), 0
        worker = threading.Thread(target=ask, args=(op, hard_body(game, op), Limit(seconds=20.0, memory_mb=MB),
                                                    control))
        worker.start()
        while worker.is_alive() and not seen:
            seen = control.nodes
            time.sleep(0.01)
        control.stop()
        worker.join()
        assert seen > 0, f"{op.name} counted no node while it ran"


def test_every_search_answer_comes_back_whole_from_the_cache(game: Game, tmp_path: Path):
    """What the service and the CLI serve from the result cache is the
    answer as it was searched, as the operation's model."""
    cache = ResultCache(tmp_path / "c.sqlite3")
    limit = Limit(nodes=search_nodes(game), memory_mb=MB)
    for op in searches(game):
        body = op.request.model_validate(hard_body(game, op))
        answer = ask(op, hard_body(game, op), limit)
        assert cache.store(game.name, op.name, body, answer), op.name
        entry = cache.lookup(game.name, op.name, body, limit)
        assert entry is not None and entry.read(op.response) == answer, op.name


# ------------------------------------------------------------ the service


@pytest.fixture(scope="module")
def client():
    settings = Settings(max_seconds=5.0, max_nodes=3_000, max_memory_mb=MB, max_hint_samples=4)
    with TestClient(create_app(settings)) as c:
        yield c


def test_the_service_offers_every_operation_with_a_working_example(game: Game, client):
    listed = {g["name"]: g for g in client.get("/v1/games").json()["games"]}
    assert [g["name"] for g in listed.values()] == [g.name for g in GAMES]
    spec = client.get("/openapi.json").json()
    for op in listed[game.name]["operations"]:
        method = op["method"].lower()
        route = spec["paths"][op["path"]][method]
        assert "application/problem+json" in route["responses"]["422"]["content"]
        assert "application/json" not in route["responses"]["422"]["content"]  # errors are only problems
        example = request_examples(spec, method, op["path"])[0]
        r = client.get(op["path"], params=example) if method == "get" else client.post(op["path"], json=example)
        assert r.status_code == 200, (op["path"], r.text)
    served = {op["name"] for op in listed[game.name]["operations"]}
    assert served == {op.name for op in game.operations.values() if op.kind != "batch"}


def test_a_search_answer_says_which_caps_it_applied_and_what_was_asked(game: Game, client):
    for op in searches(game):
        body = {**hard_body(game, op), "limit": {"nodes": 10**9, "seconds": 60}}
        r = client.post(f"/v1/{game.name}/{op.name}", json=body)
        assert r.status_code == 200, r.text
        answer = r.json()
        limits = answer["limits"]
        assert limits["asked"]["nodes"] == 10**9 and limits["applied"]["nodes"] == 3_000
        assert limits["asked"]["seconds"] == 60 and limits["applied"]["seconds"] == 5.0
        assert {"nodes", "seconds"} <= set(limits["capped"])
        assert answer["stats"]["stopped_by"] in ("nodes", "time"), op.name
        for field in op.capped:  # the request's own fields the server holds (samples, threads, ...)
            asked = body.get(field, op.request.model_fields[field].default)
            assert limits["asked"][field] == asked and limits["applied"][field] is not None, (op.name, field)
            assert (field in limits["capped"]) == (asked is not None and limits["applied"][field] < asked)


def test_bad_input_is_one_line_naming_the_field(game: Game, client, tmp_path: Path):
    for position, needle in own(game).BAD:
        r = client.post(f"/v1/{game.name}/check", json={"position": position})
        assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json"), r.text
        detail = r.json()["detail"]
        assert needle in detail and "\n" not in detail, detail
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(position))
        cli = subprocess.run(CLI + ["check", game.name, str(path)], capture_output=True, text=True, timeout=60)
        assert cli.returncode == 2 and cli.stdout == "", cli
        assert len(cli.stderr.splitlines()) == 1 and "Traceback" not in cli.stderr
        assert needle.removeprefix("position.") in cli.stderr, cli.stderr


def _scalar_kind(annotation: Any) -> type | None:
    """int, float or bool when a field holds one (or None), else None."""
    kinds = {a for a in typing.get_args(annotation) or (annotation,) if a is not type(None)}
    kinds = {typing.get_args(a)[0] if typing.get_origin(a) is typing.Annotated else a for a in kinds}
    return next(iter(kinds)) if len(kinds) == 1 and next(iter(kinds)) in (int, float, bool) else None


# What a lax reader would guess at: a count written as text or as a flag, a
# flag written as text or as a number.
CONFUSED = {int: ["5", True, 2.5], float: ["5", True], bool: ["yes", 1, "true"]}


def test_numbers_and_flags_are_json_numbers_and_booleans(game: Game, client):
    """Issue 19: every request field that is a number or a flag refuses
    ``"5"``, ``true`` for a number and ``"yes"`` for a flag, as position
    fields do; a GET's query is text, read as the number it spells."""
    spec = client.get("/openapi.json").json()
    for op in game.operations.values():
        route = f"/v1/{game.name}/{op.name}"
        if op.kind == "batch":
            continue
        if op.kind == "data":
            example = request_examples(spec, "get", route)[0]
            for field in example:
                r = client.get(route, params={**example, field: "five"})
                assert r.status_code == 422 and f"query.{field}" in r.json()["detail"], (route, field, r.text)
            continue
        example = request_examples(spec, "post", route)[0]
        fields = {name: _scalar_kind(f.annotation) for name, f in op.request.model_fields.items()}
        bodies = [(f"body.{name}", {**example, name: bad}) for name, kind in fields.items() if kind
                  for bad in CONFUSED[kind]]
        if op.takes_limit:
            bodies += [(f"body.limit.{kind}", {**example, "limit": {kind: bad}})
                       for kind, bads in (("nodes", ["5", True, 1.5]), ("seconds", ["5", True]),
                                          ("memory_mb", ["16", False])) for bad in bads]
        for needle, body in bodies:
            r = client.post(route, json=body)
            assert r.status_code == 422 and needle in r.json()["detail"], (route, body, r.text)


def test_a_body_that_is_not_utf8_is_the_documented_problem(game: Game, client):
    route = next(f"/v1/{game.name}/{op.name}" for op in game.operations.values() if op.kind not in ("data", "batch"))
    r = client.post(route, content=b'{"position": "\xe9t\xe9"}', headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json"), r.text
    assert r.json()["detail"] == "body: not UTF-8 text (byte 14)"


def test_the_cli_writes_a_position_it_can_read_back(game: Game, tmp_path: Path):
    made = subprocess.run(CLI + [game.maker, game.name, "--seed", "5"], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    path = tmp_path / "position.json"
    path.write_text(made.stdout)
    checked = subprocess.run(CLI + ["check", game.name, str(path), "--json"], capture_output=True, text=True,
                             timeout=60)
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["status"] in ("ongoing", "reveal", "decision", "win", "loss")
