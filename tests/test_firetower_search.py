"""Fire Tower's searches: the hint's answer is the same on any thread count
under a node limit, its values lie within the intervals of a longer rerun,
it lists every legal move, and it chooses moves the baselines do not; the
baselines keep their definitions (spec section 14); whole games and the
analysis count what they played."""

from __future__ import annotations

import json

import facts
import pytest

from firetower_positions import board, position
from smokejumper import Control, InvalidPositionError, Limit, firetower

# Two towers burned, the fire a few squares from the SE corner, a hand of
# fire and wind cards: games from here are won often enough to measure.
NEAR_A_WIN = position(
    board({9: "..........FF", 10: "...........F", 11: "...........FF", 12: "............F"}),
    ["flare_up", "burning_snag", "wind_s", "wind_e", "crown_fire", "smokejumper"],
    draw={"ember": 4, "flare_up": 3, "wind_s": 3, "air_drop": 3, "explosion": 3, "firestorm": 1},
    burned={"NE": True, "SW": True, "SE": False}, wind="S",
    buckets={"NW": "unused", "NE": "used", "SW": "used", "SE": "used"})
NEAR_A_WIN["board"][0] = "...............F"
NEAR_A_WIN["board"][15] = "F..............."
# The same cards with the fire farther from the SE corner and four turns
# left: games from here are won or run out of time, and moves differ in
# how often.
AGAINST_THE_CLOCK = {**NEAR_A_WIN, "board": board({10: ".........FF", 11: ".........F"}),
                     "options": {**NEAR_A_WIN["options"], "turn_limit": 4}}
AGAINST_THE_CLOCK["board"][0] = "...............F"
AGAINST_THE_CLOCK["board"][15] = "F..............."


def test_the_position_near_a_win_is_at_the_action():
    state = firetower.check(NEAR_A_WIN)
    assert state.decision == "action" and state.hand_size == 8


def test_a_hint_is_the_same_on_one_thread_or_two():
    one = firetower.hint(NEAR_A_WIN, Limit(nodes=600), seed=3, workers=1)
    two = firetower.hint(NEAR_A_WIN, Limit(nodes=600), seed=3, workers=2)
    assert one.model_dump(exclude={"stats"}) == two.model_dump(exclude={"stats"})
    assert one.stats.iterations == two.stats.iterations == 600


def by_move(hint: firetower.HintResult) -> dict[str, firetower.HintMove]:
    return {firetower.move_text(m.move): m for m in hint.moves}


def test_hint_values_agree_with_reruns_within_their_intervals():
    """The same search with other seeds, as long and five times longer:
    each searched move's two 95% intervals overlap (one of the eight may
    miss). Below the root the tree and the rollouts play one fixed greedy,
    so a longer run estimates the same values, not better ones; the moves
    share their chance outcomes, so one run's errors go the same way for
    all its moves, and each pair is compared apart."""
    short = firetower.hint(AGAINST_THE_CLOCK, Limit(nodes=600), seed=1)
    searched = [m for m in short.moves if m.n >= 30]
    assert len(searched) >= 6 and 0 < short.value < 1  # games from here are won and lost
    assert max(m.value for m in searched) - min(m.value for m in searched) > 0.2  # and the moves differ
    for nodes, seed in [(600, 7), (3000, 2)]:
        rerun = by_move(firetower.hint(AGAINST_THE_CLOCK, Limit(nodes=nodes), seed=seed))
        overlap = sum(rerun[firetower.move_text(m.move)].ci95[0] <= m.ci95[1] and
                      m.ci95[0] <= rerun[firetower.move_text(m.move)].ci95[1] for m in searched)
        assert overlap >= len(searched) - 1, (nodes, overlap, len(searched))


