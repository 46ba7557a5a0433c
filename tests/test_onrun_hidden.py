"""On the Run! with the tile order hidden: the exact expected score, hints
and per-draw values against the plain-Python brute-force expectimax
(tests/onrun_reference.py, exact fractions, sharing no code with the
engine) on seeded small positions; the positions' validation; and the
sampled answer's labels and bounds.

SMOKEJUMPER_CROSS_CASES scales the number of cases (default 2000)."""

from __future__ import annotations

import json
import os
import random
from fractions import Fraction

import pytest

import onrun_reference as ref
from recorded import Record
from smokejumper import Limit, onrun
from smokejumper._core import InvalidPositionError

CASES = int(os.environ.get("SMOKEJUMPER_CROSS_CASES", "2000"))
BOX = [n for n in range(1, 7) for _ in range(7)] + [3]
LIMIT = Limit(seconds=60)


def hidden_position(seed: int) -> dict:
    """A small hidden-order position: from the start, or a few turns into a
    known deal, with a pool of 2-6 tiles, 1-2 turns left (mid-game, where
    evacuations multiply the moves: 2 only with a tile drawn; the brute
    force takes seconds on more) and sometimes a tile drawn. Only
    colours with a turn to come keep pawns in the supply, and those few, so
    that many positions can be won and their values are not all 0."""
    rng = random.Random(seed)

    def tile() -> dict:
        n = rng.choice(BOX)
        return {"n": n, "spaces": rng.randint(1, 3)} if rng.random() < 0.3 else {"n": n}

    pool = [tile() for _ in range(rng.randint(2, 6))]
    drawn = tile() if rng.random() < 0.3 else None
    available = len(pool) + (drawn is not None)
    turns = rng.randint(1, 2)
    if rng.random() < 0.6:
        position = {"start": [tile(), tile()], "supply": [0, 0, 0, 0]}
    else:
        known = {"deal": [tile() for _ in range(rng.randint(5, 7))], "supply": [rng.choice([1, 1, 2]) for _ in range(4)]}
        for _ in range(rng.randint(1, 3)):
            moves = [c.move for c in onrun.check(known).moves]
            busy = [m for m in moves if m.action.kind != "pass"] or moves
            known = onrun.replay(known, [rng.choice(busy)]).position.model_dump(mode="json", exclude_none=True)
        position = {k: known[k] for k in ("tiles", "edge", "supply", "next")}
        turns = turns if drawn is not None else 1
    nxt = position.get("next", 0)
    acting = {(nxt + i) % 4 for i in range(turns)}
    position["supply"] = [rng.choice([0, 1, 1, 2]) if c in acting else 0 for c in range(4)]
    position["pool"] = pool
    if drawn is not None:
        position["drawn"] = drawn
    if rng.random() < 0.5 or turns < available:
        position["turns_left"] = turns
    return position


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return [hidden_position(seed) for seed in range(CASES)]


def dump(move: onrun.Move) -> dict:
    return move.model_dump(mode="json", exclude_none=True)


def brute_force(p: dict) -> tuple:
    """The reference's expected score of ``p`` and, with a tile drawn, each
    move's value, or else each draw's."""
    h = ref.Hidden(p)
    ex = ref.Expectimax()
    want = ref.expected_score(h, ex)
    if h.turns == 0:
        return want, None
    return want, ex.moves(h.pos, h.pool, h.turns, h.drawn) if h.drawn is not None else ref.draw_values(h, ex)


