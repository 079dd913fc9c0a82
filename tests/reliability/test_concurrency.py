"""Concurrent archive writes through a real gunicorn with 4 workers.

8 client threads each send 100 distinct records to ``POST /v1/matches``, plus deliberate
duplicates: one record every client sends at the same instant (a race on the same
SHA-256), and re-sends of earlier records of their own and of another client, some of them
laid out differently (dice order, CRLF, BOM, ``1/0`` for ``1/off``) but with the same
canonical record. Afterwards, with the server stopped, the SQLite file is read directly:
every 201 is stored exactly once, every duplicate was answered 200 with the id of the
record that was created, nothing answered 5xx, and "database is locked" appears nowhere.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tests.server import Server, start, stop, write_token

CLIENTS = 8
WRITES = 100
WORKERS = 4
LOCKED = "database is locked"

# White and Black one checker each from the end; White rolls and bears off: a 1-point
# match of one game and one action, a valid record that costs nothing to check.
NEAR_END = "backgammon 1w,,,,,,,,,,,,,,,,,,,,,,,1b w0b0 w14b14 w - 1c 1:0-0 -"


def small_record(event: str, white: str, black: str, layout: int = 0) -> str:
    """A valid one-game record; ``event`` and the names make it distinct (tags and names
    are part of the canonical record). ``layout`` 1..4 writes the same canonical record
    differently: the original text differs, the SHA-256 of the canonical one does not."""
    dice = "12" if layout == 1 else "21"
    play = "1/0" if layout == 2 else "1/off"
    lines = [
        f'; [Event "{event}"]',
        f'; [StartPosition "{NEAR_END}"]',
        "",
        " 1 point match",
        "",
        " Game 1",
        f" {white + ' : 0':<31}{black} : 0",
        f"  1) {dice}: {play}",
        "      Wins 1 point and the match",
        "",
    ]
    text = ("\r\n" if layout == 3 else "\n").join(lines)
    return "\ufeff" + text if layout == 4 else text


@dataclass(frozen=True)
class Answer:
    key: str
    """Which logical record was sent (several texts may share one canonical record)."""
    status: int
    body: bytes


def client_plan(client: int) -> list[tuple[str, str]]:
    """(key, text) of one client's requests after the shared one: 100 distinct records and
    a duplicate every 25 records, of its own or of the next client's."""

    def own(index: int, layout: int = 0, owner: int = client) -> tuple[str, str]:
        key = f"c{owner}-{index}"
        return key, small_record(key, f"white{owner}x{index}", f"black{owner}x{index}", layout)

    plan = []
    for index in range(WRITES):
        plan.append(own(index))
        if index and index % 25 == 0:
            layout = index // 25  # 1, 2, 3
            plan.append(own(index - 10, layout))  # a duplicate of this client's own record
            # The next client's record of the same index: created already, or not yet,
            # or being created right now by the other thread.
            plan.append(own(index, 4 - layout, owner=(client + 1) % CLIENTS))
    return plan


def run_client(server: Server, token: str, client: int, barrier: threading.Barrier) -> list[Answer]:
    answers = []
    shared = small_record("shared", "everyone", "nobody")
    barrier.wait(timeout=60)  # every client sends the shared record at the same instant
    status, _, body = server.request("POST", "/v1/matches", {"record": shared}, token)
    answers.append(Answer("shared", status, body))
    for key, text in client_plan(client):
        status, _, body = server.request("POST", "/v1/matches", {"record": text}, token)
        answers.append(Answer(key, status, body))
    return answers


def test_concurrent_writes_store_every_record_exactly_once(tmp_path: Path) -> None:
    database = tmp_path / "archive.sqlite3"
    token = write_token(database, "concurrency")

    server = start(database, workers=WORKERS)
    try:
        barrier = threading.Barrier(CLIENTS)
        with ThreadPoolExecutor(CLIENTS) as pool:
            futures = [
                pool.submit(run_client, server, token, client, barrier) for client in range(CLIENTS)
            ]
            answers = [answer for future in futures for answer in future.result()]
    finally:
        stop(server)

    failures = [a for a in answers if a.status not in (200, 201)]
    assert not failures, [(a.key, a.status, a.body[:300]) for a in failures[:5]]
    assert not [a for a in answers if LOCKED in a.body.decode(errors="replace")]
    log = server.log.read_text(errors="replace")
    assert LOCKED not in log
    assert "Traceback" not in log, log[-3000:]

    by_key: dict[str, list[tuple[int, dict[str, object]]]] = defaultdict(list)
    for answer in answers:
        by_key[answer.key].append((answer.status, json.loads(answer.body)))
    assert len(answers) == CLIENTS * (1 + WRITES + 2 * 3)
    assert len(by_key) == 1 + CLIENTS * WRITES

    created: dict[int, str] = {}  # id -> sha256 of every 201
    for key, replies in by_key.items():
        statuses = sorted(status for status, _ in replies)
        # Exactly one request created the record; every other one was told it is a
        # duplicate, with the id and SHA-256 of the one that was created.
        assert statuses == [200] * (len(replies) - 1) + [201], (key, statuses)
        first = next(body for status, body in replies if status == 201)
        assert first["duplicate"] is False
        for status, body in replies:
            if status == 200:
                assert body["duplicate"] is True, (key, body)
            assert (body["id"], body["sha256"]) == (first["id"], first["sha256"]), key
        assert first["id"] not in created, f"id {first['id']} answered 201 twice"
        created[int(str(first["id"]))] = str(first["sha256"])
    assert len(set(created.values())) == len(created), "two records share a SHA-256"

    # The file itself, read after the server has stopped.
    connection = sqlite3.connect(database)
    try:
        rows = connection.execute("SELECT id, sha256 FROM matches").fetchall()
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        connection.close()
    assert len(rows) == len(created)
    assert dict(rows) == created
