"""Records in every format read here through the API, the command line and the check page:
SGF sent as JSON, as text with ?format=, as application/x-go-sgf; bad SGF answered 4xx with
where reading stopped, and nothing stored; several matches of one .mat; the formats
listed; the check page checking an SGF upload and storing it with a token."""

from __future__ import annotations

import json
import subprocess
import sys
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest

from referee.adjudication import check_record
from tests.api.support import archive_at, assert_problem, get_json
from tests.api.test_matches_api import BG_EXAMPLE, Env, bearer, example, make_env
from tests.players.test_sgf_reading import edit_records, exported, outcome

MAT_TEXT = example(BG_EXAMPLE)
SGF_TEXT = exported(MAT_TEXT)
TWO_MATCHES = (
    " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n\n"
    '; [Event "second"]\n\n 1 point match\n\n Game 1\n C : 0   D : 0\n  1) 42: 8/4 6/4\n'
)


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(archive_at(tmp_path))  # type: ignore[arg-type]  # a path or a URL


def test_sgf_is_checked_however_it_is_sent(env: Env) -> None:
    expected = outcome(check_record(MAT_TEXT).to_json())
    answers = [
        env.client.post("/v1/records/check", json={"record": SGF_TEXT}),
        env.client.post("/v1/records/check", json={"record": SGF_TEXT, "format": "sgf"}),
        env.client.post("/v1/records/check?format=sgf", data=SGF_TEXT, content_type="text/plain"),
        env.client.post("/v1/records/check", data=SGF_TEXT, content_type="application/x-go-sgf"),
    ]
    for answer in answers:
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert outcome(answer.get_json()) == expected
    assert len({json.dumps(answer.get_json()) for answer in answers}) == 1


def test_a_format_named_wrongly_or_not_at_all(env: Env) -> None:
    named_mat = env.client.post("/v1/records/check", json={"record": SGF_TEXT, "format": "mat"})
    assert_problem(named_mat, 422, "invalid_notation")
    unknown = env.client.post("/v1/records/check", json={"record": SGF_TEXT, "format": "zz"})
    assert_problem(unknown, 422, "validation_failed")
    binary = env.client.post("/v1/records/check", json={"record": SGF_TEXT, "format": "xg"})
    assert "send its bytes" in assert_problem(binary, 422, "invalid_notation")["detail"]
    text = env.client.post("/v1/records/check", json={"record": "hello there"})
    assert_problem(text, 422, "invalid_notation")  # read as a .mat, which says why not
    nothing = env.client.post("/v1/records/check", json={"record": "\x00\x07 binary"})
    body = assert_problem(nothing, 422, "unknown_format")
    assert (
        "sgf (a game tree starting '(;')" in body["detail"] and "mat (an 'N point" in body["detail"]
    )


@pytest.mark.parametrize(
    ("text", "status", "code", "where"),
    [
        ("(;FF[4]GM[6]\n;W[31hefe]\n;B[42", 422, "invalid_notation", "line 3, column 3"),
        ("(;FF[4]GM[6]\n;W[31hefe]", 422, "invalid_notation", "line 1, column 1"),
        ("(;FF[4]GM[6]" + ";" * 1_000_000 + ")", 413, "work_limit", None),
    ],
)
def test_bad_sgf_is_a_4xx_that_says_where_and_stores_nothing(
    env: Env, text: str, status: int, code: str, where: str | None
) -> None:
    checked = env.client.post("/v1/records/check", json={"record": text})
    body = assert_problem(checked, status, code)
    if where is not None:
        assert where in body["detail"]
    stored = env.client.post("/v1/matches", json={"record": text}, headers=bearer(env.secret))
    assert_problem(stored, status, code)
    imported = env.client.post("/v1/matches/import", json=[text], headers=bearer(env.secret))
    assert imported.status_code == 200
    assert imported.get_json()["results"][0]["reason"]["code"] == code
    assert get_json(env.client, "/v1/matches")["matches"] == []


