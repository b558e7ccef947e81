"""End to end in a real browser: Playwright drives Debian's Chromium through whole games of
each game against the computer, by clicking what the page highlights.

Needs /usr/bin/chromium (``.ci/run`` installs it); without it these tests are skipped unless
BORDSPEL_REQUIRE_BROWSER is set, as it is in CI. Set BORDSPEL_SCREENSHOTS=DIR to keep pictures.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from bordspel.web.app import create_app
from tests.live import serving
from tests.variants import FIRST_IDS, FIRSTS

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(create_app(tmp_path_factory.mktemp("web") / "games.sqlite3")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
            ],
        )
        yield launched
        launched.close()


def start(
    page: Page,
    base_url: str,
    game: str,
    options: dict[str, object],
    opponent: str,
    wait_for_board: bool = True,
) -> None:
    page.goto(f"{base_url}/?game={game}")
    page.wait_for_selector("#seats select")
    for name, value in options.items():
        field = page.locator(f"#options input[name={name}]")
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.fill(str(value))
    page.select_option("#seat-1", opponent)
    page.click("#start")
    page.wait_for_selector("#board svg" if wait_for_board else "#invitations:not([hidden])")


def click_until_over(page: Page, game: str, limit: int = 200) -> str:
    """Play the person's seat by clicking highlighted targets until the game is over."""
    for _ in range(limit):
        status = page.text_content("#status") or ""
        if status.startswith("Game over"):
            return status
        if "(person, you) to move" in status:
            targets = page.locator("#board .target")
            if targets.count() == 0:
                for choice in page.locator("#toolbar button:not([disabled])").all():
                    choice.click()
                    if targets.count():
                        break
            if targets.count():
                targets.first.click()
        page.wait_for_timeout(150)
    raise AssertionError(f"the game did not end within {limit} steps: {page.text_content('#status')}")


@pytest.mark.parametrize("game, options", FIRSTS, ids=FIRST_IDS)
def test_play_a_whole_game_by_clicking(
    browser: Browser, base_url: str, game: str, options: dict[str, object]
) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 820})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    start(page, base_url, game, options, "easy")
    first = page.locator("#board svg").inner_html()
    status = click_until_over(page, game)
    assert "won" in status or "draw" in status
    assert page.locator("#moves li").count() >= 2 and page.locator("#board svg").inner_html() != first
    assert not errors
    folder = os.environ.get("BORDSPEL_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{game}.png"))
    page.close()


def test_creator_and_invitee_play_in_two_browsers_and_a_spectator_only_watches(
    browser: Browser, base_url: str
) -> None:
    creator_context, invitee_context, spectator_context = (browser.new_context() for _ in range(3))
    first = creator_context.new_page()
    start(first, base_url, "quarto", {}, "human", wait_for_board=False)
    invitation = first.locator("#invite-1").input_value()
    spectator_link = first.locator("#invite-spectator").input_value()
    assert "#seat=" in invitation and "#" not in spectator_link
    first.click("#play-link")
    first.wait_for_selector("#board .target")
    second = invitee_context.new_page()
    second.goto(invitation)
    second.wait_for_selector("#board svg")
    watcher = spectator_context.new_page()
    watcher.goto(spectator_link)
    watcher.wait_for_selector("#board svg")
    assert second.locator("#board .target").count() == 0  # not the invitee's turn yet
    first.locator("#board .target").first.click()  # player 1 hands a piece over
    expect(second.locator("#moves li")).to_have_count(1, timeout=2_000)
    expect(watcher.locator("#moves li")).to_have_count(1, timeout=2_000)
    second.locator("#board .target").first.click()  # player 2, in the other browser, places it...
    second.locator("#board .target").first.click()  # ...and hands one back
    expect(first.locator("#moves li")).to_have_count(2, timeout=2_000)
    assert watcher.locator("#board .target").count() == 0 and watcher.locator("#undo").is_hidden()
    assert "watching" in (watcher.text_content("#you") or "")
    first.click("#undo")  # against a person: a takeback request the invitee answers
    second.wait_for_selector("#accept", state="visible", timeout=2_000)
    second.click("#accept")
    expect(first.locator("#moves li")).to_have_count(0, timeout=2_000)  # back to player 1's turn
    first.reload()
    first.wait_for_selector("#board .target")
    assert first.locator("#moves li").count() == 0 and second.locator("#board .target").count() == 0
    for context in (creator_context, invitee_context, spectator_context):
        context.close()
