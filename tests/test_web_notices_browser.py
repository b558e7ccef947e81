"""In a real browser: the live channel of a logged-in player on every page. Two accounts; A
posts a rated challenge and goes to the home page, B accepts, and A's home page says so within
2 s (a banner with the way to the game) and counts the game in the tab's title; "Your games"
lists it after a reload; A aborts it before moving, B's page (a phone) is told, and neither
rating changes.

Set BORDSPEL_SCREENSHOTS=DIR to keep the banners' pictures (docs/screenshots has them).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from bordspel.web.app import ApiSettings, create_app
from tests.live import serving
from tests.test_web_browser import CHROMIUM
from tests.test_web_lobby_browser import browser, post_rated_quarto, sign_up, two_players

__all__ = ["browser"]  # the module's browser fixture

if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TOLD = 2_000
"""Milliseconds within which a page is told (the brief: within 2 s)."""


@pytest.fixture(scope="module")
def base_url(module_db: str) -> Iterator[str]:
    settings = ApiSettings(password_cost="CHEAPEST", secret="notices test secret", job_workers=0)
    with serving(create_app(module_db, settings)) as url:
        yield url


def picture(page: Page, name: str) -> None:
    """The top of the page, the header and the banners (the rest is the page as it was)."""
    folder = os.environ.get("BORDSPEL_SCREENSHOTS")
    box = page.locator("#notices").bounding_box()
    if folder and box:
        clip = {
            "x": 0,
            "y": 0,
            "width": page.viewport_size["width"] if page.viewport_size else 390,
            "height": box["y"] + box["height"] + 12,
        }
        page.screenshot(path=str(Path(folder) / f"{name}.png"), clip=clip)


def live(page: Page) -> None:
    """Wait until the page's live channel has sent its first snapshot (where things stand)."""
    expect(page.locator("body[data-notices=live]")).to_have_count(1)


def test_a_challenge_accepted_is_told_on_the_home_page_and_an_aborted_game_is_not_rated(
    browser: Browser, base_url: str
) -> None:
    host, guest, errors = two_players(browser, DESKTOP, PHONE)

    host.goto(f"{base_url}/lobby")
    sign_up(host, "alma")
    post_rated_quarto(host)
    host.goto(f"{base_url}/")
    live(host)
    expect(host).to_have_title("bordspel — New game")

    guest.goto(f"{base_url}/lobby")
    sign_up(guest, "bert")
    guest.locator("#challenges [data-challenge]").locator("button", has_text="Accept").click()
    guest.wait_for_url(re.compile(r"/games/"))

    banner = host.locator("#notices .notice").first
    expect(banner).to_contain_text("Your game against bert has started: Quarto.", timeout=TOLD)
    expect(host).to_have_title("(1) bordspel — New game", timeout=TOLD)
    picture(host, "notice")
    game_link = banner.locator("a").get_attribute("href")
    assert game_link == guest.url.split("#")[0].removeprefix(base_url)

    host.reload()
    expect(host.locator(f'#your-games-list [data-game="{game_link.split("/")[-1]}"]')).to_contain_text(
        "Quarto · bert · Your turn"
    )

    guest.goto(f"{base_url}/")
    live(guest)
    host.goto(f"{base_url}{game_link}")
    expect(host.locator("#resign")).to_have_text("Abort")
    host.click("#resign")
    expect(host.locator("#status")).to_contain_text("Game aborted")
    expect(guest.locator("#notices .notice").first).to_contain_text(
        "Your game against alma was aborted: Quarto.", timeout=TOLD
    )
    picture(guest, "notice-phone")
    for name in ("alma", "bert"):
        profile = host.request.get(f"{base_url}/api/players/{name}").json()
        assert profile["ratings"] == {} and profile["games"][0]["result"] == "aborted"
    assert not errors


@pytest.mark.slow  # a few seconds; the README's loop stays under 3 minutes
def test_three_tabs_of_a_game_leave_room_for_another_page_and_share_one_live_channel(
    browser: Browser, base_url: str
) -> None:
    """A browser opens at most six connections to a site: each game page keeps one stream (the
    game's, with its chat's count) and one tab holds the account's live channel for all."""
    context = browser.new_context(viewport=DESKTOP)
    first = context.new_page()
    first.goto(f"{base_url}/lobby")
    sign_up(first, "carla")
    created = first.request.post(
        f"{base_url}/api/games", data={"game": "quarto", "options": {}, "seats": ["human", "human"]}
    ).json()
    tabs = [first, context.new_page(), context.new_page()]
    for tab in tabs:
        tab.goto(f"{base_url}/games/{created['id']}")
        live(tab)
    lobby = context.new_page()
    lobby.goto(f"{base_url}/lobby", timeout=10_000)
    expect(lobby.locator("#game-choice label").first).to_be_visible(timeout=10_000)  # /api/meta answered
    live(lobby)  # told by the tab that holds the channel
    context.close()
