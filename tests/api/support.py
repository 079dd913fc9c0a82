"""What the API tests share: problem+json assertions and reading JSON answers."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

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