def test_stored_sgf_is_exported_in_both_formats(env: Env) -> None:
    created = env.client.post(
        "/v1/matches",
        data=SGF_TEXT,
        content_type="application/x-go-sgf",
        headers=bearer(env.secret),
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    match_id = created.get_json()["id"]
    original = env.client.get(f"/v1/matches/{match_id}?format=original").get_data(as_text=True)
    assert original == SGF_TEXT  # kept as received
    mat = env.client.get(f"/v1/matches/{match_id}?format=mat").get_data(as_text=True)
    assert mat == env.client.get(f"/v1/matches/{match_id}?format=canonical").get_data(as_text=True)
    assert outcome(check_record(mat).to_json()) == outcome(check_record(MAT_TEXT).to_json())
    sgf = env.client.get(f"/v1/matches/{match_id}?format=sgf")
    assert sgf.mimetype == "application/x-go-sgf" and sgf.get_data(as_text=True).startswith("(;FF")
    # Its SGF export sent again is the same canonical record: a duplicate.
    again = env.client.post(
        "/v1/matches", json={"record": sgf.get_data(as_text=True)}, headers=bearer(env.secret)
    )
    assert again.status_code == 200 and again.get_json()["duplicate"]


def test_a_stored_record_with_a_board_edit_is_exported_to_sgf(env: Env) -> None:
    text = edit_records()["edit_both_play_b"]
    created = env.client.post("/v1/matches", json={"record": text}, headers=bearer(env.secret))
    assert created.status_code == 201, created.get_data(as_text=True)
    sgf = env.client.get(f"/v1/matches/{created.get_json()['id']}?format=sgf")
    assert sgf.status_code == 200  # before: 422 "game 1 edits the board"
    assert ";PL[B]DI[52]\n;PL[W]AE[a:y]" in sgf.get_data(as_text=True)


def test_several_matches_of_one_mat(env: Env) -> None:
    checked = env.client.post("/v1/records/check", json={"record": TWO_MATCHES}).get_json()
    assert checked["match"]["players"] == ["A", "B"]
    assert [w["code"] for w in checked["warnings"]] == ["several_matches"]
    files = {
        "files": [
            (BytesIO(TWO_MATCHES.encode()), "two.mat"),
            (BytesIO(SGF_TEXT.encode()), "one.sgf"),
        ]
    }
    imported = env.client.post(
        "/v1/matches/import",
        data=files,
        content_type="multipart/form-data",
        headers=bearer(env.secret),
    )
    results = imported.get_json()["results"]
    assert [(r["item"], r["status"]) for r in results] == [
        ("two.mat#1", "created"),
        ("two.mat#2", "created"),
        ("one.sgf", "created"),
    ]
    players = {tuple(m["players"]) for m in get_json(env.client, "/v1/matches")["matches"]}
    assert players == {("A", "B"), ("C", "D"), ("Alice", "Bob")}


def test_the_formats_are_listed(env: Env) -> None:
    listed = get_json(env.client, "/v1/records/formats")
    assert [f["name"] for f in listed["read"]] == [
        *("xg", "sgf", "mat", "tmg", "oldmoves", "bgroom", "gam", "sgg", "party", "snowie")
    ]
    assert [f["name"] for f in listed["read"] if f["binary"]] == ["xg"]
    assert "application/x-go-sgf" in listed["read"][1]["media_types"]
    assert listed["export"] == ["mat", "sgf"]


def run_check(*arguments: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "referee.cli", "check", *arguments]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)


def test_the_command_checks_every_format_and_every_match(tmp_path: Path) -> None:
    (tmp_path / "match.sgf").write_text(SGF_TEXT)
    (tmp_path / "two.mat").write_text(TWO_MATCHES)
    done = run_check("--json", str(tmp_path))
    assert done.returncode == 0, done.stderr
    files = [json.loads(line)["file"] for line in done.stdout.splitlines()]
    assert [Path(f).name for f in files] == ["match.sgf", "two.mat#1", "two.mat#2"]
    forced = run_check("--format", "mat", str(tmp_path / "match.sgf"))
    assert forced.returncode == 2 and "unknown_format" not in forced.stderr
    assert "invalid_notation" in forced.stderr


def test_the_check_page_takes_sgf_and_stores_it_with_a_token(env: Env) -> None:
    upload: dict[str, Any] = {"file": (BytesIO(SGF_TEXT.encode()), "match.sgf")}
    page = env.client.post("/check", data=upload, content_type="multipart/form-data")
    assert page.status_code == 200 and "Verdict: Alice" in page.get_data(as_text=True)
    refused = env.client.post("/check", data={"record": SGF_TEXT, "store": "1", "token": "nope"})
    assert refused.status_code == 401
    assert get_json(env.client, "/v1/matches")["matches"] == []
    form = {"record": SGF_TEXT, "store": "1", "token": env.secret, "format": "sgf"}
    stored = env.client.post("/check", data=form)
    html = stored.get_data(as_text=True)
    assert stored.status_code == 200 and "Stored in the archive" in html
    [match] = get_json(env.client, "/v1/matches")["matches"]
    assert f'href="/matches/{match["id"]}"' in html
    again = env.client.post("/check", data=form).get_data(as_text=True)
    assert "Already in the archive" in again
