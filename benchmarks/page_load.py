"""How long the site's pages take to become usable in Chromium: the start page until its form
has its seats, a game page until its board shows the squares to click.

Starts ``bordspel serve`` on a fresh SQLite file (the ``bordspel`` on ``sys.path``, so
``PYTHONPATH=/other/checkout/src`` measures another tree), makes one Quarto game, then loads
each page ``--loads`` times, each in a new browser context (an empty cache: every script is
fetched). Prints the scripts each page fetched and the median and 90th percentile in ms.

Run:  python benchmarks/page_load.py [--loads 20] [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, Request, sync_playwright

from live_delay import post, server

READY = {"start": "#seats select", "game": "#board .target"}


def one_load(browser: Browser, url: str, ready: str) -> tuple[float, list[str]]:
    """Milliseconds from asking for ``url`` until ``ready`` is on the page, in a new context;
    the scripts fetched."""
    context = browser.new_context()
    page = context.new_page()
    scripts: list[str] = []

    def fetched(request: Request) -> None:
        if request.resource_type == "script":
            scripts.append(request.url.rsplit("/", 1)[-1])

    page.on("request", fetched)
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(ready)
    elapsed = (time.perf_counter() - start) * 1000
    context.close()
    return elapsed, scripts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=20)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    db = str(Path(tempfile.mkdtemp()) / "games.sqlite3")
    with server(db, None) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        game = post(f"{base}/api/games", {"game": "quarto", "seats": ["human", "human"]})
        pages = {"start": f"{base}/", "game": f"{base}{game['links']['seats'][0]}"}
        for name, url in pages.items():
            loads = [one_load(browser, url, READY[name]) for _ in range(args.loads)]
            times, scripts = [elapsed for elapsed, _ in loads], loads[-1][1]
            p90 = statistics.quantiles(times, n=10)[-1]
            print(f"{name}: {len(scripts)} scripts ({' '.join(sorted(scripts))})")
            print(
                f"{name}: median {statistics.median(times):.0f} ms, p90 {p90:.0f} ms over {args.loads} loads"
            )
        browser.close()


if __name__ == "__main__":
    main()
