"""In a real browser, the small frictions of issue 39: the Player 2 menu shows its whole text, the
logo and a player's name are tap targets of 44 px, the rules page links to the lobby and opens in
a tab of its own while a clock runs, the move list is numbered as the record, the lobby says who
has which god and who plays a game in progress, "Your games" says where each game stands (whatever
answers first: the live channel, /api/meta or a kept game's look-up), a rematch can be declined,
and a phone's prompt says "tap"."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Browser, Route, expect

from bordspel.web.app import ApiSettings, create_app
from tests.live import serving
from tests.test_web_browser import CHROMIUM
from tests.test_web_lobby_browser import browser

__all__ = ["browser"]  # the module's browser fixture

if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WIDE_ENOUGH = """(select) => {
  const text = select.options[select.selectedIndex].text;
  const style = getComputedStyle(select);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontSize} ${style.fontFamily}`;
  return context.measureText(text).width + 40 <= select.clientWidth;  // 40: padding and arrow
}"""


@pytest.fixture(scope="module")
def base_url(module_db: str) -> Iterator[str]:
    settings = ApiSettings(
        password_cost="CHEAPEST", secret="frictions test secret", job_workers=1, ai_time=0.3
    )
    with serving(create_app(module_db, settings)) as url:
        yield url


def made(request: APIRequestContext, url: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = request.post(url, data=body, headers=headers)
    assert response.ok, response.text()
    return response.json()


def three_moves(request: APIRequestContext, base_url: str, game: dict[str, Any]) -> None:
    """Quarto's first three moves in ``game``: A handed over, placed on a1 with B, on b1 with C."""
    for version, (seat, move) in enumerate(((0, "A"), (1, "a1:B"), (0, "b1:C"))):
        url = f"{base_url}/api/games/{game['id']}/moves"
        made(request, url, {"version": version, "move": move}, game["tokens"][seat])


@pytest.mark.slow
def test_start_page_rules_page_and_move_list(browser: Browser, base_url: str) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{base_url}/?game=quarto")
    player_2 = page.locator("#seat-1")
    expect(player_2).to_have_value("medium")
    assert player_2.evaluate(WIDE_ENOUGH), "the Player 2 menu cuts its text off"

    page.goto(f"{base_url}/rules/quarto")
    expect(page.locator("header a[href='/lobby']")).to_have_count(1)

    game = made(
        page.request,
        f"{base_url}/api/games",
        {"game": "quarto", "seats": ["human", "human"], "clock": {"initial": 600, "increment": 5}},
    )
    three_moves(page.request, base_url, game)
    page.goto(f"{base_url}{game['links']['seats'][0]}")
    expect(page.locator("#moves li")).to_have_count(3)
    assert [item.get_attribute("value") for item in page.locator("#moves li").all()] == ["1", "1", "2"]
    assert page.locator("#moves li.same-move").count() == 1
    expect(page.locator("#rules-link")).to_have_attribute("target", "_blank")  # a clock runs


@pytest.mark.slow
def test_lobby_names_gods_and_players_and_your_games_say_where_games_stand(
    browser: Browser, base_url: str
) -> None:
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE)]
    for context, name in zip(contexts, ("ilse", "joost")):
        made(context.request, f"{base_url}/api/account", {"username": name, "password": "correct horse"})
    body = {"game": "santorini", "options": {"gods": "athena,pan"}, "seat": 0}
    posted = made(contexts[0].request, f"{base_url}/api/challenges", body)
    taken = made(contexts[1].request, f"{base_url}/api/challenges/{posted['id']}/accept", {})
    page = contexts[1].new_page()
    page.goto(f"{base_url}/lobby")
    listed = page.locator(f'#games [data-game="{taken["game"]["id"]}"]')
    expect(listed).to_contain_text("ilse · joost · Santorini")
    expect(listed).to_contain_text("god (ilse: Athena, joost: Pan)")

    mine = made(page.request, f"{base_url}/api/games", {"game": "quarto", "seats": ["human", "easy"]})
    page.goto(f"{base_url}{mine['links']['seats'][0]}")
    expect(page.locator("#board .target").first).to_be_visible()
    page.goto(f"{base_url}/")
    expect(page.locator("body[data-notices=live]")).to_have_count(
        1, timeout=10_000
    )  # the account's games told
    expect(page.locator(f'#your-games-list [data-game="{mine["id"]}"] .game-status')).to_have_text(
        "Your turn"
    )
    expect(page.locator(f'#your-games-list [data-game="{taken["game"]["id"]}"]')).to_contain_text(
        "ilse · Their turn"
    )
    box = page.locator("header .brand").bounding_box()
    assert box and box["height"] >= 44
    page.goto(f"{base_url}/games/{taken['game']['id']}")
    opponent = page.locator("#players a.name", has_text="ilse")
    expect(opponent).to_be_visible()
    box = opponent.bounding_box()
    assert box and box["height"] >= 44  # a phone's tap target


@pytest.mark.slow
def test_your_games_hear_the_live_channel_whatever_answers_first(browser: Browser, base_url: str) -> None:
    """The channel's snapshot comes before /api/meta and during the look-up of a kept game: the
    start page still lists the account's games that this browser does not keep."""
    page = browser.new_context(viewport=PHONE).new_page()
    made(page.request, f"{base_url}/api/account", {"username": "wim", "password": "correct horse"})
    kept, told = (
        made(page.request, f"{base_url}/api/games", {"game": "quarto", "seats": ["human", "easy"]})
        for _ in range(2)
    )
    page.goto(f"{base_url}{kept['links']['seats'][0]}")  # kept in this browser; the other is not
    expect(page.locator("#board .target").first).to_be_visible()

    def late(route: Route) -> None:
        time.sleep(1)  # the snapshot arrives meanwhile
        route.continue_()

    page.route("**/api/meta", late)
    page.route(f"**/api/games/{kept['id']}", late)
    page.goto(f"{base_url}/")
    expect(page.locator(f'#your-games-list [data-game="{kept["id"]}"] .game-status')).to_have_text(
        "Your turn"
    )
    expect(page.locator(f'#your-games-list [data-game="{told["id"]}"]')).to_contain_text("Your turn")
    page.wait_for_timeout(500)  # the look-up's answer has been shown: the account's game stays
    expect(page.locator(f'#your-games-list [data-game="{told["id"]}"]')).to_contain_text("Your turn")
    page.context.close()


@pytest.mark.slow
def test_a_rematch_is_declined_from_the_page(browser: Browser, base_url: str) -> None:
    pages = [browser.new_context(viewport=size).new_page() for size in (DESKTOP, PHONE)]
    game = made(pages[0].request, f"{base_url}/api/games", {"game": "quarto", "seats": ["human", "human"]})
    made(pages[0].request, f"{base_url}/api/games/{game['id']}/resign", {"version": 0}, game["tokens"][0])
    asked = made(pages[0].request, f"{base_url}/api/games/{game['id']}/rematch", {}, game["tokens"][0])
    pages[1].goto(f"{base_url}{game['links']['seats'][1]}")
    pages[1].click("#decline-rematch")
    expect(pages[1].locator("#decline-rematch")).to_be_hidden()
    expect(pages[1].locator("#rematch")).to_have_text("Rematch")
    pages[0].goto(f"{base_url}{asked['link']}")
    expect(pages[0].locator("#status")).to_contain_text("Game aborted")


@pytest.mark.slow
def test_a_phone_says_tap_before_the_first_tap(browser: Browser, base_url: str) -> None:
    page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    game = made(page.request, f"{base_url}/api/games", {"game": "hermit", "seats": ["human", "human"]})
    page.goto(f"{base_url}{game['links']['seats'][0]}")
    expect(page.locator("#status")).to_contain_text("tap where the block goes")
    expect(page.locator("#status")).not_to_contain_text("click")


@pytest.mark.slow
def test_the_analysis_board_lists_the_finished_games_moves(browser: Browser, base_url: str) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    game = made(page.request, f"{base_url}/api/games", {"game": "quarto", "seats": ["human", "human"]})
    three_moves(page.request, base_url, game)
    made(page.request, f"{base_url}/api/games/{game['id']}/resign", {"version": 3}, game["tokens"][1])
    page.goto(f"{base_url}{game['links']['seats'][0]}")
    page.click("#analyse")
    page.wait_for_url("**/analysis#**")
    moves = page.locator("#game-move-list li")
    expect(moves).to_have_text(["Start", "A", "a1:B", "b1:C"])
    expect(page.locator("#game-players")).to_have_text("Player 1 \u2013 Player 2")
    expect(page.locator("#game-move-list li.current")).to_have_text("b1:C")
    after_one = page.request.get(f"{base_url}/api/games/{game['id']}/positions/1").json()["position"]
    moves.nth(1).click()
    expect(page.locator("#position")).to_have_value(after_one)
    expect(page.locator("#game-move-list li.current")).to_have_text("A")
    if os.environ.get("BORDSPEL_SCREENSHOTS"):
        page.screenshot(path=os.path.join(os.environ["BORDSPEL_SCREENSHOTS"], "analysis-moves.png"))
