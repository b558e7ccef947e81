"""End to end in a real browser: Playwright drives Debian's Chromium through whole games of
each game against the computer, by clicking what the page highlights.

Needs /usr/bin/chromium (``.ci/run`` installs it); without it these tests are skipped unless
BORDSPEL_REQUIRE_BROWSER is set, as it is in CI. Set BORDSPEL_SCREENSHOTS=DIR to keep pictures.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright

from bordspel.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(tmp_path_factory.mktemp("web") / "games.sqlite3")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


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


def start(page: Page, base_url: str, game: str, options: dict[str, object], opponent: str) -> None:
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
    page.wait_for_selector("#board svg")


def click_until_over(page: Page, game: str, limit: int = 200) -> str:
    """Play the person's seat by clicking highlighted targets until the game is over."""
    for _ in range(limit):
        status = page.text_content("#status") or ""
        if status.startswith("Game over"):
            return status
        if "(person) to move" in status:
            targets = page.locator("#board .target")
            if targets.count() == 0 and game == "hermit":
                for choice in page.locator("#toolbar button:not([disabled])").all():
                    choice.click()
                    if targets.count():
                        break
            if targets.count():
                targets.first.click()
        page.wait_for_timeout(150)
    raise AssertionError(f"the game did not end within {limit} steps: {page.text_content('#status')}")


@pytest.mark.parametrize(
    "game, options",
    [("hermit", {"size": 3}), ("santorini", {"players": 2}), ("quarto", {"advanced": False})],
)
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


def test_two_browsers_see_each_others_moves(browser: Browser, base_url: str) -> None:
    first = browser.new_page()
    start(first, base_url, "quarto", {}, "human")
    second = browser.new_page()
    second.goto(first.url)
    second.wait_for_selector("#board svg")
    first.locator("#board .target").first.click()  # player 1 hands a piece over
    second.wait_for_function("document.querySelectorAll('#moves li').length === 1", timeout=10_000)
    second.locator("#board .target").first.click()  # player 2, in the other browser, places it...
    second.locator("#board .target").first.click()  # ...and hands one back
    first.wait_for_function("document.querySelectorAll('#moves li').length === 2", timeout=10_000)
    first.reload()
    first.wait_for_selector("#moves li")
    assert first.locator("#moves li").count() == 2
