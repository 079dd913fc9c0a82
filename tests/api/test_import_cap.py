"""An import's cap counts matches, not items, and its shared deadline refuses the records
past it unread (a .mat of many matches was many submits, each read after the deadline)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import referee.api.matches
from referee.api.matches import MAX_IMPORT_ITEMS
from tests.api.test_matches_api import BG_EXAMPLE, Env, assert_problem, bearer, example, make_env

MATCH = " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n\n"


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(tmp_path / "a.sqlite3")


def count_submits(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the import hands to ``submit`` (each one read), from now on."""
    texts: list[str] = []
    real = referee.api.matches.submit

    def counted(storage: Any, text: str, *args: Any) -> Any:
        texts.append(text)
        return real(storage, text, *args)

    monkeypatch.setattr(referee.api.matches, "submit", counted)
    return texts


@pytest.mark.parametrize(
    "items",
    [
        [MATCH * (MAX_IMPORT_ITEMS + 1)],  # one item of 1,001 matches
        [MATCH * 600, MATCH * 401],  # two items of 1,001 between them
        [MATCH * MAX_IMPORT_ITEMS, "junk"],  # a refused item counts as one
    ],
)
def test_the_matches_of_an_import_count_against_its_cap(
    env: Env, monkeypatch: pytest.MonkeyPatch, items: list[str]
) -> None:
    submits = count_submits(monkeypatch)
    response = env.client.post("/v1/matches/import", json=items, headers=bearer(env.secret))
    body = assert_problem(response, 413, "payload_too_large")
    assert "each match of a .mat" in body["detail"]
    assert submits == []


def test_an_import_of_as_many_matches_as_its_cap_is_taken(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    submits = count_submits(monkeypatch)
    items = [MATCH * 3, example(BG_EXAMPLE)]
    response = env.client.post("/v1/matches/import", json=items, headers=bearer(env.secret))
    assert response.status_code == 200, response.get_data(as_text=True)
    results = response.get_json()["results"]
    assert [result["item"] for result in results] == ["0#1", "0#2", "0#3", "1"]
    assert [result["status"] for result in results] == [
        "created",
        "duplicate",
        "duplicate",
        "created",
    ]
    assert len(submits) == 4


def test_the_records_past_the_deadline_are_refused_unread(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env.app.config["WORK_LIMITS"] = replace(env.app.config["WORK_LIMITS"], seconds=0.0)
    submits = count_submits(monkeypatch)
    items = [MATCH * 50, example(BG_EXAMPLE)]
    response = env.client.post("/v1/matches/import", json=items, headers=bearer(env.secret))
    assert response.status_code == 200, response.get_data(as_text=True)
    results = response.get_json()["results"]
    assert len(results) == 51 and submits == []
    assert {result["reason"]["code"] for result in results} == {"work_limit"}
    assert all(result["id"] is None for result in results)
