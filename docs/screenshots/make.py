"""Make the README's screenshots of the browser app, so they never go stale.

Run from the repository root: ``.venv/bin/python docs/screenshots/make.py`` (needs the
``web`` and ``test`` extras and Chromium at /usr/bin/chromium, or ``--chromium PATH``).
It serves the app on a free port with a fresh database, plays a few moves of each game and of
Santorini with gods (the same moves every run), fills the lobby with challenges and a timed game,
opens the analysis board, signs two players up, plays rated games between them to the end, and
writes the pictures into this folder.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright

from bordspel.core import new_game
from bordspel.web.app import create_app
from bordspel.web.store import GameStore

HERE = Path(__file__).parent
DESKTOP = {"width": 1100, "height": 760}
PHONE = {"width": 390, "height": 844}
GAMES = {  # picture: game, options, moves played
    "hermit": ("hermit", {"size": 6}, 9),
    "santorini": ("santorini", {"players": 2}, 9),
    "gods": ("santorini", {"players": 2, "gods": "apollo,demeter"}, 9),
    "quarto": ("quarto", {}, 7),
}


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """The app on a free loopback port until the block ends."""
    config = uvicorn.Config(create_app(folder / "games.sqlite3"), host="127.0.0.1", port=0, log_level="error")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def post(url: str, body: dict[str, object], token: str | None = None) -> dict[str, object]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request) as answer:
        data: dict[str, object] = json.load(answer)
    return data


def played_game(base: str, game: str, options: dict[str, object], plies: int) -> str:
    """A game of two people with ``plies`` moves (chosen by a fixed seed); the first seat's link."""
    data = post(f"{base}/api/games", {"game": game, "options": options, "seats": ["human"] * 2})
    tokens, links = data["tokens"], data["links"]
    assert isinstance(tokens, list) and isinstance(links, dict)
    state, rng = new_game(game, **options), random.Random(7)
    for version in range(plies):
        move = state.random_move(rng)
        post(
            f"{base}/api/games/{data['id']}/moves",
            {"version": version, "move": move.to_str()},
            tokens[state.to_move],
        )
        state = state.apply(move)
    return f"{base}{links['seats'][state.to_move]}"


def sign_up(page: Page, base: str, name: str, picture: Path | None = None) -> None:
    """Sign up in the page's header form (a picture of the form first, if asked)."""
    page.goto(base)
    page.click("#sign-up")
    page.fill("#account-username", name)
    page.fill("#account-password", "correct horse battery")
    if picture:
        page.screenshot(path=str(picture))
    page.click("#account-submit")
    page.wait_for_selector("#profile-link")


def rated_games(pages: list[Page], base: str, db: Path, count: int) -> None:
    """``count`` rated Hermit 3x3 games between the pages' accounts, seats alternating, random
    moves (a fixed seed) sent with each player's session cookie."""
    store, rng = GameStore(db), random.Random(11)
    with store.db.transaction(write=False) as raw:
        accounts = [row[0] for row in raw.execute("SELECT id FROM accounts ORDER BY created").fetchall()]
    for number in range(count):
        order = [number % 2, 1 - number % 2]
        state = new_game("hermit", size=3)
        stored, _ = store.create(state, ["human"] * 2, accounts=[accounts[i] for i in order], rated=True)
        for version in range(10**3):
            if state.is_over():
                break
            move = state.random_move(rng)
            body = {"version": version, "move": move.to_str()}
            pages[order[state.to_move]].request.post(f"{base}/api/games/{stored.id}/moves", data=body)
            state = state.apply(move)


def profiles(browser: Browser, base: str, db: Path, out: Path) -> None:
    """The sign-up form, and a profile with ratings and their history on a desktop and a phone."""
    ada, bram = browser.new_page(viewport=DESKTOP), browser.new_page(viewport=DESKTOP)
    sign_up(ada, base, "ada", out / "account.png")
    sign_up(bram, base, "bram")
    rated_games([ada, bram], base, db, 6)
    ada.goto(f"{base}/players/ada")
    ada.wait_for_selector("#ratings .rating-chart")
    ada.screenshot(path=str(out / "profile.png"), full_page=True)
    phone = browser.new_page(viewport=PHONE, device_scale_factor=2, locale="nl-NL")
    phone.goto(f"{base}/players/bram")
    phone.wait_for_selector("#ratings .rating-chart")
    phone.screenshot(path=str(out / "profile-phone.png"))


def lobby_pictures(browser: Browser, base: str, out: Path) -> None:
    """The lobby with open challenges and a game in progress (desktop and phone), that timed game
    with its clocks, and the analysis board."""
    clock = {"initial": 180, "increment": 2}
    post(
        f"{base}/api/challenges", {"game": "santorini", "options": {"players": 3}, "clock": clock, "seat": 0}
    )
    post(f"{base}/api/challenges", {"game": "hermit", "options": {"size": 5}, "clock": {"days": 3}})
    posted = post(f"{base}/api/challenges", {"game": "quarto", "clock": clock, "seat": 0})
    taken = post(f"{base}/api/challenges/{posted['id']}/accept", {})
    game = taken["game"]
    assert isinstance(game, dict)
    state, tokens = new_game("quarto"), {0: posted["token"], 1: taken["token"]}
    for version, move in enumerate(["A", "a1:B", "b2:C", "c3:D"]):
        post(
            f"{base}/api/games/{game['id']}/moves",
            {"version": version, "move": move},
            str(tokens[state.to_move]),
        )
        state = state.play(move)
    post(f"{base}/api/challenges", {"game": "quarto", "clock": {"initial": 300, "increment": 3}})
    for page, name in (
        (browser.new_page(viewport=DESKTOP), "lobby"),
        (browser.new_page(viewport=PHONE), "lobby-phone"),
    ):
        page.goto(f"{base}/lobby")
        page.wait_for_selector("#games [data-game]")
        page.screenshot(path=str(out / f"{name}.png"), full_page=True)
    desktop = browser.new_page(viewport=DESKTOP)
    desktop.goto(f"{base}{taken['link']}")
    settle(desktop)
    desktop.screenshot(path=str(out / "clock.png"))
    position = new_game("santorini").play("c3d4").play("b2d2").play("d4d3d4").to_str()
    desktop.goto(f"{base}/analysis#game=santorini&position={urllib.parse.quote(position)}")
    desktop.wait_for_selector("#lines .line-move", timeout=60_000)
    desktop.screenshot(path=str(out / "analysis.png"), full_page=True)


def settle(page: Page) -> None:
    page.wait_for_selector("#board svg")
    page.wait_for_timeout(600)  # the last move's animation


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, serving(Path(folder)) as base, sync_playwright() as play:
        browser = play.chromium.launch(executable_path=args.chromium, args=["--no-sandbox", "--disable-gpu"])
        desktop = browser.new_page(viewport=DESKTOP)
        for picture, (game, options, plies) in GAMES.items():
            desktop.goto(played_game(base, game, options, plies))
            settle(desktop)
            desktop.screenshot(path=str(args.out / f"{picture}.png"), full_page=True)
        desktop.goto(f"{base}/rules/santorini")
        desktop.wait_for_selector("#rules-body svg")
        desktop.screenshot(path=str(args.out / "rules.png"))
        phone = browser.new_page(viewport=PHONE, device_scale_factor=2, locale="nl-NL")
        phone.goto(played_game(base, "quarto", {}, 5))
        settle(phone)
        phone.screenshot(path=str(args.out / "phone.png"))
        lobby_pictures(browser, base, args.out)
        profiles(browser, base, Path(folder) / "games.sqlite3", args.out)
        browser.close()


if __name__ == "__main__":
    main()
