"""What the API tests share: problem+json assertions, reading JSON answers, and where an
app fixture's archive is (``archive_at``: SQLite, or PostgreSQL under
``NARDY_REFEREE_TEST_BACKEND=postgresql``, as ``make test`` runs the suite a second time)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

BACKEND = os.environ.get("NARDY_REFEREE_TEST_BACKEND", "sqlite")
"""The backend the app fixtures' archives are on: ``sqlite`` or ``postgresql``."""


def archive_at(folder: Path, name: str = "archive.sqlite3") -> str:
    """Where an app fixture's new archive is: a file in ``folder``, or a new database with
    an empty archive on the tests' PostgreSQL server (``tests/storage/postgresql.py``'s
    ``Server.archive``; the test skips without one, and fails under
    ``REQUIRE_POSTGRESQL=1``). Tests of what only SQLite does (its file,
    its locks) keep a file in their folder instead."""
    if BACKEND == "sqlite":
        return str(folder / name)
    if BACKEND != "postgresql":
        raise ValueError(f"NARDY_REFEREE_TEST_BACKEND={BACKEND!r}: sqlite or postgresql")
    from tests.storage.postgresql import REQUIRED, UNAVAILABLE, server

    found = server()
    if found is None:
        if REQUIRED:
            pytest.fail(f"REQUIRE_POSTGRESQL=1: {UNAVAILABLE}", pytrace=False)
        pytest.skip(str(UNAVAILABLE), allow_module_level=True)
    return found.archive()


PROBLEM_JSON = "application/problem+json"
PROBLEM_KEYS = {"type", "title", "status", "detail", "instance", "code"}
JSON_ACCEPT = {"Accept": "application/json"}


def assert_problem(response: TestResponse, status: int, code: str | None = None) -> Any:
    """An RFC 9457 problem (with the stable ``code`` slug, when given)."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM_JSON
    body = response.get_json()
    assert body.keys() >= PROBLEM_KEYS
    assert body["status"] == status
    if code is not None:
        assert body["code"] == code
    assert isinstance(body["code"], str) and body["code"]
    return body


def problem_fields(body: dict[str, Any]) -> set[str]:
    return {error["field"] for error in body.get("errors", [])}


def assert_names_field(response: TestResponse, field: str) -> None:
    body = assert_problem(response, 422)
    assert field in problem_fields(body) or field in body["detail"], body


def assert_no_secret(response: TestResponse, secret: str) -> None:
    assert secret not in response.get_data(as_text=True)
    for name, value in response.headers.items():
        assert secret not in value, name


def get_json(client: FlaskClient, path: str, **kwargs: Any) -> Any:
    response = client.get(path, headers=JSON_ACCEPT, **kwargs)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    return response.get_json()
