"""Clocks kept by the server: Fischer and correspondence controls, increments, the computer's
budget within its time, flags that fall with nobody watching, and one settlement per flag."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from bordspel import new_game
from bordspel.web import actions, jobs
from bordspel.web.api import Api, ApiSettings
from bordspel.web.app import create_app
from bordspel.web.clocks import DAY, BadClock, Clock, TimeControl
from bordspel.web.seats import budgeted_spec
from bordspel.web.store import Conflict, GameStore

FAST = ApiSettings(flag_poll=0.05, clock_scale=0.02, job_workers=0)
"""A 15 s control lasts 0.3 s of real time (and no computer plays: no workers to start)."""


def test_fischer_adds_the_increment_after_a_move_and_charges_the_time_used() -> None:
    clock = Clock.start(TimeControl(60, 2), seats=2, to_move=0, now=100.0)
    assert clock.left(110.0) == [50.0, 60.0]
    after = clock.switch(moved=True, to_move=1, now=110.0)
    assert after.remaining == (52.0, 60.0) and after.running == 1
    assert after.left(115.0) == [52.0, 55.0]
    assert after.flag_at() == 170.0


def test_correspondence_gives_the_days_back_after_each_move() -> None:
    clock = Clock.start(TimeControl(days=2), seats=2, to_move=0, now=0.0)
    after = clock.switch(moved=True, to_move=1, now=DAY)
    assert after.remaining == (2 * DAY, 2 * DAY) and after.flag_at() == 3 * DAY


def test_a_turn_handed_back_without_a_move_earns_no_increment_and_a_stopped_clock_stays() -> None:
    clock = Clock.start(TimeControl(60, 5), seats=2, to_move=0, now=0.0)
    back = clock.switch(moved=False, to_move=1, now=10.0)
    assert back.remaining == (50.0, 60.0)
    stopped = back.switch(moved=True, to_move=None, now=20.0)
    assert stopped.running is None and stopped.left(1e9) == [50.0, 55.0] and stopped.flag_at() is None


def test_the_computer_thinks_within_its_clock() -> None:
    clock = Clock.start(TimeControl(60, 2), seats=2, to_move=0, now=0.0)
    assert clock.budget(0, 0.0, cap=10.0) == 4.0
    assert clock.budget(0, 59.9, cap=10.0) == pytest.approx(1.005)
    assert clock.budget(0, 0.0, cap=1.0) == 1.0


@pytest.mark.parametrize(
    "given",
    [
        {"initial": 180},
        {"initial": 0, "increment": 0},
        {"days": 1.5},
        {"days": 99},
        "3+2",
        {"initial": True, "increment": 1},
        {"initial": 14.9, "increment": 0},
        {"initial": 10800.5, "increment": 0},
        {"initial": 300, "increment": 60.5},
        {"initial": 300, "increment": -1},
        {"initial": float("nan"), "increment": 0},
    ],
)
def test_bad_time_controls_are_refused(given: object) -> None:
    with pytest.raises(BadClock):
        TimeControl.parse(given)


@pytest.mark.parametrize(
    ("given", "label"),
    [({"initial": 15, "increment": 0}, "0.25+0"), ({"initial": 10800, "increment": 60}, "180+60"),
     ({"initial": 90, "increment": 1}, "1.5+1")],
)  # fmt: skip
def test_custom_controls_within_the_bounds_are_taken(given: dict[str, float], label: str) -> None:
    assert TimeControl.parse(given).label() == label


def test_the_api_refuses_a_control_out_of_bounds(client: TestClient) -> None:
    body = {"game": "quarto", "seats": ["human", "human"], "clock": {"initial": 600, "increment": 61}}
    refused = client.post("/api/games", json=body)
    assert refused.status_code == 400 and "from 0 to 60" in refused.json()["error"]


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(web_db, FAST)) as client:
        yield client


def new(client: TestClient, game: str, seats: list[str], clock: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "options": {}, "seats": seats, "clock": clock})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def bearer(game: dict[str, Any], seat: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][seat]}"}


def every_seat_moves(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    """The game after each seat's first move (each seat's token; a 120 s control at the test's
    scale leaves 2.4 s for them): from then on a flag fall loses rather than aborts."""
    view, moved = game, set()
    while len(moved) < len(game["seats"]):
        seat = view["to_move"]
        moved.add(seat)
        response = client.post(
            f"/api/games/{game['id']}/moves",
            json={"version": view["version"], "move": view["legal"][0]["text"]},
            headers={"Authorization": f"Bearer {game['tokens'][seat]}"},
        )
        assert response.status_code == 200, response.text
        view = response.json()
    return view  # type: ignore[no-any-return]


def settled(store: GameStore, game_id: str, deadline: float = 20.0) -> int | None:
    """The flagged seat, once the server has written it (read from the store, not the API)."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        flagged = store.load(game_id).flagged
        if flagged is not None:
            return flagged
        time.sleep(0.05)
    return None


def test_the_game_json_shows_each_seats_time_and_who_is_running(client: TestClient, web_db: str) -> None:
    game = new(client, "quarto", ["human", "human"], {"initial": 180, "increment": 2})
    assert game["clock"]["running"] == 0 and game["clock"]["label"] == "3+2"
    assert game["clock"]["remaining"][1] == 3.6  # 180 s at the test's scale
    store = GameStore(web_db)
    started = store.load(game["id"]).clock
    moved = client.post(
        f"/api/games/{game['id']}/moves",
        json={"version": 0, "move": "A"},
        headers={"Authorization": f"Bearer {game['tokens'][0]}"},
    ).json()
    after = store.load(game["id"]).clock
    assert started is not None and after is not None and moved["clock"]["running"] == after.running == 1
    used = after.since - started.since
    assert after.remaining[0] == pytest.approx(3.6 - used + 0.04)  # the increment: 2 s at the test's scale
    assert moved["clock"]["remaining"][0] == round(after.remaining[0], 2)


