"""The browser app's usability audits, point by point, in a real browser (see test_web_browser.py):
errors that clear themselves and speak the page's words, the levels offered, who is who on a
phone, the status in replay, the takeback after the end, the way back from the rules, Quarto's
width, Santorini's build targets and the move numbers in replay; then a large board on a phone,
a preview before a tap plays, Quarto's still tray and lettered pieces, the seats in words and the
rules pictures' arrows. All with the slow tests: the fast loop keeps test_web_browser.py's core."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, FloatRect, Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bordspel.core import available_games, new_game
from bordspel.games.hermit.svg import BLOCK_COLOURS
from bordspel.guide import guide_of
from bordspel.web.app import create_app
from bordspel.zero import zero_available
from tests.live import serving
from tests.test_web_browser import chromium, click_squares, game_page, post, start, wait_for_turn

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base_url(module_db: str) -> Iterator[str]:
    with serving(create_app(module_db)) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


CHANGED = "The game changed meanwhile; the board shows the current position."
TARGET = "#board .target"


def two_people(browser: Browser, base_url: str, game: str = "quarto") -> tuple[Page, Page]:
    """The creator's page and the invited player's, each in a browser of its own."""
    first = browser.new_context().new_page()
    start(first, base_url, game, {}, "human", wait_for_board=False)
    invitation = first.locator("#invite-1").input_value()
    first.click("#play-link")
    first.wait_for_selector(TARGET)
    second = browser.new_context().new_page()
    second.goto(invitation)
    second.wait_for_selector("#board svg")
    return first, second


def test_a_conflict_is_said_in_words_and_cleared_by_a_live_update(browser: Browser, base_url: str) -> None:
    first, second = two_people(browser, base_url)
    technical = {"error": "the game is at version 10, not 8: it changed since"}
    first.route("**/api/games/*/moves", lambda route: route.fulfill(status=409, json=technical))
    first.click("#board [data-piece=A]")
    message = first.locator("#message")
    expect(message).to_have_text(CHANGED)
    first.click("[data-lang=nl]")
    expect(message).to_have_text("Het spel is intussen veranderd; het bord toont de huidige stand.")
    first.click("[data-lang=en]")
    first.unroute("**/api/games/*/moves")
    first.click("#board [data-piece=A]")
    expect(second.locator("#moves li")).to_have_count(1, timeout=5_000)
    second.locator(TARGET).first.click()  # the other player places the piece...
    second.locator(TARGET).first.click()  # ...and hands one over: the first page hears of it
    expect(first.locator("#moves li")).to_have_count(2, timeout=5_000)
    expect(message).to_have_text("")
    first.route("**/api/games/*/moves", lambda route: route.fulfill(status=409, json=technical))
    first.locator(TARGET).first.click()  # where the piece goes...
    first.locator(TARGET).first.click()  # ...and which one to hand over: refused
    expect(message).to_have_text(CHANGED)
    second.click("#undo")  # a takeback request is a newer version: the message goes
    expect(first.locator("#takeback")).to_be_visible(timeout=5_000)
    expect(message).to_have_text("")
    for page in (first, second):
        page.context.close()


def test_a_computer_move_asked_for_twice_shows_no_error(browser: Browser, base_url: str) -> None:
    page = game_page(browser, base_url, "quarto", {})

    def played_elsewhere(route: Route) -> None:  # the move is made, as if another page asked first
        route.fetch()
        route.fulfill(status=409, json={"error": "it is not the computer's turn in the position you saw"})

    page.route("**/api/games/*/ai", played_elsewhere)
    page.click("#board [data-piece=A]")
    expect(page.locator("#moves li")).to_have_count(2, timeout=20_000)
    wait_for_turn(page)
    expect(page.locator("#message")).to_have_text("")
    page.unroute_all(behavior="wait")  # a request still in the handler would fail the next test's page
    page.context.close()


@pytest.mark.skipif(not zero_available("hermit"), reason="zero needs onnxruntime and a shipped network")
def test_zero_can_be_chosen_only_for_options_a_network_was_shipped_for(
    browser: Browser, base_url: str
) -> None:
    page = browser.new_page()
    page.goto(f"{base_url}/?game=hermit")
    zero = page.locator("#seat-1 option[value=zero]")
    page.fill("#options input[name=size]", "5")
    expect(zero).to_be_enabled()
    page.fill("#options input[name=size]", "4")
    expect(zero).to_be_disabled()
    expect(zero).to_have_text("Computer (zero): no network for these options")
    page.goto(f"{base_url}/?game=santorini")
    zero = page.locator("#seat-1 option[value=zero]")
    expect(zero).to_be_enabled()
    page.select_option("#seat-0-gods", "apollo")
    expect(zero).to_be_disabled()
    page.close()


def test_the_start_page_offers_no_baseline_levels(browser: Browser, base_url: str) -> None:
    page = browser.new_page()
    page.goto(f"{base_url}/?game=santorini")
    page.wait_for_selector("#seats select")
    offered = page.locator("#seat-1 option").evaluate_all("options => options.map(o => o.value)")
    assert offered == [
        "human",
        "easy",
        "medium",
        "hard",
        "perfect",
        *(["zero"] if zero_available("santorini") else []),
    ]
    page.close()
    with urllib.request.urlopen(f"{base_url}/api/meta") as answer:
        meta: dict[str, Any] = json.load(answer)
    assert "hard-v1" in meta["games"]["quarto"]["baselines"]
    created = post(f"{base_url}/api/games", {"game": "quarto", "seats": ["human", "hard-v1"]})
    assert created["seats"] == ["human", "hard-v1"]  # still a seat for research


def test_a_phone_shows_who_is_who_above_the_board(browser: Browser, base_url: str) -> None:
    page = game_page(browser, base_url, "santorini", {"players": 2}, viewport={"width": 390, "height": 844})
    line = page.locator("#seat-line")
    expect(line).to_be_visible()
    expect(line.locator("li")).to_have_text(["You:", "Computer (easy):"])
    colours = "nodes => nodes.map(n => getComputedStyle(n).backgroundColor)"
    swatches = line.locator(".swatch").evaluate_all(colours)
    assert swatches == page.locator("#players .swatch").evaluate_all(colours) and len(set(swatches)) == 2
    line_box, board_box = line.bounding_box(), page.locator("#board svg").bounding_box()
    assert line_box is not None and board_box is not None
    assert line_box["y"] + line_box["height"] <= board_box["y"] < 844
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_viewport_size({"width": 1100, "height": 820})
    expect(line).to_be_hidden()  # the players list beside the board says it there
    page.context.close()


def play_two_moves(page: Page) -> None:
    page.click("#board [data-piece=A]")
    expect(page.locator("#moves li")).to_have_count(2, timeout=20_000)
    wait_for_turn(page)


def test_replay_says_so_in_the_status(browser: Browser, base_url: str) -> None:
    page = game_page(browser, base_url, "quarto", {})
    play_two_moves(page)
    status = page.locator("#status")
    page.click("#first")
    expect(status).to_have_text("Replaying the start position (2 moves)")
    page.keyboard.press("ArrowRight")
    expect(status).to_have_text("Replaying move 1 of 2")
    page.click("[data-lang=nl]")
    expect(status).to_have_text("Terugkijken: zet 1 van 2")
    page.click("[data-lang=en]")
    page.click("#live")
    expect(status).to_have_text(re.compile("^Your turn"))
    page.context.close()


def test_the_move_shown_in_replay_keeps_its_number(browser: Browser, base_url: str) -> None:
    page = game_page(browser, base_url, "quarto", {})
    play_two_moves(page)
    page.locator("#moves li").first.click()
    expect(page.locator("#moves li.current")).to_have_count(1)
    markers = page.locator("#moves li").evaluate_all(
        "items => items.map(i => [i.className, getComputedStyle(i, '::marker').color])"
    )
    current = [colour for name, colour in markers if name == "current"]
    others = {colour for name, colour in markers if name == "same-move"}
    background = page.evaluate("getComputedStyle(document.querySelector('.side')).backgroundColor")
    # the current move's number readable; the second ply of a round shares the first's number
    assert current[0] not in (background, "rgba(0, 0, 0, 0)") and others == {"rgba(0, 0, 0, 0)"}
    page.context.close()


def finished_quarto(seed: int = 1) -> list[tuple[int, str]]:
    """Random Quarto moves that end the game, each with the seat that plays it."""
    state, played, rng = new_game("quarto"), [], random.Random(seed)
    while not state.is_over():
        move = state.random_move(rng)
        played.append((state.to_move, move.to_str()))
        state = state.apply(move)
    return played


def test_no_takeback_request_once_the_game_is_over(browser: Browser, base_url: str) -> None:
    created = post(f"{base_url}/api/games", {"game": "quarto", "seats": ["human", "human"]})
    for version, (seat, move) in enumerate(finished_quarto()):
        body = {"version": version, "move": move}
        post(f"{base_url}/api/games/{created['id']}/moves", body, created["tokens"][seat])
    page = browser.new_page()
    page.goto(f"{base_url}{created['links']['seats'][0]}")
    expect(page.locator("#status")).to_have_text(re.compile("^Game over"))
    expect(page.locator("#undo")).to_have_text("Ask to take back")
    expect(page.locator("#undo")).to_be_disabled()
    page.close()


def test_the_rules_page_leads_back_to_the_game(browser: Browser, base_url: str) -> None:
    page = game_page(browser, base_url, "quarto", {})
    play_two_moves(page)
    game_url = page.url
    page.click("#rules-link")
    page.wait_for_selector("#rules-body svg")
    back = page.locator("#back-to-game")
    expect(back).to_have_text("Back to the game")
    page.click("[data-lang=nl]")
    expect(back).to_have_text("Terug naar het spel")
    page.click("[data-lang=en]")
    back.click()
    wait_for_turn(page)  # the same seat of the same game
    assert page.url == game_url and page.locator("#moves li").count() == 2
    page.goto(f"{base_url}/rules/quarto")
    page.wait_for_selector("#rules-body svg")
    expect(back).to_be_hidden()  # from the start page: only "Play this game"
    page.goto(f"{base_url}/rules/quarto#from=https://elsewhere.example/")
    page.wait_for_selector("#rules-body svg")
    expect(back).to_be_hidden()
    page.context.close()


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).bounding_box()
    assert found is not None
    return found


def test_quarto_uses_the_width_of_a_desktop_window(browser: Browser, base_url: str) -> None:
    page = game_page(browser, base_url, "quarto", {}, viewport={"width": 1280, "height": 800})
    picture, column = box(page, "#board svg"), box(page, "#board")
    assert picture["width"] > 0.9 * column["width"] and picture["y"] + picture["height"] <= 800
    assert box(page, "#board [data-square=d1]")["width"] > 85  # the board grew too (75 px before)
    assert box(page, "#board [data-piece=A]")["x"] > box(page, "#board [data-square=d4]")["x"]  # beside it
    page.click("#board [data-piece=A]")
    expect(page.locator("#moves li")).to_have_count(2, timeout=20_000)
    wait_for_turn(page)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the tray under the board again
    expect(page.locator("#board .piece").first).to_be_visible()
    tray_under_board = """() => {
        const piece = document.querySelector('#board .piece');
        const d4 = document.querySelector('#board [data-square=d4]');
        return piece && d4 && piece.getBoundingClientRect().y > d4.getBoundingClientRect().y;
    }"""
    page.wait_for_function(tray_under_board, timeout=5_000)  # the page lays the board out anew on a resize
    page.context.close()


def test_santorini_the_square_left_looks_like_every_other_build_target(
    browser: Browser, base_url: str
) -> None:
    page = game_page(browser, base_url, "santorini", {"players": 2})
    click_squares(page, "a1", "e5")
    expect(page.locator("#moves li")).to_have_count(2, timeout=20_000)
    wait_for_turn(page)
    page.click("#board [data-square=a1]")
    page.locator(TARGET).first.click()
    expect(page.locator("#status")).to_have_text("Your turn: choose where it builds")
    looks = page.locator(TARGET).evaluate_all(
        "nodes => nodes.map(n => { const s = getComputedStyle(n); "
        "return [n.dataset.square, s.stroke, s.strokeDasharray, s.strokeWidth]; })"
    )
    assert "a1" in [square for square, *_ in looks]
    assert len({tuple(look) for _, *look in looks}) == 1
    page.context.close()


PHONE = {"width": 390, "height": 844}
RECTS = (
    "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); "
    "return {name: n.dataset.square || n.dataset.piece, x: r.x, y: r.y, right: r.right, bottom: r.bottom}; })"
)


def test_a_12x12_hermit_board_fits_a_phone_with_every_column_in_view(browser: Browser, base_url: str) -> None:
    page = game_page(browser, base_url, "hermit", {"size": 12}, viewport=PHONE)
    squares = page.locator("#board .square").evaluate_all(RECTS)
    assert len(squares) == 144 and all(r["x"] >= 0 and r["right"] <= 390 for r in squares)  # a-l all in view
    assert min(r["right"] - r["x"] for r in squares) > 24  # smaller than 44 px, as large as fits
    assert page.evaluate("(b => b.scrollWidth <= b.clientWidth)(document.querySelector('#board'))")
    assert box(page, "#replay")["y"] + box(page, "#replay")["height"] <= 844  # no scrolling to reach it
    page.context.close()


def test_hermit_on_touch_shows_the_block_first_and_plays_on_a_second_tap(
    browser: Browser, base_url: str
) -> None:
    page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    start(page, base_url, "hermit", {"size": 5}, "easy")
    page.tap("#board [data-square=b3]")
    shape = page.locator("#board .preview")
    expect(shape).to_have_count(1)
    assert shape.get_attribute("fill") == BLOCK_COLOURS["R"]
    expect(page.locator("#status")).to_have_text(
        "Your turn: tap the square again to play there, or tap another square"
    )
    page.wait_for_timeout(300)
    expect(page.locator("#moves li")).to_have_count(0)  # a mis-tap plays nothing
    page.tap("#board [data-square=d2]")  # the preview moves
    expect(shape).to_have_count(1)
    assert (
        shape.get_attribute("x") == f"{float(page.get_attribute('#board [data-square=d2]', 'x') or 0) + 5:g}"
    )
    expect(page.locator("#moves li")).to_have_count(0)
    page.click("[data-lang=nl]")
    expect(page.locator("#status")).to_have_text(
        "Jouw beurt: tik nog eens op het veld om daar te spelen, of tik op een ander veld"
    )
    page.tap("#board [data-square=d2]")
    expect(page.locator("#moves li").first).to_have_text("Rd2U")
    page.context.close()


def tray(page: Page) -> dict[str, tuple[str | None, str | None]]:
    """Where each piece to give stands in the tray (its click target's corner, in the picture's units)."""
    pieces = page.locator("#board [data-piece]").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.piece, n.getAttribute('x'), n.getAttribute('y')])"
    )
    return {name: (x, y) for name, x, y in pieces}


def test_quarto_pieces_to_give_keep_their_places(browser: Browser, base_url: str) -> None:
    page = game_page(browser, base_url, "quarto", {})
    before = tray(page)
    assert len(before) == 16 and len(set(before.values())) == 16
    page.click("#board [data-piece=B]")
    expect(page.locator("#moves li")).to_have_count(2, timeout=20_000)
    wait_for_turn(page)
    after = tray(page)
    handed = (page.locator("#moves li").last.text_content() or "")[-1]
    assert set(after) == set(before) - {"B", handed}
    assert all(after[name] == before[name] for name in after)  # nothing moved up into B's slot
    page.context.close()


def test_quarto_pieces_on_the_board_carry_their_letters(browser: Browser, base_url: str) -> None:
    page = game_page(browser, base_url, "quarto", {})
    play_two_moves(page)  # A handed over; the computer places it ("c1:I")
    square = (page.locator("#moves li").last.text_content() or "").split(":")[0]
    letter = page.locator("#board text.letter")
    expect(letter).to_have_text(["A"])
    mark, place = box(page, "#board text.letter"), box(page, f"#board [data-square={square}]")
    assert place["x"] < mark["x"] and mark["x"] + mark["width"] < place["x"] + place["width"]
    assert place["y"] < mark["y"] and mark["y"] + mark["height"] < place["y"] + place["height"]
    assert mark["height"] < place["height"] / 3  # small, in a corner of its square
    page.context.close()


LINES = """selector => [...document.querySelectorAll(selector)].map(node => {
  const line = parseFloat(getComputedStyle(node).lineHeight);
  return {text: node.textContent, height: node.getBoundingClientRect().height, line};
})"""


def assert_one_line_each(page: Page, selector: str) -> None:
    """Every node of ``selector`` is one line high (waiting out a re-render, up to 5 s)."""
    one_line = f"() => ({LINES})({json.dumps(selector)}).every(n => n.height < 1.6 * n.line)"
    try:
        page.wait_for_function(one_line, timeout=5000)
    except PlaywrightTimeout:
        raise AssertionError(f"{selector} not one line each: {page.evaluate(LINES, selector)}") from None


def test_the_seats_are_said_in_words_and_each_player_keeps_to_one_line(
    browser: Browser, base_url: str
) -> None:
    page = browser.new_context(viewport={"width": 1100, "height": 820}).new_page()
    page.goto(f"{base_url}/?game=santorini")
    page.wait_for_selector("#seats select")
    page.locator("#options input[name=players]").fill("3")
    for seat, spec in enumerate(["medium", "medium", "human"]):
        page.select_option(f"#seat-{seat}", spec)
    page.click("#start")
    page.wait_for_selector("#board svg")
    you = page.locator("#you")
    expect(you).to_have_text("You play third.")
    page.click("[data-lang=nl]")
    expect(you).to_have_text("Jij speelt als derde.")
    expect(page.locator("#players li .name")).to_have_text(
        ["Computer (gemiddeld)", "Computer (gemiddeld)", "Jij"]
    )
    assert_one_line_each(page, "#players li")
    page.set_viewport_size(PHONE)
    expect(page.locator("#seat-line")).to_be_visible()
    assert_one_line_each(page, "#players li")
    assert_one_line_each(page, "#seat-line li")
    page.context.close()
    first = game_page(browser, base_url, "quarto", {})
    expect(first.locator("#you")).to_have_text("You play first.")
    first.click("[data-lang=nl]")
    expect(first.locator("#you")).to_have_text("Jij begint.")
    first.context.close()


COVERED = """figure => [...figure.querySelectorAll('text')].filter(label => {
  const r = label.getBoundingClientRect();
  const points = [[0.5, 0.5], [0.25, 0.3], [0.75, 0.3], [0.25, 0.7], [0.75, 0.7]];
  return points.some(([fx, fy]) => {
    const top = document.elementFromPoint(r.x + fx * r.width, r.y + fy * r.height);
    return top !== null && top.closest('.arrow') !== null;
  });
}).map(label => label.textContent)"""


@pytest.mark.parametrize("game", [name for name in available_games() if guide_of(name).rules is not None])
def test_no_arrow_in_a_rules_picture_covers_a_label(browser: Browser, base_url: str, game: str) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 820})
    page.goto(f"{base_url}/rules/{game}")
    page.wait_for_selector("#rules-body svg")
    for figure in page.locator("#rules-body figure").all():
        figure.scroll_into_view_if_needed()
        assert figure.evaluate(COVERED) == []
    assert page.locator("#rules-body .arrow").count() >= (1 if game == "santorini" else 0)
    page.close()
