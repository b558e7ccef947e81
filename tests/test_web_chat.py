"""A game's chat through the JSON API: the players' room and the spectators', who may read and
write where, hostile messages (long, fast, markup, control characters, wrong seats), a player's
mute and chat-off, the record with and without the chat, and the live stream across apps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from bordspel.core import new_game
from bordspel.record import Game
from bordspel.web.app import ApiSettings, create_app
from bordspel.web.chat import (
    BURST,
    MAX_LENGTH,
    PLAYERS,
    SPECTATORS,
    WINDOW,
    WRITER_SHARE,
    Chat,
    ChatError,
    Reader,
    clean,
)
from bordspel.web.store import GameStore, TooMany
from tests.live import serving
from tests.test_web_processes import stream

SETTINGS = ApiSettings(password_cost="CHEAPEST", secret="test secret")


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(web_db, SETTINGS)) as client:
        yield client


def new(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "quarto", "seats": ["human", "human"]})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def bearer(game: dict[str, Any], seat: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][seat]}"}


def say(client: TestClient, game: dict[str, Any], seat: int | None, text: object, room: str = PLAYERS) -> Any:
    headers = {} if seat is None else bearer(game, seat)
    return client.post(f"/api/games/{game['id']}/chat", json={"room": room, "text": text}, headers=headers)


def rooms(client: TestClient, game: dict[str, Any], seat: int | None) -> dict[str, Any]:
    headers = {} if seat is None else bearer(game, seat)
    response = client.get(f"/api/games/{game['id']}/chat", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["rooms"]  # type: ignore[no-any-return]


def texts(room: dict[str, Any]) -> list[str]:
    return [message["text"] for message in room["messages"]]


def spectator(client: TestClient, name: str) -> TestClient:
    """Another browser, logged in as a new account ``name`` that holds no seat."""
    other = TestClient(client.app, client=(f"address of {name}", 50000))
    response = other.post("/api/account", json={"username": name, "password": "correct horse"})
    assert response.status_code == 201, response.text
    return other


def test_players_talk_in_their_room_and_spectators_in_theirs(client: TestClient) -> None:
    game = new(client)
    assert say(client, game, 0, "good luck").status_code == 201
    assert say(client, game, 1, "  you too\n").json()["text"] == "you too"
    assert texts(rooms(client, game, 1)[PLAYERS]) == ["good luck", "you too"]
    assert [m["seat"] for m in rooms(client, game, 0)[PLAYERS]["messages"]] == [0, 1]
    assert client.get(f"/api/games/{game['id']}/chat", headers=bearer(game, 1)).json()["you"] == 1
    watcher = spectator(client, "watcher")
    assert say(watcher, game, None, "nice opening", SPECTATORS).json()["name"] == "watcher"
    assert set(rooms(watcher, game, None)) == {SPECTATORS}  # the players' room is theirs
    assert set(rooms(client, game, 0)) == {PLAYERS}  # no hints from the audience while it goes on
    assert rooms(client, game, None)[SPECTATORS]["can_write"] is False  # anonymous: reads only
    client.post(f"/api/games/{game['id']}/resign", json={"version": 0}, headers=bearer(game, 0))
    assert texts(rooms(client, game, 0)[SPECTATORS]) == ["nice opening"]  # once it is over


def test_hostile_messages_are_refused_with_json_errors(client: TestClient) -> None:
    game = new(client)
    assert say(client, game, 0, "x" * (MAX_LENGTH + 1)).status_code == 400
    assert say(client, game, 0, " \n\t ").status_code == 400
    assert say(client, game, 0, "bell\x07").status_code == 400
    assert say(client, game, 0, 42).status_code == 400
    refused = say(client, game, 0, "hi", "kitchen")
    assert refused.status_code == 403 and "players and spectators" in refused.json()["error"]
    assert say(client, game, None, "I am a player too").status_code == 403  # a spectator
    assert say(spectator(client, "intruder"), game, None, "psst", PLAYERS).status_code == 403
    assert say(client, game, 0, "from a player", SPECTATORS).status_code == 403
    wrong = client.post(
        f"/api/games/{game['id']}/chat",
        json={"room": PLAYERS, "text": "hi"},
        headers={"Authorization": "Bearer x"},
    )
    assert wrong.status_code == 403
    assert say(client, {"id": "nogame"}, None, "hi", SPECTATORS).status_code == 404
    assert rooms(client, game, 1)[PLAYERS]["messages"] == []  # nothing refused was stored


def test_markup_is_kept_as_text_for_the_page_to_show_as_text(client: TestClient) -> None:
    game = new(client)
    markup = '<img src=x onerror="alert(1)"><b>bold</b> & {braces}'
    assert say(client, game, 0, markup).status_code == 201
    response = client.get(f"/api/games/{game['id']}/chat", headers=bearer(game, 1))
    assert response.headers["content-type"] == "application/json"
    assert texts(response.json()["rooms"][PLAYERS]) == [markup]


def test_a_fast_writer_is_slowed_down(client: TestClient) -> None:
    game = new(client)
    for number in range(BURST):
        assert say(client, game, 0, f"message {number}").status_code == 201
    refused = say(client, game, 0, "one more")
    assert refused.status_code == 429 and refused.headers["retry-after"] == str(WINDOW)
    assert say(client, game, 1, "the other player may still write").status_code == 201


def test_the_pace_is_counted_per_window(web_db: str) -> None:
    store, now = GameStore(web_db), [1000.0]
    chat = Chat(store, clock=lambda: now[0])
    created, _ = store.create(new_game("quarto"), ["human", "human"])
    for _ in range(BURST):
        chat.write(created.id, PLAYERS, "hello", Reader(0, None))
    with pytest.raises(TooMany):
        chat.write(created.id, PLAYERS, "hello", Reader(0, None))
    now[0] += WINDOW
    assert chat.write(created.id, PLAYERS, "later", Reader(0, None))["text"] == "later"
    store.close()


def test_one_writer_cannot_fill_a_room(web_db: str) -> None:
    store, now = GameStore(web_db), [1000.0]
    chat = Chat(store, clock=lambda: now[0])
    created, _ = store.create(new_game("quarto"), ["human", "human"])
    for number in range(WRITER_SHARE):
        now[0] += WINDOW / BURST
        chat.write(created.id, PLAYERS, f"message {number}", Reader(0, None))
    now[0] += WINDOW
    with pytest.raises(TooMany, match="a writer's most"):
        chat.write(created.id, PLAYERS, "one more", Reader(0, None))
    assert chat.write(created.id, PLAYERS, "my turn", Reader(1, None))["text"] == "my turn"
    store.close()


def test_a_player_mutes_the_other_or_turns_the_chat_off(client: TestClient) -> None:
    game = new(client)
    say(client, game, 0, "rude words")
    settings = f"/api/games/{game['id']}/chat/settings"
    assert client.post(settings, json={"muted": True}, headers=bearer(game, 1)).json() == {
        "off": False,
        "muted": True,
    }
    say(client, game, 1, "my own words")
    assert texts(rooms(client, game, 1)[PLAYERS]) == ["my own words"]
    assert texts(rooms(client, game, 0)[PLAYERS]) == ["rude words", "my own words"]  # only for the muter
    record = f"/api/games/{game['id']}/record?chat=yes"
    assert "rude words" not in client.get(record, headers=bearer(game, 1)).text  # nor in its record
    assert "rude words" in client.get(record, headers=bearer(game, 0)).text
    client.post(settings, json={"off": True}, headers=bearer(game, 1))
    assert rooms(client, game, 1) == {}
    assert client.get(record, headers=bearer(game, 1)).status_code == 403
    assert say(client, game, 1, "hello?").status_code == 403
    assert client.post(settings, json={"off": "yes"}, headers=bearer(game, 1)).status_code == 400
    assert client.post(settings, json={"off": False}).status_code == 403  # a spectator has none


def test_the_chat_is_in_the_record_only_when_a_player_asks(client: TestClient) -> None:
    game = new(client)
    say(client, game, 0, "hello {there}")
    client.post(f"/api/games/{game['id']}/moves", json={"version": 0, "move": "A"}, headers=bearer(game, 0))
    say(client, game, 1, "thanks")
    plain = client.get(f"/api/games/{game['id']}/record", headers=bearer(game, 0)).text
    assert "hello" not in plain and "thanks" not in plain
    record = f"/api/games/{game['id']}/record?chat=yes"
    assert client.get(record).status_code == 403  # the players' chat is not a spectator's to take
    text = client.get(record, headers=bearer(game, 1)).text
    read = Game.from_record(text)
    assert read.root.comment == "Seat 1: hello {there}"
    assert read.root.variations[0].comment == "Seat 2: thanks"
    assert client.get(f"/api/games/{game['id']}/record?chat=maybe").status_code == 400


def test_clean_makes_one_line_or_refuses() -> None:
    assert clean(" a\r\nb\tc ") == "a b c"
    assert clean("é" * MAX_LENGTH) == "é" * MAX_LENGTH
    family = "family: \U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert clean(family) == family  # the joiners of an emoji stay
    assert clean("\u200bhi") == "\u200bhi"
    invisible = ("\u200b", "\u2060\ufeff", "\U000e0041\U000e0042", "\u0301" * 3)
    for bad in ("", "\x00", "a\x1bb", "x" * (MAX_LENGTH + 1), "abc\u202edcba", "\ud800", *invisible):
        with pytest.raises(ChatError):
            clean(bad)


@pytest.mark.slow
def test_a_message_written_through_one_app_wakes_the_chat_stream_of_another(web_db: str) -> None:
    slow_poll = ApiSettings(events_poll=60.0, events_lifetime=120.0)  # only the fan-out can tell
    with serving(create_app(web_db, slow_poll)) as watching, TestClient(create_app(web_db)) as writing:
        game = new(writing)
        with stream(f"{watching}/api/games/{game['id']}/events", "chat") as versions:
            assert versions.get(timeout=30) == 0
            for count in (1, 2):
                assert say(writing, game, count % 2, f"message {count}").status_code == 201
                assert versions.get(timeout=20) == count
