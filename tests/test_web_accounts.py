"""Accounts through the JSON API: sign-up, log-in and out with the session cookie, usernames and
their limits, claiming anonymous games, seats bound to accounts, rated games and their
ratings (once per game, as OpenSkill computes them), and players' profiles."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from pathlib import Path
from typing import Any
from urllib.parse import quote

import argon2
import httpx2 as httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from bordspel.core import BordspelError, new_game
from bordspel.web import actions
from bordspel.web.accounts import RESERVED, Accounts, Limits
from bordspel.web.app import ApiSettings, create_app
from bordspel.web.clocks import TimeControl
from bordspel.web.notices import NoticeReader
from bordspel.web.profiles import keep_results
from bordspel.web.ratings import MU, SIGMA, computer_ratings, model, pool_of, update_ratings
from bordspel.web.store import Conflict, GameStore, token_hash
from tests.conftest import sizes
from tests.live import serving
from tests.test_web_jobs import _until

SETTINGS = ApiSettings(password_cost="CHEAPEST", signups_per_hour=3, secret="test secret")
PASSWORD = "correct horse"
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def app(module_db: str) -> Iterator[Any]:
    """One app for the module, on SQLite and (with the slow tests) PostgreSQL; each test uses
    names of its own."""
    with TestClient(create_app(module_db, SETTINGS)) as client:
        yield client.app


@pytest.fixture(scope="module")
def store(module_db: str) -> Iterator[GameStore]:
    """The app's database, as another process that changes games opens it (``keep_results``)."""
    opened = keep_results(GameStore(module_db))
    yield opened
    opened.close()


@pytest.fixture
def client(app: Any) -> TestClient:
    """A browser of its own (its own cookies) on the module's app."""
    return TestClient(app)


def sign_up(client: TestClient, name: str, address: str | None = None) -> TestClient:
    """Another browser on the same app, from an address of its own unless given, with a new account."""
    other = TestClient(client.app, client=(address or f"address of {name}", 50000))
    response = other.post("/api/account", json={"username": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return other


def account_id(store: GameStore, name: str) -> str:
    with store.db.transaction(write=False) as raw:
        return str(raw.execute("SELECT id FROM accounts WHERE username = ?", (name,)).fetchone()[0])


def rated_game(store: GameStore, game: str, names: list[str], **options: Any) -> str:
    """A rated game between these accounts, one seat each (as the lobby makes them)."""
    start = new_game(game, **options)
    accounts: list[str | None] = [account_id(store, name) for name in names]
    stored, _ = store.create(start, ["human"] * len(names), accounts=accounts, rated=True)
    return stored.id


def every_seat_moves(browsers: list[TestClient], game_id: str) -> dict[str, Any]:
    """The game after one move of each seat (from then on it can no longer be aborted)."""
    view, moved = browsers[0].get(f"/api/games/{game_id}").json(), set()
    while len(moved) < len(browsers):
        moved.add(view["to_move"])
        view = play(browsers[view["to_move"]], game_id, view)
    return view


def play(browser: TestClient, game_id: str, view: dict[str, Any]) -> dict[str, Any]:
    """The first legal move, authorised by the browser's session cookie alone."""
    body = {"version": view["version"], "move": view["legal"][0]["text"]}
    response = browser.post(f"/api/games/{game_id}/moves", json=body)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def test_sign_up_log_out_and_log_in_with_a_signed_http_only_cookie(client: TestClient) -> None:
    response = client.post("/api/account", json={"username": "Alice", "password": PASSWORD})
    assert response.status_code == 201 and response.json() == {"username": "Alice"}
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Path=/" in cookie
    assert client.get("/api/session").json() == {"username": "Alice"}
    assert client.delete("/api/session").json() == {"username": None}
    assert client.get("/api/session").json() == {"username": None}
    wrong = client.post("/api/session", json={"username": "alice", "password": "not it at all"})
    assert wrong.status_code == 403 and "wrong username or password" in wrong.json()["error"]
    assert client.post("/api/session", json={"username": "alice", "password": PASSWORD}).json() == {
        "username": "Alice"
    }
    assert client.get("/api/session").json() == {"username": "Alice"}


def test_a_session_ends_everywhere_and_a_forged_cookie_is_nobody(client: TestClient) -> None:
    sign_up(client, "bob")
    response = client.post("/api/session", json={"username": "bob", "password": PASSWORD})
    value = response.cookies["bordspel_session"]
    other = TestClient(client.app, cookies={"bordspel_session": value})
    assert other.get("/api/session").json() == {"username": "bob"}
    client.delete("/api/session")
    assert other.get("/api/session").json() == {"username": None}  # the row is gone
    session, _, _ = value.partition(".")
    forged = TestClient(client.app, cookies={"bordspel_session": f"{session}.forged"})
    assert forged.get("/api/session").json() == {"username": None}


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("ab", "3 to 20"),
        ("x" * 21, "3 to 20"),
        ("<script>", "3 to 20"),
        ("1abc", "starts with a letter"),
        ("Admin", "reserved"),
        ("ADMIN-", "reserved"),
        ("Root_42", "reserved"),
        ("hard", "reserved"),
        (42, "3 to 20"),
    ],
)
def test_usernames_are_checked(client: TestClient, name: object, reason: str) -> None:
    response = client.post("/api/account", json={"username": name, "password": PASSWORD})
    assert response.status_code == 400 and reason in response.json()["error"]
    assert "easy" in RESERVED


