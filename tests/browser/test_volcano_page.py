"""Volcano!'s view in chromium: a layout, a hint, a solution stepped with the keys,
a flight played; a search cancelled from the page; a newer server's fields."""

from __future__ import annotations

import re
import json

from page_support import SELECTED, STEPPING, assert_fits, button, edit_answers, expect, hint_rows, view_of



def test_volcano(page, server):
    view = view_of(page, "volcano")
    status = view.locator(".status-bar")
    board = view.locator("svg.board")
    expect(status).to_contain_text("35 forest tiles")

    # The hint's best flight is on the board without hovering; selecting a row shows its flight.
    rows = hint_rows(page, view, ".hint-list li")
    expect(board.locator(".hex-path")).not_to_have_count(0)
    rows.nth(2).focus()
    page.keyboard.press("Enter")
    expect(rows.nth(2)).to_have_class(SELECTED)
    expect(rows.nth(1)).not_to_have_class(SELECTED)

    # Solve, then step the line with the keys: the status bar follows.
    button(view, "Solve").click()
    label = view.locator(".step-label")
    expect(label).to_have_text(re.compile(r"^0 / \d+$"))
    flights = int(label.inner_text().split("/")[1])
    start = status.inner_text()
    page.keyboard.press("ArrowRight")
    expect(label).to_have_text(f"1 / {flights}")
    expect(status).to_have_class(STEPPING)
    expect(status).not_to_have_text(start)
    expect(board.locator("circle.space.pawn:not(.uncoloured)")).not_to_have_count(0)  # the flight's pawns, coloured
    page.keyboard.press("End")
    expect(label).to_have_text(f"{flights} / {flights}")
    expect(status).to_contain_text("won")
    page.keyboard.press("Home")
    expect(label).to_have_text(f"0 / {flights}")
    button(view, "Back to game").click()
    expect(view.locator(".preview-bar")).to_be_hidden()
    expect(status).not_to_have_class(STEPPING)
    expect(status).to_have_text(start)

    # Play a flight from the keyboard: colour, tile (Enter), arrow (Enter).
    position = json.loads(view.locator("textarea").input_value())
    flights_here = [c["flight"] for c in server.post("/v1/volcano/check", {"position": position})["moves"]]
    # One whose pawns stay on the board, to see their colour.
    flight = next(f for f in flights_here if not any(
        server.post("/v1/volcano/replay", {"position": position, "line": [f]})["steps"][0][k]
        for k in ("extinguished", "isolated")))
    view.locator(f'.chip[data-color="{flight["color"]}"]').click()
    q, r = flight["tile"]
    board.locator(f'g[data-q="{q}"][data-r="{r}"]').focus()
    page.keyboard.press("Enter")
    arrow = board.locator(f'.arrow[data-dir="{flight["dir"]}"]')
    expect(board.locator(".arrow").first).to_be_focused()
    arrow.focus()
    page.keyboard.press("Enter")
    expect(view.locator(".last-move")).to_contain_text("Move 1:")
    expect(board.locator("circle.space.pawn:not(.uncoloured)")).not_to_have_count(0)
    button(view, "Undo").click()
    expect(view.locator(".last-move")).to_contain_text("Play a flight")
    expect(board.locator("circle.space.pawn")).to_have_count(0)

    assert_fits(page, "volcano")


def test_a_search_is_cancelled_from_the_page(page):
    view = view_of(page, "volcano")
    expect(view.locator(".status-bar")).to_contain_text("35 forest tiles")
    # A layout no search settles within the server's cap.
    view.get_by_label("Seed").fill("24")
    button(view, "New layout").click()
    expect(view.get_by_text("layout seed 24")).to_be_visible()
    solve = view.locator("[data-ref=solve]")  # its label says "Solving…" meanwhile
    view.locator("input[data-ref=solveSeconds]").fill("60")
    solve.click()
    progress = view.locator("[data-ref=solveProgress]")
    expect(progress).to_contain_text(re.compile(r"\d+\.\d s"))
    expect(progress).to_contain_text(re.compile(r"[1-9][\d,]* nodes"))  # the server's live count
    expect(solve).to_be_disabled()
    progress.get_by_role("button", name="Cancel").click()
    expect(progress).to_have_text(re.compile(r"^Cancelled after \d+\.\d s\.$"))
    expect(solve).to_be_enabled()
    expect(view.locator(".step-controls")).to_be_hidden()
    # Usable again, and the server stopped the search: on its one worker
    # another search answers well before the cancelled one's time cap.
    view.locator("input[data-ref=hintSeconds]").fill("0.3")
    button(view, "Hint").click()
    expect(view.locator(".hint-list li").first).to_have_class(SELECTED, timeout=4_000)


def test_answers_of_newer_servers(page):
    """Fields a server sends once it reports its caps and its unfinished values."""
    capped = {"asked": {"nodes": None, "seconds": 60, "memory_mb": None},
              "applied": {"nodes": 50_000_000, "seconds": 8, "memory_mb": 64}, "capped": ["seconds"]}
    edit_answers(page, "/v1/volcano/solve", lambda body: body.update(limits=capped))
    edit_answers(page, "/v1/volcano/generate", lambda body: body.update(difficulty={
        "winning_share": None, "steps": 4, "forced_steps": 1, "solve_nodes": 900, "complete": False}))
    view = view_of(page, "volcano")
    expect(view.locator(".status-bar")).to_contain_text("35 forest tiles")
    button(view, "Solve").click()
    expect(view.locator(".capped")).to_have_text("server cap: seconds 60 → 8")
    view.get_by_label("rate it").check()
    button(view, "New layout").click()
    expect(view.get_by_text("rating: unfinished")).to_be_visible()