def test_a_hint_lists_every_legal_move_once():
    state = firetower.check(NEAR_A_WIN, max_moves=10**6)
    hint = firetower.hint(NEAR_A_WIN, Limit(nodes=200), seed=1)
    listed = [firetower.move_text(m) for h in hint.moves for m in [h.move, *h.equivalent]]
    assert sorted(listed) == sorted(firetower.move_text(m) for m in state.moves)
    assert hint.moves_total == state.move_count and hint.best == hint.moves[0].move
    assert all(h.n == 0 for h in hint.moves[hint.stats.candidates:])


def test_the_hint_shares_its_iterations_evenly_and_answers_by_mean():
    """The search is a lookahead on a greedy player of its own (section
    14's h with fire_distances): on this open board, where that h ranks
    much as section 14's does, section 14's greedy move is among the
    searched; every searched candidate gets the same share of the
    iterations (within one a tree), and the best is the highest mean of
    what the search steered by."""
    hint = firetower.hint(NEAR_A_WIN, Limit(nodes=640), seed=4)
    searched = hint.moves[:hint.stats.candidates]
    assert hint.stats.candidates == 8 and max(m.n for m in searched) - min(m.n for m in searched) <= 8
    assert [m.search_value for m in searched] == sorted((m.search_value for m in searched), reverse=True)
    greedy = firetower.baseline_move(NEAR_A_WIN, "greedy")
    assert any(greedy in (m.move, *m.equivalent) for m in searched)


def test_a_hint_asked_for_every_move_values_every_distinct_move():
    """candidates=0 puts every distinct move at the root: given at least a
    visit a move in each of the 8 trees, each is valued, the iterations
    again shared evenly; the answer still does not depend on the thread
    count. A count in between values that many, greedy's best first."""
    distinct = len(firetower.hint(NEAR_A_WIN, Limit(nodes=8), seed=1).moves)
    every = firetower.hint(NEAR_A_WIN, Limit(nodes=8 * distinct), seed=5, candidates=0, workers=2)
    assert every.stats.candidates == len(every.moves) == distinct > 8
    assert min(m.n for m in every.moves) >= 8 and max(m.n for m in every.moves) - min(m.n for m in every.moves) <= 8
    assert every == firetower.hint(NEAR_A_WIN, Limit(nodes=8 * distinct), seed=5, candidates=0, workers=1) \
        .model_copy(update={"stats": every.stats})
    three = firetower.hint(NEAR_A_WIN, Limit(nodes=240), seed=5, candidates=3)
    assert three.stats.candidates == 3 and [m.n > 0 for m in three.moves].count(True) == 3
    eight = firetower.hint(NEAR_A_WIN, Limit(nodes=240), seed=5)
    # greedy's best 3 are among its best 8
    assert {json.dumps(m.move) for m in three.moves[:3]} <= {json.dumps(m.move) for m in eight.moves[:8]}
    with pytest.raises(ValueError, match="candidates"):
        firetower.hint(NEAR_A_WIN, Limit(nodes=8), candidates=-1)


@pytest.mark.scale  # eighteen hints of whole simulated games; the other hints take the same paths
def test_mcts_chooses_moves_the_baselines_do_not():
    """On a fixed set of positions (Level 1 games by greedy, every tenth
    action), with a fixed seed, the hint's best move differs from greedy's
    and random's somewhere: the search is not a baseline in disguise."""
    differs_greedy = differs_random = 0
    for seed in (1, 2, 3):
        record = firetower.play(level=1, seed=seed, policy="greedy").record.model_dump(mode="json")
        for cut in range(10, len(record["events"]), 10):
            state = firetower.check({"start": record["start"], "events": record["events"][:cut]})
            if state.decision != "action":
                continue
            best = firetower.hint(state.record, Limit(nodes=100), seed=seed).best
            differs_greedy += best != firetower.baseline_move(state.record, "greedy")
            differs_random += best != firetower.baseline_move(state.record, "random", seed=seed)
    assert differs_greedy > 0 and differs_random > 0


