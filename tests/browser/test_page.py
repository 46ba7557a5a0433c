"""The page in chromium, for every game the server lists: the tabs are its
games, and each view loads and fits a phone (390 px) and a wide screen
without a console error (the page fixture fails a test on one). Each
game's own interactions are in its tests/browser/test_<game>_page.py."""

from __future__ import annotations

import re

import pytest

from page_support import assert_fits, expect, view_of
from smokejumper.games import registered

GAMES = registered()


def test_tabs_are_the_servers_games(page):
    page.goto("/")
    tabs = page.get_by_role("tab")
    expect(tabs).to_have_text([g.title for g in GAMES])
    expect(tabs.first).to_have_attribute("aria-selected", "true")
    last = GAMES[-1]
    tabs.nth(len(GAMES) - 1).click()
    expect(page).to_have_url(re.compile(f"#{last.name}$"))
    expect(page.locator(f"#view-{last.name}")).to_be_visible()
    expect(page.locator(f"#view-{GAMES[0].name}")).to_be_hidden()
    expect(page).to_have_title(f"smokejumper · {last.title}")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_games_view_loads_and_fits(page, game):
    view = view_of(page, game.name)
    expect(view.locator(".status-bar")).to_be_visible()
    assert_fits(page, f"{game.name}-first")
