"""In a real browser, on a desktop and a phone: a logged-in player solves a puzzle by the list of
moves (the server answering the defence) and fails the next one; the puzzle rating goes up,
then down; the page's texts follow a change of language. Hermit and Santorini puzzles are
solved by clicks on the board, as moves are played in a game.

Set BORDSPEL_SCREENSHOTS=DIR to keep pictures of the puzzle page (docs/screenshots has them).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

from bordspel.core import State
from bordspel.puzzles import Puzzle, load_puzzles, proof_of, winning_moves
from tests.test_web_browser import CHROMIUM
from tests.test_web_lobby_browser import browser, sign_up, two_players
from tests.test_web_notices_browser import DESKTOP, PHONE, base_url

__all__ = ["base_url", "browser"]  # the module's server and browser

if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)


def picture(page: Page, name: str) -> None:
    folder = os.environ.get("BORDSPEL_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def shown_puzzle(page: Page, before: str = "") -> Puzzle:
    """The puzzle on the page (once it is not the puzzle ``before``)."""
    expect(page.locator("#puzzle-facts")).to_contain_text("puzzle")
    if before:
        expect(page.locator("#puzzle-facts")).not_to_contain_text(before)
    found = re.search(r"puzzle (\w+),", page.locator("#puzzle-facts").inner_text())
    assert found
    return next(p for p in load_puzzles() if p.id == found.group(1))


def by_list(page: Page, move: str, answer: str) -> None:
    page.select_option("#puzzle-moves", move)
    page.click("#puzzle-play")
    expect(page.locator("#puzzle-result")).to_contain_text(answer)


def by_clicks(page: Page, base_url: str, state: State, move: str, answer: str) -> None:
    """The move's first click path (squares, pieces, toolbar choices, buttons) clicked."""
    query = urlencode({"game": state.name, "position": state.to_str()})
    legal = page.request.get(f"{base_url}/api/board?{query}").json()["legal"]
    found = next(option for option in legal if option["text"] == move)
    for key, value in (found.get("choices") or {}).items():
        page.click(f"#toolbar [data-choice='{key}:{value}']")
    for token in found["paths"][0]:
        kind, _, name = token.partition(":")
        target = f"#turn-bar [data-token='{token}']" if kind == "button" else f"#board [data-{kind}='{name}']"
        page.click(target)
    if found.get("confirm"):
        page.click("#end-turn")
    expect(page.locator("#puzzle-result")).to_contain_text(answer)


def solve(page: Page, puzzle: Puzzle, base_url: str = "") -> None:
    """Right moves, and the defence the server answers, to the end: by clicks when given the
    server's address, else by the list."""
    proof, state, plies = proof_of(puzzle.game), puzzle.state(), puzzle.distance
    while True:
        move = winning_moves(proof, state, plies)[0]
        after = state.play(move)
        done = after.outcome() is not None or plies <= 1
        answer = "Solved!" if done else f"The defence answered {proof.defence(after, plies - 1)}"
        if base_url:
            by_clicks(page, base_url, state, move, answer)
        else:
            by_list(page, move, answer)
        if done:
            return
        state, plies = after.play(proof.defence(after, plies - 1)), plies - 2


@pytest.mark.slow
@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_puzzle_solved_and_one_failed(
    browser: Browser, base_url: str, viewport: dict[str, int], name: str
) -> None:
    page, _, errors = two_players(browser, viewport, viewport)
    page.goto(base_url)
    sign_up(page, f"solver{name}")
    page.click("header a[href='/puzzles']")
    solved = shown_puzzle(page)
    solve(page, solved)
    expect(page.locator("#puzzle-rating")).to_contain_text("(+")

    page.click("#puzzle-next")
    puzzle = shown_puzzle(page, solved.id)
    right = winning_moves(proof_of(puzzle.game), puzzle.state(), puzzle.distance)
    wrong = next(move.to_str() for move in puzzle.state().legal_moves() if move.to_str() not in right)
    by_list(page, wrong, f"Wrong: {wrong} does not win. Winning here: {right[0]}")  # those found in time
    expect(page.locator("#puzzle-rating")).to_contain_text("(-")
    expect(page.locator("#puzzle-play")).to_be_disabled()
    expect(page.locator("#status")).to_contain_text("Puzzle over")
    picture(page, f"puzzle-wrong-{name}")
    page.click("button[data-lang=nl]")
    expect(page.locator("#puzzle-result")).to_contain_text("Fout")
    page.click("button[data-lang=en]")
    page.click(f"header a[href='/players/solver{name}']")  # the puzzle rating on the profile
    pool = page.locator("#ratings li[data-pool=puzzles]")
    expect(pool).to_contain_text("Puzzles")
    expect(pool).to_contain_text("2 puzzles tried")
    expect(pool.locator("circle")).to_have_count(2)  # the rating after each attempt
    assert not errors


@pytest.mark.slow
@pytest.mark.parametrize("game", ["hermit", "santorini"])
@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_puzzle_solved_by_clicks_on_the_board(
    browser: Browser, base_url: str, viewport: dict[str, int], name: str, game: str
) -> None:
    puzzle = next(p for p in load_puzzles() if p.game == game and p.distance == 3 and "gods" not in p.start)
    page, _, errors = two_players(browser, viewport, viewport)
    page.goto(f"{base_url}/puzzles#{puzzle.id}")
    assert shown_puzzle(page) == puzzle
    expect(page.locator("#puzzle-facts")).to_contain_text("a win in 2 moves")
    solve(page, puzzle, base_url)
    expect(page.locator("#status")).to_contain_text("Puzzle over")
    picture(page, f"puzzle-{game}-solved-{name}")
    assert not errors
