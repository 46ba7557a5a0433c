"""What the page's browser tests share: finding a view, its buttons, and
whether it fits the screen. Every wait is on a DOM state (playwright's
expect), never a sleep. Set SMOKEJUMPER_SCREENSHOTS to a folder to keep a
screenshot of each view at each width."""

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


def edit_answers(page, path: str, change) -> None:
    """Answers of ``path`` passed through ``change(body)``: what a newer server would send."""
    def handle(route):
        response = route.fetch()
        body = response.json()
        change(body)
        route.fulfill(response=response, json=body)
    page.route(f"**{path}", handle)


def delay_answers(page, path: str, ms: int) -> None:
    """Requests to ``path`` held ``ms`` in the page before they go: a slow
    network, under which a test that acts before an answer is back fails."""
    page.add_init_script(f"""
      const send = window.fetch;
      window.fetch = async (url, options) => {{
        if (String(url).includes({json.dumps(path)})) await new Promise((done) => setTimeout(done, {int(ms)}));
        return send(url, options);
      }};""")


def hint_rows(page, view, rows: str):
    """Ask for a hint with the pointer off the board (as on a touch screen):
    the best row is selected on arrival, and so is a row clicked. The rows."""
    page.mouse.move(0, 0)
    button(view, "Hint").click()
    found = view.locator(rows)
    expect(found.first).to_have_class(SELECTED)
    found.nth(1).click()
    expect(found.nth(1)).to_have_class(SELECTED)
    return found
