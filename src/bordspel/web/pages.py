"""The site's HTML pages, each rendered once from one shell and its own main part.

``pages/shell.html`` holds what every page shares (the head, the header with the account and
language buttons, the scripts every page runs); ``pages/<name>.html`` holds a page's ``<main>``.
A :class:`Page` says the rest: the title, what the header shows after the brand, the site's
links and the page's own scripts (ES modules from ``static/``). The standard library's
:class:`string.Template` is enough for this: no template engine is a dependency.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template
from textwrap import indent

__all__ = ["PAGES", "Page", "modules", "render"]

FOLDER = Path(__file__).parent / "pages"
STATIC = Path(__file__).parent / "static"
IMPORT = re.compile(r'^import .* from "\./([\w-]+\.js)";$', re.M)
SHARED_SCRIPTS = ("app.js", "account.js", "notices.js")
PART = re.compile(r"^( *)\$\{([\w-]+)\}$", re.M)
"""A line of a page's ``<main>`` that stands for a part shared with other pages."""

TAGLINE = '<span class="games" data-i18n="tagline">board games to play and to learn</span>'
TITLE = '<span id="title"></span>'
RULES_LINK = '<a id="rules-link" class="rules-link" href="#" data-i18n="rules">Rules</a>'
RULES_TITLE = '<span id="title" data-i18n="rules">Rules</span>'

LINKS = {
    "start": ("/", "new_game", "New game"),
    "lobby": ("/lobby", "lobby", "Lobby"),
    "puzzles": ("/puzzles", "puzzles", "Puzzles"),
}


@dataclass(frozen=True)
class Page:
    """A page: its name (``pages/<name>.html``, the body's ``data-page``) and what the shell shows."""

    name: str
    title: str
    title_key: str | None = None  # the words of a fixed title, translated by the page
    heading: tuple[str, ...] = ()  # the header's parts after the brand
    scripts: tuple[str, ...] = ()  # the page's own modules, run after the shared ones


PAGES = {
    page.name: page
    for page in (
        Page("start", "bordspel — new game", "new_game", (TAGLINE,), scripts=("start.js",)),
        Page("game", "bordspel", None, (TITLE, RULES_LINK), scripts=("game.js", "chat.js")),
        Page("rules", "bordspel — rules", None, (RULES_TITLE,), ("rules.js",)),
        Page("lobby", "bordspel — lobby", "lobby", scripts=("lobby.js",)),
        Page(
            "analysis",
            "bordspel — analysis board",
            "analysis",
            (TITLE,),
            ("analysis.js", "analysis-players.js", "analysis-graph.js", "analysis-moves.js"),
        ),
        Page("player", "bordspel — player", None, (TAGLINE,)),
        Page("puzzles", "bordspel — puzzles", "puzzles", scripts=("puzzles.js",)),
        Page("missing", "bordspel — not found", "missing_title", (TAGLINE,)),
    )
}


@cache
def render(name: str) -> str:
    """The HTML of the page ``name`` (one of :data:`PAGES`)."""
    page = PAGES[name]
    shell = Template((FOLDER / "shell.html").read_text(encoding="utf-8"))
    return shell.substitute(
        title=page.title,
        body=_body(page),
        heading="\n    ".join(page.heading),
        nav=_nav(page),
        main=indent(_main(page), "  "),
        preload="".join(
            f'\n  <link rel="modulepreload" href="/static/{module}">' for module in modules(page)
        ),
        scripts="".join(
            f'  <script type="module" src="/static/{script}"></script>\n'
            for script in (*SHARED_SCRIPTS, *page.scripts)
        ).rstrip("\n"),
    )


def _main(page: Page) -> str:
    """The page's ``<main>``, each line ``${name}`` replaced by the part it shares with other pages
    (``pages/parts/<name>.html``) at that line's indentation."""
    text = (FOLDER / f"{page.name}.html").read_text(encoding="utf-8")
    return PART.sub(lambda found: indent(_part(found.group(2)), found.group(1)), text)


def _part(name: str) -> str:
    return (FOLDER / "parts" / f"{name}.html").read_text(encoding="utf-8").rstrip("\n")


def modules(page: Page) -> list[str]:
    """Every module the page runs, its scripts' imports too: named in the head, so that the
    browser fetches them all at once rather than one level of imports after another."""
    found: list[str] = []
    waiting = [*SHARED_SCRIPTS, *page.scripts]
    while waiting:
        module = waiting.pop(0)
        if module not in found:
            found.append(module)
            waiting.extend(IMPORT.findall((STATIC / module).read_text(encoding="utf-8")))
    return found


def _body(page: Page) -> str:
    key = f' data-title-key="{page.title_key}"' if page.title_key else ""
    return f' data-page="{page.name}"{key}'


def _nav(page: Page) -> str:
    """The site's links, the same on every page, the page's own marked as current."""
    links = []
    for name, (path, key, text) in LINKS.items():
        current = ' aria-current="page"' if name == page.name else ""
        links.append(f'<a href="{path}"{current} data-i18n="{key}">{text}</a>')
    separator = "\n    " if page.heading else ""
    return f'{separator}<nav class="site" aria-label="Site">{" ".join(links)}</nav>'