def test_the_expected_score_hint_values_and_draw_values_agree_with_the_brute_force(cases):
    # The brute force's answers are recorded and spot-checked (tests/recorded.py).
    record = Record("onrun", "hidden-brute-force", "onrun_reference")
    kinds = {"drawn": 0, "draws": 0, "moves": 0, "positive": 0}
    for i, p in enumerate(cases):
        h = ref.Hidden(p)
        want, detail = record.answer(i, p, lambda: brute_force(p))
        solved = onrun.solve(p, LIMIT)
        assert solved.mode == "hidden" and solved.exact and solved.sampled is None, (i, p)
        assert Fraction(solved.expected_score) == want, (i, p, solved.expected_score, want)
        assert solved.expected_score == f"{want.numerator}/{want.denominator}"
        kinds["positive"] += want > 0
        hint = onrun.hint(p, LIMIT)
        assert hint.mode == "hidden" and Fraction(hint.expected_score) == want, (i, p)
        if h.turns == 0:
            assert hint.moves == [] and hint.draws == []
        elif h.drawn is not None:
            kinds["drawn"] += 1
            got = [(dump(m.move), Fraction(m.expected_score)) for m in hint.moves]
            # Same moves, same values, best first with ties in canonical order.
            assert got == [(m, v) for m, v in detail], (i, p)
            kinds["moves"] += len(got)
        else:
            kinds["draws"] += 1
            got = [((d.tile.n, d.tile.spaces), Fraction(d.probability), Fraction(d.expected_score)) for d in hint.draws]
            assert got == detail, (i, p)
            assert hint.moves == []
    print(record.close())
    # The cases reach every branch, and not only zeros.
    assert kinds["drawn"] > CASES // 10 and kinds["draws"] > CASES // 10 and kinds["positive"] > CASES // 20, kinds


def test_check_reads_hidden_positions(cases):
    for p in cases[:200]:
        h = ref.Hidden(p)
        c = onrun.check(p)
        assert c.mode == "hidden" and c.turns_left == h.turns and c.pool_size == len(p["pool"])
        assert sorted(map(tuple, c.edge_areas)) == sorted(ref.edge_areas(h.pos))
        if h.turns:
            assert sorted(map(tuple, c.flashpoints)) == sorted(ref.flashpoints(h.pos))
        if h.drawn is not None and h.turns:
            want = [m for m, _ in ref.legal_moves(ref._with_tile(h.pos, h.drawn))]
            assert [dump(m.move) for m in c.moves] == want
        else:
            assert c.moves == []


START = {"start": [{"n": 3}, {"n": 5}], "pool": [{"n": 2}, {"n": 6}, {"n": 1}], "supply": [1, 1, 1, 0]}
TABLE = {"tiles": [{"q": 0, "r": 0, "n": 3}, {"q": 1, "r": 0, "n": 5}], "supply": [1, 0, 0, 0]}


@pytest.mark.parametrize("position, field", [
    ({**START, "turns_left": -1}, "turns_left"),
    ({**START, "turns_left": 4}, "turns_left"),
    ({**START, "drawn": {"n": 2}, "turns_left": 5}, "turns_left"),
    ({**START, "drawn": {"n": 2}, "turns_left": 0}, "turns_left"),
    ({**TABLE, "pool": [{"n": 2}], "deal_rest": [{"n": 4}]}, "deal_rest"),
    ({**TABLE, "turns_left": 1}, "turns_left"),
    ({**TABLE, "drawn": {"n": 1}}, "drawn"),
    ({**START, "start": [{"n": 3}]}, "start"),
    ({**START, "pool": [{"n": 7}]}, "pool.0.n"),
    ({**START, "drawn": {"n": 2, "spaces": 4}}, "drawn.spaces"),
    ({**START, "deal": [{"n": 1}, {"n": 2}]}, "deal"),
])
def test_bad_hidden_positions_are_refused_naming_the_field(position, field):
    with pytest.raises(InvalidPositionError, match=field.replace(".", r"\.")):
        onrun.check(position)
    with pytest.raises(InvalidPositionError, match=field.replace(".", r"\.")):
        onrun.solve(position, LIMIT)


def test_the_defaults_and_the_bounds_of_turns_left():
    assert onrun.check(START).turns_left == 3
    assert onrun.check({**START, "drawn": {"n": 2}}).turns_left == 4
    assert onrun.check({**START, "turns_left": 0}).status == "loss"
    assert onrun.solve({**START, "turns_left": 0}, LIMIT).expected_score == "0/1"
    assert onrun.solve({**START, "supply": [0, 0, 0, 0], "turns_left": 0}, LIMIT).expected_score == "1/1"
    # A known-order operation on a hidden position says why it cannot.
    with pytest.raises(InvalidPositionError, match="hidden"):
        onrun.replay(START, [])


