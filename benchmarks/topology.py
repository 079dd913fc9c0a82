"""A measured topology (issue 19): a temporary PostgreSQL, then one, two and three gunicorn
instances (``WORKERS`` gthread workers each) on loopback behind HAProxy (deploy/haproxy.cfg,
with this run's ports), and, for each number of instances, through the balancer:

* record checks/s: ``POST /v1/records/check`` of the 7-point corpus match, ``CLIENTS``
  keep-alive connections as fast as they go for ``SECONDS`` s (stateless: no archive);
* live actions/s: ``MATCHES`` live money games at once, each played by one client process
  acting for both sides (read the state, act), for ``SECONDS`` s: acknowledged actions/s.

Then the archive's write ceiling: ``POST /v1/matches`` of distinct small records from
``CLIENTS`` connections for ``SECONDS`` s, imports/s, on SQLite (one instance, the shipped
default) against PostgreSQL (one instance, and every instance behind the balancer).

PostgreSQL runs with fsync and synchronous commits on (``DURABLE``), as SQLite syncs each
archive commit (``synchronous=FULL``; live changes ``NORMAL``). Every figure counts only 2xx
answers; any other answer is counted and printed. The clients
are Python processes on the same cores as the servers and the database, so the figures are
of one box, not of hosts: read them for how they change with the number of instances.
Run with ``.venv/bin/python benchmarks/topology.py`` (needs PostgreSQL and haproxy: ``make
postgresql haproxy``).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.corpus import MAT
from tests.multihost.balancer import balancer
from tests.multihost.cluster import Postgres, Tokens, instance, new_match
from tests.reliability.gunicorns import choose, stop
from tests.reliability.test_concurrency import small_record
from tests.server import Server, start, write_token

CLIENTS = 6
MATCHES = 12
SECONDS = 10.0
INSTANCES = (1, 2, 3)
UNLIMITED = {"NARDY_REFEREE_RATE_LIMITS": "off", "NARDY_REFEREE_PROXIES": "1"}
"""A benchmark's clients are few and fast: the per-client rate limits are off."""


def _post_loop(job: tuple[int, str, str | None, int, float]) -> tuple[int, int]:
    """(2xx answers, others) of one keep-alive connection posting as fast as it can."""
    port, kind, token, number, seconds = job
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    record = (MAT / "galaxy_match11696104_7pt.mat").read_text()
    good = bad = 0
    ends = time.monotonic() + seconds
    index = 0
    while time.monotonic() < ends:
        index += 1
        if kind == "check":
            path, body = "/v1/records/check", {"record": record}
        else:
            key = f"t{os.getpid()}-{number}-{index}-{time.monotonic_ns()}"
            path, body = "/v1/matches", {"record": small_record(key, f"w{key}", f"b{key}")}
        try:
            connection.request("POST", path, json.dumps(body).encode(), headers)
            response = connection.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            bad += 1
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            continue
        if 200 <= response.status < 300:
            good += 1
        else:
            bad += 1
    connection.close()
    return good, bad


def posts(port: int, kind: str, token: str | None = None) -> tuple[float, int]:
    """(2xx answers/s, other answers) of ``CLIENTS`` connections."""
    jobs = [(port, kind, token, n, SECONDS) for n in range(CLIENTS)]
    with Pool(CLIENTS) as pool:
        runs = pool.map(_post_loop, jobs)
    return sum(good for good, _ in runs) / SECONDS, sum(bad for _, bad in runs)


def _play_loop(job: tuple[int, int, dict[str, str], float]) -> tuple[int, int]:
    """(acknowledged actions, other answers) of one client acting for both sides."""
    port, live_id, tokens, seconds = job
    rng = random.Random(live_id)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, data, headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")

    good = bad = 0
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        status, state = call("GET", f"/v1/live/{live_id}")
        if status != 200:
            bad += 1
            continue
        if state["status"] != "playing":
            return good, bad  # finished: the figure counts the time it was played
        action = {"ply": state["ply"], **choose(state, rng)}
        path = f"/v1/live/{live_id}/actions"
        status, _ = call("POST", path, action, tokens[state["to_act"]])
        if status == 200:
            good += 1
        else:
            bad += 1
    return good, bad


def live_actions(port: int, base: str, tokens: Tokens) -> tuple[float, int]:
    """(acknowledged actions/s, other answers) of ``MATCHES`` money games at once."""
    ids = [new_match(base, tokens) for _ in range(MATCHES)]
    sides = {"w": tokens.alice, "b": tokens.bob}
    started = time.monotonic()
    with Pool(MATCHES) as pool:
        runs = pool.map(_play_loop, [(port, live_id, sides, SECONDS) for live_id in ids])
    elapsed = min(time.monotonic() - started, SECONDS)
    return sum(good for good, _ in runs) / elapsed, sum(bad for _, bad in runs)


DURABLE = "-c fsync=on -c synchronous_commit=on -c full_page_writes=on -c max_connections=300"


def durable(postgres: Postgres) -> None:
    """The tests' cluster runs without fsync; a benchmark of writes runs with it."""
    cluster = postgres.cluster
    data = str(cluster.data)
    cluster._run("pg_ctl", "-D", data, "-m", "fast", "-w", "stop")
    options = f"-k {cluster.folder} -c listen_addresses='' {DURABLE}"
    log = str(cluster.folder / "log")
    cluster._run("pg_ctl", "-D", data, "-l", log, "-w", "-o", options, "start")


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="topology-"))
    print(f"{os.cpu_count()} cores; {CLIENTS} clients, {MATCHES} matches, {SECONDS:g} s each")
    postgres = Postgres()
    servers: list[Server] = []
    try:
        durable(postgres)
        url = postgres.fresh()
        tokens = Tokens.create(url)
        print("| instances | record checks/s | live actions/s | imports/s (PostgreSQL) |")
        print("| --- | --- | --- | --- |")
        for count in INSTANCES:
            while len(servers) < count:
                servers.append(instance(url, folder, f"i{len(servers)}", UNLIMITED))
            ports = [int(server.base.rsplit(":", 1)[1]) for server in servers]
            proxy, port = balancer(ports, folder)
            try:
                checks, bad_checks = posts(port, "check")
                actions, bad_actions = live_actions(port, f"http://127.0.0.1:{port}", tokens)
                imports, bad_imports = posts(port, "import", tokens.writer)
            finally:
                proxy.terminate()
                proxy.wait()
            others = bad_checks + bad_actions + bad_imports
            note = f" ({others} other answers)" if others else ""
            print(f"| {count} | {checks:.0f} | {actions:.0f} | {imports:.0f}{note} |")
        for server in servers:
            stop(server)
        servers.clear()
        database = folder / "archive.sqlite3"
        writer = write_token(database, "archivist")
        sqlite = start(database, 2, folder / "sqlite.log", UNLIMITED)
        servers.append(sqlite)
        sqlite_imports, bad_sqlite = posts(int(sqlite.base.rsplit(":", 1)[1]), "import", writer)
        stop(sqlite)
        servers.clear()
        pg = instance(url, folder, "pg-alone", UNLIMITED)
        servers.append(pg)
        pg_imports, bad_pg = posts(int(pg.base.rsplit(":", 1)[1]), "import", tokens.writer)
        print()
        print("| archive, one instance, no balancer | imports/s |")
        print("| --- | --- |")
        print(f"| SQLite (WAL, one file) | {sqlite_imports:.0f} ({bad_sqlite} other answers) |")
        print(f"| PostgreSQL 15 (local socket) | {pg_imports:.0f} ({bad_pg} other answers) |")
    finally:
        for server in servers:
            stop(server)
        postgres.cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