@pytest.mark.parametrize(
    "password", ["12345678", " " * 8, "password1", "qwertyuiop", "wendy1234", "Wendy1234"]
)
def test_weak_passwords_are_refused_with_a_reason(client: TestClient, password: str) -> None:
    refused = client.post("/api/account", json={"username": "wendy1234", "password": password})
    assert refused.status_code == 400 and "too easy to guess" in refused.json()["error"]


def test_a_taken_name_in_any_case_a_short_password_and_the_sign_up_limit(client: TestClient) -> None:
    sign_up(client, "carol", address="10.0.0.1")
    taken = client.post("/api/account", json={"username": "CAROL", "password": PASSWORD})
    assert taken.status_code == 400 and "taken" in taken.json()["error"]
    short = client.post("/api/account", json={"username": "dave", "password": "short"})
    assert short.status_code == 400 and "8 to 256" in short.json()["error"]
    sign_up(client, "erin", address="10.0.0.1")
    sign_up(client, "frank", address="10.0.0.1")
    browser = TestClient(client.app, client=("10.0.0.1", 50000))
    refused = browser.post("/api/account", json={"username": "grace", "password": PASSWORD})
    assert (
        refused.status_code == 429 and refused.headers["Retry-After"] and "an hour" in refused.json()["error"]
    )
    sign_up(client, "grace", address="10.0.0.2")


def test_failed_log_ins_are_limited_per_account(client: TestClient) -> None:
    sign_up(client, "heidi")
    for _ in range(10):
        assert (
            client.post("/api/session", json={"username": "heidi", "password": "guess1234"}).status_code
            == 403
        )
    limited = client.post("/api/session", json={"username": "HEIDI", "password": PASSWORD})
    assert limited.status_code == 429 and "too many wrong passwords" in limited.json()["error"]


def _guess(browser: TestClient, name: str, password: str = "guess1234") -> Any:
    return browser.post("/api/session", json={"username": name, "password": password})


