"""eXtreme Gammon's ``.xg`` through the API and the command line: a corpus match written as
``.xg`` (tests/records/xg_bytes.py) sent as its bytes, in JSON as base64 and as an uploaded
file, checked to the verdict of the ``.mat`` it came from and stored as that ``.mat``
text; a cut or inflating file answered 4xx naming where reading stopped, nothing stored."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import pytest

from referee.adjudication import check_record
from referee.cli import main
from tests.api.support import archive_at, assert_problem, get_json
from tests.api.test_matches_api import Env, bearer, make_env
from tests.players.test_sgf_reading import outcome
from tests.records.test_imported_formats_api import mat_text
from tests.records.xg_bytes import xg_of


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(archive_at(tmp_path))


@pytest.fixture(scope="module")
def xg() -> bytes:
    return xg_of(mat_text())


def test_an_xg_is_checked_as_bytes_as_base64_and_when_named(env: Env, xg: bytes) -> None:
    expected = outcome(check_record(mat_text()).to_json())
    encoded = base64.b64encode(xg).decode()
    for answer in (
        env.client.post("/v1/records/check", data=xg, content_type="application/octet-stream"),
        env.client.post("/v1/records/check", data=xg, content_type="application/x-xg"),
        env.client.post("/v1/records/check?format=xg", data=xg, content_type="text/plain"),
        env.client.post("/v1/records/check", json={"record_base64": encoded}),
        env.client.post("/v1/records/check", json={"record_base64": encoded, "format": "xg"}),
    ):
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert outcome(answer.get_json()) == expected


def test_an_xg_is_stored_as_the_mat_text_it_holds_and_imported(env: Env, xg: bytes) -> None:
    created = env.client.post(
        "/v1/matches", data=xg, content_type="application/octet-stream", headers=bearer(env.secret)
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    stored = env.client.get(created.headers["Location"], headers={"Accept": "text/plain"})
    assert stored.get_data(as_text=True).startswith('; [Site "eXtreme Gammon"]')
    again = env.client.post(
        "/v1/matches/import",
        json=[{"record_base64": base64.b64encode(xg).decode()}],
        headers=bearer(env.secret),
    )
    assert again.get_json()["results"][0]["status"] == "duplicate"
    uploaded = env.client.post(
        "/v1/matches/import",
        data={"files": [(io.BytesIO(xg), "match.xg"), (io.BytesIO(xg[:-40]), "cut.xg")]},
        content_type="multipart/form-data",
        headers=bearer(env.secret),
    )
    whole, cut = uploaded.get_json()["results"]
    assert (whole["item"], whole["status"]) == ("match.xg", "duplicate")
    assert (cut["item"], cut["status"], cut["reason"]["code"]) == (
        "cut.xg",
        "refused",
        "invalid_notation",
    )
    assert "not a readable .xg file" in cut["reason"]["detail"]


@pytest.mark.parametrize(
    ("cut", "where"),
    [
        (lambda data: data[:5000], "its header alone 8,232"),
        (lambda data: data[:-40], "does not fit the file"),
        (lambda data: data[:-500] + bytes([data[-500] ^ 1]) + data[-499:], "fails its CRC-32"),
    ],
)
def test_a_cut_xg_is_a_4xx_naming_where_it_stopped_and_stores_nothing(
    env: Env, xg: bytes, cut: object, where: str
) -> None:
    assert callable(cut)
    data = cut(xg)
    checked = env.client.post("/v1/records/check?format=xg", data=data, content_type="text/plain")
    assert where in assert_problem(checked, 422, "invalid_notation")["detail"]
    stored = env.client.post(
        "/v1/matches", data=data, content_type="application/x-xg", headers=bearer(env.secret)
    )
    assert where in assert_problem(stored, 422, "invalid_notation")["detail"]
    assert get_json(env.client, "/v1/matches")["matches"] == []


def test_bad_base64_is_a_validation_error(env: Env) -> None:
    answer = env.client.post("/v1/records/check", json={"record_base64": "no base64!"})
    body = assert_problem(answer, 422, "validation_failed")
    assert "record_base64" in json.dumps(body)


def test_the_command_line_checks_an_xg_file(
    tmp_path: Path, xg: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "match.xg").write_bytes(xg)
    (tmp_path / "cut.xg").write_bytes(xg[:-40])
    assert main(["check", "--json", str(tmp_path / "match.xg")]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert outcome(verdict) == outcome(check_record(mat_text()).to_json())
    assert main(["check", str(tmp_path / "cut.xg")]) == 2
    assert "not a readable .xg file" in capsys.readouterr().err


def test_the_check_page_takes_an_uploaded_xg(env: Env, xg: bytes) -> None:
    for name in ("match.xg", "match.bin"):  # the suffix, else the content, says it is one
        data = {"file": (io.BytesIO(xg), name), "mode": "strict"}
        page = env.client.post("/check", data=data, content_type="multipart/form-data")
        assert page.status_code == 200, page.get_data(as_text=True)[:2000]
        players = check_record(mat_text()).to_json()["match"]["players"]
        assert all(player in page.get_data(as_text=True) for player in players)
    data = {"file": (io.BytesIO(xg[:-40]), "cut.xg"), "mode": "strict"}
    cut = env.client.post("/check", data=data, content_type="multipart/form-data")
    assert cut.status_code == 422
    assert "not a readable .xg file" in cut.get_data(as_text=True)
