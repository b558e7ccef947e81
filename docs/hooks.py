"""MkDocs hook: pictures of positions drawn at build time by bordspel's own SVG renderer.

In a page, ``![caption](bordspel:GAME "POSITION")`` becomes an image of that position
(``svg.render(game_class(GAME).from_str(POSITION))``), written into the site as
``pictures/<digest>.svg``. Nothing is committed, so no picture can go stale.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from typing import Any

from bordspel import svg
from bordspel.core import game_class

PICTURE = re.compile(r'!\[([^\]]*)\]\(bordspel:(\w+) "([^"]*)"\)')
ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj):(?=<code>)")
"""A Sphinx role before the code it names, as mkdocstrings leaves the docstrings' ``:class:`X```."""
FOLDER = "pictures"


def pictures(markdown: str, page_path: str) -> tuple[str, dict[str, str]]:
    """``markdown`` with its position pictures linked, and the pictures by their path."""
    drawn: dict[str, str] = {}

    def draw(match: re.Match[str]) -> str:
        caption, game, position = match.groups()
        picture = svg.render(game_class(game).from_str(position))
        path = f"{FOLDER}/{hashlib.sha256(picture.encode()).hexdigest()[:16]}.svg"
        drawn[path] = picture
        return f"![{caption}]({posixpath.relpath(path, posixpath.dirname(page_path) or '.')})"

    return PICTURE.sub(draw, markdown), drawn


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Draw the page's pictures and add them to the site's files."""
    from mkdocs.structure.files import File

    text, drawn = pictures(markdown, page.file.src_uri)
    for path, picture in drawn.items():
        if files.get_file_from_path(path) is None:
            files.append(File.generated(config, path, content=picture))
    return text


def without_roles(html: str) -> str:
    """The reference pages' docstrings with their Sphinx roles (``:class:`Info```, which
    mkdocstrings shows as text) shown as the code they name alone."""
    return ROLE.sub("", html)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """The page without the docstrings' Sphinx roles."""
    return without_roles(html)
