"""The shipped balancer's own answers (issue 33): HAProxy running deploy/haproxy.cfg answers
its 502 (an instance went away mid-request), 504 (an instance too slow) and 503 (no
instance ready) as problem+json with Retry-After, never HTML. Behind it a real instance
first (its answers pass unchanged), then a stand-in instance that misbehaves on request;
the configuration's only change is a 1 s server timeout (60 s shipped) for the 504."""

from __future__ import annotations

import contextlib
import http.client
import json
import socketserver
import threading
import time
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import pytest

from tests.multihost.balancer import CONFIG, balancer
from tests.reliability.gunicorns import port_of, start_on, stop


class StandIn(socketserver.ThreadingTCPServer):
    """An instance that is ready (GET /readyz 200) until ``failing`` is set, closes the
    connection without an answer on /gone, answers /slow after 3 s and anything else at
    once (200)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), StandInHandler)
        self.failing = threading.Event()


class StandInHandler(socketserver.StreamRequestHandler):
    server: StandIn

    def handle(self) -> None:
        line = self.rfile.readline().decode("latin-1")
        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
            pass
        path = line.split(" ")[1] if " " in line else ""
        if path == "/gone":
            return  # closed with nothing said: a killed instance
        if path == "/slow":
            time.sleep(3)
        failing = path == "/readyz" and self.server.failing.is_set()
        status = "503 Service Unavailable" if failing else "200 OK"
        body = b'{"status": "ok"}'
        with contextlib.suppress(OSError):  # /slow: the balancer gave up on it already
            self.wfile.write(
                f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                + body
            )


@pytest.fixture
def stand_in() -> Iterator[StandIn]:
    server = StandIn()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def get(port: int, path: str) -> tuple[int, Message, bytes]:
    """The status, headers (any case: HAProxy writes them in lower case) and body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def assert_problem(answer: tuple[int, Message, bytes], status: int, code: str) -> None:
    got, headers, body = answer
    assert got == status, (got, body[:200])
    assert headers["Content-Type"] == "application/problem+json", headers
    assert int(headers["Retry-After"]) > 0
    problem = json.loads(body)
    assert (problem["status"], problem["code"]) == (status, code), problem
    assert problem["type"] == f"/problems/{code.replace('_', '-')}"


def test_an_instance_s_answers_pass_through_unchanged(tmp_path: Path) -> None:
    server = start_on(tmp_path / "archive.sqlite3", env={"NARDY_REFEREE_PROXIES": "1"})
    proxy = None
    try:
        proxy, port = balancer([port_of(server)], tmp_path)
        status, headers, body = get(port, "/v1/matches/999")
        assert (status, headers["Content-Type"]) == (404, "application/problem+json")
        assert json.loads(body)["code"] == "not_found"  # the instance's own, not HAProxy's
    finally:
        if proxy is not None:
            proxy.kill()
            proxy.wait()
        stop(server)


def test_the_balancer_s_own_errors_are_problems(stand_in: StandIn, tmp_path: Path) -> None:
    backend = stand_in.server_address[1]
    assert isinstance(backend, int)
    proxy, port = balancer([backend], tmp_path, {"timeout server": "timeout server 1s"})
    try:
        assert_problem(get(port, "/gone"), 502, "bad_gateway")
        assert_problem(get(port, "/slow"), 504, "gateway_timeout")
        stand_in.failing.set()  # /readyz 503: the check takes the instance out (fall 2)
        deadline = time.monotonic() + 15
        answer = get(port, "/v1/variants")
        while answer[0] != 503 and time.monotonic() < deadline:
            time.sleep(0.2)
            answer = get(port, "/v1/variants")
        assert_problem(answer, 503, "service_unavailable")
    finally:
        proxy.kill()
        proxy.wait()


def test_the_shipped_balancer_passes_a_stream_s_lines_on_at_once() -> None:
    """Without ``option http-no-delay`` HAProxy sends each chunk with MSG_MORE and a
    stream's short lines reach the client some 200 ms late each: bots that act on their
    streams played issue 30's events through it in minutes instead of one
    (tests/multihost/test_events_across_instances.py). The defaults set it."""
    defaults = CONFIG.read_text().split("\ndefaults\n")[1].split("\n\n")[0]
    options = [line.split("#")[0].strip() for line in defaults.splitlines()]
    assert "option http-no-delay" in options
