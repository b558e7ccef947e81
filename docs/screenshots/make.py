"""Make the README's screenshots of the browser app, so they never go stale.

Run from the repository root: ``.venv/bin/python docs/screenshots/make.py`` (needs the
``web`` and ``test`` extras and Chromium at /usr/bin/chromium, or ``--chromium PATH``).
It serves the app on a free port with a fresh database, plays a few moves of each game and of
Santorini with gods (the same moves every run), and writes the pictures into this folder.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, sync_playwright

from bordspel.core import new_game
from bordspel.web.app import create_app

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
        browser.close()


if __name__ == "__main__":
    main()
