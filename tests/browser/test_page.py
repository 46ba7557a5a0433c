"""Each game's view in chromium: its main interactions, no console error,
no horizontal overflow on a phone (390 px) nor on a wide screen; a search
cancelled from the page; answers only newer servers send.

Every wait is on a DOM state (playwright's expect), never a sleep. Set
SMOKEJUMPER_SCREENSHOTS to a folder to keep a screenshot of each view at
each width."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed (it comes with .[test])")
expect = sync_api.expect
# A search answers within the server's time cap (8 s): wait past it.
expect.set_options(timeout=15_000)

NARROW = {"width": 390, "height": 844}  # a phone
WIDE = {"width": 1600, "height": 1000}
SELECTED = re.compile(r"\bselected\b")
STEPPING = re.compile(r"\bstepping\b")


def view_of(page, game: str):
    page.goto(f"/#{game}")
    view = page.locator(f"#view-{game}")
    expect(view).to_be_visible()
    return view


def button(view, name: str):
    return view.get_by_role("button", name=name, exact=True)


def assert_fits(page, name: str) -> None:
    """No horizontal scrolling and the board within the screen, narrow and wide."""
    for size in (NARROW, WIDE):
        page.set_viewport_size(size)
        width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width <= inner, f"{name} at {size['width']} px: the page is {width} px wide"
        for box in page.locator(".view:not([hidden]) svg.board").evaluate_all(
                "boards => boards.map(b => b.getBoundingClientRect().right)"):
            assert box <= inner, f"{name} at {size['width']} px: a board reaches {box} px"
        if folder := os.environ.get("SMOKEJUMPER_SCREENSHOTS"):
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / f"{name}-{size['width']}.png"), full_page=True)


def test_tabs_are_the_servers_games(page):
    page.goto("/")
    tabs = page.get_by_role("tab")
    expect(tabs).to_have_text(["Volcano!", "Fire!", "Wild Fire!"])
    expect(tabs.first).to_have_attribute("aria-selected", "true")
    tabs.nth(2).click()
    expect(page).to_have_url(re.compile("#wildfire$"))
    expect(page.locator("#view-wildfire")).to_be_visible()
    expect(page.locator("#view-volcano")).to_be_hidden()
    expect(page).to_have_title("smokejumper · Wild Fire!")


def test_volcano(page, server):
    view = view_of(page, "volcano")
    status = view.locator(".status-bar")
    board = view.locator("svg.board")
    expect(status).to_contain_text("35 forest tiles")

    # The hint's best flight is on the board without hovering; selecting a row shows its flight.
    page.mouse.move(0, 0)
    button(view, "Hint").click()
    rows = view.locator(".hint-list li")
    expect(rows.first).to_have_class(SELECTED)
    expect(board.locator(".hex-path")).not_to_have_count(0)
    rows.nth(1).click()
    expect(rows.nth(1)).to_have_class(SELECTED)
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
    flights_here = [c["flight"] for c in server.post("/v1/volcano/check", {"position": position})["flights"]]
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


def test_fire(page):
    view = view_of(page, "fire")
    status = view.locator(".status-bar")
    last = view.locator(".last-move")
    expect(status).to_contain_text("Reveal the next battery")
    button(view, "Reveal").click()
    expect(status).to_contain_text("Put the revealed battery on a weapon")
    expect(last).to_contain_text("Move 1:")

    # The hint's best move is marked on the weapons without hovering.
    page.mouse.move(0, 0)
    button(view, "Hint").click()
    rows = view.locator(".hint-list li")
    expect(rows.first).to_have_class(SELECTED)
    expect(view.locator(".weapon.hinted")).to_have_count(1)
    expect(view.locator(".legal-moves li.hinted")).to_have_count(1)

    button(view, "Strategy move").click()
    expect(view.locator(".strategy")).to_contain_text("Fixed strategy:")

    # Empty weapons and a battery below 10 energy: each weapon has one move, a click plays it.
    view.locator(".weapon.droppable").first.click()
    expect(last).to_contain_text("Move 2:")
    expect(status).to_contain_text("Reveal the next battery")
    button(view, "Undo").click()
    expect(last).to_contain_text("Move 1:")
    expect(status).to_contain_text("Put the revealed battery")

    # A legal move from the keyboard.
    view.locator(".legal-moves li").first.focus()
    page.keyboard.press("Enter")
    expect(last).to_contain_text("Move 2:")

    button(view, "Solve").click()
    expect(view.locator(".verdict")).to_contain_text("Win probability under optimal play")
    expect(view.locator(".stats").last).to_contain_text("nodes")

    assert_fits(page, "fire")
    button(view, "New team Level 1").click()
    expect(status).to_contain_text("Team")
    assert_fits(page, "fire-team")


def test_wildfire(page):
    view = view_of(page, "wildfire")
    status = view.locator(".status-bar")
    board = view.locator("svg.board")
    expect(status).to_contain_text("Turn 1 of 15")

    # The best move's tile is drawn on the board without hovering.
    page.mouse.move(0, 0)
    button(view, "Hint").click()
    rows = view.locator(".hint-table tbody tr")
    expect(rows.first).to_have_class(SELECTED)
    expect(board.locator(".hex-tile.ghost")).to_have_count(1)
    rows.nth(1).click()
    expect(rows.nth(1)).to_have_class(SELECTED)

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

    def edit(change):
        def handle(route):
            response = route.fetch()
            body = response.json()
            change(body)
            route.fulfill(response=response, json=body)
        return handle

    capped = {"asked": {"nodes": None, "seconds": 60, "memory_mb": None},
              "applied": {"nodes": 50_000_000, "seconds": 8, "memory_mb": 64}, "capped": ["seconds"]}
    page.route("**/v1/volcano/solve", edit(lambda body: body.update(limits=capped)))
    page.route("**/v1/volcano/generate", edit(lambda body: body.update(difficulty={
        "winning_share": None, "steps": 4, "forced_steps": 1, "solve_nodes": 900, "complete": False})))
    page.route("**/v1/fire/solve", edit(lambda body: body.update(exact=False, win_probability=None,
                                                                 interval=[0.25, 0.75])))

    view = view_of(page, "volcano")
    expect(view.locator(".status-bar")).to_contain_text("35 forest tiles")
    button(view, "Solve").click()
    expect(view.locator(".capped")).to_have_text("server cap: seconds 60 → 8")
    view.get_by_label("rate it").check()
    button(view, "New layout").click()
    expect(view.get_by_text("rating: unfinished")).to_be_visible()

    view = view_of(page, "fire")
    expect(view.locator(".status-bar")).to_contain_text("Reveal")
    button(view, "Solve").click()
    verdict = view.locator(".verdict")
    expect(verdict).to_contain_text("[25.00%, 75.00%] (not exact)")