def test_greedy_takes_the_best_h_and_the_first_in_canonical_order():
    # T1 with a Flare Up: every play puts 1-3 gems next to the Flame; greedy
    # takes the one that most shortens the distances to the enemy corners
    # without nearing its own, the first of the ties in canonical order.
    state = firetower.check(position(board({}), ["flare_up", "ember"]), max_moves=10**6)
    move = firetower.baseline_move(state.record, "greedy")
    assert move in state.moves and move["type"] == "play"
    for seed in range(5):
        assert firetower.baseline_move(state.record, "random", seed=seed) in state.moves


def test_a_chance_point_gets_its_value_only():
    game = firetower.new(level=1, seed=4)
    record = game.record.model_dump(mode="json")
    record["events"] = [game.moves[0]]  # the starting wind's die comes next
    hint = firetower.hint(record, Limit(nodes=100))
    assert hint.decision is None and hint.moves == [] and hint.best is None
    assert sum(c.probability for c in hint.chances) == pytest.approx(1.0) and hint.n == 100


def test_a_hint_of_a_finished_game_is_refused():
    game = firetower.play(level=7, seed=1, policy="random")
    with pytest.raises(InvalidPositionError, match="over"):
        firetower.hint(game.record, Limit(nodes=10))


def test_the_score_objective_values_scores():
    hint = firetower.hint(NEAR_A_WIN, Limit(nodes=300), seed=1, objective="score")
    assert all(0 <= m.value <= 9 for m in hint.moves) and hint.objective == "score"


def test_a_score_interval_stays_within_the_scores_a_game_can_have():
    # A few samples of scores 0 and 9 give a normal interval past both ends
    # (it was [-0.84, 2.59] here); scores lie in 0..9, and so must the interval.
    game = firetower.new(level=1, seed=7)
    while game.decision != "action":
        game = firetower.apply(game.record, game.moves[0], seed=7)
    hint = firetower.hint(game.record, Limit(nodes=24), seed=1, objective="score", workers=1)
    valued = [m for m in hint.moves if m.n]
    assert any(0 < m.value < 9 for m in valued)
    assert all(0 <= m.ci95[0] <= m.value <= m.ci95[1] <= 9 for m in valued)
    assert 0 <= hint.ci95[0] <= hint.ci95[1] <= 9


def test_a_whole_game_by_each_policy_replays():
    for policy, limit in (("random", None), ("greedy", None), ("mcts", Limit(nodes=40))):
        game = firetower.play(level=3, seed=8, policy=policy, limit=limit)
        assert game.status in ("win", "loss", "timeout") and not game.stopped
        replayed = firetower.replay(game.record)
        assert replayed.ok and replayed.status == game.status and replayed.score == game.score
    # The deal, draws and dice come from the seed alone: the same start for every policy.
    assert firetower.play(level=3, seed=8, policy="random").record.start == game.record.start


def test_the_analysis_counts_its_games():
    a = firetower.analyse(2, 12, policy="greedy", seed=5, workers=2)
    assert a.wins + a.losses + a.timeouts == a.games == len(a.results) == 12
    assert [r.seed for r in a.results] == list(range(5, 17))
    assert a.ci95[0] <= a.win_rate <= a.ci95[1]
    again = firetower.analyse(2, 12, policy="greedy", seed=5, workers=1)
    assert [r.status for r in again.results] == [r.status for r in a.results]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_watched_hint_shows_its_best_moves_interval_narrowing(workers):
    # What a watcher sees (issue 19's live progress): the 95% interval of
    # the move most visited so far, from the first thread's trees, a few
    # times a second, narrowing as the visits grow.
    control = Control()
    _, seen = facts.watched(lambda: firetower.hint(NEAR_A_WIN, Limit(nodes=3000), control=control, workers=workers),
                            control, every=0.005)
    assert len(seen) >= 2, seen
    assert all(0 <= lo <= hi <= 1 for lo, hi in seen), seen
    assert seen[-1][1] - seen[-1][0] < seen[0][1] - seen[0][0], seen


