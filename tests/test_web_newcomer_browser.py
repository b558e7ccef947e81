"""In a real browser, the frictions a newcomer found: a phone's header is one row of tap targets,
the players' lines (long names, clocks, ratings) stay inside the game's side panel, the analysis
board says who is better in words, a puzzle that is over takes no more moves, and the tab's
title says whose move it is.

Set BORDSPEL_SCREENSHOTS=DIR to keep pictures of the pages checked here."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect

from bordspel.puzzles import Puzzle, load_puzzles, proof_of, winning_moves
from tests.test_web_browser import CHROMIUM
from tests.test_web_frictions_browser import base_url, browser, made

__all__ = ["base_url", "browser"]  # the module's server and browser

if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
OUTSIDE = """([outer, lines]) => {
  const box = document.querySelector(outer).getBoundingClientRect();
  const out = (node) => {
    const inner = node.getBoundingClientRect();
    return inner.left < box.left - 0.5 || inner.right > box.right + 0.5;
  };
  return [...document.querySelectorAll(lines)]
    .filter((line) => out(line) || line.scrollWidth > line.clientWidth + 1
      || [...line.querySelectorAll("*")].some(out))
    .map((line) => line.textContent);
}"""
"""The lines (of ``lines``) that reach out of ``outer``'s box, or whose parts do."""


