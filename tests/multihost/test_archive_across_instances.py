"""The archive on two instances of one PostgreSQL (issue 19): a duplicate import racing on
both stores once; PostgreSQL restarted under load gives 503 ``archive_busy``,
``storage_unavailable`` (its sessions ended: issue 33) or ``not_ready`` with Retry-After,
never a 500 nor a lost acknowledged write, and the service recovers by itself."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from referee.storage import open_storage
from tests.multihost.cluster import (
    ERRORS,
    Bot,
    Postgres,
    Tokens,
    check_no_acknowledged_action_lost,
    instance,
    new_match,
)
from tests.reliability.gunicorns import stop
from tests.reliability.test_concurrency import small_record
from tests.server import Server

RACERS = 4
"""Clients posting the same record at once, per instance."""


def race(servers: list[Server], record: str, token: str) -> list[tuple[int, dict[str, Any]]]:
    """``RACERS`` clients per instance post ``record`` at the same moment: the answers."""
    start = threading.Barrier(RACERS * len(servers))
    answers: list[tuple[int, dict[str, Any]]] = []
    lock = threading.Lock()

    def post(server: Server) -> None:
        start.wait()
        status, _, body = server.request("POST", "/v1/matches", {"record": record}, token)
        with lock:
            answers.append((status, json.loads(body)))

    racers = [
        threading.Thread(target=post, args=(server,)) for server in servers for _ in range(RACERS)
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(60)
    return answers


def test_a_duplicate_import_racing_on_two_instances_is_stored_once(
    postgres: Postgres, tmp_path: Path
) -> None:
    url = postgres.fresh()
    tokens = Tokens.create(url)
    servers = [instance(url, tmp_path, name) for name in ("a", "b")]
    try:
        for round_number in range(5):
            record = small_record(f"race{round_number}", f"w{round_number}", f"b{round_number}")
            answers = race(servers, record, tokens.writer)
            statuses = sorted(status for status, _ in answers)
            assert statuses == [200] * (len(answers) - 1) + [201], answers
            assert len(answers) == RACERS * len(servers)
            assert len({answer["id"] for _, answer in answers}) == 1
            assert len({answer["sha256"] for _, answer in answers}) == 1
        archive = open_storage(url)
        try:
            assert archive.tables.counts()["matches"] == 5  # one row per record, no more
        finally:
            archive.close()
    finally:
        for server in servers:
            stop(server)


class Importer(threading.Thread):
    """A client posting distinct records to one instance until told to stop, keeping every
    acknowledged one (201) and every other answer."""

    def __init__(self, server: Server, token: str, name: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.server, self.token, self.name_, self.stop = server, token, name, stop
        self.acknowledged: dict[int, str] = {}
        self.refusals: list[tuple[int, dict[str, str], bytes]] = []
        self.lost = 0

    def run(self) -> None:
        index = 0
        while not self.stop.is_set():
            index += 1
            record = small_record(f"{self.name_}-{index}", f"w{index}", f"b{index}")
            try:
                status, headers, body = self.server.request(
                    "POST", "/v1/matches", {"record": record}, self.token, timeout=30
                )
            except ERRORS:
                self.lost += 1  # the answer did not come: committed or not
                time.sleep(0.1)
                continue
            if status == 201:
                answer = json.loads(body)
                self.acknowledged[answer["id"]] = answer["sha256"]
            else:
                self.refusals.append((status, headers, body))
                time.sleep(0.1)


def test_postgresql_restarted_under_load_gives_503s_and_the_service_recovers(
    postgres: Postgres, tmp_path: Path
) -> None:
    url = postgres.fresh()
    tokens = Tokens.create(url)
    servers = [instance(url, tmp_path, name) for name in ("a", "b")]
    stopping = threading.Event()
    importers = [
        Importer(server, tokens.writer, f"load{n}", stopping) for n, server in enumerate(servers)
    ]
    try:
        live_id = new_match(servers[0].base, tokens)
        until = time.monotonic() + 120
        bases = [server.base for server in servers]
        bots = [
            Bot(live_id, "w", tokens.alice, bases, until, 1),
            Bot(live_id, "b", tokens.bob, bases[::-1], until, 2),
        ]
        for worker in [*importers, *bots]:
            worker.start()
        time.sleep(2)
        before = sum(len(importer.acknowledged) for importer in importers)
        assert before > 0
        postgres.restart(down_seconds=3)
        recovered = time.monotonic() + 60
        while time.monotonic() < recovered:  # acknowledged again, with nobody's help
            if sum(len(importer.acknowledged) for importer in importers) > before + 10:
                break
            time.sleep(0.2)
        stopping.set()
        for importer in importers:
            importer.join(60)
        for bot in bots:
            bot.join(max(until - time.monotonic(), 1))
        after = sum(len(importer.acknowledged) for importer in importers)
        assert after > before + 10, "the service did not recover"
        refusals = [refusal for importer in importers for refusal in importer.refusals]
        refusals += [
            (status, {}, json.dumps(body).encode()) for bot in bots for status, body in bot.refused
        ]
        assert refusals, "the restart went unnoticed: nothing was refused"
        for status, headers, body in refusals:
            problem = json.loads(body)
            assert status == 503, (status, problem)
            assert problem["code"] in ("archive_busy", "storage_unavailable", "not_ready"), problem
            if headers:
                assert int(headers["Retry-After"]) > 0
        # every acknowledged import is stored, with its SHA-256
        for importer in importers:
            for match_id, sha256 in importer.acknowledged.items():
                stored = servers[1].json("GET", f"/v1/matches/{match_id}")
                assert stored["sha256"] == sha256
        final = bots[0].final
        assert final is not None and final["status"] == "finished"
        check_no_acknowledged_action_lost(final, bots)
    finally:
        stopping.set()
        for server in servers:
            stop(server)
