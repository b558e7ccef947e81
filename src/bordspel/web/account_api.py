"""The JSON API of accounts: sign up, log in and out, claim games, and players' profiles.

``POST /api/account`` and ``POST /api/session`` answer with the session cookie (HttpOnly,
SameSite=Lax, Secure over HTTPS); ``DELETE /api/session`` ends the session. Password hashes run
in bounded pools of threads, ``HASHING`` for log-ins and ``SIGNUP_HASHING`` for sign-ups, so that
a burst cannot take the server's memory and sign-ups cannot starve log-ins; a sign-up is checked
(name, password, the address's limit) before its hash.
"""

from __future__ import annotations

import functools
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bordspel.web.accounts import COOKIE, DEVICE_COOKIE, DEVICE_DAYS, SESSION_DAYS, Account
from bordspel.web.api import GAME_ID, Api, BadRequest, WorkPool, read_json
from bordspel.web.profiles import player_view, record_winners
from bordspel.web.store import Forbidden, NotFound

__all__ = ["HASHING", "SIGNUP_HASHING", "AccountApi"]

HASHING = 2
"""Log-ins' password checks computed at once (each takes 64 MiB for about a tenth of a second)."""
CLAIMS = 50
"""Games one request may claim (the page keeps 30)."""

SIGNUP_HASHING = 1
"""Sign-ups' password hashes computed at once: their own thread, so they never hold up log-ins."""


class AccountApi:
    """Handlers for accounts, sessions and profiles, over the game API's store and accounts."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.accounts = api.accounts
        self.signup_hashes = WorkPool(SIGNUP_HASHING, "sign-ups")
        self.login_hashes = WorkPool(HASHING, "log-ins")

    async def sign_up(self, request: Request) -> Response:
        """``POST /api/account`` ``{"username", "password"}``: 201, the account and its session.
        Everything that may refuse it is checked before the password is hashed."""
        data = await read_json(request)
        address = _address(request)
        check = functools.partial(self.accounts.check_sign_up, data.get("username"), data.get("password"))
        name, password = await self.signup_hashes.run(check, address)  # the strength check is costly too
        hashed = await self.signup_hashes.run(self.accounts.hasher.hash, password)
        account, session = await run_in_threadpool(self.accounts.add_account, name, hashed, address)
        return self._logged_in(request, account, session, 201)

    async def log_in(self, request: Request) -> Response:
        """``POST /api/session`` ``{"username", "password"}``: a new session (the browser's device
        cookie spares it the slow-down of an account under attack)."""
        data = await read_json(request)
        log_in = functools.partial(self.accounts.log_in, device=request.cookies.get(DEVICE_COOKIE))
        username, password = data.get("username"), data.get("password")
        account, session = await self.login_hashes.run(log_in, username, password, _address(request))
        return self._logged_in(request, account, session, 200)

    def _logged_in(self, request: Request, account: Account, session: str, status: int) -> Response:
        response = JSONResponse({"username": account.username}, status_code=status)
        for name, value, days in (
            (COOKIE, self.accounts.cookie(session), SESSION_DAYS),
            (DEVICE_COOKIE, self.accounts.device_cookie(account), DEVICE_DAYS),
        ):
            response.set_cookie(
                name,
                value,
                max_age=days * 86400,
                httponly=True,
                samesite="lax",
                secure=request.url.scheme == "https",
            )
        return response

    async def log_out(self, request: Request) -> Response:
        """``DELETE /api/session``: the session ends (on every device that shares its cookie)."""
        session = self.accounts.session_of(request.cookies.get(COOKIE))
        await run_in_threadpool(self.accounts.log_out, session)
        response = JSONResponse({"username": None})
        response.delete_cookie(COOKIE, httponly=True, samesite="lax")
        return response

    async def who(self, request: Request) -> Response:
        """``GET /api/session``: the username of the request's session, or null."""
        account = await self.api.account(request)
        return JSONResponse({"username": None if account is None else account.username})

    async def claim(self, request: Request) -> Response:
        """``POST /api/account/games`` ``{"games": [{"id", "token"}, ...]}``: bind the seats these
        tokens hold to the logged-in account (games played before logging in). Answers the ids
        claimed; a game whose token is wrong or whose seat is another account's is left out."""
        account = await self._logged_in_account(request)
        games = (await read_json(request)).get("games")
        if not isinstance(games, list) or len(games) > CLAIMS:
            raise BadRequest(f"give 'games' as a list of at most {CLAIMS} {{'id', 'token'}} objects")
        claimed = []
        for game in games:
            if _claimable(game) and await run_in_threadpool(self._claim, game["id"], game["token"], account):
                claimed.append(game["id"])
        return JSONResponse({"claimed": claimed})

    def _claim(self, game_id: str, token: str, account: Account) -> bool:
        store = self.api.store
        try:
            store.claim(game_id, token, account.id)
        except (Forbidden, NotFound):
            return False
        stored = store.load(game_id)
        if stored.is_over():  # a game that ended before results were kept
            with store.db.transaction() as db:
                record_winners(db, stored)
        return True

    async def _logged_in_account(self, request: Request) -> Account:
        account = await self.api.account(request)
        if account is None:
            raise Forbidden("log in first: this needs an account")
        return account

    async def player(self, request: Request) -> Response:
        """``GET /api/players/{username}``: the profile (ratings per pool, the games)."""
        name = str(request.path_params["username"])
        account = await run_in_threadpool(self.accounts.find, name)
        if account is None:
            raise NotFound(f"there is no player {name[:40]!r}")
        return JSONResponse(await run_in_threadpool(player_view, self.api.store, account))


def _claimable(game: Any) -> bool:
    return (
        isinstance(game, dict)
        and isinstance(game.get("id"), str)
        and isinstance(game.get("token"), str)
        and bool(GAME_ID.fullmatch(game["id"]))
        and 0 < len(game["token"]) <= 100
    )


def _address(request: Request) -> str:
    return request.client.host if request.client else ""
