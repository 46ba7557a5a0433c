"""Fire!'s view in chromium: a level, reveals, moves, a hint, the strategy's
move, undo; a value that is not exact."""

from __future__ import annotations

from page_support import SELECTED, assert_fits, button, edit_answers, expect, view_of



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


def test_a_value_not_exact_reads_as_its_interval(page):
    edit_answers(page, "/v1/fire/solve", lambda body: body.update(exact=False, win_probability=None,
                                                                  interval=[0.25, 0.75]))
    view = view_of(page, "fire")
    expect(view.locator(".status-bar")).to_contain_text("Reveal")
    button(view, "Solve").click()
    expect(view.locator(".verdict")).to_contain_text("[25.00%, 75.00%] (not exact)")
