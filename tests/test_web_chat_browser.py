"""In a real browser: two players chat in their game, one on a desktop and one on a phone; the
markup one of them writes is shown as text; a message too fast is refused on the page; the
muter no longer sees the other's messages; a spectator sees the spectators' room only.

Set BORDSPEL_SCREENSHOTS=DIR to keep pictures of the chat (docs/screenshots has them).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from bordspel.web.chat import BURST
from tests.test_web_browser import CHROMIUM
from tests.test_web_lobby_browser import browser, two_players
from tests.test_web_notices_browser import DESKTOP, PHONE, TOLD, base_url

__all__ = ["base_url", "browser"]  # the module's server and browser

if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

MARKUP = '<b>bold</b> <img src=x onerror="document.body.dataset.owned=1"> & co'


def picture(page: Page, name: str) -> None:
    folder = os.environ.get("BORDSPEL_SCREENSHOTS")
    if folder:
        page.locator("#chat").scroll_into_view_if_needed()
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def write(page: Page, text: str) -> None:
    """Send ``text`` and wait for the answer: sent (the field emptied) or refused (an error)."""
    page.fill("#chat-text", text)
    page.click("#chat-form button[type=submit]")
    page.wait_for_function(
        "() => !document.querySelector('#chat-text').value"
        " || document.querySelector('#chat-error').textContent"
    )


@pytest.mark.slow
def test_two_players_chat_and_markup_is_shown_as_text(browser: Browser, base_url: str) -> None:
    first, second, errors = two_players(browser, DESKTOP, PHONE)
    game: dict[str, Any] = first.request.post(
        f"{base_url}/api/games", data={"game": "quarto", "seats": ["human", "human"]}
    ).json()
    first.goto(f"{base_url}{game['links']['seats'][0]}")
    second.goto(f"{base_url}{game['links']['seats'][1]}")
    expect(second.locator("#chat-log")).to_contain_text("No messages yet.")

    write(first, MARKUP)
    shown = second.locator("#chat-log .chat-line").last
    expect(shown).to_have_text(f"Player 1 {MARKUP}", timeout=TOLD)
    assert second.locator("#chat-log b, #chat-log img").count() == 0
    write(second, "hello from the phone")
    expect(first.locator("#chat-log .chat-line").last).to_have_text(
        "Player 2 hello from the phone", timeout=TOLD
    )
    expect(first.locator("#chat-log .chat-line").first).to_have_text(f"You {MARKUP}")
    picture(first, "chat")
    picture(second, "chat-phone")

    for number in range(BURST + 1):  # within seconds: past the pace of BURST in WINDOW seconds
        write(first, f"quick {number}")
    expect(first.locator("#chat-error")).to_contain_text("at most")

    second.check("#chat-mute")
    expect(second.locator("#chat-log")).not_to_contain_text("quick")
    expect(second.locator("#chat-log")).to_contain_text("hello from the phone")

    watcher = browser.new_context(viewport=PHONE).new_page()
    watcher.goto(f"{base_url}{game['links']['spectator']}")
    expect(watcher.locator("#chat-note")).to_have_text("Log in to write here.")
    expect(watcher.locator("#chat-log")).not_to_contain_text("hello")
    assert second.evaluate("document.body.dataset.owned") is None
    assert not errors


@pytest.mark.slow
def test_spectators_talk_apart_and_the_players_read_them_once_the_game_is_over(
    browser: Browser, base_url: str
) -> None:
    player = browser.new_context(viewport=DESKTOP).new_page()
    game: dict[str, Any] = player.request.post(
        f"{base_url}/api/games", data={"game": "quarto", "seats": ["human", "human"]}
    ).json()
    player.goto(f"{base_url}{game['links']['seats'][0]}")
    watcher = browser.new_context(viewport=PHONE).new_page()
    signed = watcher.request.post(
        f"{base_url}/api/account", data={"username": "karel", "password": "correct horse"}
    )
    assert signed.ok, signed.text()
    watcher.goto(f"{base_url}{game['links']['spectator']}")
    write(watcher, "player 1 should hand over A")
    expect(watcher.locator("#chat-log .chat-line")).to_have_text(["karel player 1 should hand over A"])
    expect(player.locator("#chat-rooms")).to_be_hidden()  # the players' room only: no hints from the audience
    player.click("#resign")  # the end of the game opens the spectators' room to the players
    player.locator("#chat-rooms button", has_text="Spectators").click()
    expect(player.locator("#chat-log .chat-line")).to_have_text(["karel player 1 should hand over A"])