def test_a_search_given_no_time_or_node_limit_is_held_to_its_node_default():
    # A sampling search has no end of its own: without a time or node
    # limit, a hint gets HINT_LIMIT's nodes and each decision of a played
    # game DECISION_LIMIT's, so the call returns and its answer is the seed's.
    state = firetower.check(NEAR_A_WIN)
    default = firetower.hint(state.record, seed=3)
    assert default.stats.iterations == firetower.HINT_LIMIT.nodes == 256 and default.stopped_by == "nodes"
    with_memory = firetower.hint(state.record, Limit(memory_mb=64), seed=3)
    assert with_memory.moves == default.moves
    played = firetower.play(level=1, seed=5, turn_limit=2)  # two turns: enough to see each decision's nodes
    assert played.record == firetower.play(level=1, seed=5, limit=firetower.DECISION_LIMIT, turn_limit=2).record
    assert 0 < played.nodes <= firetower.DECISION_LIMIT.nodes * played.decisions


def test_the_clis_hint_and_play_take_the_node_defaults(tmp_path):
    import subprocess
    import sys

    cli = [sys.executable, "-m", "smokejumper.cli"]
    (tmp_path / "near.json").write_text(json.dumps(NEAR_A_WIN))
    hinted = subprocess.run(cli + ["hint", "firetower", str(tmp_path / "near.json"), "--json"], capture_output=True,
                            text=True, timeout=120)
    assert hinted.returncode == 0, hinted.stderr
    assert json.loads(hinted.stdout)["stats"]["iterations"] == firetower.HINT_LIMIT.nodes
    timed = subprocess.run(cli + ["hint", "firetower", str(tmp_path / "near.json"), "--max-seconds", "0.2", "--json"],
                           capture_output=True, text=True, timeout=120)
    assert json.loads(timed.stdout)["stopped_by"] == "time"  # a time limit alone: no node default


@pytest.mark.scale  # whole games by MCTS through the CLI
def test_the_clis_analysis_by_mcts_counts_its_games_with_a_progress_bar():
    import subprocess
    import sys

    cli = [sys.executable, "-m", "smokejumper.cli", "analyse", "firetower", "--level", "1", "--games", "3",
           "--policy", "mcts", "--seed", "5", "--max-nodes", "8", "--workers", "2"]
    shown = subprocess.run(cli, capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0, shown.stderr
    assert "3/3" in shown.stderr and "/s" in shown.stderr  # the bar, with its rate
    answer = json.loads(subprocess.run(cli + ["--json"], capture_output=True, text=True, timeout=300).stdout)
    assert (answer["policy"], answer["games"], answer["seed"]) == ("mcts", 3, 5)
    assert answer["wins"] + answer["losses"] + answer["timeouts"] == 3
    assert [r["seed"] for r in answer["results"]] == [5, 6, 7]
    # Each game is the one `play` gives for its seed under the same limit.
    for r in answer["results"]:
        alone = firetower.play(level=1, seed=r["seed"], limit=Limit(nodes=8))
        assert (alone.status, alone.turns, alone.decisions, alone.nodes) == (r["status"], r["turns"], r["decisions"],
                                                                            r["nodes"])
    lo, hi = answer["ci95"]
    assert lo <= answer["win_rate"] <= hi


@pytest.mark.scale  # 34,000 simulated games; tests/cpp/test_mcts.cpp holds a full arena under the sanitizers
def test_the_tree_is_held_to_its_memory_and_the_search_goes_on_without_growing_it():
    # 1 MiB holds 16,384 nodes (64 bytes each): past that the iterations go
    # on, valuing the leaves they reach, and the tree grows no more.
    h = firetower.hint(NEAR_A_WIN, Limit(nodes=17_000, memory_mb=1), seed=2)
    assert h.stats.iterations == 17_000 and h.stopped_by == "nodes"
    assert 0 < h.stats.tree_nodes <= 16_384 < h.stats.iterations
    roomy = firetower.hint(NEAR_A_WIN, Limit(nodes=17_000, memory_mb=64), seed=2)
    assert roomy.stats.tree_nodes > 16_384
