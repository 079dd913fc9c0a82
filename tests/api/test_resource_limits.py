"""What one client may cost (issue 13): kept replays and re-checks, a busy archive, rate
limits, bodies read whole and in UTF-8, bounded import answers."""

from __future__ import annotations

import http.client
import json
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

import referee.archive.derived
import referee.http.limits
import referee.storage.sqlite.database
from referee import RULES_REVISION
from referee.adjudication.budget import WorkLimits
from referee.api.matches import MAX_IMPORT_ITEMS
from referee.app import create_app
from referee.http.limits import DEFAULT_RATES, Rate, parse_rates
from referee.http.serving import stop_clocks
from referee.storage.sqlite import close_kept
from tests.api.test_matches_api import (
    BG_EXAMPLE,
    Env,
    assert_problem,
    bearer,
    example,
    invalid_galaxy,
    make_env,
)
from tests.server import running, write_token


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(tmp_path / "a.sqlite3")


def tamper(env: Env, match_id: int) -> None:
    """Replace the stored record by text that cannot be read: any recomputation fails."""
    with sqlite3.connect(env.database) as connection:
        connection.execute("UPDATE matches SET original = 'junk' WHERE id = ?", (match_id,))


def kept_keys(env: Env, match_id: int) -> set[str]:
    with sqlite3.connect(env.database) as connection:
        rows = connection.execute(
            "SELECT key FROM derived WHERE match_id = ? AND revision = ?",
            (match_id, RULES_REVISION),
        ).fetchall()
    return {row[0] for row in rows}


def test_a_replay_is_computed_once_for_every_game_and_kept(env: Env) -> None:
    match_id = env.stored(example(BG_EXAMPLE))
    games = env.client.get(f"/v1/matches/{match_id}").get_json()["games"]
    first = env.client.get(f"/v1/matches/{match_id}/games/1/replay")
    assert first.status_code == 200
    assert kept_keys(env, match_id) == {f"replay/{n}" for n in range(1, games + 1)}
    tamper(env, match_id)
    again = env.client.get(f"/v1/matches/{match_id}/games/1/replay")
    assert again.get_json() == first.get_json()
    last = env.client.get(f"/v1/matches/{match_id}/games/{games}/replay")
    assert last.status_code == 200 and last.get_json()["game"] == games


