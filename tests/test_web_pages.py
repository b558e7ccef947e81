"""The site's pages: one shell for the head and the header, each page's own parts in it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bordspel.web.app import create_app
from bordspel.web.pages import PAGES, modules, render

STATIC = Path(__file__).parents[1] / "src/bordspel/web/static"


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(web_db)) as test_client:
        yield test_client


def test_every_page_has_the_shared_head_and_header_once_and_its_own_title() -> None:
    for name, page in PAGES.items():
        html = render(name)
        assert html.count('<link rel="stylesheet" href="/static/app.css">') == 1, name
        assert html.count('<nav class="language"') == 1 and html.count('id="account"') == 1, name
        assert f"<title>{page.title}</title>" in html and f'data-page="{name}"' in html, name
        assert html.count("<main") == 1 and "$" not in html, name  # every placeholder filled


def test_pages_load_their_modules_which_exist_and_import_only_files_that_exist() -> None:
    for name in PAGES:
        scripts = re.findall(r'<script type="module" src="/static/([\w-]+\.js)"></script>', render(name))
        assert scripts[:3] == ["app.js", "account.js", "notices.js"], name
        assert all((STATIC / script).is_file() for script in scripts), name
    for module in STATIC.glob("*.js"):
        text = module.read_text(encoding="utf-8")
        assert "bordspel." not in re.sub(r"//.*|\"bordspel\.\w+\"", "", text), module.name  # no global
        for imported in re.findall(r'^import .* from "\./([\w-]+\.js)";$', text, re.M):
            assert (STATIC / imported).is_file(), (module.name, imported)


def test_the_header_links_mark_the_page_itself(client: TestClient) -> None:
    lobby = client.get("/lobby").text
    assert '<a href="/lobby" aria-current="page" data-i18n="lobby">' in lobby
    assert '<a href="/" aria-current="page" data-i18n="new_game">' in client.get("/").text
    missing = client.get("/nowhere", headers={"accept": "text/html"}).text
    assert 'class="site"' in missing and 'aria-current="page"' not in missing  # the way back


def test_pages_are_served_with_their_status(client: TestClient) -> None:
    assert client.get("/").status_code == 200 and 'data-page="start"' in client.get("/").text
    missing = client.get("/players/nobody-here", headers={"accept": "text/html"})
    assert missing.status_code == 404 and 'data-page="player"' in missing.text
    gone = client.get("/games/nothing", headers={"accept": "text/html"})
    assert gone.status_code == 404 and 'data-page="missing"' in gone.text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")


def test_the_game_pages_buttons_wait_for_the_game() -> None:
    """Replay, takeback, resign and hint act on the game's view: disabled until the page has read it."""
    game = render("game")
    for button in ("first", "previous", "next", "last", "undo", "resign", "hint-button"):
        assert re.search(rf'<button id="{button}"[^>]* disabled[ >]', game), button


def test_each_page_runs_its_own_modules_and_names_their_imports_in_its_head() -> None:
    start, game = render("start"), render("game")
    assert '<script type="module" src="/static/start.js">' in start and "/static/game.js" not in start
    assert '<script type="module" src="/static/game.js">' in game and "/static/start.js" not in game
    assert '<link rel="modulepreload" href="/static/board.js">' in game  # imported by game.js
    assert '<link rel="modulepreload" href="/static/links.js">' in render("analysis")
    for name, page in PAGES.items():
        assert len(modules(page)) == len(set(modules(page))), name