def test_a_node_limit_stops_the_exact_search_and_the_answer_is_sampled_and_labelled():
    p = {"start": [{"n": 3}, {"n": 5}], "pool": [{"n": n} for n in (1, 2, 4, 6, 6, 2)], "supply": [1, 1, 1, 1]}
    r = onrun.solve(p, Limit(nodes=2_000), seed=7, samples=20)
    assert not r.exact and r.expected_score is None and r.not_exact_because == "limit"
    s = r.sampled
    assert s is not None and s.seed == 7 and s.samples_asked == 20
    assert "lower bound" in s.policy.quantity and "upper bound" in s.clairvoyant.quantity
    assert r.stats.nodes <= 2_000
    # Deterministic for a seed and node limits.
    assert onrun.solve(p, Limit(nodes=2_000), seed=7, samples=20).sampled == s


def test_sampled_bounds_bracket_the_exact_value_on_small_pools():
    """Where both are computable: the policy's mean is on average at most the
    clairvoyant mean, and the exact value lies within [policy interval low,
    clairvoyant interval high]."""
    rng = random.Random(5)
    lows = highs = 0.0
    checked = 0
    for seed in range(40):
        pool = [{"n": rng.choice(BOX)} for _ in range(rng.randint(3, 5))]
        p = {"start": [{"n": rng.choice(BOX)}, {"n": rng.choice(BOX)}], "pool": pool,
             "supply": [rng.choice([0, 1, 1]) for _ in range(4)]}
        exact = onrun.solve(p, LIMIT)
        s = onrun.solve(p, LIMIT, seed=seed, samples=100, sample_only=True).sampled
        assert s is not None and s.samples == 100
        assert exact.expected_score is not None, p
        value = float(Fraction(exact.expected_score))
        assert s.policy.interval[0] <= value + 1e-9 and value <= s.clairvoyant.interval[1] + 1e-9, (p, s, value)
        assert s.clairvoyant_bounded == 0 or "upper" in s.clairvoyant.quantity
        lows += s.policy.estimate
        highs += s.clairvoyant.estimate
        checked += 1
    assert checked == 40
    assert lows <= highs


def _large(seed: int, drawn: bool) -> dict:
    """From the start of a shuffled box with 15 turns to play: past what the
    exact search tries, so a hint samples."""
    box = onrun.deal(seed).position.model_dump(mode="json")["deal"]
    p = {"start": box[:2], "pool": box[3:17], "supply": [2, 2, 2, 2]}
    return {**p, "drawn": box[2]} if drawn else {**p, "pool": box[2:17]}


def _after_move(p: dict, move: onrun.Move) -> dict:
    """The hidden position after `move` with the drawn tile: played through
    the known order (the page's way), the pool kept."""
    return {**_table(onrun.replay({"deal": p["start"] + [p["drawn"]], "supply": p["supply"]}, [move])),
            "pool": p["pool"]}


def _table(replayed: onrun.ReplayResult) -> dict:
    """A replay's position as a hidden position's table (its tiles, edge,
    supply and next colour), its deal left to the caller."""
    board = replayed.position.model_dump(mode="json", exclude_none=True)
    return {k: board[k] for k in ("tiles", "edge", "supply", "next")}


def _after_draw(p: dict, tile: onrun.NewTile) -> dict:
    pool = list(p["pool"])
    pool.remove(next(t for t in pool if (t["n"], t.get("spaces", 1)) == (tile.n, tile.spaces)))
    return {**p, "pool": pool, "drawn": tile.model_dump(mode="json")}


@pytest.mark.parametrize("seed", [3, 8])
def test_a_large_hint_samples_the_policys_first_moves_on_the_deals_a_solve_after_each_would_draw(seed):
    """Each sampled move's bounds are those of a sampled solve of the
    position after it (same seed: the same deals), the moves ranked by the
    policy's mean; the moves past the first few are listed unsampled."""
    p = _large(seed, drawn=True)
    hint = onrun.hint(p, LIMIT, seed=4, samples=6)
    assert hint.mode == "hidden" and hint.expected_score is None
    sampled = [m for m in hint.moves if m.sampled is not None]
    assert len(sampled) == min(8, len(hint.moves)) and hint.moves[:len(sampled)] == sampled
    assert all(m.expected_score is None and m.sampled.samples == 6 for m in sampled)
    means = [m.sampled.policy.estimate for m in sampled]
    assert means == sorted(means, reverse=True)
    for m in sampled:
        again = onrun.solve(_after_move(p, m.move), LIMIT, seed=4, samples=6, sample_only=True)
        assert again.sampled == m.sampled, dump(m.move)


