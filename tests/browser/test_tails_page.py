"""Tails on Fire's view in chromium: a dealt hunt on the table, a hint
marking the best move, moves played by clicking until the round ends; and a
whole seeded game played by clicks, choice by choice and round by round, the
Rogue drawing from its hidden deck."""

from __future__ import annotations

import json
import re

from page_support import assert_fits, button, expect, view_of
from smokejumper import tails

BEST = re.compile(r"\bbest\b")
PICKED = re.compile(r"\bpicked\b")


def test_tails(page, server):
    view = view_of(page, "tails")
    status = view.locator(".status-bar")
    # The page opens on a deal's choice; a dealt hunt (the Rogue's deck
    # known, so that the hint is quick) is loaded as JSON.
    expect(status).to_contain_text("seat 0: choose 3 cards (0 picked)")
    view.locator("summary", has_text="Position JSON").click()
    view.locator("textarea").fill(json.dumps(tails.generate(3, players=3).position.model_dump(mode="json")))
    button(view, "Load").click()
    expect(status).to_contain_text("seat 0 to move")
    expect(view.locator(".tails-seat")).to_have_count(5)  # the pile, three seats, the Rogue

    # The hint values every legal move and marks the best one.
    button(view, "Hint").click()
    expect(view.locator(".tails-hint tr")).not_to_have_count(0)
    expect(view.locator(".tails-hint")).to_contain_text("(best)")

    # Play by clicking until the round ends.
    for _ in range(80):
        if "round over" in status.inner_text():
            break
        play_a_step(view, status)
    expect(status).to_contain_text("round over")


def play_a_step(view, status) -> None:
    """A playable card when there is one, else Pass; the status must change."""
    before = status.inner_text()
    playable = view.locator(".tails-card.playable")
    if playable.count():
        playable.first.click()
    else:
        button(view, "Pass").click()
    expect(status).not_to_have_text(before)


def best_row(view) -> str:
    """The hint's best row, its "(best)" taken off."""
    row = view.locator(".tails-hint tr", has_text="(best)")
    expect(row).to_have_count(1)
    return row.locator("td").first.inner_text().removesuffix(" (best)")


def check_the_choice_hint(view) -> None:
    """The choice hint's best cards are the ones marked in the hero's hand;
    a card picked and picked again is put back."""
    hand = view.locator(".tails-card.choosable")
    button(view, "Hint").click()
    best = best_row(view).removeprefix("choose ").split(", ")
    expect(hand.and_(view.locator(".best"))).to_have_text(best)
    marked = hand.and_(view.locator(".best")).first
    marked.click()
    expect(marked).to_have_class(PICKED)
    marked.click()
    expect(marked).not_to_have_class(PICKED)


def check_the_hunt_hint_and_play_its_move(view, status) -> None:
    """The hunt hint's best move is marked where it is made (its card in
    the hand of the seat to move, or Pass), and clicking it plays it."""
    button(view, "Hint").click()
    best = best_row(view)
    before = status.inner_text()
    if best == "pass":
        expect(button(view, "Pass")).to_have_class(BEST)
        button(view, "Pass").click()
    else:
        card = view.locator(".tails-seat.to-move .tails-card.best")
        expect(card).to_have_text(best.removeprefix("play "))
        expect(card).to_have_class(re.compile(r"\bplayable\b"))
        card.click()
    expect(status).not_to_have_text(before)


def choose_and_start(view, status) -> None:
    """The hero's first cards, up to the choice (all of a hand of three or fewer are picked already)."""
    start = button(view, "Start the hunt")
    cards = view.locator(".tails-card.choosable")
    for k in range(cards.count()):
        if start.is_enabled():
            break
        cards.nth(k).click()
        expect(cards.nth(k)).to_have_class(PICKED)
    start.click()
    expect(status).not_to_contain_text("choose")


def test_a_whole_seeded_game_is_played_by_clicks(page, server):
    """Seed 3, two seats and the Rogue with its deck hidden (the real game
    at two seats; its hunt hints take about a second), played to the game's
    end: nine rounds, each a choice (the hero's by clicks, the other seat's
    from the seed) then a hunt by clicks, the Rogue drawing between them.
    The hints of the first two choices and of the first hunt are checked
    where their moves are made; the hunt's best move is played from its
    mark. The cards picked are the hand's first ones, so the game is the
    same on any machine (a choice hint sampled in 5 s is not)."""
    view = view_of(page, "tails")
    status = view.locator(".status-bar")
    view.locator("[data-ref=seed]").fill("3")
    view.locator("[data-ref=players]").fill("2")
    button(view, "New deal").click()
    expect(view.locator(".tails-seat")).to_have_count(4)  # the pile, two seats, the Rogue
    expect(status).to_contain_text("Round 1 ·")
    expect(status).to_contain_text("seat 0: choose 3 cards (0 picked)")

    drew = False
    for rnd in range(1, 10):
        expect(status).to_contain_text(f"Round {rnd} ·")
        if rnd <= 2:
            check_the_choice_hint(view)
        if rnd == 2:
            assert_fits(page, "tails")
            page.set_viewport_size({"width": 1280, "height": 900})
        choose_and_start(view, status)
        if rnd == 1:
            expect(status).to_contain_text("seat 0 to move")
            # Undo goes back to the choice, and the same cards give the same hunt.
            first = status.inner_text()
            button(view, "Undo").click()
            expect(status).to_contain_text("choose 3 cards (3 picked)")
            button(view, "Start the hunt").click()
            expect(status).to_have_text(first)
            check_the_hunt_hint_and_play_its_move(view, status)
        for _ in range(200):
            drew |= "drew" in view.locator(".rogue-seat h4").inner_text()
            if "round over" in status.inner_text():
                break
            play_a_step(view, status)
        expect(status).to_contain_text("round over")
        if rnd < 9:
            expect(status).not_to_contain_text("game over")
            button(view, "Next round").click()
            expect(status).to_contain_text(f"Round {rnd + 1} ·")
    expect(status).to_contain_text("1 in the iguana pile")
    expect(status).to_contain_text(re.compile(r"game over: (seat \d wins|seats [\d, ]+ share the win)"))
    expect(button(view, "Next round")).to_be_hidden()
    assert drew, "the Rogue never drew from its hidden deck"
