"""On the Run!'s view in chromium: a deal on the forest, a hint drawn on
the board, a game played to its end by clicking the board (a flashpoint,
a tile and its count, edge areas) and Pass, Undo, and a solve's line."""

from __future__ import annotations

from page_support import assert_fits, button, expect, view_of


def play_a_turn(view, status) -> None:
    """A flashpoint if none is chosen, then an edge area when one may take a
    pawn, else Pass; the status must change."""
    if button(view, "Pass").is_disabled():
        view.locator(".place-target").first.click()
    before = status.inner_text()
    edges = view.locator(".edge-target")
    if edges.count():
        edges.first.click()
    else:
        button(view, "Pass").click()
    expect(status).not_to_have_text(before)


def test_onrun(page, server):
    view = view_of(page, "onrun")
    status = view.locator(".status-bar")
    board = view.locator("svg.board")
    expect(status).to_contain_text("blue to play")
    expect(status).to_contain_text("10 turns left")
    assert_fits(page, "onrun")

    # The hint lists every move with its best score and draws the best on the board.
    button(view, "Hint").click()
    expect(view.locator(".hint-list li").first).to_be_visible()
    expect(board.locator(".onrun-hint").first).to_be_attached()

    # The first turn: a flashpoint, then pawns on a tile (the count, if there is a choice).
    if view.locator(".place-target").count() and button(view, "Pass").is_disabled():
        view.locator(".place-target").first.click()
    before = status.inner_text()
    view.locator(".tile-target").first.click()
    counts = view.locator(".count-button")
    if counts.count():
        counts.first.click()
    expect(status).not_to_have_text(before)
    expect(status).to_contain_text("yellow to play")
    expect(board.locator(".onrun-pawn")).not_to_have_count(0)

    # Undo goes back to blue's turn.
    button(view, "Undo").click()
    expect(status).to_contain_text("blue to play")

    # Play to the end: an edge area when one may take a pawn, else Pass.
    for _ in range(12):
        if "Game over" in status.inner_text():
            break
        play_a_turn(view, status)
    expect(status).to_contain_text("Game over")

    # A solve from the start gives a line to step through on the board.
    button(view, "Restart").click()
    expect(status).to_contain_text("10 turns left")
    button(view, "Solve").click()
    expect(view.locator(".step-controls")).to_be_visible()
    button(view, "›").click()
    expect(view.locator(".preview-bar")).to_contain_text("after 1 of")


def test_onrun_with_the_order_hidden(page, server):
    # A position from the start with a pool: Hint values each draw, Draw
    # takes a tile, the turns are played by clicking, and solve gives the
    # exact expected score.
    view = view_of(page, "onrun")
    status = view.locator(".status-bar")
    expect(status).to_contain_text("blue to play")
    view.get_by_label("Position JSON").fill(
        '{"start": [{"n": 3}, {"n": 5}], "pool": [{"n": 2}, {"n": 6}, {"n": 1}], "supply": [1, 1, 0, 0]}')
    button(view, "Load").click()
    expect(status).to_contain_text("order hidden, 3 tiles in the pool, none drawn")
    button(view, "Solve").click()
    expect(view.locator("[data-ref=solveStats]")).to_contain_text("expected score 1/1 (exact)")
    button(view, "Hint").click()
    expect(view.locator(".hint-list li")).to_have_count(3)
    expect(view.locator(".hint-list")).to_contain_text("chance 1/3")
    for _ in range(3):
        button(view, "Draw").click()
        expect(status).not_to_contain_text("none drawn")
        play_a_turn(view, status)
    expect(status).to_contain_text("Game over")
