"""Live matches under load: ``MATCHES`` live money games at once on loopback, each between
two reference bots (random strategy) that follow the NDJSON stream and post their actions.

Real gunicorn (``WORKERS`` gthread workers with ``THREADS`` threads each: every open stream
holds one thread). Reports: matches finished, server errors (5xx in the access log),
actions/s over the run, p50/p99 action latency (client side, POST .../actions), and then
checks every finished match: its stored record re-checks valid (POST /v1/matches/{id}/check)
and its dice proof verifies; the server-side time of the actions from the access log.
The bots act as fast as they can, so the run is at saturation: latency is mostly queueing
(Little's law: about the bots waiting to act divided by actions/s). Bounded in count
(``MATCHES``) and time (``LIMIT_SECONDS``).
Run with ``.venv/bin/python benchmarks/live_load.py [MATCHES]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.live.bot import LiveClient, RandomStrategy, play_match
from referee.live.dice import verify_proof
from tests.server import Server, start, stop, write_token

MATCHES = int(sys.argv[1]) if len(sys.argv) > 1 else 200
WORKERS = 2
THREADS = 256
LIMIT_SECONDS = 900.0
VARIANTS = ("backgammon", "long-nardy", "khachapuri")


class TimedClient(LiveClient):
    """A client that records the latency of every action it posts."""

    latencies: ClassVar[list[float]] = []
    lock: ClassVar[threading.Lock] = threading.Lock()

    def call(self, method: str, path: str = "", body: Any = None) -> dict[str, Any]:
        started = time.perf_counter()
        try:
            return super().call(method, path, body)
        finally:
            if path == "/actions":
                with self.lock:
                    self.latencies.append(time.perf_counter() - started)


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="live-load-"))
    database = folder / "archive.sqlite3"
    host = write_token(database, "director", "live:host")
    bots = {name: write_token(database, name, "play") for name in ("alice", "bob")}
    env = {"GUNICORN_CMD_ARGS": f"--worker-class gthread --threads {THREADS}"}
    server = start(database, WORKERS, folder / "server.log", env)
    try:
        run(server, host, bots)
    finally:
        stop(server)
    log = (folder / "server.log").read_text().splitlines()
    errors = sum(1 for line in log if '" 5' in line)
    print(f"server errors (5xx): {errors}")
    served = sorted(int(line.rsplit(" ", 1)[1][:-2]) for line in log if "/actions HTTP" in line)
    if served:
        p99 = served[int(0.99 * (len(served) - 1))]
        print(f"server-side action time (access log): p50 {statistics.median(served)} ms,")
        print(f"  p99 {p99} ms, max {served[-1]} ms")


def run(server: Server, host: str, bots: dict[str, str]) -> None:
    ids = []
    for index in range(MATCHES):
        body = {
            "variant": VARIANTS[index % len(VARIANTS)],
            "length": 0,
            "players": {"w": "alice", "b": "bob"},
            "move_seconds": 600,
        }
        ids.append(server.json("POST", "/v1/live", body, host)["id"])
    finals: dict[int, dict[str, Any]] = {}
    failures: list[str] = []

    def bot(live_id: int, name: str) -> None:
        client = TimedClient(f"{server.base}/v1/live/{live_id}", bots[name])
        try:
            final = play_match(client, RandomStrategy(random.Random(live_id)), name)
            finals[live_id] = final
        except Exception as error:  # reported below: the benchmark counts failures
            failures.append(f"{live_id} {name}: {error}")

    threads = [
        threading.Thread(target=bot, args=(live_id, name), daemon=True)
        for live_id in ids
        for name in ("alice", "bob")
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, LIMIT_SECONDS - (time.perf_counter() - started)))
    elapsed = time.perf_counter() - started
    finished = [f for f in finals.values() if f["status"] == "finished"]
    latencies = sorted(TimedClient.latencies)
    print(f"{MATCHES} live matches at once, {WORKERS} workers x {THREADS} threads")
    print(f"finished: {len(finished)}/{MATCHES} in {elapsed:.1f} s; bot failures: {len(failures)}")
    for failure in failures[:5]:
        print("  ", failure)
    print(f"actions: {len(latencies)}, {len(latencies) / elapsed:.0f} actions/s")
    if latencies:
        p99 = latencies[int(0.99 * (len(latencies) - 1))]
        print(f"action latency p50 {statistics.median(latencies) * 1000:.1f} ms,")
        print(f"  p99 {p99 * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
    valid = proofs = 0
    for final in finished:
        check = server.json("POST", f"/v1/matches/{final['match_id']}/check", {})
        valid += check["valid"] is True
        proof = server.json("GET", f"/v1/live/{final['id']}/dice")
        proofs += verify_proof(proof, final["id"]) is None
    print(f"records re-checked valid: {valid}/{len(finished)}; proofs verified: {proofs}")


if __name__ == "__main__":
    main()
