"""One client must not take the service down (issue 13), through real gunicorn with the
shipped config (2 gthread workers), loopback only, bounded in time (about a minute).

While two costly records (each up to its work limits) are checked over and over, two
connections stay idle and two send a byte a second, ``/healthz`` keeps answering; every
costly check ends with JSON (a verdict or a problem), never HTML or a 5xx; a truncated
upload is refused and not stored; a write to an archive that another process holds locked
is answered 503.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.costly import many_games, one_long_game
from tests.server import Server, running, write_token

PROBES = 60  # four a second: 15 s of load
COSTLY_TIMEOUT = 60.0
LOCKED_TIMEOUT = 15.0
COSTLY_SIZE = 350_000


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("one-client") / "archive.sqlite3"


@pytest.fixture(scope="module")
def server(database: Path) -> Iterator[Server]:
    with running(database) as served:
        yield served


def port(server: Server) -> int:
    return int(server.base.rsplit(":", 1)[1])


def costly_checks(server: Server, text: str, stop: threading.Event, answers: list[object]) -> None:
    """Check ``text`` in condone mode again and again until ``stop``; keep each answer as
    (status, content type, body) or the exception that ended the request."""
    while not stop.is_set():
        try:
            status, headers, body = server.request(
                "POST", "/v1/records/check", {"record": text, "mode": "condone"},
                timeout=COSTLY_TIMEOUT,
            )  # fmt: skip
            answers.append((status, headers.get("Content-Type", ""), body))
        except (OSError, urllib.error.URLError) as error:
            answers.append(error)


def idle_connections(server: Server, stop: threading.Event) -> None:
    """Two connections that never send anything, opened again whenever the server closes
    them (it does after its keep-alive timeout)."""
    sockets = [socket.create_connection(("127.0.0.1", port(server))) for _ in range(2)]
    try:
        while not stop.wait(0.5):
            for index, sock in enumerate(sockets):
                sock.setblocking(False)
                try:
                    closed = sock.recv(1) == b""
                except BlockingIOError:
                    closed = False
                if closed:
                    sock.close()
                    sockets[index] = socket.create_connection(("127.0.0.1", port(server)))
    finally:
        for sock in sockets:
            sock.close()


def byte_a_second(server: Server, stop: threading.Event) -> None:
    """A request sent one byte a second, for as long as the probing lasts."""
    request = b"POST /v1/records/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99\r\n"
    with socket.create_connection(("127.0.0.1", port(server))) as sock:
        for byte in request:
            if stop.wait(1.0):
                return
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                return


def test_healthz_answers_while_costly_idle_and_slow_clients_are_served(server: Server) -> None:
    stop = threading.Event()
    answers: list[object] = []
    workers = [
        threading.Thread(target=costly_checks, args=(server, text, stop, answers))
        for text in (many_games(COSTLY_SIZE), many_games(COSTLY_SIZE, edits=8))
    ]
    workers.append(threading.Thread(target=idle_connections, args=(server, stop)))
    workers += [threading.Thread(target=byte_a_second, args=(server, stop)) for _ in range(2)]
    for worker in workers:
        worker.start()
    try:
        time.sleep(1.0)  # the costly checks are under way
        answered = server.probe_healthz(PROBES)
    finally:
        stop.set()
        for worker in workers:
            worker.join(COSTLY_TIMEOUT + 5)
    assert answered >= PROBES * 9 // 10, f"/healthz answered {answered} of {PROBES} probes"
    assert answers, "no costly check ended"
    for answer in answers:
        assert isinstance(answer, tuple), answer
        status, content_type, body = answer
        assert status in (200, 413), (status, body[:200])
        assert content_type.startswith(("application/json", "application/problem+json"))
        if status == 413:
            assert json.loads(body)["code"] == "work_limit"


def test_the_reported_record_is_refused_as_it_is_read(server: Server) -> None:
    """Issue 13's record: one game, an edit before every row (45 s of CPU before)."""
    status, headers, body = server.request(
        "POST", "/v1/records/check", {"record": one_long_game(COSTLY_SIZE), "mode": "condone"}
    )
    assert status == 413 and headers["Content-Type"] == "application/problem+json"
    assert json.loads(body)["limit"] == "actions_per_game"


def test_a_truncated_upload_is_refused_and_not_stored(server: Server, database: Path) -> None:
    token = write_token(database)
    body = many_games(2_000).encode()
    head = (
        "POST /v1/matches?allow_invalid=true HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: text/plain\r\n"
        f"Content-Length: {len(body) + 1_000}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port(server)), timeout=30) as sock:
        sock.sendall(head + body)
        sock.shutdown(socket.SHUT_WR)  # the client goes away mid-upload
        status_line = sock.recv(200).split(b"\r\n", 1)[0]
    status = int(status_line.split()[1])
    assert 400 <= status < 500, status_line
    listing = server.json("GET", "/v1/matches")
    assert listing["matches"] == []


LOCK_HOLDER = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
"""


def test_a_write_to_an_archive_locked_by_another_process_is_503(
    server: Server, database: Path
) -> None:
    token = write_token(database)
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(database), str(LOCKED_TIMEOUT + 5)],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
        record = {"record": many_games(1_000), "allow_invalid": True}
        status, headers, body = server.request(
            "POST", "/v1/matches", record, token=token, timeout=LOCKED_TIMEOUT
        )
    finally:
        holder.kill()
        holder.wait()
    assert status == 503, body[:300]
    assert int(headers["Retry-After"]) > 0
    assert json.loads(body)["code"] == "archive_busy"
