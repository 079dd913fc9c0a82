"""PostgreSQL's bad days (issue 33), through real gunicorn on a real PostgreSQL: the
archive's tablespace on a small tmpfs filled to the last byte and emptied, and the database
switched read-only (``default_transaction_read_only``, its sessions ended so that they take
it) and back, each for a little longer than a move's time and shorter than the clock's gap,
under live play and a stream of writes. Writes and live actions answer 503
``storage_unavailable`` with Retry-After, /readyz 503 saying why; no match ends on time;
every acknowledged write is stored; every write sent after the archive can be written again
succeeds, without a restart; no 500, no traceback. Needs root (tmpfs); about a minute.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.multihost.cluster import ERRORS, Bot, Postgres, Tokens, instance, new_match
from tests.reliability.gunicorns import call, stop
from tests.reliability.test_concurrency import small_record
from tests.reliability.test_full_disk import fill
from tests.server import Server

MOVE_SECONDS = 4
OUTAGE_SECONDS = 8.0
"""Longer than a move's time (so a running clock would end the matches), shorter than the
service clock's gap (10 s: so only stopping the clock saves them)."""
MATCHES = 3
RECOVERY_SECONDS = 5.0


@dataclass
class Site:
    url: str
    database: str
    tokens: Tokens
    server: Server
    admin_url: str


@pytest.fixture(scope="module")
def site(postgres: Postgres, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One gunicorn on a database whose tablespace is a 48 MiB tmpfs."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mount = Path(tempfile.mkdtemp(prefix="nardy-tablespace-"))
    mount.chmod(0o755)  # the server runs as postgres
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=48m,mode=0755", "tmpfs", str(mount)],
        capture_output=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    (mount / "pg").mkdir()
    shutil.chown(mount / "pg", "postgres", "postgres")
    admin_url = postgres.cluster.url
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"CREATE TABLESPACE small LOCATION '{mount / 'pg'}'")
        admin.execute('CREATE DATABASE "bad_days" TABLESPACE small')
    url = admin_url.replace("/postgres?", "/bad_days?")
    from referee.storage import prepare_storage

    prepare_storage(url)
    tokens = Tokens.create(url)
    server = instance(url, tmp_path_factory.mktemp("bad-days"), "bad-days")
    try:
        yield Site(url, "bad_days", tokens, server, admin_url)
    finally:
        stop(server)
        from referee.storage.postgresql import close_pools

        close_pools(url)
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute('DROP DATABASE IF EXISTS "bad_days" WITH (FORCE)')
            admin.execute("DROP TABLESPACE IF EXISTS small")
        subprocess.run(["umount", "-l", str(mount)], check=False)
        shutil.rmtree(mount, ignore_errors=True)