def picture(page: Page, name: str) -> None:
    folder = os.environ.get("BORDSPEL_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def long_names_game(browser: Browser, base_url: str, end: str) -> dict[str, Any]:
    """A rated Quarto game with a clock between two accounts with names as long as allowed (the
    last letter ``end``)."""
    contexts = [browser.new_context() for _ in range(2)]
    for context, name in zip(contexts, ("W" * 19 + end, "M" * 19 + end)):
        made(context.request, f"{base_url}/api/account", {"username": name, "password": "correct horse"})
    body = {"game": "quarto", "seat": 0, "rated": True, "clock": {"initial": 5400, "increment": 30}}
    posted = made(contexts[0].request, f"{base_url}/api/challenges", body)
    taken = made(contexts[1].request, f"{base_url}/api/challenges/{posted['id']}/accept", {})
    for context in contexts:
        context.close()
    game: dict[str, Any] = taken["game"]
    return game


def hermit_puzzle() -> Puzzle:
    """A Hermit puzzle without gods, a win in 2 moves."""
    return next(p for p in load_puzzles() if p.game == "hermit" and p.distance == 3 and "gods" not in p.start)


@pytest.mark.slow
def test_a_phones_header_is_one_row_of_tap_targets(browser: Browser, base_url: str) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    game = made(page.request, f"{base_url}/api/games", {"game": "quarto", "seats": ["human", "easy"]})
    for path, name in (("/", "home"), (game["links"]["seats"][0], "game"), ("/lobby", "lobby")):
        page.goto(f"{base_url}{path}")
        expect(page.locator("#account button, #account a").first).to_be_visible()
        header = page.locator("header").bounding_box()
        assert header and header["height"] <= 80, f"the {name} page's header is {header} tall"
        targets = page.locator("header a:visible, header button:visible")
        assert targets.count() >= 7  # the logo, three site links, the account's two, the languages
        for target in targets.all():
            target.scroll_into_view_if_needed()
            box = target.bounding_box()
            assert box and box["height"] >= 44 and box["width"] >= 44, target.inner_text()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, target.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        picture(page, f"newcomer-header-{name}-phone")
    page.locator("header a[href='/puzzles']").click()  # reached in the header's row
    expect(page).to_have_url(re.compile("/puzzles$"))
    page.context.close()


@pytest.mark.slow
@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_players_lines_stay_inside_the_side_panel(
    browser: Browser, base_url: str, viewport: ViewportSize, name: str
) -> None:
    game = long_names_game(browser, base_url, name[0])
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{base_url}/games/{game['id']}")
    expect(page.locator("#players li .clock")).to_have_count(2)
    expect(page.locator("#players .rating").first).to_be_visible()
    assert page.evaluate(OUTSIDE, [".side", "#players li"]) == []
    if viewport == PHONE:
        assert page.evaluate(OUTSIDE, [".board-column", "#seat-line li"]) == []
    name_box = page.locator("#players a.name").first.bounding_box()
    assert name_box and name_box["height"] >= 44  # still a tap target
    page.locator("#players").scroll_into_view_if_needed()
    picture(page, f"newcomer-players-{name}")
    page.context.close()


@pytest.mark.slow
def test_the_analysis_board_says_who_is_better_in_words(browser: Browser, base_url: str) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{base_url}/analysis#game=quarto")
    judgement = page.locator("#lines .judgement").first
    searched = re.compile(r"^(Player [12] is better by \d+(\.\d)? · depth \d+|Even · depth \d+)$")
    expect(judgement).to_have_text(searched, timeout=30_000)
    page.click("button[data-lang=nl]")
    expect(judgement).to_have_text(re.compile(r"^(Speler [12] staat \d+(\.\d)? beter|Gelijk) · diepte \d+$"))
    picture(page, "newcomer-analysis-quarto")
    page.context.close()

    puzzle = hermit_puzzle()
    page = browser.new_context(viewport=DESKTOP).new_page()  # a new page: a new address's hash only
    page.goto(f"{base_url}/analysis#game=hermit&position={quote(puzzle.start)}")
    expect(page.locator("#depth")).to_contain_text("the search has finished", timeout=30_000)
    winner = f"Player {puzzle.state().to_move + 1}"
    exact = re.compile(r"^(Player [12] (can force a win|wins (in \d+ moves|with the next move))|A draw .*)$")
    judgements = page.locator("#lines .judgement").all_inner_texts()
    assert judgements and all(exact.match(text) for text in judgements), judgements
    assert any(text.startswith(f"{winner} wins") for text in judgements), judgements  # the solved line
    page.click("button[data-lang=nl]")
    dutch = re.compile(r"^(Speler [12] (kan|wint)|Remise)")
    expect(page.locator("#lines .judgement").first).to_have_text(dutch)
    picture(page, "newcomer-analysis-hermit")
    page.context.close()


@pytest.mark.slow
def test_a_puzzle_that_is_over_takes_no_more_moves(browser: Browser, base_url: str) -> None:
    puzzle = hermit_puzzle()
    right = winning_moves(proof_of(puzzle.game), puzzle.state(), puzzle.distance)
    wrong = next(m.to_str() for m in puzzle.state().legal_moves() if m.to_str() not in right)
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{base_url}/puzzles#{puzzle.id}")
    expect(page.locator("#board .target").first).to_be_visible()
    expect(page.locator("#toolbar button:enabled").first).to_be_visible()

    held: list[Route] = []

    def hold(route: Route) -> None:  # the reads of the position after the end wait: the page must not
        held.append(route)

    page.route("**/api/board?*", hold)
    page.select_option("#puzzle-moves", wrong)
    page.click("#puzzle-play")
    expect(page.locator("#status")).to_contain_text("Puzzle over")
    assert page.locator("#board .target").count() == 0
    assert page.locator("#toolbar button:enabled").count() == 0
    expect(page.locator("#puzzle-moves")).to_be_disabled()
    expect(page.locator("#puzzle-play")).to_be_disabled()
    page.locator("#board [data-square]").first.click()
    assert page.locator("#board .chosen, #board .target").count() == 0
    for route in held:
        route.continue_()
    page.unroute("**/api/board?*")
    expect(page.locator("#puzzle-result")).to_contain_text("Wrong")
    assert page.locator("#board .target").count() == 0
    picture(page, "newcomer-puzzle-over-phone")

    page.click("#puzzle-next")  # the next puzzle takes moves again
    expect(page.locator("#board .target").first).to_be_visible()
    expect(page.locator("#puzzle-moves")).to_be_enabled()
    page.context.close()


@pytest.mark.slow
def test_the_tab_title_says_whose_move_it_is(browser: Browser, base_url: str) -> None:
    first, second = (browser.new_context(viewport=DESKTOP).new_page() for _ in range(2))
    game = made(first.request, f"{base_url}/api/games", {"game": "quarto", "seats": ["human", "human"]})
    first.goto(f"{base_url}{game['links']['seats'][0]}")
    second.goto(f"{base_url}{game['links']['seats'][1]}")
    expect(first).to_have_title("Your turn — Quarto — bordspel")
    expect(second).to_have_title("Waiting for Player 1 — Quarto — bordspel")
    first.locator("#board [data-piece=A]").click()  # Quarto's first move hands a piece over
    expect(first).to_have_title("Waiting for Player 2 — Quarto — bordspel")
    expect(second).to_have_title("Your turn — Quarto — bordspel")
    second.click("button[data-lang=nl]")
    expect(second).to_have_title("Jouw beurt — Quarto — bordspel")
    watcher = browser.new_context(viewport=PHONE).new_page()
    watcher.goto(f"{base_url}{game['links']['spectator']}")
    expect(watcher).to_have_title("Player 2 to move — Quarto — bordspel")
    for page in (first, second, watcher):
        page.context.close()
