"""The analysis board's deeper search as server-sent events: steps of doubling time up to the
server's budget, each with its lines and depth; hostile questions refused, one address bounded."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from bordspel.web.api import ANALYST
from bordspel.web.app import ApiSettings, create_app
from bordspel.web.deepening import FIRST_STEP, step_budgets
from bordspel.web.options import start_state
from bordspel.web.seats import budgeted_spec

STREAM = "/api/board/analysis/stream"


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    settings = ApiSettings(ai_time=0.5, job_workers=0, board_analyses_per_address=1)
    with TestClient(create_app(tmp_path / "games.sqlite3", settings)) as client:
        yield client


def events(client: TestClient, query: dict[str, str]) -> list[dict[str, Any]]:
    with client.stream("GET", STREAM, params=query) as response:
        assert response.status_code == 200 and response.headers["content-type"].startswith(
            "text/event-stream"
        )
        text = "".join(response.iter_text())
    return [json.loads(block.removeprefix("data: ")) for block in text.split("\n\n") if block]


def test_the_steps_double_up_to_the_servers_budget() -> None:
    assert step_budgets(10.0) == [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 10.0]
    assert step_budgets(FIRST_STEP) == [FIRST_STEP] and step_budgets(0.1) == [0.1]


def test_each_step_sends_its_lines_and_depth_until_the_last(client: TestClient) -> None:
    position = start_state("santorini", {}).play("a1,b2").play("d4,e5").to_str()
    found = events(client, {"game": "santorini", "position": position, "lines": "2"})
    assert [event["seconds"] for event in found] == step_budgets(0.5)
    assert [event["last"] for event in found] == [False, True]
    for event in found:
        assert len(event["lines"]) == 2 and event["depth"] == max(line["depth"] for line in event["lines"])
        assert event["depth"] >= 1


def test_a_solved_position_ends_the_stream_at_once(client: TestClient) -> None:
    position = start_state("hermit", {"size": 3}).to_str()
    (found,) = events(client, {"game": "hermit", "position": position, "lines": "1"})
    assert found["last"] and found["lines"][0]["result"] in ("win", "loss")


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ({"game": "chess", "position": "x"}, 404),
        ({"game": "quarto", "position": "not a position"}, 400),
        ({"game": "quarto", "position": "..../..../..../.... hand=-", "lines": "0"}, 400),
        ({"game": "quarto", "position": "..../..../..../.... hand=-", "lines": "9" * 30}, 400),
        ({"game": "hermit", "position": "./. size=99"}, 400),
        ({"game": "quarto"}, 400),
    ],
)
def test_hostile_questions_are_refused(client: TestClient, query: dict[str, str], status: int) -> None:
    assert client.get(STREAM, params=query).status_code == status


def test_a_finished_position_is_refused(client: TestClient) -> None:
    state = start_state("hermit", {"size": 2})
    while state.outcome() is None:
        state = state.apply(state.legal_moves()[0])
    refused = client.get(STREAM, params={"game": "hermit", "position": state.to_str()})
    assert refused.status_code == 409 and "over" in refused.json()["error"]


@pytest.mark.slow
def test_one_address_has_its_bound_of_streams_at_once(client: TestClient) -> None:
    position = start_state("santorini", {}).play("a1,b2").play("d4,e5").to_str()
    query = {"game": "santorini", "position": position}
    with client.stream("GET", STREAM, params=query) as first:
        assert first.status_code == 200
        refused = client.get(STREAM, params=query)
        assert refused.status_code == 429 and "in progress" in refused.json()["error"]
        "".join(first.iter_text())
    assert len(events(client, query)) == len(step_budgets(0.5))  # the first's slot was given back


@pytest.mark.slow
def test_a_page_that_leaves_ends_its_stream_and_frees_its_slot(tmp_path: Any) -> None:
    settings = ApiSettings(ai_time=30.0, job_workers=0, board_analyses_per_address=1)
    position = start_state("santorini", {}).play("a1,b2").play("d4,e5").to_str()
    query = {"game": "santorini", "position": position}
    with TestClient(create_app(tmp_path / "games.sqlite3", settings)) as client:
        for _ in range(2):  # the second is refused unless the first's slot was given back
            with client.stream("GET", STREAM, params=query) as stream:
                assert stream.status_code == 200, stream.read()
                assert json.loads(next(stream.iter_lines()).removeprefix("data: "))["last"] is False


def test_a_deeper_step_searches_beyond_the_level_s_own_time() -> None:
    """The stream's steps double their time past the analysing level's own (``hard``: 1 s), or
    the later steps would repeat the same search under longer labels."""
    own = budgeted_spec("quarto", ANALYST, 8.0)
    deeper = budgeted_spec("quarto", ANALYST, 8.0, deeper=True)
    assert "time=8," in deeper + "," and "time=8," not in own + ","
