"""Tails on Fire's view in chromium: a deal on the table, a hint marking the
best move, moves played by clicking until the round ends."""

from __future__ import annotations

from page_support import button, expect, view_of


def test_tails(page, server):
    view = view_of(page, "tails")
    status = view.locator(".status-bar")
    expect(status).to_contain_text("seat 0 to move")
    expect(view.locator(".tails-seat")).to_have_count(5)  # the pile, three seats, the Rogue

    # The hint values every legal move and marks the best one.
    button(view, "Hint").click()
    expect(view.locator(".tails-hint tr")).not_to_have_count(0)
    expect(view.locator(".tails-hint")).to_contain_text("(best)")

    # Play by clicking until the round ends: a playable card when there is one, else Pass.
    for _ in range(80):
        if "round over" in status.inner_text():
            break
        playable = view.locator(".tails-card.playable")
        before = status.inner_text()
        if playable.count():
            playable.first.click()
        else:
            button(view, "Pass").click()
        expect(status).not_to_have_text(before)
    expect(status).to_contain_text("round over")
