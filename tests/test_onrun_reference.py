"""On the Run!: the engine and its solver against the plain-Python reference
(tests/onrun_reference.py, written from the spec, sharing no code with the
engine) on seeded small positions: best scores exact, certificates replayed
through the reference, legal move lists equal (in canonical order), hint
values, the search's bound admissible, and properties (pawn conservation,
tiles never over their spaces, evacuations maximal).

SMOKEJUMPER_CROSS_CASES scales the number of cases (default 2000)."""

from __future__ import annotations

import json
import os
import random
from typing import Iterator

import pytest

import onrun_reference as ref
from recorded import Record
from smokejumper import Limit, onrun

CASES = int(os.environ.get("SMOKEJUMPER_CROSS_CASES", "2000"))
BOX = [n for n in range(1, 7) for _ in range(7)] + [3]


def small_position(seed: int) -> dict:
    """A small position: a short deal from the start, or a few turns into a
    longer one (pawns on tiles and at the edge), with a small supply."""
    rng = random.Random(seed)
    supply = [rng.choice([0, 0, 1, 1, 2]) for _ in range(4)]

    def tile() -> dict:
        n = rng.choice(BOX)
        return {"n": n, "spaces": rng.randint(1, 3)} if rng.random() < 0.3 else {"n": n}

    if rng.random() < 0.4:
        return {"deal": [tile() for _ in range(rng.randint(3, 4))], "supply": supply}
    # Played into: random legal moves, then 1-3 turns left.
    supply = [rng.choice([1, 2, 2, 3]) for _ in range(4)]
    position = {"deal": [tile() for _ in range(rng.randint(5, 9))], "supply": supply}
    left = rng.choice([1, 1, 2])
    while True:
        check = onrun.check(position)
        if check.turns_left <= left:
            return position
        moves = [c.move for c in check.moves]
        # Prefer actions that put pawns out, so that evacuations come up.
        busy = [m for m in moves if m.action.kind != "pass"] or moves
        move = rng.choice(busy if rng.random() < 0.8 else moves)
        position = onrun.replay(position, [move]).position.model_dump(mode="json", exclude_none=True)


def dump(move: onrun.Move) -> dict:
    return move.model_dump(mode="json", exclude_none=True)


def play_reference(position: dict, line: list[dict]) -> ref.Pos:
    pos = ref.load(position)
    for k, m in enumerate(line):
        nxt = ref.apply(pos, m)
        assert nxt is not None, (k, m)
        pos = nxt
    return pos


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return [small_position(seed) for seed in range(CASES)]


def test_the_best_score_its_line_the_moves_and_the_bound_agree_with_the_reference(cases):
    # The reference's best scores are recorded and spot-checked (tests/recorded.py).
    record = Record("onrun", "best", "onrun_reference")
    bitten = 0
    for i, position in enumerate(cases):
        pos = ref.load(position)
        score, won = record.answer(i, position, lambda: tuple(ref.best(pos)))
        answer = onrun.solve(position, Limit(seconds=30))
        assert answer.exact and answer.best_score == score and answer.won == won, (i, position, score, won, answer)
        assert answer.verdict == ("win" if won else "loss"), i
        end = play_reference(position, [dump(m) for m in answer.line])
        assert not end.rest and ref.score(end) == score and ref.won(end) == won, (i, position)
        # The engine's replay agrees with the reference's.
        played = onrun.replay(position, answer.line)
        assert played.error is None and played.score == score and played.status == ("win" if won else "loss")
        # Legal moves: the same distinct moves, in the same canonical order.
        mine = [dump(c.move) for c in onrun.check(position).moves]
        theirs = [m for m, _ in ref.legal_moves(pos)]
        assert mine == theirs, (i, position)
        # The bound the search cuts with never falls below the best.
        upper = onrun.bounds(position)["upper_objective"]
        assert upper >= 2 * score + won, (i, position)
        bitten += upper == 2 * score + won
    assert bitten >= len(cases) // 10, f"the bound is tight on only {bitten} of {len(cases)} cases"
    print(record.close())


