"""A real gunicorn serving the app on a free loopback port, for end-to-end tests."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.storage import open_storage, prepare_storage

ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT = 30.0


def write_token(database: Path, name: str | None = None, scope: str = "archive:write") -> str:
    """The secret of a new token with ``scope`` on ``database`` (migrated if new)."""
    prepare_storage(database)
    storage = open_storage(database)
    try:
        return storage.tokens.create((scope,), name).secret
    finally:
        storage.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    """A running gunicorn and how to talk to it."""

    base: str
    process: subprocess.Popen[bytes]
    log: Path

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        accept: str = "application/json",
        timeout: float = 60.0,
    ) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, body) of one request; errors are answers, not exceptions."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": accept}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def json(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        status, _, payload = self.request(method, path, body, token)
        assert status < 500, payload
        return json.loads(payload)

    def probe_healthz(self, probes: int, interval: float = 0.25, timeout: float = 2.0) -> int:
        """How many of ``probes`` ``GET /healthz``, one every ``interval`` seconds (the next
        at once after a slow one), were answered 200 within ``timeout`` seconds."""
        answered = 0
        for _ in range(probes):
            started = time.monotonic()
            with contextlib.suppress(OSError):  # urllib's URLError and timeouts are OSErrors
                answered += self.request("GET", "/healthz", timeout=timeout)[0] == 200
            time.sleep(max(0.0, interval - (time.monotonic() - started)))
        return answered


def start(
    database: Path,
    workers: int = 2,
    log: Path | None = None,
    env: dict[str, str] | None = None,
) -> Server:
    """Start gunicorn on ``database`` (``env``: more environment) and wait for /healthz."""
    port = free_port()
    log = log or database.with_suffix(".log")
    env = {**os.environ, "NARDY_REFEREE_DATABASE": str(database), **(env or {})}
    command = [
        sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
        "--workers", str(workers), "--bind", f"127.0.0.1:{port}", "wsgi:app",
    ]  # fmt: skip
    with log.open("ab") as output:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=output)
    server = Server(f"http://127.0.0.1:{port}", process, log)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            if server.request("GET", "/healthz", timeout=2)[0] == 200:
                return server
        except OSError:
            pass
        if process.poll() is not None:
            break
        time.sleep(0.1)
    stop(server)
    raise RuntimeError(f"gunicorn did not start: {log.read_text()[-2000:]}")


GRACEFUL_SECONDS = 30
"""gunicorn.conf.py's ``graceful_timeout``: a worker still booting when the master is told
to stop never hears it, and is killed by the master after this long."""


def stop(server: Server, kill: bool = False) -> None:
    """Stop gunicorn: gracefully (the master's own bound, and some seconds more for it to
    kill a worker that did not hear it), or at once with ``kill``."""
    if server.process.poll() is None:
        if kill:
            server.process.kill()
        else:
            server.process.terminate()
        try:
            server.process.wait(timeout=GRACEFUL_SECONDS + 15)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=15)


@contextmanager
def running(database: Path, workers: int = 2) -> Iterator[Server]:
    server = start(database, workers)
    try:
        yield server
    finally:
        stop(server)
