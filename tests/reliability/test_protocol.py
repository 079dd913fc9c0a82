"""Protocol errors and limits (issue 22), through real gunicorn with the shipped config:

* the malformed HTTP of the issue's list (Content-Length ``-1`` or ``abc``, a
  Content-Length with chunked, a bad version, a folded header, a 9 KB header, a long
  request line, too many headers, what is not HTTP) is answered problem+json by gunicorn;
* rate limits hold per client across both workers, and per network prefix (/24) for
  callers without a token, whatever their address;
* behind nginx with the configuration of docs/operations.md, 150 clients sending a byte a
  second leave /healthz answering (nginx holds them; skipped where nginx is not
  installed, ``make nginx``, and a failure under REQUIRE_NGINX=1, as in CI).
"""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.programs import required_program
from tests.reliability.gunicorns import port_of, raw, start_on, status_and_body, stop
from tests.server import ROOT, Server, free_port

RECORD = (ROOT / "examples" / "backgammon_match.mat").read_text()
POST = b"POST /v1/plays/legal HTTP/1.1\r\nHost: x\r\n"
MALFORMED = {
    "Content-Length -1": POST + b"Content-Length: -1\r\n\r\n",
    "Content-Length abc": POST + b"Content-Length: abc\r\n\r\n",
    "Content-Length with chunked": (
        b"POST /v1/plays/legal HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    ),
    "a bad version": b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n",
    "a folded header": b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  b\r\n\r\n",
    "a 9 KB header": b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
    "a 9 KB request line": b"GET /healthz?" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "120 headers": b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
    + b"".join(b"X-%d: a\r\n" % n for n in range(120))
    + b"\r\n",
    "not HTTP": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
}
EXPECTED = {"a 9 KB header": 431, "120 headers": 431, "a 9 KB request line": 414}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    database = tmp_path_factory.mktemp("protocol") / "archive.sqlite3"
    served = start_on(database, env={"NARDY_REFEREE_RATE_LIMITS": "check=3/600"})
    try:
        yield served
    finally:
        stop(served)


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_http_is_a_problem(server: Server, case: str) -> None:
    status, headers, body = status_and_body(raw(port_of(server), MALFORMED[case]))
    assert status == EXPECTED.get(case, 400)
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(body)["status"] == status


def check_from(server: Server, source: str) -> int:
    """One anonymous record check from the loopback address ``source``."""
    connection = http.client.HTTPConnection("127.0.0.1", port_of(server), 30, (source, 0))
    try:
        body = json.dumps({"record": RECORD})
        connection.request("POST", "/v1/records/check", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_rate_limits_hold_across_workers_and_per_network(server: Server) -> None:
    # one client, new connections (so both workers answer it): 3 in all, not 3 a worker
    statuses = [check_from(server, "127.50.0.1") for _ in range(10)]
    assert statuses.count(200) == 3 and statuses.count(429) == 7, statuses
    # twenty addresses of one /24: four clients' worth (12) in all
    statuses = [check_from(server, f"127.51.0.{n}") for n in range(1, 21)]
    assert statuses.count(200) == 12 and statuses.count(429) == 8, statuses
    # another network is not affected
    assert check_from(server, "127.52.0.1") == 200


def nginx_config(prefix: Path, listen: int, upstream: int) -> str:
    """docs/operations.md's server block, on a loopback port without TLS."""
    return textwrap.dedent(f"""
        daemon off;
        pid {prefix}/nginx.pid;
        error_log {prefix}/error.log;
        worker_processes 1;
        events {{ worker_connections 2048; }}
        http {{
            access_log off;
            client_body_temp_path {prefix}/body;
            proxy_temp_path {prefix}/proxy;
            fastcgi_temp_path {prefix}/fastcgi;
            uwsgi_temp_path {prefix}/uwsgi;
            scgi_temp_path {prefix}/scgi;
            upstream referee {{ server 127.0.0.1:{upstream}; keepalive 16; }}
            server {{
                listen 127.0.0.1:{listen};
                client_max_body_size 17m;
                client_header_timeout 10s;
                client_body_timeout 10s;
                send_timeout 30s;
                large_client_header_buffers 4 8k;
                location / {{
                    proxy_pass http://referee;
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    proxy_set_header Host $host;
                    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                    proxy_request_buffering on;
                    proxy_buffering on;
                    proxy_read_timeout 120s;
                }}
            }}
        }}
    """)


def test_slow_senders_behind_the_documented_proxy(tmp_path: Path) -> None:
    nginx = required_program("nginx", "REQUIRE_NGINX", "make nginx")
    database = tmp_path / "archive.sqlite3"
    server = start_on(database, env={"NARDY_REFEREE_PROXIES": "1"})
    listen = free_port()
    (tmp_path / "nginx.conf").write_text(nginx_config(tmp_path, listen, port_of(server)))
    proxy = subprocess.Popen(
        [nginx, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    stop_sending = threading.Event()
    senders: list[threading.Thread] = []
    try:
        for _ in range(50):
            try:
                with socket.create_connection(("127.0.0.1", listen), 1):
                    break
            except OSError:
                time.sleep(0.1)

        def slow() -> None:  # a request a byte a second, reopened when nginx drops it
            while not stop_sending.is_set():
                try:
                    with socket.create_connection(("127.0.0.1", listen), 5) as sock:
                        for byte in b"POST /v1/records/check HTTP/1.1\r\nHost: x\r\n" * 100:
                            if stop_sending.wait(1):
                                return
                            sock.send(bytes([byte]))
                except OSError:
                    time.sleep(0.5)

        senders = [threading.Thread(target=slow, daemon=True) for _ in range(150)]
        for sender in senders:
            sender.start()
        time.sleep(2)
        answered = 0
        for _ in range(30):
            started = time.monotonic()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", listen, timeout=2)
                connection.request("GET", "/healthz")
                answered += connection.getresponse().status == 200
                connection.close()
            except OSError:
                pass
            time.sleep(max(0.0, 1 - (time.monotonic() - started)))
        print(f"/healthz through nginx beside 150 byte-a-second senders: {answered}/30")
        assert answered >= 27
    finally:
        stop_sending.set()
        proxy.terminate()
        proxy.wait(timeout=10)
        stop(server)