def test_every_hint_value_is_the_reference_best_after_that_move(cases):
    for i, position in enumerate(cases[::20]):
        pos = ref.load(position)
        if not pos.rest:
            continue
        children = {json.dumps(m, sort_keys=True): q for m, q in ref.legal_moves(pos)}
        answer = onrun.hint(position, Limit(seconds=30))
        assert len(answer.moves) == len(children)
        best = {key: ref.best(child) for key, child in children.items()}
        for h in answer.moves:
            score, won = best[json.dumps(dump(h.move), sort_keys=True)]
            assert h.exact and h.best_score == score and h.won == won, (i, position, h)
            end = play_reference(position, [dump(h.move)] + [dump(m) for m in h.line or []])
            assert ref.score(end) == score
        # Best score first; ties in the reference's canonical order, whether
        # a move's line wins or not (a stable sort of its listing).
        want = sorted(children, key=lambda key: -best[key][0])
        assert [json.dumps(dump(h.move), sort_keys=True) for h in answer.moves] == want, (i, position)


def heavy_turns() -> Iterator[tuple[dict, onrun.CheckResult]]:
    """Turns of full deals played into with pawns put on tiles (up to 30
    turns a deal): thousands of evacuation outcomes, from one group and
    from several. Those listing up to 3,000 moves, with their checks."""
    for seed in range(1, max(2, CASES // 400) + 1):
        rng = random.Random(seed)
        position = onrun.deal(seed).position.model_dump(mode="json", exclude_none=True)
        for _ in range(30):
            check = onrun.check(position)
            if check.status != "ongoing":
                break
            if len(check.moves) <= 3000:
                yield position, check
            moves = [c.move for c in check.moves]
            tiles = [m for m in moves if m.action.kind == "tile"]
            move = rng.choice(tiles) if tiles and rng.random() < 0.7 else rng.choice(moves)
            position = onrun.replay(position, [move]).position.model_dump(mode="json", exclude_none=True)


def several_sources(pos: ref.Pos) -> bool:
    """Whether some number's evacuation has more than one source group."""
    return any(sum(1 for g in ref.groups(pos) if pos.tiles[min(g)][0] == v
                   and any(pos.tiles[c][2][pos.next] for c in g)) > 1 for v in range(1, 7))


def test_full_deals_heavy_evacuations_are_the_reference_s_moves_in_order():
    """The small cases list few evacuation outcomes; the engine lists one
    group's outcomes in canonical order as it enumerates them and sorts
    several groups' as packed keys. On heavy turns (heavy_turns) every
    turn's moves equal the reference's, in order."""
    compared = evacuations = several = 0
    for position, check in heavy_turns():
        pos = ref.load(position)
        mine = [dump(c.move) for c in check.moves]
        assert mine == [m for m, _ in ref.legal_moves(pos)], position
        compared += 1
        evacuations += sum(m["action"]["kind"] == "evacuate" for m in mine)
        several += several_sources(pos)
    deals = max(2, CASES // 400)
    assert compared >= 20 * deals and evacuations >= 2000 * deals and several >= 5, (compared, evacuations, several)


def test_an_evacuation_is_legal_exactly_when_the_listing_has_it():
    """A replay judges an evacuation without listing the turn's outcomes
    (a crowded turn has millions, and the search plays them). On heavy
    turns, each listed evacuation and its near misses (a cell dropped, a
    cell added, one cell moved to another destination) replay exactly
    when the listing holds them."""
    rng = random.Random(7)
    judged = refused = 0
    for position, check in heavy_turns():
        listed = {json.dumps(dump(x), sort_keys=True) for c in check.moves for x in [c.move, *c.equivalent]}
        evacuations = [dump(c.move) for c in check.moves if c.move.action.kind == "evacuate"]
        for move in rng.sample(evacuations, min(20, len(evacuations))):
            to = move["action"]["to"]
            cells = sorted({tuple(x) for e in evacuations for x in e["action"]["to"]})
            variants = [to, to[1:], to + [list(rng.choice(cells))]]
            if to:
                moved = list(to)
                moved[rng.randrange(len(to))] = list(rng.choice(cells))
                variants.append(moved)
            for cells_to in variants:
                variant = {**move, "action": {**move["action"], "to": sorted(cells_to)}}
                replayed = onrun.replay(position, [variant])
                expected = json.dumps(variant, sort_keys=True) in listed
                assert (replayed.error is None) == expected, (variant, replayed.error)
                judged += 1
                refused += not expected
    assert judged >= 1000 and refused >= judged // 5, (judged, refused)


def test_the_search_tries_every_move_once_by_its_key_then_in_canonical_order():
    """The search lists evacuation outcomes as classes (by the pawns they
    move and send to the edge; several groups' classes found from the
    amounts of their own destinations) and lists a class's outcomes only
    when it reaches it. On heavy turns (heavy_turns) the order it tries
    the moves in must be every legal move once, sorted by its key (the
    bound, then the emptiest supply, then the most edge pawns, read off
    the reference's next positions) with ties in canonical order, and
    each bound at least the child's own admissible bound (a key cannot
    know which numbers a class's pawns land on, nor recount the edge areas
    the tile took from a number), so that a cut on it is sound."""
    compared = evacuations = several = same = 0
    for position, check in heavy_turns():
        pos = ref.load(position)
        after = {json.dumps(m, sort_keys=True): (i, nxt) for i, (m, nxt) in enumerate(ref.legal_moves(pos))}
        legal = sorted(json.dumps(dump(x), sort_keys=True) for c in check.moves for x in [c.move, *c.equivalent])
        order = onrun.search_order(position)
        tried = [json.dumps(m, sort_keys=True) for m, _ in order]
        assert sorted(tried) == legal, position

        def key(k: int) -> tuple:
            index, nxt = after[tried[k]]
            return (-order[k][1], sum(nxt.supply), -len(nxt.edge), index)

        keyed = [k for k in range(len(tried)) if tried[k] in after]  # equivalents have no index of their own
        assert all(key(a) < key(b) for a, b in zip(keyed, keyed[1:])), position
        for k in range(0, len(order), max(1, len(order) // 15)):
            child = onrun.replay(position, [order[k][0]]).position
            own = onrun.bounds(child)["upper_objective"]
            assert order[k][1] >= own, order[k][0]
            same += order[k][1] == own
        compared += 1
        evacuations += sum(m["action"]["kind"] == "evacuate" for m, _ in order)
        several += several_sources(pos)
    deals = max(2, CASES // 400)
    assert compared >= 20 * deals and evacuations >= 2000 * deals and several >= 5, (compared, evacuations, several)
    assert same >= compared, f"the keys equal their children's bounds only {same} times in {compared} turns"


def evacuation_class(position: dict, move: dict) -> tuple | None:
    """An evacuation's class: its place and number, the pawns it moves and
    those it sends to the edge (to a cell without a tile once it is placed)."""
    if move["action"]["kind"] != "evacuate":
        return None
    on_tiles = {(t["q"], t["r"]) for t in position.get("tiles", [])} | {tuple(move["place"])}
    to = [tuple(c) for c in move["action"]["to"]]
    return tuple(move["place"]), move["action"]["number"], len(to), sum(c not in on_tiles for c in to)


def test_a_class_s_outcomes_found_one_at_a_time_are_the_listing_s():
    """The search finds a class's outcomes one at a time, in canonical
    order, from candidates in cell order that the flow test keeps (so that
    a beam that wants the first pays for no more); the listing sorts every
    assignment's outcome instead. On turns of full deals played into at
    random (most of them with several groups of a number), the two must be
    the same moves, and each class's in canonical order."""
    compared = several = 0
    deals = max(4, CASES // 100)
    for seed in range(deals):
        rng = random.Random(seed)
        position = onrun.deal(1000 + seed).position.model_dump(mode="json", exclude_none=True)
        while True:
            try:
                check = onrun.check(position)
            except onrun.InvalidPositionError:  # a turn past the listing's cap ends the walk
                break
            if check.status != "ongoing":
                break
            listed = sorted(json.dumps(dump(x), sort_keys=True) for c in check.moves for x in [c.move, *c.equivalent])
            if len(listed) <= 3000:
                tried = [m for m, _ in onrun.search_order(position)]
                assert sorted(json.dumps(m, sort_keys=True) for m in tried) == listed, position
                classes = [evacuation_class(position, m) for m in tried]
                for k in range(len(tried) - 1):
                    if classes[k] is not None and classes[k] == classes[k + 1]:
                        assert tried[k]["action"]["to"] < tried[k + 1]["action"]["to"], (position, tried[k], tried[k + 1])
                compared += 1
                several += several_sources(ref.load(position))
            moves = [c.move for c in check.moves]
            tiles = [m for m in moves if m.action.kind == "tile"]
            move = rng.choice(tiles) if tiles and rng.random() < 0.7 else rng.choice(moves)
            position = onrun.replay(position, [move]).position.model_dump(mode="json", exclude_none=True)
    assert compared >= 30 * deals and several >= compared // 4, (compared, several)


def crowded_turn(seed: int) -> dict:
    """A last turn whose colour has pawns on several groups of one number
    that share destinations: a random blob of 12-20 tiles, about half of
    them of that number (so 3-6 groups of it, with tiles and edge areas
    between them), the colour's pawns on most of them, other colours'
    pawns taking some room and some edge areas."""
    rng = random.Random(seed)
    v = rng.randint(1, 6)
    cells = [(0, 0)]
    while len(cells) < rng.randint(16, 24):
        q, r = rng.choice(cells)
        dq, dr = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)])
        if (q + dq, r + dr) not in cells:
            cells.append((q + dq, r + dr))
    colour = rng.randrange(4)
    others = [c for c in range(4) if c != colour]
    tiles = []
    for q, r in cells:
        n = v if rng.random() < 0.5 else rng.choice([k for k in range(1, 7) if k != v])
        spaces = rng.choice([1, 1, 2, 3])
        pawns = [0, 0, 0, 0]
        if n == v and rng.random() < 0.8:
            pawns[colour] = rng.randint(1, min(spaces, 2))
        elif n != v:  # most rooms full, so that the outcomes stay countable
            pawns[rng.choice(others)] = rng.choice([spaces, spaces, spaces - 1])
        tiles.append({"q": q, "r": r, "n": n, "spaces": spaces, "pawns": pawns})
    taken = set(cells)
    around = sorted({(q + dq, r + dr) for q, r in cells
                     for dq, dr in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]} - taken)
    edge = [{"q": q, "r": r, "color": rng.choice(others)} for q, r in rng.sample(around, len(around) * 3 // 5)]
    return {"tiles": tiles, "edge": edge, "supply": [0, 0, 0, 0], "next": colour,
            "deal_rest": [{"n": rng.randint(1, 6)}]}


def source_groups(pos: ref.Pos) -> int:
    """The most groups of one number holding pawns of the turn's colour."""
    return max(sum(1 for g in ref.groups(pos) if pos.tiles[min(g)][0] == v
                   and any(pos.tiles[c][2][pos.next] for c in g)) for v in range(1, 7))


def test_crowded_evacuations_from_several_groups_are_the_reference_s():
    """Evacuations from 3-6 groups of one number sharing destinations: the
    search finds their classes from what the groups after each can still
    add, kept per state of the destinations they share (a key that mixed
    two groups' states once lost classes, and full deals' turns rarely
    have three such groups). On crowded last turns the moves the search
    tries are the listing's, the listing is the reference's, and the best
    score is the reference's."""
    wanted = max(50, CASES // 20)
    compared = seed = 0
    while compared < wanted:
        seed += 1
        assert seed < 20 * wanted, f"only {compared} crowded turns in {seed} seeds"
        position = crowded_turn(seed)
        pos = ref.load(position)
        if source_groups(pos) < 3:
            continue
        try:
            check = onrun.check(position)
        except onrun.InvalidPositionError:  # past the listing's cap
            continue
        if len(check.moves) > 3000:
            continue
        listed = sorted(json.dumps(dump(x), sort_keys=True) for c in check.moves for x in [c.move, *c.equivalent])
        tried = sorted(json.dumps(m, sort_keys=True) for m, _ in onrun.search_order(position))
        assert tried == listed, position
        assert [dump(c.move) for c in check.moves] == [m for m, _ in ref.legal_moves(pos)], position
        answer = onrun.solve(position, Limit(seconds=30))
        score, won = ref.best(pos)
        assert answer.exact and (answer.best_score, answer.won) == (score, won), position
        compared += 1


def test_pawns_are_conserved_tiles_hold_their_spaces_and_evacuations_are_maximal(cases):
    evacuations = 0
    for position in cases[:400]:
        pos = ref.load(position)
        totals = ref.pawn_totals(pos)
        for move, nxt in ref.legal_moves(pos):
            engine = onrun.replay(position, [move])
            assert engine.error is None, move
            after = ref.load(engine.position.model_dump(mode="json"))
            assert after.frozen() == nxt.frozen(), move
            assert ref.pawn_totals(after) == totals
            assert all(sum(t[2]) <= t[1] for t in after.tiles.values())
            if move["action"]["kind"] == "evacuate":
                evacuations += 1
                assert_maximal(pos, move)
    assert evacuations >= 50, evacuations


def assert_maximal(pos: ref.Pos, move: dict) -> None:
    """If a pawn went back, every destination of its group is full: checked
    on the board after the tile, by counting what each destination got."""
    placed = ref._placed(pos, tuple(move["place"]))
    c, v = pos.next, move["action"]["number"]
    to = [tuple(x) for x in move["action"]["to"]]
    gs = ref.groups(placed)
    group_of = {cell: i for i, g in enumerate(gs) for cell in g}
    got = {d: to.count(d) for d in to}
    for i, g in enumerate(gs):
        if placed.tiles[next(iter(g))][0] != v:
            continue
        k = sum(placed.tiles[x][2][c] for x in g)
        if not k:
            continue
        touching = {group_of[y] for x in g for y in ref.nbrs(x) if y in placed.tiles and group_of[y] != i}
        dests = {x for j in touching for x in gs[j] if ref.room(placed.tiles[x]) > 0}
        dests |= {y for x in g for y in ref.nbrs(x) if y not in placed.tiles and y not in placed.edge}
        sent_here = sum(got.get(d, 0) for d in dests)
        if sent_here < k:  # some pawn of this group may have gone back
            for d in dests:
                cap = ref.room(placed.tiles[d]) if d in placed.tiles else 1
                if got.get(d, 0) < cap:
                    # A destination with room left: the group must have sent all.
                    raise AssertionError(f"pawns went back while {d} had room: {move}")


def endgame(seed: int) -> dict | None:
    """A full deal 1-2 turns from its end: a quick line's first turns,
    then random legal moves, so the table, the pawns and the edge are a
    real game's. None where a turn has more moves than a listing gives."""
    rng = random.Random(seed)
    start = onrun.deal(seed).position
    line = onrun.solve(start, Limit(nodes=300, seconds=1e9)).line
    left = rng.choice([1, 2])
    position = onrun.replay(start, line[:len(line) - left - rng.randint(0, 2)]).position
    while len(position.deal_rest) > left:
        try:
            moves = [c.move for c in onrun.check(position).moves]
        except onrun.InvalidPositionError:
            return None
        position = onrun.replay(position, [rng.choice(moves)]).position
    return position.model_dump(mode="json", exclude_none=True)


def test_the_bound_holds_on_full_deals_endgames_searched_without_it():
    """The small cases have few pawns and edge areas; the bound's caps
    (the numbers a colour can still evacuate, the edge areas next to them,
    the edge areas the board can have at the end) bite on full deals. Their
    last 1-2 turns searched exhaustively without the bound (cut only by
    every pawn saved) give the best; the bound must not fall below it, and
    the search with it must find the same."""
    checked = tight = 0
    for seed in range(1, CASES // 8 + 1):
        position = endgame(seed)
        if position is None:
            continue
        best = onrun.solve(position, Limit(nodes=50_000, seconds=1e9), use_bound=False)
        if not best.exact:
            continue
        objective = 2 * best.best_score + best.won
        upper = onrun.bounds(position)["upper_objective"]
        assert upper >= objective, (seed, upper, objective)
        answer = onrun.solve(position, Limit(nodes=50_000, seconds=1e9))
        assert answer.exact and (answer.best_score, answer.won) == (best.best_score, best.won), seed
        checked += 1
        tight += upper == objective
    assert checked >= CASES // 10 and tight >= checked // 5, (checked, tight)


def test_the_search_without_its_bound_or_its_spread_finds_the_same_best_scores(cases):
    """What bench/onrun.py measures the bound and the spread against
    answers the same."""
    for i, position in enumerate(cases[:100]):
        best = onrun.solve(position)
        for without in (onrun.solve(position, use_bound=False), onrun.solve(position, spread=False)):
            assert without.exact and (without.best_score, without.won) == (best.best_score, best.won), i


@pytest.mark.scale  # full deals searched for seconds each
def test_the_analysis_counts_what_each_deal_solve_says():
    # Deals of 10 tiles, 2 pawns a colour, under a node limit (so the same on
    # any machine): most are proved at 16, some stop with a line found. Each
    # row is the deal's own solve (held to the brute force above); the
    # summary is counted from the rows, the same on one thread.
    limit = Limit(nodes=30_000)
    analysis = onrun.analyse(8, tiles=10, pawns=2, seed=40, limit=limit, workers=2)
    assert [r.seed for r in analysis.results] == list(range(40, 48))
    for r in analysis.results:
        s = onrun.solve(onrun.deal(r.seed, tiles=10, supply=[2] * 4).position, limit)
        assert (r.verdict, r.best_score, (r.lower_score, r.upper_score), r.nodes) == (
            s.verdict, s.best_score, s.score_bounds, s.stats.nodes)
    proved = [r.best_score for r in analysis.results if r.best_score is not None]
    assert 0 < analysis.exact == len(proved) < 8  # both kinds, or the test shows nothing
    assert {c.score: c.deals for c in analysis.best_scores} == {v: proved.count(v) for v in set(proved)}
    assert analysis.wins == sum(r.verdict == "win" for r in analysis.results)
    lows = [r.lower_score for r in analysis.results]
    highs = [r.upper_score for r in analysis.results]
    assert analysis.clairvoyant_bounds == (sum(lows) / 8, sum(highs) / 8)
    lo, hi = analysis.clairvoyant_interval95
    assert lo <= sum(lows) / 8 <= sum(highs) / 8 <= hi
    assert analysis.found_scores == (min(lows), sorted(lows)[3], max(lows))
    one = onrun.analyse(8, tiles=10, pawns=2, seed=40, limit=limit, workers=1)
    assert [r.model_dump(exclude={"seconds"}) for r in one.results] == \
           [r.model_dump(exclude={"seconds"}) for r in analysis.results]