def test_a_flag_falls_with_nobody_watching_and_a_late_move_changes_nothing(
    client: TestClient, web_db: str
) -> None:
    game = new(client, "hermit", ["human", "human"], {"initial": 120, "increment": 0})
    every_seat_moves(client, game)  # else the flag would abort the game, not lose it
    assert settled(GameStore(web_db), game["id"]) == 0
    view = client.get(f"/api/games/{game['id']}").json()
    assert view["outcome"] == {"winners": [1], "termination": "time", "result": "0-1"}
    assert view["clock"]["running"] is None and view["clock"]["remaining"][0] == 0
    record = client.get(f"/api/games/{game['id']}/record").text
    assert '[Termination "time"]' in record and '[Flagged "1"]' in record and '[Result "0-1"]' in record
    late = client.post(
        f"/api/games/{game['id']}/moves",
        json={"version": view["version"], "move": "Ra1U"},
        headers={"Authorization": f"Bearer {game['tokens'][0]}"},
    )
    assert late.status_code == 409 and "time ran out" in late.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json()["version"] == view["version"]


def test_three_players_a_flag_ends_the_game_the_others_win(client: TestClient, web_db: str) -> None:
    response = client.post(
        "/api/games",
        json={
            "game": "santorini",
            "options": {"players": 3},
            "seats": ["human"] * 3,
            "clock": {"initial": 120, "increment": 0},
        },
    )
    game = response.json()
    every_seat_moves(client, game)
    assert settled(GameStore(web_db), game["id"]) == 0
    assert client.get(f"/api/games/{game['id']}").json()["outcome"]["winners"] == [1, 2]


def test_several_processes_settle_a_flag_once(web_db: str) -> None:
    """Three servers' flag keepers over one store at once: one settlement lands, one version."""
    path = web_db
    store = GameStore(path)
    stored, _ = store.create(
        new_game("hermit", size=4), ["human", "human"], control=TimeControl(15, 0, scale=0.01)
    )
    while not store.load(stored.id).is_over():
        time.sleep(0.02)

    async def everyone() -> list[int]:
        apis = [Api(GameStore(path), ApiSettings(job_workers=0)) for _ in range(3)]
        return list(await asyncio.gather(*(api.settle_flags() for api in apis)))

    assert sorted(asyncio.run(everyone())) == [0, 0, 1]
    after = store.load(stored.id)
    assert after.flagged == 0 and after.version == 1
    with pytest.raises(Conflict):
        store.change(stored.id, 1, None, actions.settle_flag)


def test_the_flag_keeper_goes_on_after_a_failure(web_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = GameStore(web_db)
    api = Api(store, FAST)
    stored, _ = store.create(new_game("quarto"), ["human", "human"], control=TimeControl(15, 0, scale=0.01))
    looks = []
    due_flags = store.due_flags

    def failing_once(now: float) -> list[tuple[str, int]]:
        looks.append(now)
        if len(looks) == 1:
            raise RuntimeError("the database went away for a moment")
        return due_flags(now)

    monkeypatch.setattr(store, "due_flags", failing_once)

    async def keep_until_settled() -> None:
        keeper = asyncio.ensure_future(api.keep_time())
        while store.load(stored.id).flagged is None:
            await asyncio.sleep(0.05)
        keeper.cancel()

    asyncio.run(asyncio.wait_for(keep_until_settled(), 20))
    assert len(looks) >= 2 and store.load(stored.id).flagged == 0


def test_a_move_taken_back_takes_its_increment_with_it(client: TestClient, web_db: str) -> None:
    game = new(client, "quarto", ["human", "human"], {"initial": 3000, "increment": 60})
    headers = [{"Authorization": f"Bearer {token}"} for token in game["tokens"]]
    path = f"/api/games/{game['id']}"
    for cycle in range(3):  # move, ask to take it back, the other accepts: no time is earned
        assert client.post(
            f"{path}/moves", json={"version": 3 * cycle, "move": "A"}, headers=headers[0]
        ).is_success
        assert client.post(f"{path}/undo", json={"version": 3 * cycle + 1}, headers=headers[0]).is_success
        taken = client.post(
            f"{path}/takeback", json={"version": 3 * cycle + 2, "accept": True}, headers=headers[1]
        )
        assert taken.json()["ply"] == 0
    clock = GameStore(web_db).load(game["id"]).clock
    assert clock is not None and clock.remaining[0] <= 60.0  # 3000 s at the scale: 60 s, no increments kept


@pytest.mark.slow
def test_the_computer_moves_within_its_clock_in_a_timed_game(
    web_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A quarter-minute control against ``hard``: its search gets a twentieth of its time (0.75 s),
    not the server's 60 s (which would let its flag fall), and the human's clock runs once it moved."""
    budgets: list[float] = []

    def spying(game: str, level: str, budget: float) -> str:
        budgets.append(budget)
        return budgeted_spec(game, level, budget)

    monkeypatch.setattr(jobs, "budgeted_spec", spying)
    with TestClient(create_app(web_db, ApiSettings(ai_time=60.0, job_workers=1))) as client:
        game = new(client, "quarto", ["hard", "human"], {"initial": 15, "increment": 0})
        moved = client.post(
            f"/api/games/{game['id']}/ai", json={"version": 0}, headers=bearer(game, 1)
        ).json()
    assert budgets and max(budgets) <= 15 / 20
    assert moved["ply"] == 1 and moved["outcome"] is None and moved["clock"]["running"] == 1
    assert 0 < moved["clock"]["remaining"][0] < 15
