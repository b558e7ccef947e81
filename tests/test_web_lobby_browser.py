"""In a real browser, desktop and phone: two players sign up, one posts a rated 3+2 challenge in
the lobby, the other accepts it, they play on the clock until one flag falls, both ratings change
as OpenSkill computes them, then a rematch with the seats swapped, and the analysis board on the
finished game.

The server runs its clocks at a tenth of real time (``ApiSettings.clock_scale``), so 3+2 lasts
18 seconds. Set BORDSPEL_SCREENSHOTS=DIR to keep the pages' pictures (docs/screenshots has them).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bordspel.web.app import ApiSettings, create_app
from bordspel.web.ratings import model
from tests.live import serving
from tests.test_web_browser import CHROMIUM, chromium, wait_for_turn

if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

DESKTOP = {"width": 1100, "height": 820}
PHONE = {"width": 390, "height": 844}
GAME_PAGE = re.compile(r"/games/[\w-]+#seat=[\w-]+$")


@pytest.fixture(scope="module")
def base_url(module_db: str) -> Iterator[str]:
    settings = ApiSettings(
        clock_scale=0.1, flag_poll=0.2, ai_time=1.0, password_cost="CHEAPEST", secret="browser test secret"
    )
    with serving(create_app(module_db, settings)) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


def picture(page: Page, name: str, full_page: bool = False) -> None:
    folder = os.environ.get("BORDSPEL_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full_page)


def sign_up(page: Page, name: str) -> None:
    page.click("#sign-up")
    page.fill("#account-username", name)
    page.fill("#account-password", "correct horse")
    with page.expect_navigation():  # the page reloads: a click before that would be lost
        page.click("#account-submit")
    expect(page.locator("#account")).to_contain_text(name)


def two_players(
    browser: Browser, host: dict[str, int], guest: dict[str, int]
) -> tuple[Page, Page, list[str]]:
    """Two browsers of their own (their own cookies) with these viewports, and the script
    errors of their pages."""
    pages = browser.new_context(viewport=host).new_page(), browser.new_context(viewport=guest).new_page()
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
    return pages[0], pages[1], errors


def post_rated_quarto(page: Page, clock: str | None = None) -> None:
    """Post a rated Quarto challenge from the lobby, sitting first (with a time control's label)."""
    page.click("label[for=game-quarto]")
    if clock:
        page.select_option("#clock", label=clock)
    page.select_option("#your-seat", label="Player 1")
    page.check("#rated")
    page.click("#post")
    expect(page.locator("#challenges [data-challenge]")).to_contain_text("your challenge")


def play_one_move(page: Page) -> None:
    """Click highlighted targets until the page's player has made one move."""
    wait_for_turn(page)
    moves = page.locator("#moves li")
    before = moves.count()
    for _ in range(20):
        if moves.count() > before:
            return
        targets = page.locator("#board .target")
        if targets.count():
            with suppress(PlaywrightTimeout):  # the move's answer came meanwhile: no target is left
                targets.first.click(timeout=2_000)
        page.wait_for_timeout(100)
    expect(moves).to_have_count(before + 1)


@pytest.mark.slow
def test_meet_in_the_lobby_play_on_the_clock_until_a_flag_falls_rematch_and_analyse(
    browser: Browser, base_url: str
) -> None:
    host, guest, errors = two_players(browser, DESKTOP, PHONE)

    host.goto(f"{base_url}/")
    sign_up(host, "hostess")
    host.click("nav.site a[href='/lobby']")
    post_rated_quarto(host, "3+2")

    guest.goto(f"{base_url}/lobby")
    sign_up(guest, "gwen")
    offer = guest.locator("#challenges [data-challenge]")
    expect(offer).to_contain_text("hostess (1500?) · Quarto · 3+2 · Rated")  # a provisional rating
    picture(host, "lobby")
    picture(guest, "lobby-phone", full_page=True)
    offer.locator("button", has_text="Accept").click()
    guest.wait_for_url(GAME_PAGE)
    host.wait_for_url(GAME_PAGE, timeout=20_000)  # the host's lobby follows its challenge
    expect(guest.locator("#you")).to_have_text("You play second.")

    running = host.locator('#players .clock.running[data-seat="0"]')
    shown = running.text_content()
    expect(running).not_to_have_text(shown or "")  # the host's clock ticks on the page
    play_one_move(host)
    play_one_move(guest)
    play_one_move(host)
    expect(guest.locator('.clock.running[data-seat="1"]').first).to_be_visible()
    picture(guest, "clock-phone")
    expect(guest.locator("#status")).to_have_text(
        re.compile(r"Game over: .* won \(time ran out\)\."), timeout=60_000
    )
    expect(host.locator("#status")).to_contain_text("Game over: you won (time ran out).", timeout=20_000)
    expect(host.locator('#players .clock[data-seat="1"]')).to_have_text("0:00")
    picture(host, "clock")
    finished = host.url
    expected = model().rate([[model().rating()], [model().rating()]], ranks=[1, 2])
    for name, (after,) in zip(("hostess", "gwen"), expected):
        rating = host.request.get(f"{base_url}/api/players/{name}").json()["ratings"]["quarto"]
        assert rating["games"] == 1 and rating["rating"] == round(after.mu)
    changes = [round(after.mu - model().rating().mu) for (after,) in expected]
    shown = host.locator("#players .rating-change")
    expect(shown).to_have_text([f"+{changes[0]}", f"\u2212{-changes[1]}"])  # both players' changes
    expect(host.locator("#status")).to_contain_text(
        f"Your rating: {round(expected[0][0].mu)} (+{changes[0]})."
    )

    host.click("#rematch")
    expect(host.locator("#you")).to_have_text("You play second.")
    expect(guest.locator("#rematch")).to_have_text("Play the rematch", timeout=20_000)
    expect(guest.locator("#status")).to_contain_text("A rated rematch has started")
    guest.click("#rematch")
    expect(guest.locator("#you")).to_have_text("You play first.")
    assert host.url.split("#")[0] == guest.url.split("#")[0] != finished.split("#")[0]
    expect(guest.locator('#players .clock.running[data-seat="0"]')).to_be_visible()

    host.goto(finished)
    host.click("#previous")
    expect(host.locator("#status")).to_contain_text("Replaying move 2 of 3")
    host.click("#analyse")
    expect(host.locator("#lines .line-move")).to_have_count(3, timeout=30_000)
    expect(host.locator("#played")).to_have_text("")
    host.locator("#lines .line-move").first.click()
    expect(host.locator("#played")).not_to_have_text("")
    expect(host.locator("#lines .line-move").first).to_be_visible(timeout=30_000)
    picture(host, "analysis")
    assert not errors