@dataclass(eq=False)
class Writer(threading.Thread):
    """A client posting distinct records until stopped: every answer with the moment its
    request was sent."""

    server: Server
    token: str
    label: str
    stopping: threading.Event
    answers: list[tuple[float, int, dict[str, str], dict[str, Any]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(daemon=True)

    def run(self) -> None:
        index = 0
        while not self.stopping.is_set():
            index += 1
            record = small_record(f"{self.label}-{index}", f"w{index}", f"b{index}")
            sent = time.monotonic()
            try:
                status, headers, body = self.server.request(
                    "POST", "/v1/matches", {"record": record}, self.token, timeout=30
                )
            except ERRORS:
                continue
            self.answers.append((sent, status, headers, json.loads(body)))
            if status != 201:
                time.sleep(0.1)  # a client that does not wait for Retry-After


def readyz(server: Server) -> tuple[int, dict[str, Any]]:
    status, _, body = server.request("GET", "/readyz", timeout=10)
    return status, json.loads(body)


def until(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether ``condition`` came true within ``seconds`` (polled)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def under_load(site: Site, name: str, outage: Callable[[], Callable[[], None]]) -> None:
    """Bots play ``MATCHES`` matches and two writers write while ``outage()`` makes the
    archive unwritable for ``OUTAGE_SECONDS``; the callable it returns mends it."""
    base, tokens = site.server.base, site.tokens
    live_ids = [new_match(base, tokens, MOVE_SECONDS, length=5) for _ in range(MATCHES)]
    stopping = threading.Event()
    writers = [Writer(site.server, tokens.writer, f"{name}{n}", stopping) for n in range(2)]
    ends = time.monotonic() + OUTAGE_SECONDS + 40

    def pace(state: dict[str, Any]) -> None:
        time.sleep(0.05)

    bots = [
        Bot(live_id, side, token, [base], ends, seed, pace)
        for n, live_id in enumerate(live_ids)
        for side, token, seed in (("w", tokens.alice, 2 * n), ("b", tokens.bob, 2 * n + 1))
    ]
    for worker in [*writers, *bots]:
        worker.start()
    try:
        assert until(lambda: all(w.answers for w in writers), 20), "no write before the outage"
        mend = outage()
        broken = time.monotonic()
        seen: list[tuple[int, dict[str, Any]]] = []  # the 503 itself: another worker may
        # not have met the outage yet, so a second look could be its 200
        noticed = until(
            lambda: seen.append(readyz(site.server)) or seen[-1][0] == 503, OUTAGE_SECONDS - 1
        )
        status, problem = seen[-1]
        time.sleep(max(broken + OUTAGE_SECONDS - time.monotonic(), 0))
        plies = {
            live_id: call(base, "GET", f"/v1/live/{live_id}")[1]["ply"] for live_id in live_ids
        }
        mend()
        mended = time.monotonic()
        ready_again = until(lambda: readyz(site.server)[0] == 200, RECOVERY_SECONDS)
        ready_seconds = time.monotonic() - mended
        time.sleep(RECOVERY_SECONDS)
        stopping.set()
        for writer in writers:
            writer.join(30)
        finals = {live_id: call(base, "GET", f"/v1/live/{live_id}")[1] for live_id in live_ids}
    finally:
        stopping.set()
        for live_id in live_ids:
            call(base, "POST", f"/v1/live/{live_id}/abort", {}, tokens.host)
        for bot in bots:
            bot.join(max(ends - time.monotonic(), 1))
    answers = [answer for writer in writers for answer in writer.answers]
    refused = [(status, headers, body) for _, status, headers, body in answers if status != 201]
    refused += [
        (status, {"Retry-After": "1"}, body) for bot in bots for status, body in bot.refused
    ]
    actions = sum(len(bot.acknowledged) for bot in bots)
    ends = [(final["status"], final["ply"]) for final in finals.values()]
    print(f"{name}: {len(answers)} writes, {len(refused)} writes and actions refused, {actions}"
          f" actions acknowledged; /readyz {status} {problem['detail']!r}; ready again after"
          f" {ready_seconds:.1f} s; matches (status, ply) {ends}")  # fmt: skip
    assert noticed and status == 503 and problem["code"] == "storage_unavailable", problem
    assert refused, "the outage went unnoticed"
    for status, headers, body in refused:
        assert (status, body["code"]) == (503, "storage_unavailable"), body
        assert int(headers["Retry-After"]) > 0
    late = [(status, body) for sent, status, _, body in answers if sent >= mended]
    assert late and all(status == 201 for status, _ in late), late[:3]
    assert ready_again
    for _, status, _, body in answers:  # every acknowledged write is stored, as sent
        if status == 201:
            stored = site.server.json("GET", f"/v1/matches/{body['id']}")
            assert stored["sha256"] == body["sha256"]
    for live_id, final in finals.items():
        assert final["termination"] != "timeout", final
        assert final["status"] == "finished" or final["ply"] > plies[live_id], (final, plies)
    assert "Traceback" not in site.server.log.read_text()


def test_a_full_disk_under_load(site: Site) -> None:
    mount = Path(
        next(
            line.split()[1]
            for line in Path("/proc/mounts").read_text().splitlines()
            if "nardy-tablespace-" in line
        )
    )

    def outage() -> Callable[[], None]:
        filler = fill(mount)
        return filler.unlink

    under_load(site, "full", outage)


def test_a_read_only_database_under_load(site: Site) -> None:
    def switch(value: str) -> None:
        with psycopg.connect(site.admin_url, autocommit=True) as admin:
            admin.execute(
                f'ALTER DATABASE "{site.database}" SET default_transaction_read_only = {value}'
            )
            if value == "on":  # as an operator would: the sessions end, the new ones take it
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = %s AND pid <> pg_backend_pid()",
                    [site.database],
                )

    def outage() -> Callable[[], None]:
        switch("on")
        return lambda: switch("off")

    under_load(site, "read-only", outage)
