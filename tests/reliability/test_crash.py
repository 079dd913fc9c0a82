"""kill -9 in the middle of a stream of imports, then a restart on the same file.

A real gunicorn (2 workers) takes a stream of ``POST /v1/matches`` of distinct records from
one client, which keeps the id and SHA-256 of every 201. After ``ACKNOWLEDGED`` of them the
master and every worker get SIGKILL at once (frozen with SIGSTOP first, so the master cannot
fork a replacement in between) while the next request is in flight. This is done
``ROUNDS`` times on the same file; then a fresh gunicorn must serve every acknowledged
record, with the same SHA-256, and ``PRAGMA integrity_check`` must say ``ok``.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path

from tests.reliability.test_concurrency import small_record
from tests.server import Server, start, stop, write_token

ROUNDS = 3
ACKNOWLEDGED = 40
"""Acknowledged (201) records per round before the kill."""
WORKERS = 2
WAIT = 60.0


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # gone, or not a process
        return None
    return int(stat.rpartition(")")[2].split()[1])


def _alive(pid: int) -> bool:
    """Running or stopped, not gone and not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def descendants(root: int) -> set[int]:
    """Every process below ``root`` (gunicorn's workers), read from /proc."""
    parents = {int(entry): _parent(int(entry)) for entry in os.listdir("/proc") if entry.isdigit()}
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def kill_9(server: Server) -> set[int]:
    """SIGKILL the gunicorn master and all its workers; wait until none is left running.

    The master shares the test's process group (tests/server.py does not start a new
    session), so the group cannot be killed: the processes are found through /proc."""
    master = server.process.pid
    frozen: set[int] = set()
    while True:  # freeze until no new child appears, so nothing is forked behind our back
        pids = ({master} | descendants(master)) - frozen
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
        frozen |= pids
    for pid in frozen:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    server.process.wait(timeout=30)
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in frozen) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in frozen if _alive(pid)], "a gunicorn process survived SIGKILL"
    return frozen


class Stream(threading.Thread):
    """One client posting distinct records until the server goes away."""

    def __init__(self, server: Server, token: str, round_number: int) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.token = token
        self.round = round_number
        self.acknowledged: dict[int, str] = {}
        self.sent: list[str] = []
        self.answers: list[tuple[int, bytes]] = []
        self.enough = threading.Event()

    def run(self) -> None:
        try:
            for index in range(10_000):
                key = f"crash{self.round}-{index}"
                text = small_record(key, f"w{self.round}x{index}", f"b{self.round}x{index}")
                self.sent.append(text)
                try:
                    status, _, body = self.server.request(
                        "POST", "/v1/matches", {"record": text}, self.token, timeout=WAIT
                    )
                except (OSError, http.client.HTTPException):
                    return  # the server was killed under this request
                self.answers.append((status, body))
                if status == 201:
                    answer = json.loads(body)
                    self.acknowledged[answer["id"]] = answer["sha256"]
                    if len(self.acknowledged) >= ACKNOWLEDGED:
                        self.enough.set()
                elif status != 200:
                    return
        finally:
            self.enough.set()


def test_acknowledged_records_survive_kill_9(tmp_path: Path) -> None:
    database = tmp_path / "archive.sqlite3"
    token = write_token(database, "crash")

    acknowledged: dict[int, str] = {}
    in_flight: list[str] = []
    for round_number in range(ROUNDS):
        server = start(database, workers=WORKERS)
        stream = Stream(server, token, round_number)
        try:
            stream.start()
            assert stream.enough.wait(WAIT), "no acknowledgements from the server"
        finally:
            killed = kill_9(server)  # also when the test failed: nothing stays running
        stream.join(WAIT)
        assert not stream.is_alive()
        assert len(killed) == 1 + WORKERS
        assert [status for status, _ in stream.answers if status != 201] == [], [
            body[:300] for status, body in stream.answers if status != 201
        ]
        assert len(stream.acknowledged) >= ACKNOWLEDGED
        acknowledged |= stream.acknowledged
        if len(stream.sent) > len(stream.answers):
            in_flight.append(stream.sent[-1])

    # A new server on the same file: every acknowledged record is there and readable.
    server = start(database, workers=WORKERS)
    try:
        for match_id, sha256 in acknowledged.items():
            stored = server.json("GET", f"/v1/matches/{match_id}")
            assert (stored["id"], stored["sha256"]) == (match_id, sha256)
            status, _, canonical = server.request("GET", f"/v1/matches/{match_id}?format=canonical")
            assert status == 200 and hashlib.sha256(canonical).hexdigest() == sha256
        # The archive still takes writes, and the record in flight at each kill is either
        # stored or not, never half: sending it again answers 201 or 200, never 5xx.
        resent: dict[int, str] = {}
        for text in in_flight:
            status, _, body = server.request("POST", "/v1/matches", {"record": text}, token)
            assert status in (200, 201), body[:300]
            answer = json.loads(body)
            resent[answer["id"]] = answer["sha256"]
    finally:
        stop(server)
    assert "Traceback" not in server.log.read_text(errors="replace")

    connection = sqlite3.connect(database)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = dict(connection.execute("SELECT id, sha256 FROM matches").fetchall())
    finally:
        connection.close()
    # Every acknowledged record and the ones in flight at the kills (stored then or when
    # sent again), and nothing else.
    assert rows == acknowledged | resent
