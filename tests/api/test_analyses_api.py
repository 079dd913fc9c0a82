"""The analyses endpoints (ANALYSIS.md §2): who may queue one, what is refused before
anything is queued (each a problem with its code, nothing stored), one analysis per match
and settings, a token's bounded queue (503 overloaded with Retry-After), the reads; and,
with Debian's gnubg, an analysis made by a worker that reads back through the API with
each player's figures as gnubg's own ``show statistics match`` of the original file."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

import referee.archive.analyses
from referee.analysis import Settings, analyse_nardy
from referee.analysis.result import AnalysisJobSchema
from referee.app import create_app
from referee.archive.analysis_worker import Worker
from referee.shapes import schema_of
from tests.analysis.by_hand import by_hand_once, corpus, differences, names
from tests.api.support import archive_at, assert_problem
from tests.players.gnubg import require_gnubg
from tests.server import write_token

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BACKGAMMON = EXAMPLES / "backgammon_match.mat"


@dataclass
class Env:
    database: str
    client: FlaskClient
    tokens: dict[str, str]

    def store(self, text: str, allow_invalid: bool = False) -> int:
        response = self.client.post(
            "/v1/matches",
            json={"record": text, "allow_invalid": allow_invalid},
            headers=self.bearer("writer"),
        )
        assert response.status_code in (200, 201), response.get_json()
        return int(response.get_json()["id"])

    def bearer(self, name: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[name]}"}

    def queue(self, match_id: int, settings: Any = None, token: str = "runner") -> Any:
        return self.client.post(
            f"/v1/matches/{match_id}/analyses", json=settings, headers=self.bearer(token)
        )

    def analyses(self, match_id: int) -> list[dict[str, Any]]:
        response = self.client.get(f"/v1/matches/{match_id}/analyses")
        assert response.status_code == 200, response.get_json()
        found: list[dict[str, Any]] = response.get_json()["analyses"]
        return found


@pytest.fixture
def env(tmp_path: Path) -> Env:
    database = archive_at(tmp_path)
    where: Any = database
    tokens = {
        "writer": write_token(where, "writer", "archive:write"),
        "runner": write_token(where, "runner", "analysis:run"),
        "other": write_token(where, "other", "analysis:run"),
        "reader": write_token(where, "reader", "archive:read"),
        "bot": write_token(where, "bot", "play"),
        "admin": write_token(where, "admin", "archive:admin"),
    }
    return Env(database, create_app({"DATABASE": database}).test_client(), tokens)


def shaped(body: dict[str, Any]) -> dict[str, Any]:
    """``body``, checked against the shape openapi.yaml documents."""
    assert schema_of(AnalysisJobSchema)().validate(body) == {}, body
    return body


def test_queueing_needs_a_token_with_analysis_run_or_archive_write(env: Env) -> None:
    match_id = env.store(BACKGAMMON.read_text())
    path = f"/v1/matches/{match_id}/analyses"
    assert_problem(env.client.post(path, json={}), 401, "unauthorized")
    for name in ("reader", "bot", "admin"):
        assert_problem(env.queue(match_id, token=name), 403, "forbidden")
    assert env.analyses(match_id) == []
    assert env.queue(match_id, token="writer").status_code == 202


def test_an_analysis_is_queued_once_per_match_and_settings(env: Env) -> None:
    match_id = env.store(BACKGAMMON.read_text())
    first = env.client.post(
        f"/v1/matches/{match_id}/analyses", headers=env.bearer("runner")
    )  # no body: the default settings
    assert first.status_code == 202
    made = shaped(first.get_json())
    assert first.headers["Location"] == f"/v1/analyses/{made['id']}"
    assert made["match_id"] == match_id and made["status"] == "queued"
    assert made["settings"] == {"chequer_plies": 2, "cube_plies": 2}
    assert (made["engine"], made["players"], made["games"], made["problem"]) == (None,) * 4
    again = env.queue(match_id, {"cube_plies": 2}, token="other")
    assert again.status_code == 200 and again.get_json() == made
    other = env.queue(match_id, {"chequer_plies": 0, "cube_plies": 1})
    assert other.status_code == 202
    assert other.get_json()["settings"] == {"chequer_plies": 0, "cube_plies": 1}
    assert [found["id"] for found in env.analyses(match_id)] == [
        other.get_json()["id"],
        made["id"],
    ]
    read = env.client.get(f"/v1/analyses/{made['id']}")
    assert read.status_code == 200 and read.get_json() == made


@pytest.mark.parametrize(
    "settings",
    [{"chequer_plies": 4}, {"cube_plies": -1}, {"chequer_plies": True}, {"plies": 2}],
)
def test_settings_out_of_range_are_refused_before_anything_is_queued(
    env: Env, settings: dict[str, Any]
) -> None:
    match_id = env.store(BACKGAMMON.read_text())
    assert_problem(env.queue(match_id, settings), 422, "invalid_settings")
    assert env.analyses(match_id) == []


@pytest.mark.parametrize("name", ["long_nardy_match.mat", "khachapuri_match.mat"])
def test_a_nardy_match_is_analysed_by_the_projects_own_engine(env: Env, name: str) -> None:
    """Queued as any other; a worker judges it with the builtin engine (no gnubg run: the
    worker's gnubg is not even there), the figures those of the engine's own analysis of
    the stored record."""
    text = (EXAMPLES / name).read_text()
    match_id = env.store(text)
    answer = env.queue(match_id, {"chequer_plies": 1, "cube_plies": 0})
    assert answer.status_code == 202, answer.get_json()
    worker = Worker(env.database, "/nonexistent/gnubg")
    assert worker.run(threading.Event(), until_idle=True) == 1
    done = shaped(env.client.get(f"/v1/analyses/{answer.get_json()['id']}").get_json())
    assert (done["status"], done["problem"]) == ("done", None)
    assert done["engine"]["name"] == "nardy-referee"
    direct = analyse_nardy(text, Settings(1, 0)).to_json()
    assert (done["players"], done["games"], done["names"]) == (
        direct["players"], direct["games"], direct["names"],
    )  # fmt: skip
    assert done["players"]["w"]["cube"] is None


def test_a_record_with_errors_or_past_gnubgs_tables_is_refused(env: Env) -> None:
    text = BACKGAMMON.read_text()
    broken = env.store(text.replace("31: 8/5 6/5", "31: 8/4 6/5", 1), allow_invalid=True)
    assert_problem(env.queue(broken), 422, "invalid_record")
    longer = env.store(text.replace(" 5 point match", " 99 point match"))
    body = assert_problem(env.queue(longer), 422, "engine_failed")
    assert "64 points" in body["detail"]
    assert env.analyses(broken) == env.analyses(longer) == []


def test_no_such_match_or_analysis_and_a_withdrawn_match(env: Env) -> None:
    assert_problem(env.queue(9999), 404, "not_found")
    assert_problem(env.client.get("/v1/matches/9999/analyses"), 404, "not_found")
    assert_problem(env.client.get("/v1/analyses/9999"), 404, "not_found")
    assert_problem(env.client.get(f"/v1/analyses/{2**70}"), 404)
    match_id = env.store(BACKGAMMON.read_text())
    analysis_id = env.queue(match_id).get_json()["id"]
    withdrawn = env.client.delete(
        f"/v1/matches/{match_id}", json={"reason": "wrong names"}, headers=env.bearer("admin")
    )
    assert withdrawn.status_code == 200
    for response in (
        env.queue(match_id, {"chequer_plies": 0}),
        env.client.get(f"/v1/matches/{match_id}/analyses"),
        env.client.get(f"/v1/analyses/{analysis_id}"),
    ):
        assert_problem(response, 410, "withdrawn")


def test_a_full_queue_is_503_overloaded_and_nothing_is_stored(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(referee.archive.analyses, "MOST_WAITING", 2)
    match_id = env.store(BACKGAMMON.read_text())
    for plies in (0, 1):
        assert env.queue(match_id, {"chequer_plies": plies}).status_code == 202
    response = env.queue(match_id, {"chequer_plies": 3})
    body = assert_problem(response, 503, "overloaded")
    assert response.headers["Retry-After"] == "60"
    assert "2 analyses queued or running" in body["detail"]
    assert len(env.analyses(match_id)) == 2
    assert env.queue(match_id, {"chequer_plies": 0}).status_code == 200  # there already
    assert env.queue(match_id, {"chequer_plies": 3}, token="other").status_code == 202


def test_private_reads_need_a_token(env: Env) -> None:
    match_id = env.store(BACKGAMMON.read_text())
    analysis_id = env.queue(match_id).get_json()["id"]
    private = create_app({"DATABASE": env.database, "PRIVATE": True}).test_client()
    for path in (f"/v1/matches/{match_id}/analyses", f"/v1/analyses/{analysis_id}"):
        assert_problem(private.get(path), 401, "unauthorized")
        assert private.get(path, headers=env.bearer("reader")).status_code == 200


def test_a_worker_makes_what_gnubg_prints_for_every_original_of_the_corpus(
    env: Env, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every corpus record stored and queued through the API at 0-ply, made by one worker;
    each read back through the API has each player's figures as gnubg's own ``show
    statistics match`` of the original file (gnubg by hand beside the worker)."""
    program = require_gnubg()
    files = corpus()
    monkeypatch.setattr(referee.archive.analyses, "MOST_WAITING", len(files))
    queued = {}
    for path in files:
        match_id = env.store(path.read_text())
        answer = env.queue(match_id, {"chequer_plies": 0, "cube_plies": 0})
        assert answer.status_code == 202, (path.name, answer.get_json())
        queued[path] = (match_id, answer.get_json()["id"])
    with ThreadPoolExecutor(1) as pool:
        hand = pool.submit(by_hand_once, tmp_path_factory)
        assert Worker(env.database, program).run(threading.Event(), until_idle=True) == len(files)
        blocks = hand.result()
    problems = {}
    for path, block in zip(files, blocks, strict=True):
        match_id, analysis_id = queued[path]
        done = shaped(env.client.get(f"/v1/analyses/{analysis_id}").get_json())
        assert (done["status"], done["attempts"], done["problem"]) == ("done", 1, None)
        assert done["engine"]["name"] == "gnubg" and done["finished_at"]
        assert (done["names"]["w"], done["names"]["b"]) == names(block), path.name
        for column, side in enumerate("wb"):
            found = differences(done["players"][side], block, column)
            if found:
                problems[f"{path.stem} {side}"] = found
        stored = env.client.get(f"/v1/matches/{match_id}").get_json()
        assert len(done["games"]) == stored["games"]
        assert env.analyses(match_id) == [done]
    assert len(files) >= 44 and problems == {}
