"""In a real browser, desktop and phone: a custom Fischer control chosen on the start page for a
game against the computer (its clocks on the game page), and in the lobby's form; a control out
of bounds is refused by the form (and by the server: tests/test_web_clocks.py).

Set BORDSPEL_SCREENSHOTS=DIR to keep the start page's picture with the custom control.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from bordspel.web.app import ApiSettings, create_app
from tests.live import serving
from tests.test_web_browser import CHROMIUM
from tests.test_web_lobby_browser import browser

__all__ = ["browser"]  # the module's browser fixture

if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def base_url(module_db: str) -> Iterator[str]:
    with serving(create_app(module_db, ApiSettings(ai_time=0.5, job_workers=1))) as url:
        yield url


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_a_custom_clock_against_the_computer(browser: Browser, base_url: str, size: str) -> None:
    page = browser.new_context(viewport=SIZES[size]).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base_url}/?game=quarto")
    expect(page.locator("#clock-custom")).to_be_hidden()
    page.select_option("#clock", label="Custom")
    page.fill("#clock-minutes", "0.5")
    page.fill("#clock-increment", "61")
    page.click("#start")
    expect(page.locator("#clock-increment:invalid")).to_have_count(1)  # the form says so itself
    assert "/games/" not in page.url
    page.fill("#clock-increment", "2")
    folder = os.environ.get("BORDSPEL_SCREENSHOTS")
    if folder:
        page.locator("#clock").scroll_into_view_if_needed()
        page.screenshot(path=str(Path(folder) / f"custom-clock-{size}.png"))
    page.click("#start")
    page.wait_for_url("**/games/**")
    expect(page.locator("#players .clock")).to_have_count(2)
    game = page.request.get(f"{base_url}/api/games/{page.url.split('/')[-1].split('#')[0]}").json()
    assert game["clock"]["label"] == "0.5+2" and "computer" not in game["seats"]
    assert game["seats"].count("human") == 1
    page.goto(f"{base_url}/lobby")
    labels = page.locator("#clock option").all_inner_texts()
    assert labels[:3] == ["no clock", "1+0", "1+1"] and labels[-1] == "Custom"
    assert page.locator("#clock").input_value() == "3"  # 3+2 by default
    assert not errors
