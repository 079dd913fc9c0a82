"""No HTML answer, through real gunicorn with the shipped config (issue 18).

* Every operation with a query string, with every query parameter at its documented maximum
  (the worst case of ``tests/api/test_query_limits.py``: characters of four UTF-8 bytes,
  percent-encoded), is answered by the app: a problem whose ``instance`` is the path, or
  the operation's own answer; never gunicorn's 414.
* What gunicorn refuses before the app sees it (a request line past ``limit_request_line``,
  a header past its limits, a line that is not HTTP) is problem+json too.
* A bounded schemathesis run over openapi.yaml (``GUNICORN_EXAMPLES`` examples an
  operation, 20 by default: well under a minute) finds no HTML answer, every error
  problem+json, and the answers conforming to the contract.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
)

from tests.api.aborted_live import aborted_live_match
from tests.api.test_query_limits import LIMIT_REQUEST_LINE, operation_params, worst_request
from tests.server import Server, start, stop

ROOT = Path(__file__).resolve().parents[2]
PROBLEM_JSON = "application/problem+json"
EXAMPLES = int(os.environ.get("GUNICORN_EXAMPLES", "20"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """gunicorn (gunicorn.conf.py) on an archive holding an aborted live match 1, so that
    its stream ends at once whatever schemathesis asks."""
    database = tmp_path_factory.mktemp("gunicorn-answers") / "archive.sqlite3"
    aborted_live_match(database)
    served = start(database)
    try:
        yield served
    finally:
        stop(served)


def exchange(server: Server, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of one raw HTTP/1.1 request (``data``, up to its head's
    end); the connection is closed after it."""
    host, port = server.base.rsplit("//", 1)[1].split(":")
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(data)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, body


def request_line(method: str, target: str) -> bytes:
    line = f"{method.upper()} {target} HTTP/1.1\r\n".encode("ascii")
    return line + b"Host: localhost\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


def problem(status: int, headers: dict[str, str], body: bytes) -> dict[str, Any]:
    assert headers.get("content-type") == PROBLEM_JSON, (status, headers, body[:300])
    answer: dict[str, Any] = json.loads(body)
    assert answer["status"] == status
    assert answer["type"] == "/problems/" + answer["code"].replace("_", "-")
    assert {"title", "detail"} <= answer.keys()
    return answer


@pytest.mark.parametrize(("method", "path", "query"), operation_params())
def test_every_query_parameter_at_its_maximum_is_answered_by_the_app(
    server: Server, method: str, path: str, query: list[dict[str, Any]]
) -> None:
    target = worst_request(method, path, query)
    assert len(request_line(method, target).split(b"\r\n")[0]) <= LIMIT_REQUEST_LINE
    status, headers, body = exchange(server, request_line(method, target))
    assert status != 414 and "html" not in headers.get("content-type", ""), body[:300]
    if status >= 400:
        assert problem(status, headers, body)["instance"] == target.partition("?")[0]


def test_a_request_line_past_the_limit_is_a_414_problem(server: Server) -> None:
    target = "/v1/positions/svg?position=" + "x" * LIMIT_REQUEST_LINE
    answer = problem(*exchange(server, request_line("get", target)))
    assert (answer["status"], answer["code"]) == (414, "uri_too_long")
    assert "x" * 100 not in answer["detail"]


def test_headers_past_their_limit_are_a_431_problem(server: Server) -> None:
    head = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Large: " + b"y" * 9000
    answer = problem(*exchange(server, head + b"\r\nConnection: close\r\n\r\n"))
    assert (answer["status"], answer["code"]) == (431, "request_header_fields_too_large")


def test_a_line_that_is_not_http_is_a_400_problem_that_repeats_little_of_it(
    server: Server,
) -> None:
    answer = problem(*exchange(server, b"G\x01T /" + b"z" * 5000 + b" HTTP/1.1\r\n\r\n"))
    assert (answer["status"], answer["code"]) == (400, "bad_request")
    assert len(answer["detail"]) <= 501


def no_html_and_errors_as_problems(
    ctx: schemathesis.CheckContext, response: schemathesis.Response, case: schemathesis.Case
) -> None:
    """No answer is an HTML page; every 4xx and 5xx is problem+json. (Flask answers the
    OPTIONS probes with an empty body labelled text/html: no page.)"""
    kinds = [
        values[0] for name, values in response.headers.items() if name.lower() == "content-type"
    ]
    kind = kinds[0] if kinds else ""
    if "html" in kind and response.content:
        raise AssertionError(f"an HTML answer ({response.status_code}): {response.text[:200]}")
    if response.status_code >= 400 and kind.split(";")[0] != PROBLEM_JSON:
        raise AssertionError(f"a {response.status_code} as {kind!r}: {response.text[:200]}")


SCHEMA = schemathesis.openapi.from_path(str(ROOT / "openapi.yaml"))
"""The contract as checked in, which /openapi.yaml serves as it is (tests/api/test_openapi.py)."""


@SCHEMA.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_gunicorn_gives_no_html_answer(server: Server, case: schemathesis.Case) -> None:
    excluded = [positive_data_acceptance, negative_data_rejection]
    if case.path == "/openapi.yaml":
        # Over HTTP schemathesis reads the YAML document into data, which is then no
        # ``string``; the in-process run (tests/api/test_schemathesis.py) checks its schema.
        excluded.append(response_schema_conformance)
    case.call_and_validate(
        base_url=server.base,
        timeout=30,
        additional_checks=[no_html_and_errors_as_problems],
        excluded_checks=excluded,
    )