def test_a_hint_asked_for_every_move_samples_every_move_and_its_first_moves_alike():
    """candidates=0 samples every distinct move (and every draw) on the
    same deals; the policy's first 8 get the very answers they get by
    default, and 3 asks for 3 of them."""
    def sampled(hint: onrun.HintResult) -> dict[str, onrun.HintMove]:
        return {json.dumps(dump(m.move)): m for m in hint.moves if m.sampled is not None}

    p = _large(3, drawn=True)
    every = onrun.hint(p, LIMIT, seed=4, samples=2, candidates=0)
    assert len(sampled(every)) == len(every.moves) > 8
    assert all(m.sampled.samples == 2 for m in every.moves)
    for asked, count in ((None, 8), (3, 3)):
        some = sampled(onrun.hint(p, LIMIT, seed=4, samples=2, **({} if asked is None else {"candidates": asked})))
        assert len(some) == count and all(sampled(every)[k] == m for k, m in some.items())
    draws = onrun.hint(_large(5, drawn=False), LIMIT, seed=2, samples=2, candidates=0)
    assert all(d.sampled is not None for d in draws.draws)
    with pytest.raises(ValueError, match="candidates"):
        onrun.hint(p, LIMIT, candidates=-1)


def test_a_hint_asked_for_every_move_keeps_its_samplers_within_the_memory_limit():
    """A full game's turn ten turns in (163 distinct moves): under 1 MB the
    samplers kept side by side are fewer than the moves, and the answer
    says memory stopped it; the same under the default memory does not."""
    deal = onrun.deal(2).position.model_dump(mode="json", exclude_none=True)
    line: list = []
    for _ in range(10):
        moves = onrun.check(onrun.replay(deal, line).position).moves
        busy = [m for m in moves if m.move.action.kind != "pass"]
        line.append(busy[len(busy) // 2].move)
    replayed = onrun.replay(deal, line)
    rest = replayed.position.model_dump(mode="json", exclude_none=True)["deal_rest"]
    p = {**_table(replayed), "drawn": rest[0], "pool": rest[1:]}
    assert len(onrun.check(p).moves) == 163
    assert onrun.hint(p, Limit(nodes=1, memory_mb=1), candidates=0).stats.stopped_by == "memory"
    assert onrun.hint(p, Limit(nodes=1), candidates=0).stats.stopped_by == "nodes"


def test_a_large_hint_without_a_tile_drawn_samples_the_likeliest_draws():
    p = _large(5, drawn=False)
    hint = onrun.hint(p, LIMIT, seed=2, samples=4)
    sampled = [d for d in hint.draws if d.sampled is not None]
    assert 1 <= len(sampled) <= 8 and hint.expected_score is None
    least_sampled = min(Fraction(d.probability) for d in sampled)
    assert all(Fraction(d.probability) <= least_sampled for d in hint.draws if d.sampled is None)
    for d in sampled:
        assert onrun.solve(_after_draw(p, d.tile), LIMIT, seed=2, samples=4, sample_only=True).sampled == d.sampled


def test_a_small_hint_stopped_by_a_node_limit_is_sampled_within_the_limit():
    p = {"start": [{"n": 3}, {"n": 5}], "pool": [{"n": n} for n in (1, 2, 4, 6, 6, 2)], "supply": [1, 1, 1, 1],
         "drawn": {"n": 4}}
    hint = onrun.hint(p, Limit(nodes=3_000), seed=1, samples=3)
    assert hint.expected_score is None and hint.stats.nodes <= 3_000
    assert any(m.sampled is not None for m in hint.moves)
    assert all((m.expected_score is None) or (m.sampled is None) for m in hint.moves)
    assert onrun.hint(p, Limit(nodes=3_000), seed=1, samples=3).moves == hint.moves


@pytest.mark.parametrize(("n", "supply"), [(4, [2, 1, 1, 1]), (3, [2, 2, 0, 0])])
def test_the_policy_played_on_a_deal_is_the_sampled_answers_policy(n, supply):
    """A pool of one tile kind has one order, so every sampled deal is that
    deal: the sampled policy's mean is play_policy's score there, and its
    line replays to that score (with 4s the policy's 1 is below the best 2)."""
    start, pool = [{"n": 3}, {"n": 5}], [{"n": n}] * 6
    sampled = onrun.solve({"start": start, "pool": pool, "supply": supply}, LIMIT, seed=1, samples=3,
                          sample_only=True).sampled
    known = {"deal": start + pool, "supply": supply}
    played = onrun.play_policy(known, LIMIT)
    assert played.score is not None and played.stats.stopped_by is None and played.stats.nodes == 6
    assert sampled is not None and sampled.policy.estimate == played.score
    assert onrun.replay(known, played.line).score == played.score


def test_the_policy_does_not_see_the_tiles_to_come():
    """Two full deals alike but for their last 5 tiles, shuffled: the
    policy, which sees the board and the tile drawn only, plays the same
    first 36 turns in both. The known-order bound reads the tiles to come
    (near the end it tells which numbers can still be evacuated to the
    edge); a policy keyed on it chose differently on 4 of these 12 seeds."""
    for seed in range(1, 13):
        tiles = onrun.deal(seed).position.model_dump(mode="json", exclude_none=True)["deal"]
        rest = tiles[38:]
        random.Random(seed).shuffle(rest)
        lines = [onrun.play_policy({"deal": d}).line[:36] for d in (tiles, tiles[:38] + rest)]
        assert lines[0] == lines[1], seed


def test_the_lookahead_policy_plays_blind_and_beats_the_fixed_one():
    """The lookahead policy solves sampled orders of the tiles left: its
    moves up to a turn must depend on the tiles drawn so far and on which
    tiles are left, never on their order (two deals alike but for the order
    after the sixth tile drawn: the same first six moves, then not). It
    plays legal lines, within each deal's admissible bound, and on these
    ten deals of 12 tiles it scores 104 in all against the fixed policy's
    32, below it on none."""
    tiles = onrun.deal(3, tiles=12, supply=[2] * 4).position.model_dump(mode="json", exclude_none=True)["deal"]
    rest = tiles[8:]
    random.Random(3).shuffle(rest)
    orders = [{"deal": d, "supply": [2] * 4} for d in (tiles, tiles[:8] + rest)]
    lines = [onrun.play_policy(d, lookahead=True, seed=5).line for d in orders]
    assert lines[0][:6] == lines[1][:6] and lines[0] != lines[1]
    looked = fixed = 0
    for seed in range(10):
        position = onrun.deal(seed, tiles=12, supply=[2] * 4).position
        played = onrun.play_policy(position, lookahead=True, seed=1)
        upper = onrun.solve(position, Limit(nodes=2_000)).score_bounds[1]
        assert onrun.replay(position, played.line).score == played.score <= upper, seed
        plain = onrun.play_policy(position).score
        assert played.score >= plain, seed
        looked, fixed = looked + played.score, fixed + plain
    assert (looked, fixed) == (104, 32)


@pytest.mark.parametrize(("n", "supply"), [(4, [2, 1, 1, 1]), (3, [2, 2, 0, 0])])
def test_the_sampled_answers_can_play_the_lookahead_policy(n, supply):
    """With lookahead the sampled lower side is the lookahead policy's and
    says so. A pool of one tile kind has one order, so every sampled deal
    is that deal and every shuffle of the tiles left the same: the mean is
    play_policy's lookahead score there (with 4s it finds the best 2 the
    fixed policy misses), and the clairvoyant side is unchanged."""
    start, pool = [{"n": 3}, {"n": 5}], [{"n": n}] * 6
    hidden = {"start": start, "pool": pool, "supply": supply}
    looked = onrun.solve(hidden, LIMIT, seed=1, samples=3, sample_only=True, lookahead=True).sampled
    fixed = onrun.solve(hidden, LIMIT, seed=1, samples=3, sample_only=True).sampled
    assert looked is not None and fixed is not None and looked.lookahead and not fixed.lookahead
    assert "lookahead" in looked.policy.quantity and "lookahead" not in fixed.policy.quantity
    played = onrun.play_policy({"deal": start + pool, "supply": supply}, LIMIT, lookahead=True)
    assert looked.policy.estimate == played.score and looked.clairvoyant == fixed.clairvoyant
    assert (looked.policy.estimate, fixed.policy.estimate) == ((2, 1) if n == 4 else (played.score,) * 2)


def test_the_lookahead_policy_s_sampled_bounds_bracket_the_exact_value_on_small_pools():
    """As for the fixed policy: the exact value lies at or above the low end
    of the lookahead policy's interval, on every pool, and the lookahead
    policy's means add up to at least the fixed one's."""
    rng = random.Random(6)
    looked = fixed = 0.0
    for seed in range(20):
        pool = [{"n": rng.choice(BOX)} for _ in range(rng.randint(3, 5))]
        p = {"start": [{"n": rng.choice(BOX)}, {"n": rng.choice(BOX)}], "pool": pool,
             "supply": [rng.choice([0, 1, 1]) for _ in range(4)]}
        value = float(Fraction(onrun.solve(p, LIMIT).expected_score))
        s = onrun.solve(p, LIMIT, seed=seed, samples=40, sample_only=True, lookahead=True).sampled
        assert s is not None and s.samples == 40 and s.policy.interval[0] <= value + 1e-9, (p, s, value)
        looked += s.policy.estimate
        fixed += onrun.solve(p, LIMIT, seed=seed, samples=40, sample_only=True).sampled.policy.estimate
    assert looked >= fixed, (looked, fixed)


def test_a_large_hint_with_the_lookahead_samples_its_moves_as_solves_after_them_would():
    """The hint's sampled moves meet the same deals and the same shuffles of
    the tiles left as a sampled solve after each move, with the lookahead
    policy too."""
    box = onrun.deal(3).position.model_dump(mode="json")["deal"]
    p = {"start": box[:2], "drawn": box[2], "pool": box[3:15], "supply": [2, 2, 2, 2]}  # 13 turns: sampled
    hint = onrun.hint(p, LIMIT, seed=4, samples=2, candidates=2, lookahead=True)
    sampled = [m for m in hint.moves if m.sampled is not None]
    assert len(sampled) == 2 and all(m.sampled.lookahead and m.sampled.samples == 2 for m in sampled)
    for m in sampled:
        again = onrun.solve(_after_move(p, m.move), LIMIT, seed=4, samples=2, sample_only=True, lookahead=True)
        assert again.sampled == m.sampled, dump(m.move)


def test_the_analysis_can_bound_the_value_from_below_by_the_lookahead_policy():
    """With lookahead, each deal's policy game is the lookahead policy's,
    seeded by the deal's seed; the result says which policy it was."""
    a = onrun.analyse(3, tiles=12, pawns=2, seed=1, limit=Limit(nodes=200_000), workers=1, lookahead=True)
    assert a.lookahead and not onrun.analyse(1, tiles=12, pawns=2, seed=1, workers=1).lookahead
    for r in a.results:
        position = onrun.deal(r.seed, tiles=12, supply=[2] * 4).position
        assert r.policy_score == onrun.play_policy(position, lookahead=True, seed=r.seed).score, r.seed
    assert a.policy_mean == sum(r.policy_score for r in a.results) / 3


def test_the_policy_s_game_is_a_line_found_too():
    """The policy plays the deal's own order, so its game is a line of the
    deal: where it scores more than the line the solve found in the same
    limit (deal 6 here: 81 against 27; deal 5 the other way, 81 against
    27), the deal's proved lower end is the policy's score."""
    limit = Limit(nodes=180_000)
    a = onrun.analyse(2, tiles=16, pawns=3, seed=5, limit=limit, workers=1, lookahead=True)
    beaten = 0
    for r in a.results:
        solved = onrun.solve(onrun.deal(r.seed, tiles=16, supply=[3] * 4).position, limit).score_bounds[0]
        assert r.policy_score is not None and r.lower_score == max(solved, r.policy_score), r
        assert r.verdict == "win"
        beaten += r.policy_score > solved
    assert beaten == 1 and a.found_scores[2] == 81 and a.clairvoyant_bounds[0] == 81


def test_a_limit_stops_the_policys_game():
    played = onrun.play_policy(onrun.deal(3, tiles=10).position, Limit(nodes=3))
    assert played.score is None and played.stats.stopped_by == "nodes" and len(played.line) == 3
    # In the analysis such a game counts 0 (every score is at least that), and is counted.
    a = onrun.analyse(2, tiles=10, seed=3, limit=Limit(nodes=3), workers=1)
    assert [r.policy_score for r in a.results] == [None, None] and a.policy_stopped == 2 and a.policy_mean == 0


# Deals of 12 tiles, 2 pawns a colour, under a node limit (the same on any
# machine): some best scores proved, some not, and policy scores of 0, 8 and 16.
ANALYSED = {"deals": 8, "tiles": 12, "pawns": 2, "seed": 1, "limit": Limit(nodes=20_000)}


@pytest.fixture(scope="module")
def analysis() -> onrun.Analysis:
    return onrun.analyse(**ANALYSED, workers=2)


def test_the_analysis_bounds_the_value_with_the_order_hidden_on_both_sides(analysis):
    """Each deal's policy game is a line of that deal, so its score is at
    most the deal's best; on the means, the policy's is at most the
    clairvoyant upper end, and each interval holds its mean."""
    rows = analysis.results
    assert {r.policy_score for r in rows} >= {0, 8, 16} and 0 < analysis.exact < len(rows)  # or it shows nothing
    for r in rows:
        assert r.policy_score is not None and r.policy_score <= r.upper_score, r
        assert r.best_score is None or r.policy_score <= r.best_score, r
        known = onrun.deal(r.seed, tiles=12, supply=[2] * 4).position
        assert r.policy_score == onrun.play_policy(known, ANALYSED["limit"]).score
    policy = [r.policy_score for r in rows]
    assert analysis.policy_mean == sum(policy) / len(rows) and analysis.policy_stopped == 0
    (plo, phi), (clo, chi) = analysis.policy_interval95, analysis.clairvoyant_interval95
    assert plo <= analysis.policy_mean <= phi and analysis.policy_mean <= analysis.clairvoyant_bounds[1] <= chi
    assert analysis.hidden_value_interval95 == (plo, chi)


def test_the_same_seed_gives_the_same_analysis(analysis):
    again = onrun.analyse(**ANALYSED, workers=1)
    assert [r.model_dump(exclude={"seconds"}) for r in again.results] == \
           [r.model_dump(exclude={"seconds"}) for r in analysis.results]
    timeless = {"results", "wall_seconds", "median_seconds", "max_seconds", "nodes_per_second", "workers"}
    assert again.model_dump(exclude=timeless) == analysis.model_dump(exclude=timeless)


def test_the_analysis_brackets_the_exact_value_of_small_deals():
    """Deals of 6 tiles, 1 pawn a colour: each deal's value with the order
    hidden is exact (its start and pool). Their mean lies above the
    policy's mean (within its interval's slack) and below the clairvoyant
    mean (within its): here every deal is worth 1 and the policy loses
    some, so the policy's interval lies wholly below and a swap of the two
    means fails."""
    a = onrun.analyse(60, tiles=6, pawns=1, seed=1, limit=LIMIT, workers=2)
    values = []
    for r in a.results:
        tiles = onrun.deal(r.seed, tiles=6).position.model_dump(mode="json")["deal"]
        solved = onrun.solve({"start": tiles[:2], "pool": tiles[2:], "supply": [1] * 4}, LIMIT)
        assert solved.expected_score is not None
        values.append(Fraction(solved.expected_score))
    exact = float(sum(values) / len(values))
    (_, phi), (_, chi) = a.policy_interval95, a.clairvoyant_interval95
    lower, upper = a.policy_mean, a.clairvoyant_bounds[1]  # every deal proved: the clairvoyant mean itself
    assert lower <= exact + (phi - lower)
    assert upper >= exact - (chi - upper)
    assert a.hidden_value_interval95[0] <= exact <= a.hidden_value_interval95[1]
    assert phi < exact  # the policy falls short here: the check above is a real one