def test_a_new_rules_revision_computes_the_replay_again(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = env.stored(example(BG_EXAMPLE))
    assert env.client.get(f"/v1/matches/{match_id}/games/1/replay").status_code == 200
    tamper(env, match_id)
    monkeypatch.setattr(referee.archive.derived, "RULES_REVISION", RULES_REVISION + 1)
    response = env.client.get(f"/v1/matches/{match_id}/games/1/replay")
    assert_problem(response, 422, "invalid_notation")  # recomputed from the (junk) record


def test_a_game_index_that_is_not_there_is_404_before_any_work(env: Env) -> None:
    match_id = env.stored(example(BG_EXAMPLE))
    games = env.client.get(f"/v1/matches/{match_id}").get_json()["games"]
    tamper(env, match_id)  # any work on the record would fail with 422
    response = env.client.get(f"/v1/matches/{match_id}/games/{games + 1}/replay")
    assert_problem(response, 404, "not_found")
    assert kept_keys(env, match_id) == set()


def test_a_recheck_is_kept_per_mode_and_options(env: Env) -> None:
    match_id = env.stored(example(BG_EXAMPLE))
    path = f"/v1/matches/{match_id}/check"
    strict = env.client.post(path, json={"options": {"jacoby": True}})
    assert strict.status_code == 200
    tamper(env, match_id)
    assert env.client.post(path, json={"options": {"jacoby": True}}).get_json() == (
        strict.get_json()
    )
    other = env.client.post(path, json={"mode": "condone", "options": {"jacoby": True}})
    assert_problem(other, 422, "invalid_notation")  # not kept yet: computed, and fails


def test_a_write_to_a_locked_archive_is_503_with_retry_after(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(referee.storage.sqlite.database, "BUSY_TIMEOUT_SECONDS", 0.1)
    holder = sqlite3.connect(env.database, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        response = env.submit(example(BG_EXAMPLE))
        body = assert_problem(response, 503, "archive_busy")
        assert int(response.headers["Retry-After"]) > 0
        assert "locked" in body["detail"]
        ready = env.client.get("/readyz")  # reads go on while a writer holds the lock
        assert ready.status_code == 200 and ready.get_json()["status"] == "ready"
    finally:
        holder.close()
    assert env.submit(example(BG_EXAMPLE)).status_code == 201


def test_the_database_file_is_created_readable_by_its_owner_only(tmp_path: Path) -> None:
    database = tmp_path / "new.sqlite3"
    create_app({"DATABASE": str(database)})
    assert stat.S_IMODE(database.stat().st_mode) == 0o600


def test_anonymous_costly_requests_are_rate_limited(tmp_path: Path) -> None:
    env = make_env(tmp_path / "a.sqlite3", RATE_LIMITS={"check": Rate(2, 60)})
    record = {"record": example(BG_EXAMPLE)}
    for _ in range(2):
        assert env.client.post("/v1/records/check", json=record).status_code == 200
    response = env.client.post("/v1/records/check", json=record)
    body = assert_problem(response, 429, "rate_limited")
    # Two tokens per 60 s, both taken: the next one comes in 30 s.
    assert body["ratelimit"] == {"key": "check", "seconds": 30}
    assert response.headers["Retry-After"] == "30"
    with_token = env.client.post("/v1/records/check", json=record, headers=bearer(env.secret))
    assert with_token.status_code == 200
    # Other limits have their own buckets: plays are not limited here.
    assert env.client.post("/v1/plays/legal", json={}).status_code == 422


def test_an_import_over_its_item_limit_is_413(env: Env) -> None:
    response = env.client.post(
        "/v1/matches/import", json=[{}] * (MAX_IMPORT_ITEMS + 1), headers=bearer(env.secret)
    )
    assert_problem(response, 413, "payload_too_large")


def test_an_import_answer_does_not_repeat_the_records(env: Env) -> None:
    records = [example(BG_EXAMPLE), invalid_galaxy(), {"record": "x" * 10_000}]
    response = env.client.post("/v1/matches/import", json=records, headers=bearer(env.secret))
    assert response.status_code == 200
    answer = response.get_data(as_text=True)
    assert "x" * 100 not in answer and "13/8" not in answer
    assert len(answer) < 2_000


@pytest.mark.parametrize(
    ("headers", "content_type"),
    [
        ({"Content-Encoding": "gzip"}, "application/json"),
        ({}, "application/json; charset=latin-1"),
        ({}, "text/plain; charset=utf-16"),
    ],
)
def test_bodies_in_other_encodings_are_415(
    env: Env, headers: dict[str, str], content_type: str
) -> None:
    response = env.client.post(
        "/v1/records/check", data=b'{"record": "x"}', content_type=content_type, headers=headers
    )
    assert_problem(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("path", ["/v1/records/check", "/v1/matches"])
def test_a_record_posted_as_a_form_is_told_the_types_a_record_is_sent_as(
    env: Env, path: str
) -> None:
    # curl's --data-binary without -H sends application/x-www-form-urlencoded.
    response = env.client.post(
        path,
        data=example(BG_EXAMPLE).encode(),
        content_type="application/x-www-form-urlencoded",
        headers=bearer(env.secret),
    )
    detail = assert_problem(response, 415, "unsupported_media_type")["detail"]
    assert "text/plain" in detail and "application/json" in detail


def test_a_utf8_charset_is_read(env: Env) -> None:
    response = env.client.post(
        "/v1/records/check",
        data=example(BG_EXAMPLE).encode(),
        content_type="text/plain; charset=UTF-8",
    )
    assert response.status_code == 200


def test_a_query_parameter_never_replaces_the_body(env: Env) -> None:
    response = env.client.post(
        "/v1/records/check?record=junk", data=example(BG_EXAMPLE), content_type="text/plain"
    )
    body = assert_problem(response, 422, "validation_failed")
    assert body["errors"][0]["field"] == "record"


def test_invalid_records_differing_after_their_first_error_are_two_records(env: Env) -> None:
    first = invalid_galaxy()  # game 1 stops at move 3's illegal 13/8 (strict checking)
    # The same first error, and then robacc's reply at move 3 written otherwise: the
    # canonical texts (which stop at the first error) are the same, the records are not.
    later = first.replace("65: 24/18 18/13", "65: 13/7 13/8", 1)
    assert later != first
    stored = env.submit(first, allow_invalid=True).get_json()
    other = env.submit(later, allow_invalid=True).get_json()
    assert other["duplicate"] is False and other["id"] != stored["id"]
    again = env.submit(first, allow_invalid=True).get_json()
    assert (again["duplicate"], again["id"]) == (True, stored["id"])


def test_streams_pass_a_proxy_unbuffered_and_other_answers_do_not(env: Env) -> None:
    stream = env.client.get("/v1/matches", headers={"Accept": "application/x-ndjson"})
    assert stream.headers["X-Accel-Buffering"] == "no"
    page = env.client.get("/v1/matches", headers={"Accept": "application/json"})
    assert "X-Accel-Buffering" not in page.headers


def test_rate_limits_read_from_text() -> None:
    assert parse_rates("off") == {}
    assert parse_rates("check=5/10") == {**DEFAULT_RATES, "check": Rate(5, 10)}
    with pytest.raises(ValueError, match="unknown rate limit"):
        parse_rates("everything=1/1")
    with pytest.raises(ValueError, match="both positive"):
        parse_rates("plays=0/60")
    for wrong in ("abc", "5/inf", "5/nan"):
        with pytest.raises(ValueError, match=f"'requests/seconds', both positive, not '{wrong}'"):
            parse_rates(f"check={wrong}")


def test_a_check_past_the_workers_slots_is_503_with_retry_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(referee.http.limits, "CHECK_WAIT_SECONDS", 0.05)
    env = make_env(tmp_path / "a.sqlite3", CHECKS_AT_ONCE=1)
    slots = env.app.extensions["check_slots"]
    record = {"record": example(BG_EXAMPLE)}
    assert slots.acquire(timeout=1)  # a check in flight takes the worker's one slot
    try:
        response = env.client.post("/v1/records/check", json=record)
        assert_problem(response, 503, "overloaded")
        assert response.headers["Retry-After"] == "5"
        assert env.client.post("/v1/plays/legal", json={}).status_code == 422  # not a check
    finally:
        slots.release()
    assert env.client.post("/v1/records/check", json=record).status_code == 200


def test_the_check_page_shares_the_checks_rate_limit(tmp_path: Path) -> None:
    env = make_env(tmp_path / "a.sqlite3", RATE_LIMITS={"check": Rate(1, 60)})
    form = {"record": example(BG_EXAMPLE)}
    assert env.client.post("/check", data=form).status_code == 200
    response = env.client.post("/check", data=form)
    assert response.status_code == 429
    assert response.mimetype == "text/html"
    assert 59 <= int(response.headers["Retry-After"]) <= 60  # the window's rest, rounded up


def test_a_read_of_an_archive_locked_for_everyone_is_503_too(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another process holds the file exclusively (even readers wait): reads answer 503
    # with Retry-After as writes do, never a 500.
    monkeypatch.setattr(referee.storage.sqlite.database, "BUSY_TIMEOUT_SECONDS", 0.1)
    assert env.submit(example(BG_EXAMPLE)).status_code == 201
    stop_clocks()  # its clock's beat kept a connection (it starts again at a request)
    close_kept()  # an exclusive lock needs every connection closed, kept ones too
    holder = sqlite3.connect(env.database, isolation_level=None)
    try:
        holder.execute("PRAGMA locking_mode=EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("UPDATE matches SET event = event")
        for path in ("/v1/matches", "/v1/matches/1", "/readyz"):
            response = env.client.get(path, headers={"Accept": "application/json"})
            assert_problem(response, 503, "archive_busy")
            assert int(response.headers["Retry-After"]) > 0
    finally:
        holder.close()


def test_a_chunked_body_meets_the_same_size_limits(tmp_path: Path) -> None:
    # Through gunicorn, Transfer-Encoding: chunked (no Content-Length): the bytes received
    # count against the plays limit, and a chunked re-check body is read, not ignored.
    big = b'{"position": "' + b"x" * 70_000 + b'"}'
    database = tmp_path / "a.sqlite3"
    token = write_token(database)
    with running(database, workers=1) as server:
        match_id = server.json("POST", "/v1/matches", {"record": example(BG_EXAMPLE)}, token)["id"]
        host, port = server.base.removeprefix("http://").split(":")

        def chunked(path: str, body: bytes) -> tuple[int, dict[str, Any]]:
            connection = http.client.HTTPConnection(host, int(port), timeout=30)
            try:
                headers = {"Content-Type": "application/json"}
                connection.request("POST", path, iter([body]), headers, encode_chunked=True)
                answer = connection.getresponse()
                return answer.status, json.loads(answer.read())
            finally:
                connection.close()

        status, problem = chunked("/v1/plays/legal", big)
        assert (status, problem["code"]) == (413, "payload_too_large")
        status, verdict = chunked(f"/v1/matches/{match_id}/check", b'{"mode": "condone"}')
        assert (status, verdict["mode"]) == (200, "condone")


def test_a_record_that_is_not_utf8_is_refused_not_altered(env: Env) -> None:
    record = example(BG_EXAMPLE).replace("Alice", "Al\xe9ce").encode("latin-1")
    response = env.client.post(
        "/v1/matches", data=record, content_type="text/plain", headers=bearer(env.secret)
    )
    assert_problem(response, 422, "invalid_encoding")
    checked = env.client.post("/v1/records/check", data=record, content_type="text/plain")
    assert_problem(checked, 422, "invalid_encoding")


def test_readiness_says_no_when_the_archive_is_gone_and_nothing_recreates_it(
    tmp_path: Path,
) -> None:
    database = tmp_path / "a.sqlite3"
    client = create_app({"DATABASE": str(database)}).test_client()
    assert client.get("/readyz").status_code == 200
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    assert_problem(client.get("/readyz"), 503, "not_ready")
    assert not database.exists()  # a request never creates an empty, unmigrated archive


def test_a_refused_replay_is_refused_again_without_the_work(tmp_path: Path) -> None:
    # The example's first game has more than 3 actions: storing (no limit on the command
    # line's side here: the default limits) works, the replay under 3 actions a game is
    # refused, and the refusal is kept: a junk record behind it is never read again.
    env = make_env(tmp_path / "a.sqlite3")
    match_id = env.stored(example(BG_EXAMPLE))
    env.app.config["WORK_LIMITS"] = WorkLimits(actions_per_game=3)
    path = f"/v1/matches/{match_id}/games/1/replay"
    first = assert_problem(env.client.get(path), 413, "work_limit")
    tamper(env, match_id)
    again = assert_problem(env.client.get(path), 413, "work_limit")
    assert (again["limit"], again["detail"]) == (first["limit"], first["detail"])


def test_re_checks_kept_per_match_are_bounded(env: Env) -> None:
    # Anonymous clients choose the options: the archive keeps the most recent 16 only.
    match_id = env.stored(example(BG_EXAMPLE))
    for exponent in range(1, 21):
        options = {"cube_limit": 2**exponent}
        response = env.client.post(f"/v1/matches/{match_id}/check", json={"options": options})
        assert response.status_code == 200
    checks = [key for key in kept_keys(env, match_id) if key.startswith("check/")]
    assert len(checks) == referee.archive.derived.MAX_KEPT_CHECKS == 16
    assert any('"cube_limit": 1048576' in key for key in checks)  # the latest is kept
