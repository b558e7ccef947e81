"""The JSON API of a game's chat (``bordspel.web.chat``).

- ``GET /api/games/{id}/chat``: the rooms the caller reads, their messages and the player's settings.
- ``POST /api/games/{id}/chat`` ``{"room": "players" | "spectators", "text": ...}``: 201 with the message.
- ``POST /api/games/{id}/chat/settings`` ``{"off": bool, "muted": bool}`` (either): a player's choices.
- The game's stream (``GET /api/games/{id}/events``) also sends ``event: chat`` with the chat's
  message count; the page reads the chat again when it changes (the count is public: the
  messages are not).
- ``GET /api/games/{id}/record?chat=yes``: the record with the players' chat (players only).

The caller is a player by seat token or account, as for moves.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from bordspel.web.api import Api, BadRequest, game_id, read_json
from bordspel.web.chat import Chat, Reader, chat_key, with_chat
from bordspel.web.store import Forbidden
from bordspel.web.views import record_text

__all__ = ["ChatApi"]


class ChatApi:
    """The chat's handlers, beside the game's (``Api``)."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.chat = Chat(api.store)
        api.game_parts["chat"] = (chat_key, self.chat.version)

    async def _reader(self, request: Request, key: str) -> Reader:
        return Reader(await self.api.seat_of(request, key), await self.api.account_id(request))

    async def show(self, request: Request) -> Response:
        """``GET /api/games/{id}/chat``."""
        key = game_id(request)
        reader = await self._reader(request, key)
        return JSONResponse(await run_in_threadpool(self.chat.read, key, reader))

    async def write(self, request: Request) -> Response:
        """``POST /api/games/{id}/chat``."""
        data = await read_json(request)
        room, text = data.get("room"), data.get("text")
        if not isinstance(room, str) or not isinstance(text, str):
            raise BadRequest("give 'room' and 'text' as strings")
        key = game_id(request)
        reader = await self._reader(request, key)
        message = await run_in_threadpool(self.chat.write, key, room, text, reader)
        self.api.changes.notify(chat_key(key))
        return JSONResponse(message, status_code=201)

    async def choose(self, request: Request) -> Response:
        """``POST /api/games/{id}/chat/settings``."""
        data = await read_json(request)
        off, muted = _flag(data, "off"), _flag(data, "muted")
        key = game_id(request)
        seat = await self.api.seat_of(request, key)
        return JSONResponse(await run_in_threadpool(self.chat.choose, key, seat, off, muted))

    async def record(self, request: Request) -> Response:
        """``GET /api/games/{id}/record``: the record; with ``?chat=yes``, a player's, with the chat."""
        if request.query_params.get("chat", "no") not in ("yes", "no"):
            raise BadRequest("give 'chat' as yes or no")
        if request.query_params.get("chat") != "yes":
            return await self.api.record(request)
        key = game_id(request)
        seat = await self.api.seat_of(request, key)
        if seat is None:
            raise Forbidden("the players' chat is the players': only they may add it to the record")
        stored = await run_in_threadpool(self.api.store.load, key)
        with_chat(stored.game, await run_in_threadpool(self.chat.transcript, key, seat))
        text = await run_in_threadpool(record_text, stored)
        filename = f"{stored.state.name}-{stored.id}.txt"
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _flag(data: dict[str, Any], name: str) -> bool | None:
    value = data.get(name)
    if value is not None and not isinstance(value, bool):
        raise BadRequest(f"give {name!r} as true or false")
    return value
