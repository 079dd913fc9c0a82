"""HTTP throughput and latency of real gunicorn (2 workers) on loopback.

For ``GET /healthz``, ``POST /v1/plays/check`` and ``POST /v1/records/check`` (the 7-point
corpus match ``galaxy_match11696104_7pt.mat``), in one run:

1. saturation: closed loop, ``CLIENTS`` keep-alive connections for ``SECONDS`` s each:
   requests/s, p50 and p99 latency, the best of ``ROUNDS`` runs (each run opens its own
   connections, and gunicorn often hands all of them to one worker, which halves the rate:
   the best run is one where both workers served);
2. half load: open loop at 50 % of that endpoint's saturation rate: p50 and p99.

The load generator is Python (one process per connection) and shares the two cores with
the server, so it costs the server some throughput; the ratio to /healthz is the figure
to compare. Besides, the workers' CPU time a request (user + system, from /proc), which
the clients do not blur. With ``--peer TREE`` (another checkout with its own ``.venv``)
both trees' servers run at once and take turns run by run, endpoint by endpoint.
Run with ``make bench`` or ``.venv/bin/python benchmarks/http_load.py [--peer TREE]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.trees import Served, add_peer_option, serving, trees
from tests.corpus import MAT

CLIENTS = 4
SECONDS = 8.0
ROUNDS = 3
WORKERS = 2


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    body: bytes | None


def endpoints() -> list[Endpoint]:
    position = "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 w 31 1c 0:0-0 -"
    record = (MAT / "galaxy_match11696104_7pt.mat").read_text()
    return [
        Endpoint("GET /healthz", "GET", "/healthz", None),
        Endpoint(
            "POST /v1/plays/check",
            "POST",
            "/v1/plays/check",
            json.dumps({"position": position, "play": "8/5 6/5"}).encode(),
        ),
        Endpoint(
            "POST /v1/records/check (7-point match)",
            "POST",
            "/v1/records/check",
            json.dumps({"record": record}).encode(),
        ),
    ]


def client(job: tuple[int, Endpoint, float, float | None]) -> list[float]:
    """Latencies (s) of one keep-alive connection: as fast as it can, or at ``rate``/s."""
    port, endpoint, seconds, rate = job
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"} if endpoint.body else {}
    latencies: list[float] = []
    start_at = time.perf_counter()
    sent = 0
    while (now := time.perf_counter()) - start_at < seconds:
        if rate is not None:
            due = start_at + sent / rate
            if due > now:
                time.sleep(due - now)
        began = time.perf_counter()
        connection.request(endpoint.method, endpoint.path, endpoint.body, headers)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"{endpoint.name}: HTTP {response.status}")
        latencies.append(time.perf_counter() - began)
        sent += 1
    connection.close()
    return latencies


@dataclass(frozen=True)
class Figures:
    rate: float
    p50_ms: float
    p99_ms: float
    cpu_us: float
    """The workers' CPU time a request."""


def measure(served: Served, endpoint: Endpoint, rate: float | None = None) -> Figures:
    per_client = None if rate is None else rate / CLIENTS
    with Pool(CLIENTS) as pool:
        cpu = served.worker_cpu_seconds()
        runs = pool.map(client, [(served.port, endpoint, SECONDS, per_client)] * CLIENTS)
        cpu = served.worker_cpu_seconds() - cpu
    latencies = sorted(latency for run in runs for latency in run)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    p50 = statistics.median(latencies)
    return Figures(len(latencies) / SECONDS, p50 * 1e3, p99 * 1e3, cpu / len(latencies) * 1e6)


def rate_of(figures: Figures) -> float:
    return figures.rate


Row = tuple[Endpoint, Figures, Figures]


def measured(servers: list[Served]) -> dict[Served, list[Row]]:
    """Each endpoint on each server: saturation the best of ``ROUNDS`` runs, the servers
    taking turns run by run, then half load."""
    rows: dict[Served, list[Row]] = {served: [] for served in servers}
    for endpoint in endpoints():
        for served in servers:
            measure(served, endpoint)  # warm-up: imports, caches, first connections
        runs: dict[Served, list[Figures]] = {served: [] for served in servers}
        for _ in range(ROUNDS):
            for served in servers:
                runs[served].append(measure(served, endpoint))
        for served in servers:
            full = max(runs[served], key=rate_of)
            rows[served].append((endpoint, full, measure(served, endpoint, rate=full.rate / 2)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    add_peer_option(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        # The rate limits of anonymous clients would measure themselves: off here.
        servers = [
            stack.enter_context(
                serving(tree, Path(folder) / f"bench{index}.sqlite3", WORKERS,
                        NARDY_REFEREE_RATE_LIMITS="off")
            )
            for index, tree in enumerate(trees(args.peer))
        ]  # fmt: skip
        rows = measured(servers)
    print(
        f"gunicorn {WORKERS} workers, {CLIENTS} Python clients, {SECONDS:.0f} s per run,"
        f" saturation the best of {ROUNDS} runs"
    )
    for served, results in rows.items():
        health = results[0][1].rate
        print(f"{served.tree.label} ({served.tree.root})")
        print(f"  {'endpoint':42} {'req/s':>8} {'vs healthz':>10} {'p50 ms':>8} {'p99 ms':>8}"
              f" {'@50% p50':>9} {'@50% p99':>9} {'cpu us':>7}")  # fmt: skip
        for endpoint, full, half in results:
            print(
                f"  {endpoint.name:42} {full.rate:8.0f} {full.rate / health:10.1%}"
                f" {full.p50_ms:8.1f} {full.p99_ms:8.1f} {half.p50_ms:9.1f} {half.p99_ms:9.1f}"
                f" {full.cpu_us:7.0f}"
            )


if __name__ == "__main__":
    main()