def test_wrong_passwords_from_one_address_do_not_lock_the_owner_out(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = sign_up(client, "jolene")  # this browser logged in before: it holds a device cookie
    attacker = TestClient(client.app, client=("203.0.113.9", 1))
    assert [_guess(attacker, "jolene").status_code for _ in range(10)] == [403] * 10
    refused = _guess(attacker, "jolene", PASSWORD)
    assert refused.status_code == 429 and "from your address" in refused.json()["error"]
    assert 800 < int(refused.headers["Retry-After"]) <= 900  # the truth: a quarter of an hour
    assert _guess(owner, "jolene", PASSWORD).status_code == 200  # the owner, elsewhere, logs in
    elsewhere = TestClient(client.app, client=("198.51.100.1", 1))  # a new browser is slowed down,
    slowed = _guess(elsewhere, "jolene", PASSWORD)
    assert slowed.status_code == 429 and 0 < int(slowed.headers["Retry-After"]) <= 10
    later = time.time() + 11
    monkeypatch.setattr("bordspel.web.accounts.time.time", lambda: later)
    assert _guess(elsewhere, "jolene", PASSWORD).status_code == 200  # not locked out


def test_parallel_guesses_check_no_more_passwords_than_the_limit(
    client: TestClient, store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    sign_up(client, "kira")
    checked: list[str] = []

    def slow_check(accounts: Accounts, hashed: str, password: str) -> bool:
        checked.append(password)
        time.sleep(0.05)  # a real hash takes longer: the race is wide open
        return False

    monkeypatch.setattr(Accounts, "_verified", slow_check)
    accounts = Accounts(store, "test secret", Limits(), "CHEAPEST")
    refusals: list[str] = []

    def guess(number: int) -> None:
        try:
            accounts.log_in("kira", f"guess {number}", "192.0.2.40")
        except BordspelError as error:
            refusals.append(type(error).__name__)

    with ThreadPoolExecutor(40) as pool:
        list(pool.map(guess, range(40)))
    assert len(checked) == 10 and sorted(set(refusals)) == ["Forbidden", "Throttled"]


def test_a_refused_sign_up_computes_no_hash(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    sign_up(client, "lorna", address="10.0.0.3")
    hashed: list[str] = []
    hash_password = argon2.PasswordHasher.hash
    monkeypatch.setattr(
        argon2.PasswordHasher,
        "hash",
        lambda hasher, secret: hashed.append(secret) or hash_password(hasher, secret),
    )
    browser = TestClient(client.app, client=("10.0.0.3", 50000))
    assert browser.post("/api/account", json={"username": "LORNA", "password": PASSWORD}).status_code == 400
    assert browser.post("/api/account", json={"username": "x!", "password": PASSWORD}).status_code == 400
    sign_up(client, "lorna2", address="10.0.0.3")
    sign_up(client, "lorna3", address="10.0.0.3")
    over = browser.post("/api/account", json={"username": "lorna4", "password": "another password"})
    assert over.status_code == 429 and "another password" not in hashed and len(hashed) == 2


def test_sign_ups_cannot_starve_log_ins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(tmp_path / "games.sqlite3", ApiSettings(password_cost="CHEAPEST", secret="s"))
    with serving(app) as base, httpx.Client(base_url=base, timeout=60) as owner:
        assert owner.post("/api/account", json={"username": "mia", "password": PASSWORD}).status_code == 201
        release, hash_password, entered = threading.Event(), argon2.PasswordHasher.hash, []

        def stuck(hasher: argon2.PasswordHasher, secret: str) -> str:
            entered.append(secret)
            release.wait(60)  # every sign-up's hash hangs until the log-in is answered
            return hash_password(hasher, secret)

        monkeypatch.setattr(argon2.PasswordHasher, "hash", stuck)
        flood = ThreadPoolExecutor(6)
        signups = [
            flood.submit(
                httpx.post,
                f"{base}/api/account",
                json={"username": f"flood{n}", "password": PASSWORD},
                timeout=90,
            )
            for n in range(6)
        ]
        try:
            _until(lambda: entered, 30)
            time.sleep(0.5)  # the other sign-ups queue up meanwhile (if they wait, as they should)
            with httpx.Client(base_url=base, timeout=20) as fresh:
                logged_in = fresh.post("/api/session", json={"username": "mia", "password": PASSWORD})
        finally:
            release.set()
            flood.shutdown()
        assert logged_in.status_code == 200
        assert {signup.result().status_code for signup in signups} <= {201, 503}


def test_claiming_anonymous_games_puts_them_on_the_profile(client: TestClient) -> None:
    game = client.post(
        "/api/games", json={"game": "hermit", "options": {"size": 2}, "seats": ["human", "easy"]}
    ).json()
    other = client.post(
        "/api/games", json={"game": "quarto", "options": {}, "seats": ["human", "human"]}
    ).json()
    ivan = sign_up(client, "ivan")
    claims = [
        {"id": game["id"], "token": game["tokens"][0]},
        {"id": other["id"], "token": "not a token"},
        {"id": "../nope", "token": "x"},
    ]
    assert client.post("/api/account/games", json={"games": claims}).status_code == 403  # not logged in
    assert ivan.post("/api/account/games", json={"games": claims}).json() == {"claimed": [game["id"]]}
    judy = sign_up(client, "judy")
    assert judy.post("/api/account/games", json={"games": claims[:1]}).json() == {"claimed": []}
    assert ivan.get(f"/api/games/{game['id']}").json()["you"] == 0  # the cookie holds the seat now
    profile = client.get("/api/players/IVAN").json()
    assert profile["username"] == "ivan" and profile["ratings"] == {}
    (listed,) = profile["games"]
    assert (
        listed["id"] == game["id"] and listed["players"] == ["ivan", None] and listed["result"] == "ongoing"
    )
    assert client.get("/api/players/nobody-here").status_code == 404


def test_a_game_started_while_logged_in_is_on_the_profile(client: TestClient) -> None:
    tess = sign_up(client, "tess")
    body = {"game": "quarto", "options": {}, "seats": ["easy", "human"]}
    created = tess.post("/api/games", json=body).json()
    assert created["you"] == 1 and created["players"] == [None, "tess"] and not created["rated"]
    (listed,) = client.get("/api/players/tess").json()["games"]
    assert listed["id"] == created["id"] and listed["you"] == 1
    anonymous = client.post("/api/games", json=body).json()
    assert anonymous["players"] == [None, None]


def test_a_game_against_the_computer_ends_on_the_profile_with_its_result(client: TestClient) -> None:
    uma = sign_up(client, "uma")
    view = uma.post(
        "/api/games", json={"game": "hermit", "options": {"size": 2}, "seats": ["human", "easy"]}
    ).json()
    while view["outcome"] is None:  # the computer's moves are made by the job workers (their end too)
        if view["to_move"] == 0:
            view = play(uma, view["id"], view)
        else:
            view = uma.post(f"/api/games/{view['id']}/ai", json={"version": view["version"]}).json()
    (listed,) = client.get("/api/players/uma").json()["games"]
    assert listed["result"] == ("win" if view["outcome"]["winners"] == [0] else "loss")


def test_a_rated_game_is_played_by_cookie_and_rates_both_once(client: TestClient, store: GameStore) -> None:
    kim, lee = sign_up(client, "kim"), sign_up(client, "lee")
    game_id = rated_game(store, "hermit", ["kim", "lee"], size=2)
    view = kim.get(f"/api/games/{game_id}").json()
    assert view["you"] == 0 and view["rated"] and view["players"] == ["kim", "lee"]
    assert lee.get(f"/api/games/{game_id}").json()["you"] == 1
    anonymous = client.post(
        f"/api/games/{game_id}/moves", json={"version": 0, "move": view["legal"][0]["text"]}
    )
    assert anonymous.status_code == 403
    foreign = kim.post(
        f"/api/games/{game_id}/moves",
        json={"version": 0, "move": view["legal"][0]["text"]},
        headers={"Origin": "https://elsewhere.example"},
    )
    assert foreign.status_code == 403
    browsers = [kim, lee]
    while view["outcome"] is None:
        view = play(browsers[view["to_move"]], game_id, view)
    winner = view["outcome"]["winners"][0]
    expected = model().rate(
        [[model().rating()], [model().rating()]], ranks=[1 if winner == 0 else 2, 1 if winner == 1 else 2]
    )
    for seat, name in enumerate(("kim", "lee")):
        rating = client.get(f"/api/players/{name}").json()["ratings"]["hermit-small"]
        assert rating["rating"] == round(expected[seat][0].mu) != round(MU) and rating["games"] == 1
        assert rating["history"] == [
            {"game": game_id, "rating": rating["rating"], "time": rating["history"][0]["time"]}
        ]
    with store.db.transaction() as raw:
        update_ratings(raw, store.load(game_id))  # a second update of the same game changes nothing
    assert client.get("/api/players/kim").json()["ratings"]["hermit-small"]["games"] == 1
    (listed,) = client.get("/api/players/kim").json()["games"]
    assert listed["rated"] and listed["result"] == ("win" if winner == 0 else "loss")


def test_a_resignation_in_a_three_player_rated_game_rates_each_seat(
    client: TestClient, store: GameStore
) -> None:
    browsers = [sign_up(client, name) for name in ("mia", "ned", "ola")]
    game_id = rated_game(store, "santorini", ["mia", "ned", "ola"], players=3)
    view = every_seat_moves(browsers, game_id)
    resigned = browsers[1].post(f"/api/games/{game_id}/resign", json={"version": view["version"]})
    assert resigned.status_code == 200 and resigned.json()["outcome"]["termination"] == "resignation"
    expected = model().rate([[model().rating()] for _ in range(3)], ranks=[1, 2, 1])
    for seat, name in enumerate(("mia", "ned", "ola")):
        profile = client.get(f"/api/players/{name}").json()
        assert profile["ratings"]["santorini-3p"]["rating"] == round(expected[seat][0].mu)
        assert profile["games"][0]["result"] == ("loss" if seat == 1 else "win")


def test_four_player_teams_are_rated_as_teams(client: TestClient, store: GameStore) -> None:
    names = ("pia", "quin", "rosa", "sam")
    browsers = [sign_up(client, name) for name in names]
    game_id = rated_game(store, "santorini", list(names), players=4)
    view = every_seat_moves(browsers, game_id)
    resigned = browsers[0].post(f"/api/games/{game_id}/resign", json={"version": view["version"]})
    assert resigned.status_code == 200
    teams = [[model().rating(), model().rating()] for _ in range(2)]  # seats 0 and 2, seats 1 and 3
    expected = model().rate(teams, ranks=[2, 1])
    for seat, name in enumerate(names):
        rating = client.get(f"/api/players/{name}").json()["ratings"]["santorini-4p"]["rating"]
        assert rating == round(expected[seat % 2][seat // 2].mu)
    assert client.get("/api/meta").json()["games"]["quarto"]["level_ratings"] == computer_ratings("quarto")
    assert set(computer_ratings("hermit")) == {"easy", "medium", "hard"}  # perfect was not measured


def test_a_flag_fall_in_a_rated_game_rates_both_once(client: TestClient, store: GameStore) -> None:
    sign_up(client, "vic"), sign_up(client, "wim")
    accounts: list[str | None] = [account_id(store, "vic"), account_id(store, "wim")]
    control = TimeControl(15, 0, scale=0.1)  # 1.5 s on the clock: time for both first moves
    stored, _ = store.create(
        new_game("quarto"), ["human", "human"], control=control, accounts=accounts, rated=True
    )
    for seat in (0, 1):  # both sides move, so the flag that falls is a loss, not an abort
        stored = store.change(
            stored.id, seat, None, actions.human_move(stored.state.legal_moves()[0].to_str()), accounts[seat]
        )
    while not store.load(stored.id).is_over():
        time.sleep(0.02)
    with suppress(Conflict):  # what each server's flag keeper does; the app's may be first
        store.change(stored.id, 2, None, actions.settle_flag)
    expected = model().rate([[model().rating()], [model().rating()]], ranks=[2, 1])  # seat 0 flagged
    for seat, name in enumerate(("vic", "wim")):
        profile = client.get(f"/api/players/{name}").json()
        assert profile["ratings"]["quarto"]["rating"] == round(expected[seat][0].mu)
        assert profile["games"][0]["result"] == ("loss" if seat == 0 else "win")


def test_ten_rated_games_resigned_before_the_first_move_are_aborted_and_change_no_rating(
    client: TestClient, store: GameStore
) -> None:
    abe, bea = sign_up(client, "abe"), sign_up(client, "bea")
    for _ in range(10):
        game_id = rated_game(store, "quarto", ["abe", "bea"])
        resigned = bea.post(f"/api/games/{game_id}/resign", json={"version": 0})
        assert resigned.status_code == 200, resigned.text
        assert resigned.json()["outcome"] == {"winners": [], "termination": "aborted", "result": "*"}
    for name in ("abe", "bea"):
        profile = client.get(f"/api/players/{name}").json()
        assert profile["ratings"] == {}  # no rated game: the rating is still the start's
        assert [listed["result"] for listed in profile["games"]] == ["aborted"] * 10
    record = client.get(f"/api/games/{game_id}/record").text
    assert '[Termination "aborted"]' in record and '[Result "*"]' in record and "Resigned" not in record
    assert abe.get(f"/api/games/{game_id}").json()["rating_changes"] is None


def test_a_rated_clock_game_whose_first_player_never_moves_is_aborted(
    client: TestClient, store: GameStore
) -> None:
    sign_up(client, "cas"), sign_up(client, "dex")
    accounts: list[str | None] = [account_id(store, "cas"), account_id(store, "dex")]
    control = TimeControl(60, 0, scale=0.0025)  # a 1+0 game, 0.15 s on the clock
    stored, _ = store.create(
        new_game("quarto"), ["human", "human"], control=control, accounts=accounts, rated=True
    )
    while not store.load(stored.id).is_over():
        time.sleep(0.02)
    with suppress(Conflict):  # what each server's flag keeper does; the app's may be first
        store.change(stored.id, 0, None, actions.settle_flag)
    view = client.get(f"/api/games/{stored.id}").json()
    assert view["outcome"]["termination"] == "aborted" and view["outcome"]["winners"] == []
    for name in ("cas", "dex"):
        profile = client.get(f"/api/players/{name}").json()
        assert profile["ratings"] == {} and profile["games"][0]["result"] == "aborted"


def test_a_game_can_be_aborted_until_every_side_has_moved(client: TestClient, store: GameStore) -> None:
    eli, fay = sign_up(client, "eli"), sign_up(client, "fay")
    game_id = rated_game(store, "quarto", ["eli", "fay"])
    view = play(eli, game_id, eli.get(f"/api/games/{game_id}").json())
    assert client.post(f"/api/games/{game_id}/abort", json={"version": 1}).status_code == 403
    aborted = fay.post(f"/api/games/{game_id}/abort", json={"version": view["version"]})
    assert aborted.status_code == 200 and aborted.json()["outcome"]["termination"] == "aborted"
    game_id = rated_game(store, "quarto", ["eli", "fay"])
    view = every_seat_moves([eli, fay], game_id)
    refused = eli.post(f"/api/games/{game_id}/abort", json={"version": view["version"]})
    assert refused.status_code == 409 and "resign" in refused.json()["error"]
    resigned = eli.post(f"/api/games/{game_id}/resign", json={"version": view["version"]}).json()
    assert resigned["outcome"]["termination"] == "resignation" and resigned["outcome"]["winners"] == [1]
    changes = resigned["rating_changes"]
    assert changes[0] < 0 < changes[1]
    ratings = {
        name: client.get(f"/api/players/{name}").json()["ratings"]["quarto"] for name in ("eli", "fay")
    }
    assert changes == [ratings["eli"]["rating"] - round(MU), ratings["fay"]["rating"] - round(MU)]


def test_the_notices_snapshot_tells_each_player_their_move_a_takeback_the_end_and_a_rematch(
    client: TestClient, store: GameStore
) -> None:
    gus, hal = sign_up(client, "gus"), sign_up(client, "hal")
    assert client.get("/api/notices").status_code == 403  # for accounts only
    readers = [NoticeReader(store, account_id(store, name)) for name in ("gus", "hal")]
    assert [reader.snapshot() for reader in readers] == [{"games": []}, {"games": []}]
    game_id = rated_game(store, "quarto", ["gus", "hal"])

    def told(seat: int) -> dict[str, Any]:
        (game,) = readers[seat].snapshot()["games"]
        assert game["id"] == game_id and game["title"]["en"] == "Quarto"
        return game  # type: ignore[no-any-return]

    assert told(0)["your_move"] and not told(1)["your_move"] and told(1)["opponents"] == ["gus"]
    view = every_seat_moves([gus, hal], game_id)
    asked = gus.post(f"/api/games/{game_id}/undo", json={"version": view["version"]}).json()
    assert told(1)["takeback"] and not told(0)["takeback"]
    hal.post(f"/api/games/{game_id}/resign", json={"version": asked["version"]})
    assert told(0)["over"] and told(0)["result"] == "win" and told(1)["result"] == "loss"
    tokens = {}
    for seat, name in enumerate(("gus", "hal")):
        with store.db.transaction() as raw:  # the seats' tokens, as the lobby gives them
            tokens[seat] = f"token of {name}"
            raw.execute(
                "UPDATE seats SET token_hash = ? WHERE game_id = ? AND seat = ?",
                (token_hash(tokens[seat]), game_id, seat),
            )
    rematch = gus.post(
        f"/api/games/{game_id}/rematch", json={}, headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert rematch.status_code == 201, rematch.text
    offered = {game["id"]: game["rematch_offer"] for game in readers[1].snapshot()["games"]}
    assert offered == {rematch.json()["id"]: True, game_id: False}
    assert not readers[0].snapshot()["games"][0]["rematch_offer"]


def test_rated_games_need_an_account_in_every_seat(store: GameStore) -> None:
    with pytest.raises(Exception, match="one seat an account"):
        store.create(new_game("quarto"), ["human", "easy"], accounts=[None, None], rated=True)


def test_pools_come_from_the_options_through_the_registry() -> None:
    pools = {
        pool_of(new_game(name, **options))
        for name, options in [
            ("hermit", {"size": 4}),
            ("hermit", {"size": 7}),
            ("hermit", {"size": 12}),
            ("santorini", {}),
            ("santorini", {"players": 4}),
            ("santorini", {"gods": "atlas,pan"}),
            ("quarto", {}),
            ("quarto", {"advanced": True}),
        ]
    }
    assert pools == {
        "hermit-small", "hermit-medium", "hermit-large", "santorini-2p", "santorini-4p",
        "santorini-2p-gods", "quarto", "quarto-advanced",
    }  # fmt: skip
    assert computer_ratings("santorini")["medium"] == round(MU) and SIGMA == MU / 3


account_bodies = st.one_of(
    st.binary(max_size=100),
    st.fixed_dictionaries(
        {
            "username": st.none() | st.integers() | st.text(max_size=30),
            "password": st.none() | st.text(max_size=300),
        }
    ).map(lambda body: json.dumps(body).encode()),
    st.fixed_dictionaries(
        {
            "games": st.lists(
                st.dictionaries(st.sampled_from(["id", "token"]), st.text(max_size=20)), max_size=3
            )
        }
    ).map(lambda body: json.dumps(body).encode()),
)
account_requests = st.fixed_dictionaries(
    {
        "method": st.sampled_from(["GET", "POST", "DELETE", "PUT"]),
        "path": st.sampled_from(["/api/account", "/api/session", "/api/account/games"])
        | st.text(max_size=30).map(lambda name: "/api/players/" + quote(name, safe="")),
        "body": account_bodies,
        "cookie": st.none() | st.text(max_size=60).map(lambda text: quote(text, safe=".")),
    }
)


@pytest.mark.parametrize("examples", sizes(quick=60, deep=2000))
def test_no_account_request_gets_a_5xx(app: Any, examples: int) -> None:
    client = TestClient(app, raise_server_exceptions=False, client=("fuzzer", 50000))

    @settings(max_examples=examples, deadline=None)
    @given(request=account_requests)
    def answered_without_a_5xx(request: dict[str, Any]) -> None:
        client.cookies.clear()
        if request["cookie"] is not None:
            client.cookies.set("bordspel_session", request["cookie"])
        response = client.request(request["method"], request["path"], content=request["body"], headers=JSON)
        assert response.status_code < 500, (request, response.text[:200])

    answered_without_a_5xx()
