"""Accounts in a real browser (Playwright, Chromium), on a desktop and a phone: play a game
anonymously, sign up (the game is claimed), see it on the profile, log out and in; and a
hostile username (put straight into the store, past the checks) shown as text everywhere.

Set BORDSPEL_SCREENSHOTS=DIR to keep pictures of the pages. All of them run with the slow tests
(CI); the fast loop checks accounts through the API (``test_web_accounts.py``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from bordspel.core import new_game
from bordspel.web.app import ApiSettings, create_app
from bordspel.web.store import GameStore
from tests.live import serving
from tests.test_web_browser import CHROMIUM, chromium

if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

pytestmark = pytest.mark.slow

SETTINGS = ApiSettings(password_cost="CHEAPEST", secret="browser test secret")
PASSWORD = "correct horse"
DESKTOP = {"width": 1100, "height": 820}
PHONE = {"width": 390, "height": 844}
HOSTILE = '<img src=x onerror="window.pwned=1">'


@pytest.fixture(scope="module")
def base_url(module_db: str) -> Iterator[str]:
    with serving(create_app(module_db, SETTINGS)) as url:
        yield url


@pytest.fixture(scope="module")
def store(module_db: str) -> Iterator[GameStore]:
    opened = GameStore(module_db)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


def picture(page: Page, name: str) -> None:
    folder = os.environ.get("BORDSPEL_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def account_form(page: Page, button: str, name: str) -> None:
    page.click(button)
    page.fill("#account-username", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")


@pytest.mark.parametrize("size", [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")])
def test_sign_up_claims_the_anonymous_game_and_the_profile_shows_it(
    browser: Browser, base_url: str, size: dict[str, int]
) -> None:
    page = browser.new_page(viewport=size)
    name = f"ada{size['width']}"
    page.goto(f"{base_url}/?game=hermit")
    page.fill("#options input[name=size]", "3")
    page.select_option("#seat-1", "easy")
    page.click("#start")
    page.wait_for_selector("#board svg")
    game_id = page.url.split("/games/")[1].split("#")[0]
    page.goto(base_url)
    account_form(page, "#sign-up", name)
    expect(page.locator("#profile-link")).to_have_text(name)
    expect(page.locator("#claimed")).to_contain_text("The game played in this browser is now on your profile")
    picture(page, f"account-{'phone' if size is PHONE else 'desktop'}")
    page.click("#profile-link")
    expect(page.locator("#player-name")).to_have_text(name)
    listed = page.locator(f"#player-games li[data-game='{game_id}']")
    expect(listed).to_contain_text("in progress")
    page.select_option("#filter-result", "win")
    expect(listed).to_have_count(0)
    page.select_option("#filter-result", "")
    picture(page, f"profile-{'phone' if size is PHONE else 'desktop'}")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.click("#log-out")
    expect(page.locator("#log-in")).to_be_visible()
    account_form(page, "#log-in", name.upper())
    expect(page.locator("#profile-link")).to_have_text(name)
    listed.locator("a").click()
    expect(page.locator("#board svg")).to_be_visible()
    assert page.evaluate("document.querySelector('#players').textContent").count("You") == 1
    page.context.close()


def hostile_account(store: GameStore) -> str:
    """An account with a name the sign-up refuses, as if stored by a bug or by hand."""
    with store.db.transaction() as raw:
        raw.execute(
            "INSERT INTO accounts (id, username, name_key, password, created, creator) "
            "VALUES (?, ?, ?, '', 0, '')",
            ("hostile-id", HOSTILE, HOSTILE.lower()),
        )
    return "hostile-id"


def test_a_hostile_username_is_shown_as_text_on_the_game_and_profile_pages(
    browser: Browser, base_url: str, store: GameStore
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(base_url)
    account_form(page, "#sign-up", "victim")
    expect(page.locator("#profile-link")).to_have_text("victim")
    with store.db.transaction(write=False) as raw:
        (victim,) = raw.execute("SELECT id FROM accounts WHERE username = 'victim'").fetchone()
    stored, _ = store.create(
        new_game("quarto"), ["human", "human"], accounts=[victim, hostile_account(store)], rated=True
    )
    page.goto(f"{base_url}/games/{stored.id}")
    expect(page.locator("#players a.name")).to_have_text(HOSTILE)  # a link to the profile
    page.click("#players a.name")
    expect(page.locator("#player-name")).to_have_text(HOSTILE)
    page.goto(f"{base_url}/games/{stored.id}")
    page.goto(f"{base_url}/players/victim")
    expect(page.locator(f"#player-games li[data-game='{stored.id}']")).to_contain_text(HOSTILE)
    assert page.evaluate("window.pwned") is None and page.locator("img[src=x]").count() == 0
    page.context.close()


def test_an_invitation_opened_while_logged_in_goes_on_the_profile(browser: Browser, base_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(base_url)
    account_form(page, "#sign-up", "invitee")
    expect(page.locator("#profile-link")).to_have_text("invitee")
    created = page.request.post(
        f"{base_url}/api/games", data={"game": "quarto", "options": {}, "seats": ["human", "human"]}
    ).json()  # the page's own session: the creator's seat 0 is bound to the account too
    with page.expect_response("**/api/account/games") as claimed:
        page.goto(f"{base_url}{created['links']['seats'][1]}")
    assert claimed.value.json() == {"claimed": [created["id"]]}
    page.goto(f"{base_url}/players/invitee")
    expect(page.locator(f"#player-games li[data-game='{created['id']}']")).to_contain_text("invitee")
    page.context.close()
