"""HTTP fuzzing: random and hostile requests (methods, paths, headers, bodies, JSON values) never
get a 5xx, and the server still plays a normal game afterwards."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from bordspel.web.api import ApiSettings
from bordspel.web.app import create_app
from tests.conftest import sizes


@pytest.fixture(scope="module")
def served(module_db: str) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    live_updates = ApiSettings(events_lifetime=0.1, events_poll=0.05)  # a stream ends at once, not in 60 s
    app = create_app(module_db, live_updates)
    with TestClient(app, raise_server_exceptions=False) as client:
        game = client.post("/api/games", json={"game": "quarto", "options": {}, "seats": ["human", "easy"]})
        yield client, game.json()


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
fields = st.sampled_from(
    ["game", "options", "seats", "version", "move", "accept", "ply", "pieces", "size", "players", "cls"]
)
objects = st.dictionaries(fields, json_values, max_size=5)
games = st.sampled_from(["hermit", "santorini", "quarto", "chess", ""])
creations = st.fixed_dictionaries(
    {"game": games, "options": st.dictionaries(fields, json_values, max_size=3), "seats": json_values}
)
hostile = st.sampled_from(
    [
        b"[" * 100_000,
        b'{"version": ' + b"9" * 5000 + b"}",
        b'{"game": "quarto", "options": {"pieces": 6}, "seats": ["human", "human"]}',
        b'{"game": "hermit", "options": {"size": 100000}, "seats": ["human", "human"]}',
        b'{"game": "santorini", "options": {"workers": 5}, "seats": ["human", "human"]}',
        b'{"game": "hermit", "options": {"cls": 1}, "seats": ["human", "human"]}',
        b'{"game": "hermit", "seats": ["human", "alphabeta:depth=nan"]}',
        b"\xff\xfe\x00",
        b'{"version": 0, "move": "' + b"a1" * 20_000 + b'"}',
    ]
)
bodies = st.one_of(
    st.binary(max_size=200),
    objects.map(lambda o: json.dumps(o).encode()),
    creations.map(lambda o: json.dumps(o).encode()),
    json_values.map(lambda v: json.dumps(v).encode()),
    hostile,
)
actions = st.sampled_from(["", "moves", "ai", "undo", "takeback", "resign", "record", "events", "x"])
segments = st.text(max_size=40).map(lambda text: quote(text, safe="%.~")) | st.sampled_from(
    ["..%2f..", "%00", "%ff"]
)
header_values = st.sampled_from(
    ["application/json", "text/plain", "application/json; charset=latin-1", "", "null", "http://evil.example"]
)


requests = st.fixed_dictionaries(
    {
        "method": st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]),
        "known_game": st.booleans(),
        "segment": segments,
        "action": actions,
        "body": bodies,
        "content_type": header_values,
        "origin": st.none() | header_values,
        "with_token": st.booleans(),
    }
)


@pytest.mark.parametrize("examples", sizes(quick=250, deep=4000))
def test_no_request_gets_a_5xx(served: tuple[TestClient, dict[str, Any]], examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(request=requests)
    def answered_without_a_5xx(request: dict[str, Any]) -> None:
        send(*served, **request)

    answered_without_a_5xx()


def send(
    client: TestClient,
    game: dict[str, Any],
    method: str,
    known_game: bool,
    segment: str,
    action: str,
    body: bytes,
    content_type: str,
    origin: str | None,
    with_token: bool,
) -> None:
    target = game["id"] if known_game else segment
    path = "/api/games" + (f"/{target}" if target or action else "") + (f"/{action}" if action else "")
    headers = {"Content-Type": content_type}
    if origin is not None:
        headers["Origin"] = origin
    if with_token:
        headers["Authorization"] = f"Bearer {game['tokens'][0]}"
    response = client.request(method, path, content=body if method != "GET" else None, headers=headers)
    assert response.status_code < 500, (method, path, body[:200], response.text[:200])
    if path.startswith("/api/") and response.status_code >= 400 and method != "HEAD":
        assert "error" in response.json()


def test_the_server_still_plays_after_the_fuzzing(served: tuple[TestClient, dict[str, Any]]) -> None:
    client, _ = served
    fresh = client.post(
        "/api/games", json={"game": "hermit", "options": {"size": 3}, "seats": ["human", "human"]}
    )
    view = fresh.json()
    moved = client.post(
        f"/api/games/{view['id']}/moves",
        json={"version": 0, "move": view["legal"][0]["text"]},
        headers={"Authorization": f"Bearer {view['tokens'][0]}"},
    )
    assert moved.status_code == 200 and moved.json()["ply"] == 1
