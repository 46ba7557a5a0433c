"""Tests of the Wild Fire! hint (``smokejumper.wildfire.hint``) and the drawn
tile of hidden-order positions.

The hint's counts are re-derived without its code: ``sample_deals`` lists the
deals it samples, and every action is solved on each of them by the
brute-force reference (``tests/wildfire_reference.py``, written from the spec
alone), whose verdicts must add up to the hint's wins and losses.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import facts
import wildfire_reference as ref
from smokejumper import Control, InvalidPositionError, Limit, wildfire
from smokejumper.cli import main
from smokejumper.stats import wilson_interval


# ---------------------------------------------------------------- helpers

def key(m) -> tuple:
    """A move (model or the reference's dict) as a hashable tuple."""
    if isinstance(m, wildfire.Move):
        m = m.model_dump(mode="json")
    p = m["pawns"]
    return (tuple(m["place"]),) + ((p["color"], tuple(p["tile"]), p["count"]) if p else ())


def kind(t) -> tuple:
    """A tile off the table as (n, spaces), spaces written out."""
    if isinstance(t, wildfire.TileKind):
        t = t.model_dump()
    return t["n"], t.get("spaces") or ref.DEFAULT_SPACES[t["n"]]


def hidden(rng: random.Random, tiles: int, extra: int = 2, **deal_options) -> dict:
    """A random hidden-order position (start or mid-game) with its drawn tile:
    a known-order position whose deal becomes a pool, with ``extra`` unseen
    tiles that will not be drawn."""
    if rng.random() < 0.5:
        known = ref.random_deal(rng, tiles, **deal_options)
        deal = known.pop("deal")
        position = {**known, "start": deal[0], "turns": len(deal) - 1}
        rest = deal[1:]
    else:
        position = ref.random_midgame(rng, tiles, **deal_options)
        rest = position.pop("deal_rest")
        position["turns_left"] = len(rest)
    position["pool"] = rest + [{"n": n} for n in rng.sample(ref.BOX, extra)]
    position["drawn"] = rng.choice(position["pool"])
    return position


def bigger() -> dict:
    """A hidden start too large for the reference, where a small node cap
    leaves some solves unknown."""
    known = ref.random_deal(random.Random(12), 14, colours=2, max_pawns=10, min_ones=2, level=1)
    deal = known.pop("deal")
    return {**known, "start": deal[0], "turns": 13, "pool": deal[1:] + [{"n": 4}, {"n": 6}],
            "drawn": deal[1]}


def with_deal(position: dict, draws) -> dict:
    """The hidden position as a known order: the drawn tile, then ``draws``."""
    known = {k: v for k, v in position.items() if k not in ("start", "pool", "turns", "turns_left", "drawn")}
    deal_rest = [position["drawn"]] + [t.model_dump() if isinstance(t, wildfire.TileKind) else t
                                       for t in draws]
    if "start" in position:
        return {**known, "deal": [position["start"]] + deal_rest}
    return {**known, "deal_rest": deal_rest}


def ref_moves(position: dict) -> list[dict]:
    """The reference's legal moves for this turn (hidden: with the drawn tile)."""
    bare = {k: v for k, v in position.items() if k != "drawn"}
    return ref.legal_moves(bare, position.get("drawn"))


def reference_counts(position: dict, deals) -> dict[tuple, Counter]:
    """Per move, the reference's verdicts on each deal."""
    counts: dict[tuple, Counter] = {}
    for draws in deals:
        known = with_deal(position, draws)
        for move in ref.legal_moves(known):
            verdict, _line = ref.solve(ref.apply(known, move))
            counts.setdefault(key(move), Counter())[verdict] += 1
    return counts


def pool_sorted(position: wildfire.Position) -> dict:
    """The position as JSON with its pool in order (a pool is a multiset)."""
    out = position.model_dump(mode="json")
    out["pool"] = sorted(out["pool"], key=kind)
    return out


def counts_of(result: wildfire.HintResult) -> dict[tuple, tuple[int, int, int]]:
    return {key(c.move): (c.wins, c.losses, c.unknown) for c in result.moves}


# ---------------------------------------------------------------- the drawn tile

def test_drawn_tile_makes_one_hidden_turn_playable():
    rng = random.Random(3)
    for _ in range(30):
        position = hidden(rng, rng.randint(3, 8), max_pawns=5)
        check = wildfire.check(position)
        assert {key(m) for m in check.moves} == {key(m) for m in ref_moves(position)}
        assert kind(check.position.drawn) == kind(position["drawn"])
        move = rng.choice(ref_moves(position))
        bare = {k: v for k, v in position.items() if k != "drawn"}
        expected = ref.apply(bare, move, position["drawn"])
        step = wildfire.replay(position, [move]).steps[0]
        assert pool_sorted(step.position) == pool_sorted(wildfire.load_position(expected))
        assert step.position.drawn is None     # the next draw is unknown again
        if expected["turns_left"]:
            again = wildfire.replay(position, [move, move])
            assert "drawn" in again.error and len(again.steps) == 1


def test_drawn_tile_errors():
    base = {"start": {"n": 3}, "pool": [{"n": 1}, {"n": 5}], "turns": 2, "supply": [1]}
    with pytest.raises(InvalidPositionError, match="drawn: no tile 4 .* in the pool"):
        wildfire.check({**base, "drawn": {"n": 4}})
    with pytest.raises(InvalidPositionError, match="drawn: no tile 5 with 1 spaces"):
        wildfire.check({**base, "drawn": {"n": 5, "spaces": 1}})
    with pytest.raises(InvalidPositionError, match="drawn"):
        wildfire.check({"deal": [{"n": 3}, {"n": 5}], "drawn": {"n": 5}})
    with pytest.raises(InvalidPositionError, match="only for hidden order"):
        wildfire.check({"tiles": [{"q": 0, "r": 0, "n": 3}], "turn": 0, "deal_rest": [{"n": 5}],
                        "drawn": {"n": 5}})
    with pytest.raises(InvalidPositionError, match="game is over"):
        wildfire.check({**base, "turns": 0, "drawn": {"n": 5}})
    assert wildfire.check(base).moves == []   # no drawn tile: no moves


# ---------------------------------------------------------------- hint against the reference

def test_hint_counts_agree_with_the_reference_on_the_sampled_deals():
    rng = random.Random(41)
    totals = Counter()
    for _ in range(30):
        position = hidden(rng, rng.randint(4, 8), extra=rng.randint(0, 3), max_pawns=rng.randint(2, 5))
        samples, seed = rng.randint(3, 8), rng.randrange(2**64)
        result = wildfire.hint(position, samples=samples, seed=seed, workers=1)
        deals = wildfire.sample_deals(position, samples, seed)
        assert result.seed == seed and result.stats.stopped_by is None
        assert result.samples == result.samples_requested == len(deals)
        # Every legal move exactly once.
        assert sorted(key(c.move) for c in result.moves) == sorted(key(m) for m in ref_moves(position))
        expected = reference_counts(position, deals)
        for move, (wins, losses, unknown) in counts_of(result).items():
            assert (wins, losses, unknown) == (expected[move]["win"], expected[move]["loss"], 0), position
        n = result.samples
        for c in result.moves:
            assert c.value == c.wins / n
            assert c.ci95 == ((c.wins, c.wins + c.unknown) if result.exact else
                                    (wilson_interval(c.wins, n)[0], wilson_interval(c.wins + c.unknown, n)[1]))
        shares = [(c.value, c.ci95[0]) for c in result.moves]
        assert shares == sorted(shares, reverse=True)
        totals.update(v for c in expected.values() for v in c.elements())
        totals["sampled"] += not result.exact
    assert totals["win"] >= 50 and totals["loss"] >= 50 and totals["sampled"] >= 6, totals


def test_known_order_hint_agrees_with_solve_on_every_child():
    rng = random.Random(8)
    for _ in range(15):
        position = ref.random_deal(rng, rng.randint(3, 7), max_pawns=4, min_ones=1) if rng.random() < 0.5 \
            else ref.random_midgame(rng, rng.randint(4, 7))
        result = wildfire.hint(position, samples=50)
        assert result.exact and result.samples == result.samples_requested == 1
        assert sorted(key(c.move) for c in result.moves) == sorted(key(m) for m in ref.legal_moves(position))
        for c in result.moves:
            child = wildfire.replay(position, [c.move]).position
            verdict = wildfire.solve(child).verdict
            assert ref.solve(ref.apply(position, c.move.model_dump(mode="json")))[0] == verdict
            assert (c.wins, c.losses, c.unknown) == (verdict == "win", verdict == "loss", 0)
            assert c.ci95 == (c.wins, c.wins) and c.value == c.wins


def test_a_move_that_may_still_win_ranks_before_one_proved_lost():
    """At one node a deal, most moves are unknown on it (share 0, interval
    [0, 1]) and one is proved lost (share 0, interval [0, 0]): the lost one
    comes after every unknown one, whatever its place in check's order."""
    deal = {"deal": [{"n": n} for n in (1, 5, 3, 1, 2, 4, 6, 1)], "supply": [3, 2, 2]}
    moves = wildfire.hint(deal, sample_nodes=1, workers=1).moves
    uppers = [m.interval95[1] for m in moves if m.win_share == 0]
    assert 0.0 in uppers and 1.0 in uppers and uppers == sorted(uppers, reverse=True), uppers


def test_one_possible_deal_is_exact():
    # One turn left, or every unseen tile alike: the hidden order is known.
    last = {"start": {"n": 1}, "pool": [{"n": 5}, {"n": 2}], "turns": 1, "supply": [1], "drawn": {"n": 5}}
    alike = {"start": {"n": 1}, "pool": [{"n": 5}, {"n": 2}, {"n": 2}], "turns": 3, "supply": [2],
             "drawn": {"n": 5}}
    for position in (last, alike):
        result = wildfire.hint(position, samples=30)
        assert result.exact and result.samples == 1
        deals = wildfire.sample_deals(position, 30)
        assert len(deals) == 1
        assert counts_of(result) == {m: (c["win"], c["loss"], 0)
                                     for m, c in reference_counts(position, deals).items()}


# ---------------------------------------------------------------- sampling

def test_sampled_deals_come_from_the_pool_less_the_drawn_tile():
    pool = [{"n": 1}, {"n": 2}, {"n": 3, "spaces": 3}, {"n": 3}, {"n": 5}, {"n": 5}, {"n": 6}]
    position = {"start": {"n": 4}, "pool": pool, "turns": 4, "supply": [2], "drawn": {"n": 5}}
    unseen = Counter(kind(t) for t in pool) - Counter([kind(position["drawn"])])
    deals = wildfire.sample_deals(position, 3000, seed=5)
    assert len(deals) == 3000
    for deal in deals:
        assert len(deal) == 3 and not Counter(kind(t) for t in deal) - unseen
    # Uniform: each unseen tile is drawn first about 1/6 of the time.
    first = Counter(kind(deal[0]) for deal in deals)
    for tile, copies in unseen.items():
        assert abs(first[tile] - 3000 * copies / 6) < 150, first
    # Sample i comes from (seed, i) alone; another seed gives other deals.
    assert wildfire.sample_deals(position, 40, seed=5) == deals[:40]
    assert wildfire.sample_deals(position, 40, seed=6) != deals[:40]


def test_same_seed_same_answer_on_one_or_two_workers():
    position = bigger()
    runs = [wildfire.hint(position, samples=12, seed=99, sample_nodes=100, workers=w) for w in (1, 2, 2)]
    assert any(c.unknown for c in runs[0].moves)   # the node cap matters here
    for r in runs[1:]:
        assert r.moves == runs[0].moves
        assert (r.stats.nodes, r.stats.solves) == (runs[0].stats.nodes, runs[0].stats.solves)
    other = wildfire.hint(position, samples=12, seed=100, sample_nodes=100, workers=2)
    assert wildfire.sample_deals(position, 12, 100) != wildfire.sample_deals(position, 12, 99)
    assert counts_of(other) != counts_of(runs[0])


@pytest.mark.parametrize("workers", [1, 2])
def test_a_watched_hint_shows_the_best_moves_interval_over_the_deals_counted_so_far(workers):
    # Live progress (issue 19): each interval shown is the best move's over
    # a prefix of the deals (what a hint of that many samples answers), and
    # the last is the answer's.
    position = bigger()
    control = Control()
    result, seen = facts.watched(lambda: wildfire.hint(position, samples=12, seed=99, sample_nodes=100,
                                                       workers=workers, control=control), control)
    prefixes = {k: wildfire.hint(position, samples=k, seed=99, sample_nodes=100, workers=1).moves[0].ci95
                for k in range(1, 13)}
    assert seen and control.interval == pytest.approx(result.moves[0].ci95) == prefixes[12]
    for shown in seen:
        assert any(shown == pytest.approx(ci) for ci in prefixes.values()), (shown, prefixes)


def test_a_hint_on_one_possible_deal_shows_no_interval():
    control = Control()
    position = {"start": {"n": 1}, "pool": [{"n": 5}, {"n": 2}], "turns": 1, "supply": [1], "drawn": {"n": 5}}
    assert wildfire.hint(position, control=control).exact and control.interval is None


# ---------------------------------------------------------------- limits and the stop flag

def test_node_limit_counts_a_prefix_of_the_samples_on_any_thread_count():
    position = bigger()
    full = wildfire.hint(position, samples=12, seed=99, sample_nodes=100, workers=1)
    cap = full.stats.nodes // 2
    cut = [wildfire.hint(position, Limit(nodes=cap), samples=12, seed=99, sample_nodes=100, workers=w)
           for w in (1, 2)]
    k = cut[0].samples
    assert 0 < k < 12 and cut[0].stats.stopped_by == "nodes" and cut[0].stats.nodes <= cap + 100
    assert cut[1].samples == k and cut[1].moves == cut[0].moves
    prefix = wildfire.hint(position, samples=k, seed=99, sample_nodes=100, workers=1)
    assert counts_of(cut[0]) == counts_of(prefix)
    for c in cut[0].moves:
        assert c.wins + c.losses + c.unknown == k


def test_stop_flag_and_time_limit_count_no_partial_sample():
    position = {"start": {"n": 1}, "pool": [{"n": 5}, {"n": 2}, {"n": 3}], "turns": 3, "supply": [2],
                "drawn": {"n": 5}}
    control = Control()
    control.stop()
    for result in (wildfire.hint(position, control=control), wildfire.hint(position, Limit(seconds=0))):
        assert result.samples == 0 and result.samples_requested == 200
        assert result.stats.stopped_by in ("stopped", "time")
        for c in result.moves:
            assert (c.wins, c.losses, c.unknown, c.value) == (0, 0, 0, 0.0) and c.ci95 == (0.0, 1.0)
    assert wildfire.hint(position, control=control).stats.stopped_by == "stopped"


# ---------------------------------------------------------------- bad input and the CLI

HIDDEN = {"start": {"n": 1}, "pool": [{"n": 5}, {"n": 2}, {"n": 3}], "turns": 3, "supply": [2],
          "drawn": {"n": 5}}


@pytest.mark.parametrize("position, options, needle", [
    (HIDDEN, {"samples": 0}, "samples"),
    (HIDDEN, {"samples": 100_001}, "samples"),
    (HIDDEN, {"seed": -1}, "seed"),
    (HIDDEN, {"seed": 2**64}, "seed"),
    (HIDDEN, {"sample_nodes": 0}, "sample_nodes"),
    (HIDDEN, {"workers": 0}, "workers"),
    ({k: v for k, v in HIDDEN.items() if k != "drawn"}, {}, "needs 'drawn'"),
    ({**HIDDEN, "drawn": {"n": 4}}, {}, "not in the pool|no tile 4"),
    ({"deal": [{"n": 1}], "supply": [0]}, {}, "game is over"),
    ({"tiles": [{"q": 0, "r": 0, "n": 1}], "turn": 0, "pool": [{"n": 2}], "turns_left": 0}, {}, "game is over"),
    ({**HIDDEN, "turns": 4}, {}, "^.*turns: 4 must be 0..the pool size 3"),  # the start form's own field
])
def test_bad_hint_input_gives_one_clear_error(position, options, needle):
    with pytest.raises(ValueError, match=needle):
        wildfire.hint(position, **options)


def test_cli_hint_wildfire(tmp_path, capsys):
    f = tmp_path / "p.json"
    f.write_text(json.dumps(HIDDEN))
    assert main(["hint", "wildfire", str(f), "--samples", "7", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["samples"] == 7 and out["seed"] == 3 and not out["exact"]
    assert out["moves"] == wildfire.hint(HIDDEN, samples=7, seed=3).model_dump(mode="json")["moves"]
    assert main(["hint", "wildfire", str(f), "--samples", "7"]) == 0
    text = capsys.readouterr().out
    assert "| move | wins |" in text and "7 of 7 sampled deals" in text
    for args in (["--samples", "0"], ["--seed", "-2"]):
        with pytest.raises(SystemExit) as e:
            main(["hint", "wildfire", str(f), *args])
        assert e.value.code == 2
        assert capsys.readouterr().err.count("\n") == 1
    f.write_text(json.dumps({k: v for k, v in HIDDEN.items() if k != "drawn"}))
    with pytest.raises(SystemExit) as e:
        main(["hint", "wildfire", str(f)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "drawn" in err
    with pytest.raises(SystemExit) as e:
        main(["check", "wildfire", str(f), "--samples", "3"])
    assert e.value.code == 2 and "unrecognized arguments: --samples" in capsys.readouterr().err
