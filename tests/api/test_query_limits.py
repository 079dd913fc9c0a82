"""Every query parameter of openapi.yaml has a documented maximum length, and a request with
every parameter of its operation at that maximum fits gunicorn's request line (issue 18).

The worst case is counted from the contract alone: a string at its ``maxLength`` of
characters that UTF-8 writes in four bytes, each percent-encoded (12 bytes a character), an
enum at its longest value, an integer at its longest bound, a boolean as ``false``, a date
as ``YYYY-MM-DD``, a ``pattern`` at the longest text it matches. The request line is the
method, the path (path parameters as ``1``), ``?``, the query and `` HTTP/1.1``; its limit is
the shipped ``gunicorn.conf.py``'s ``limit_request_line``. ``tests/reliability/
test_gunicorn_answers.py`` sends these requests to a real gunicorn.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text())
LIMIT_REQUEST_LINE: int = runpy.run_path(str(ROOT / "gunicorn.conf.py"))["limit_request_line"]
WIDEST = "\U0001f600"
"""A character UTF-8 writes in four bytes: 12 bytes percent-encoded."""


def longest_value(schema: dict[str, Any]) -> str | None:
    """The longest value, as text, that ``schema`` documents (None: no documented bound)."""
    if "enum" in schema:
        return max((str(value) for value in schema["enum"]), key=len)
    kind = schema.get("type")
    if kind == "boolean":
        return "false"
    if kind == "integer":
        bounds = [schema.get("minimum"), schema.get("maximum")]
        if None in bounds:
            return None
        return max((str(bound) for bound in bounds), key=len)
    if kind == "string":
        if schema.get("format") == "date":
            return "2024-12-31"
        if "maxLength" in schema:
            return WIDEST * schema["maxLength"]
        if "pattern" in schema:
            width = re._parser.parse(schema["pattern"]).getwidth()[1]  # type: ignore[attr-defined]
            return None if width >= re._constants.MAXREPEAT else WIDEST * width  # type: ignore[attr-defined]
    return None


def query_operations() -> list[tuple[str, str, list[dict[str, Any]]]]:
    """(method, path, query parameters) of every operation with a query string."""
    found = []
    for path, item in SPEC["paths"].items():
        for method, operation in item.items():
            query = [p for p in operation.get("parameters", []) if p["in"] == "query"]
            if query:
                found.append((method, path, query))
    return found


def worst_request(method: str, path: str, query: list[dict[str, Any]]) -> str:
    """The request target (path and query) with every query parameter at its documented
    maximum; AssertionError naming a parameter that has none."""
    parts = []
    for parameter in query:
        value = longest_value(parameter["schema"])
        assert value is not None, f"{method} {path}: {parameter['name']} has no documented maximum"
        parts.append(f"{quote(parameter['name'], safe='')}={quote(value, safe='')}")
    return re.sub(r"\{[^}]+\}", "1", path) + "?" + "&".join(parts)


def operation_params() -> list[Any]:
    return [
        pytest.param(method, path, query, id=f"{method} {path}")
        for method, path, query in query_operations()
    ]


def test_these_operations_take_query_strings() -> None:
    """The operations below are those of the contract that read a query string."""
    assert {(method, path) for method, path, _ in query_operations()} == {
        ("get", "/v1/positions/svg"),
        ("get", "/v1/matches"),
        ("get", "/v1/matches/{match_id}"),
        ("post", "/v1/matches"),
        ("post", "/v1/records/check"),
        ("get", "/v1/events"),
        ("post", "/v1/events/{event_id}/rounds/{number}/pairings/{table}/record"),
        ("get", "/v1/ratings"),
        ("get", "/v1/ratings/{name}"),
    }


@pytest.mark.parametrize(("method", "path", "query"), operation_params())
def test_every_parameter_at_its_maximum_fits_the_request_line(
    method: str, path: str, query: list[dict[str, Any]]
) -> None:
    line = f"{method.upper()} {worst_request(method, path, query)} HTTP/1.1"
    assert len(line.encode("ascii")) <= LIMIT_REQUEST_LINE


def test_the_board_documents_a_position_maximum_every_position_string_fits() -> None:
    """The board's ``position`` and ``before`` maxima hold every position string written with
    single spaces: the longest variant alias, three characters in every cell, two-digit bar
    and off counts, five-digit cube and match fields, both flags."""
    longest = " ".join(
        [
            "khachapuri-nardy",
            ",".join(["15w"] * 24),
            "w15b15",
            "w15b15",
            "w",
            "end",
            "99999c",
            "99999:99999-99999",
            "cp",
        ]
    )
    [board] = [query for method, path, query in query_operations() if path.endswith("/svg")]
    maxima = {p["name"]: p["schema"].get("maxLength") for p in board}
    assert maxima["position"] == maxima["before"] >= len(longest)


def test_gunicorn_reads_no_longer_line_than_its_maximum() -> None:
    """0 would mean unlimited: one client could make a worker buffer any length of line."""
    assert 0 < LIMIT_REQUEST_LINE <= 8190
