"""In a real browser, desktop and phone: the analysis board of a finished game shows its evaluation
graph with the thrown-away win marked, and a click on a point sets up that position; the board
names the game's players and their gods."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, expect

from bordspel.web.app import ApiSettings, create_app
from tests.live import serving
from tests.test_web_browser import CHROMIUM
from tests.test_web_frictions_browser import DESKTOP, PHONE, made
from tests.test_web_graphs import HERMIT_4, THROWN
from tests.test_web_lobby_browser import browser

__all__ = ["browser"]  # the module's browser fixture

if not CHROMIUM.exists() and not os.environ.get("BORDSPEL_REQUIRE_BROWSER"):
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)


@pytest.fixture(scope="module")
def base_url(module_db: str) -> Iterator[str]:
    settings = ApiSettings(
        job_workers=0,
        graph_workers=1,
        ai_time=0.5,
        graph_time=2.0,
        password_cost="CHEAPEST",
        secret="graph test secret",
    )
    with serving(create_app(module_db, settings)) as url:
        yield url


@pytest.mark.slow
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_graph_of_a_finished_game_is_shown_and_a_click_sets_its_position_up(
    browser: Browser, base_url: str, size: dict[str, int]
) -> None:
    page = browser.new_context(viewport=size).new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    body = {"game": "hermit", "options": {"size": 4}, "seats": ["human", "human"]}
    game = made(page.request, f"{base_url}/api/games", body)
    for version, move in enumerate(HERMIT_4):
        url = f"{base_url}/api/games/{game['id']}/moves"
        made(page.request, url, {"version": version, "move": move}, game["tokens"][version % 2])
    final = page.request.get(f"{base_url}/api/games/{game['id']}").json()["position"]
    page.goto(f"{base_url}/analysis#game=hermit&position={quote(final)}&from={game['id']}")
    points = page.locator("#game-graph circle.graph-point")
    expect(points).to_have_count(len(HERMIT_4) + 1, timeout=60_000)
    thrown = page.locator(f"#game-graph circle[data-ply='{THROWN}']")
    expect(thrown).to_have_class("graph-point blunder proof")
    thrown_move = page.locator(f"#game-move-list li[data-ply='{THROWN}']")
    expect(thrown_move).to_have_class(re.compile(r"\bblunder\b"))
    thrown.scroll_into_view_if_needed()
    thrown.click()
    after = page.request.get(f"{base_url}/api/games/{game['id']}/positions/{THROWN}").json()["position"]
    expect(page.locator("#position")).to_have_value(after)
    expect(thrown_move).to_have_class(re.compile(r"\bcurrent\b"))
    assert page.locator("#graph-cursor").get_attribute("visibility") == "visible"
    expect(page.locator("#lines .line-move").first).to_be_visible(timeout=30_000)
    if os.environ.get("BORDSPEL_SCREENSHOTS"):
        name = "analysis-graph" + ("-phone" if size == PHONE else "") + ".png"
        page.screenshot(path=os.path.join(os.environ["BORDSPEL_SCREENSHOTS"], name), full_page=True)
    assert not errors, errors


@pytest.mark.slow
def test_the_analysis_board_names_the_players_and_their_gods(browser: Browser, base_url: str) -> None:
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE)]
    for context, name in zip(contexts, ("ilse", "joost")):
        made(context.request, f"{base_url}/api/account", {"username": name, "password": "correct horse"})
    body = {"game": "santorini", "options": {"gods": "athena,pan"}, "seat": 0}
    posted = made(contexts[0].request, f"{base_url}/api/challenges", body)
    game = made(contexts[1].request, f"{base_url}/api/challenges/{posted['id']}/accept", {})["game"]
    page = contexts[1].new_page()
    page.goto(f"{base_url}/analysis#game=santorini&position={quote(game['position'])}&from={game['id']}")
    players = page.locator("#board-players li")
    expect(players).to_have_count(2, timeout=20_000)  # drawn with the server's view of the position
    expect(players.nth(0)).to_contain_text("ilse")
    expect(players.nth(0)).to_contain_text("Athena")
    expect(players.nth(1)).to_contain_text("joost")
    expect(players.nth(1)).to_contain_text("Pan")
    expect(page.locator("#status")).to_contain_text("ilse to move")
    expect(page.locator("#status")).not_to_contain_text("Player 1")


@pytest.mark.slow
def test_the_engine_lines_go_deeper_while_the_page_watches(browser: Browser, base_url: str) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    statuses: list[int] = []
    page.on(
        "response", lambda answer: statuses.append(answer.status) if "analysis/stream" in answer.url else None
    )
    page.add_init_script(DEPTH_TEXTS_SEEN)
    page.goto(f"{base_url}/analysis#game=santorini")
    expect(page.locator("#lines .line-move")).to_have_count(3, timeout=30_000)
    expect(page.locator("#depth")).to_contain_text("the search has finished", timeout=30_000)
    seen = page.evaluate("window.depthTexts")
    assert any("looking deeper" in text for text in seen[:-1]), seen
    assert statuses == [200]


# Every text #depth shows, in order: the steps come 0.25 s apart, faster than a loaded machine's
# polling can be sure to see each one.
DEPTH_TEXTS_SEEN = """
window.depthTexts = [];
new MutationObserver(() => {
  const depth = document.getElementById("depth");
  if (depth && depth.textContent !== window.depthTexts.at(-1)) window.depthTexts.push(depth.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
