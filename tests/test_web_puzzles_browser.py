"""In a real browser, on a desktop and a phone: a logged-in player solves a puzzle (the server
answering the defence) and fails the next one; the puzzle rating goes up, then down; the
page's texts follow a change of language.

Set BORDSPEL_SCREENSHOTS=DIR to keep pictures of the puzzle page (docs/screenshots has them).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from bordspel.games.quarto.engine import QuartoState
from bordspel.puzzles import QuartoProof, load_puzzles
from tests.test_web_browser import CHROMIUM
from tests.test_web_lobby_browser import browser, sign_up, two_players
from tests.test_web_notices_browser import DESKTOP, PHONE, base_url

__all__ = ["base_url", "browser"]  # the module's server and browser

if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

PROOF = QuartoProof()


def picture(page: Page, name: str) -> None:
    folder = os.environ.get("BORDSPEL_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def shown_puzzle(page: Page, before: str = "") -> tuple[str, QuartoState]:
    """The id and position of the puzzle on the page (once it is not the puzzle ``before``)."""
    expect(page.locator("#puzzle-facts")).to_contain_text("Quarto puzzle")
    if before:
        expect(page.locator("#puzzle-facts")).not_to_contain_text(before)
    found = re.search(r"puzzle (\w+),", page.locator("#puzzle-facts").inner_text())
    assert found
    return found.group(1), next(p for p in load_puzzles() if p.id == found.group(1)).state()


def play(page: Page, move: str, answer: str) -> None:
    page.select_option("#puzzle-moves", move)
    page.click("#puzzle-play")
    expect(page.locator("#puzzle-result")).to_contain_text(answer)


def solve(page: Page, state: QuartoState) -> None:
    """Play right moves, and the defence the server answers, to the end."""
    while True:
        move = PROOF.winning_moves(state, PROOF.value(state)[1])[0]
        state = state.play(move)
        if state.outcome() is not None:
            return play(page, move, "Solved!")
        play(page, move, f"The defence answered {PROOF.defence(state)}")
        state = state.play(PROOF.defence(state))


@pytest.mark.slow
@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_puzzle_solved_and_one_failed(
    browser: Browser, base_url: str, viewport: dict[str, int], name: str
) -> None:
    page, _, errors = two_players(browser, viewport, viewport)
    page.goto(base_url)
    sign_up(page, f"solver{name}")
    page.click("header a[href='/puzzles']")
    solved, state = shown_puzzle(page)
    solve(page, state)
    expect(page.locator("#puzzle-rating")).to_contain_text("(+")
    picture(page, f"puzzle-solved-{name}")

    page.click("#puzzle-next")
    _, state = shown_puzzle(page, solved)
    right = PROOF.winning_moves(state, PROOF.value(state)[1])
    wrong = next(move.to_str() for move in state.legal_moves() if move.to_str() not in right)
    play(page, wrong, "Not that one")
    expect(page.locator("#puzzle-rating")).to_contain_text("(-")
    expect(page.locator("#puzzle-play")).to_be_disabled()
    page.click("button[data-lang=nl]")
    expect(page.locator("#puzzle-result")).to_contain_text("Die niet")
    page.click("button[data-lang=en]")
    page.click(f"header a[href='/players/solver{name}']")  # the puzzle rating on the profile
    pool = page.locator("#ratings li[data-pool=puzzles]")
    expect(pool).to_contain_text("Puzzles")
    expect(pool).to_contain_text("2 puzzles tried")
    expect(pool.locator("circle")).to_have_count(2)  # the rating after each attempt
    assert not errors
