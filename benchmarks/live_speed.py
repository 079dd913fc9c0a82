"""Live play on one box (issue 19): live actions/s with ``MATCHES`` money games in flight
against ``/healthz`` requests/s on the same clients, real gunicorn with the shipped config
(SQLite), side by side with another tree (``--peer``, e.g. a checkout of an earlier commit
with its own ``.venv``) in one run, the trees taking turns.

Each of ``CLIENTS`` client processes holds one keep-alive connection: first it asks
``/healthz`` as fast as it can for ``SECONDS`` s; then it plays its share of the matches,
each action the answer to the state the previous one returned (a closed loop, no streams:
the server's cost of an action, not of following it). Reports requests/s of each phase,
their ratio, the POST p50/p99, and the server's CPU per action (the workers' user + system
time over the phase, from /proc).
Run with ``.venv/bin/python benchmarks/live_speed.py [--peer TREE] [--matches 100]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = 4
SECONDS = 8.0
PLAY_SECONDS = 20.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def environment(tree: Path, **settings: str) -> dict[str, str]:
    """The environment a tree's programs run in: its own packages first (a worktree that
    borrows another tree's ``.venv`` imports its own code, not the owner's)."""
    return {**os.environ, "PYTHONPATH": str(tree), **settings}


def token(tree: Path, database: Path, name: str, scope: str) -> str:
    """A token made by the tree's own command line."""
    command = [
        str(tree / ".venv" / "bin" / "nardy-referee"), "tokens", "--database", str(database),
        "create", "--scope", scope, "--name", name,
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, check=True, cwd=tree, env=environment(tree)
    )
    return done.stdout.strip()


def start(tree: Path, database: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = environment(
        tree,
        NARDY_REFEREE_DATABASE=str(database),
        NARDY_REFEREE_RATE_LIMITS="off",
        NARDY_REFEREE_BIND=f"127.0.0.1:{port}",
    )
    command = [str(tree / ".venv" / "bin" / "gunicorn"), "--config", "gunicorn.conf.py"]
    command += ["--access-logfile", "/dev/null", "wsgi:app"]
    process = subprocess.Popen(
        command, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    for _ in range(300):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return process, port
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{tree}: gunicorn did not start")


def cpu_seconds(master: int) -> float:
    """User + system time of the master's children (the workers) so far."""
    total = 0.0
    for child in Path(f"/proc/{master}/task/{master}/children").read_text().split():
        fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def healthz(port: int) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port)
    done, end = 0, time.monotonic() + SECONDS
    while time.monotonic() < end:
        connection.request("GET", "/healthz")
        connection.getresponse().read()
        done += 1
    return done


def call(connection: http.client.HTTPConnection, path: str, body: Any, secret: str) -> Any:
    headers = {"Authorization": f"Bearer {secret}", "Content-Type": "application/json"}
    connection.request("POST", path, json.dumps(body), headers)
    return json.loads(connection.getresponse().read())


def play(job: tuple[int, list[int], dict[str, str], int]) -> tuple[int, list[float]]:
    """Act in the client's matches in turn until ``PLAY_SECONDS`` have passed."""
    port, live_ids, secrets, seed = job
    rng = random.Random(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port)
    states = {}
    for live_id in live_ids:
        call(connection, f"/v1/live/{live_id}/join", {}, secrets["w"])
        states[live_id] = call(connection, f"/v1/live/{live_id}/join", {}, secrets["b"])
    latencies: list[float] = []
    end = time.monotonic() + PLAY_SECONDS
    while time.monotonic() < end and any(s["status"] == "playing" for s in states.values()):
        for live_id, state in states.items():
            if state["status"] != "playing":
                continue
            expect = state["expect"]
            if "play" in expect:
                action = {"action": "play", "play": rng.choice(state["legal_plays"])}
            elif "take" in expect:
                action = {"action": "take"}
            else:
                action = {"action": "roll"}
            start = time.monotonic()
            secret = secrets[state["to_act"]]
            path = f"/v1/live/{live_id}/actions"
            states[live_id] = call(connection, path, {"ply": state["ply"], **action}, secret)
            latencies.append(time.monotonic() - start)
    return len(latencies), latencies


def measure(tree: Path, matches: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "live.sqlite3"
        host = token(tree, database, "host", "live:host")
        secrets = {"w": token(tree, database, "white", "play")}
        secrets["b"] = token(tree, database, "black", "play")
        process, port = start(tree, database)
        try:
            with Pool(CLIENTS) as pool:
                probes = sum(pool.map(healthz, [port] * CLIENTS))
                connection = http.client.HTTPConnection("127.0.0.1", port)
                body = {
                    "variant": "backgammon",
                    "length": 0,
                    "players": {"w": "white", "b": "black"},
                }
                ids = [call(connection, "/v1/live", body, host)["id"] for _ in range(matches)]
                jobs = [(port, ids[client::CLIENTS], secrets, client) for client in range(CLIENTS)]
                before = cpu_seconds(process.pid)
                started = time.monotonic()
                played = pool.map(play, jobs)
                elapsed = time.monotonic() - started
                cpu = cpu_seconds(process.pid) - before
        finally:
            process.terminate()
            process.wait(timeout=30)
    actions = sum(count for count, _ in played)
    latencies = sorted(latency for _, found in played for latency in found)
    return {
        "healthz/s": probes / SECONDS,
        "actions/s": actions / elapsed,
        "ratio": actions / elapsed / (probes / SECONDS),
        "p50 ms": 1000 * statistics.median(latencies),
        "p99 ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
        "cpu ms/action": 1000 * cpu / actions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--peer", type=Path, help="another tree with its own .venv")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    trees = [ROOT] + ([args.peer.resolve()] if args.peer else [])
    for round_ in range(1, args.rounds + 1):
        for tree in trees:
            figures = measure(tree, args.matches)
            shown = ", ".join(f"{name} {value:,.2f}" for name, value in figures.items())
            print(f"round {round_} {tree}: {shown}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
