"""The formats gnubg imports, through the API: each detected from its content (a corpus
record written in it, tests/records/*_text.py) and checked to the verdict of the
original, stored, and imported with POST /v1/matches/import; a cut or empty record
answered 4xx with where reading stopped, and nothing stored."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from referee.adjudication import check_record
from tests.api.support import archive_at, assert_problem, get_json
from tests.api.test_matches_api import Env, bearer, make_env
from tests.corpus import MAT, require
from tests.players.test_sgf_reading import outcome
from tests.records.oldmoves_text import oldmoves_of
from tests.records.sgg_text import sgg_of
from tests.records.tmg_text import tmg_of


def mat_text() -> str:
    """A record these formats can hold (the API's example starts games at set positions)."""
    return (require(MAT) / "gnubg-export_charlot1-charlot2_7pt_2025-11-08.mat").read_text()


WRITERS: dict[str, Callable[[str], str]] = {"tmg": tmg_of, "oldmoves": oldmoves_of, "sgg": sgg_of}


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(archive_at(tmp_path))


@pytest.mark.parametrize("name", WRITERS)
def test_a_record_is_checked_stored_and_imported(env: Env, name: str) -> None:
    text = WRITERS[name](mat_text())
    expected = outcome(check_record(mat_text()).to_json())
    for answer in (
        env.client.post("/v1/records/check", data=text, content_type="text/plain"),
        env.client.post("/v1/records/check", json={"record": text, "format": name}),
    ):
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert outcome(answer.get_json()) == expected
    created = env.client.post("/v1/matches", json={"record": text}, headers=bearer(env.secret))
    assert created.status_code == 201, created.get_data(as_text=True)
    imported = env.client.post("/v1/matches/import", json=[text], headers=bearer(env.secret))
    assert imported.get_json()["results"][0]["status"] in ("created", "duplicate")


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("tmg", "MatchID: 1\nPlayer1: 1 Bob 1500\n", "not a .tmg match record"),
        ("oldmoves", "alice is X - bob is O\n", "not a FIBS oldmoves record"),
        ("sgg", "bob vs. alice\n", "not an SGG record"),
        ("bgroom", "BGF version 1.0\nGame 1 - a (X)", "not a BGRoom record"),
        ("snowie", "7;0;0;0;0;a;b;0;0;0;1;0;0\n", "40 fields"),
    ],
)
def test_a_cut_record_is_a_4xx_that_says_why_and_stores_nothing(
    env: Env, name: str, text: str, where: str
) -> None:
    checked = env.client.post("/v1/records/check", json={"record": text, "format": name})
    body = assert_problem(checked, 422, "invalid_notation")
    assert where in body["detail"]
    stored = env.client.post(
        "/v1/matches", json={"record": text, "format": name}, headers=bearer(env.secret)
    )
    assert_problem(stored, 422, "invalid_notation")
    assert get_json(env.client, "/v1/matches")["matches"] == []
