"""Wild Fire!'s view in chromium: an example, a hint, a solve stepped, a move played."""

from __future__ import annotations

from page_support import SELECTED, STEPPING, assert_fits, button, expect, hint_rows, view_of



def test_wildfire(page):
    view = view_of(page, "wildfire")
    status = view.locator(".status-bar")
    board = view.locator("svg.board")
    expect(status).to_contain_text("Turn 1 of 15")

    # The best move's tile is drawn on the board without hovering.
    rows = hint_rows(page, view, ".hint-table tbody tr")
    expect(board.locator(".hex-tile.ghost")).to_have_count(1)

    button(view, "Solve").click()
    label = view.locator(".step-label")
    expect(label).to_have_text("0 / 15")
    page.keyboard.press("ArrowRight")
    expect(label).to_have_text("1 / 15")
    expect(status).to_contain_text("Turn 2 of 15")
    expect(status).to_have_class(STEPPING)
    page.keyboard.press("ArrowLeft")
    expect(label).to_have_text("0 / 15")
    expect(status).to_contain_text("Turn 1 of 15")
    button(view, "Back to game").click()
    expect(status).not_to_have_class(STEPPING)

    # Play a move: a hottest cell, no pawns.
    board.locator("g.hot-cell").first.click()
    button(view, "Play, no pawns").click()
    expect(status).to_contain_text("Turn 2 of 15")
    expect(view.locator(".last-move")).to_contain_text("Turn 1:")

    view.get_by_label("Example position").select_option(label="Mid-game (hidden order, tile drawn)")
    button(view, "Load example").click()
    expect(status).to_contain_text("hidden order")
    button(view, "Hint").click()
    expect(rows.first).to_have_class(SELECTED)

    assert_fits(page, "wildfire")
