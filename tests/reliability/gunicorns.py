"""Real gunicorns with the shipped config for the issue 22 tests: started on a chosen port
(a restart binds the same one), their workers, their peak memory, raw HTTP from any
loopback address, and simple bots that survive a server going away."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from tests.server import Server, start


def start_on(
    database: Path,
    port: int | None = None,
    env: dict[str, str] | None = None,
    workers: int = 2,
    log: Path | None = None,
) -> Server:
    """``tests.server.start`` (gunicorn with gunicorn.conf.py, waiting for /healthz) on
    ``port``, a free one when None: a restart binds the port its predecessor had."""
    if port is None:
        return start(database, workers, log, env)
    with mock.patch("tests.server.free_port", lambda: port):
        return start(database, workers, log, env)


def stop(server: Server) -> None:
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


def port_of(server: Server) -> int:
    return int(server.base.rsplit(":", 1)[1])


def workers_of(pid: int) -> list[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children")
    try:
        return [int(child) for child in children.read_text().split()]
    except OSError:
        return []


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def peak_mib(pid: int) -> float:
    """The peak resident memory of a process (VmHWM), MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def raw(port: int, data: bytes, source: str = "127.0.0.1", timeout: float = 10.0) -> bytes:
    """Send ``data`` from ``source`` and read the whole answer (until the server closes
    or ``timeout``)."""
    with socket.create_connection(("127.0.0.1", port), timeout, (source, 0)) as sock:
        sock.sendall(data)
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and _complete(b"".join(chunks)):
                    break
        except TimeoutError:
            pass
        return b"".join(chunks)


def _complete(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return False


def status_and_body(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


def open_stream(
    port: int, path: str, source: str = "127.0.0.1", token: str | None = None, rcvbuf: int = 0
) -> tuple[socket.socket | None, int, bytes]:
    """Open ``GET path`` from ``source`` and read its status: (the socket, left open when
    200, the stream's body unread; the status; the body of a refusal)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(15)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n{auth}\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:  # a byte at a time: what follows the head stays unread
        chunk = sock.recv(1)
        if not chunk:
            break
        head += chunk
    status = int(head.split(b" ", 2)[1]) if head else 0
    if status == 200:
        return sock, status, b""
    answer = head
    try:
        while not _complete(answer):
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    except TimeoutError:
        pass
    sock.close()
    return None, status, answer.partition(b"\r\n\r\n")[2]


@dataclass
class PlayedMatch:
    """What a bot saw of one match: the acknowledged plies (the ply each 200 answered),
    actions whose answer was lost (the server went away) and the final state."""

    live_id: int
    acknowledged: list[int] = field(default_factory=list)
    unanswered: int = 0
    final: dict[str, Any] | None = None
    refused: list[int] = field(default_factory=list)


def call(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    timeout: float = 10,
) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        payload = error.read()
        return error.code, json.loads(payload) if payload else {}


def choose(state: dict[str, Any], rng: Any) -> dict[str, Any]:
    expect = state["expect"]
    if "play" in expect:
        return {"action": "play", "play": rng.choice(state["legal_plays"])}
    if "take" in expect:
        return {"action": "take"}
    return {"action": "roll"}


def play(
    base: str,
    live_id: int,
    tokens: dict[str, str],
    rng: Any,
    until: float,
    pause: float = 0.0,
) -> PlayedMatch:
    """Play both sides of ``live_id`` by reading its state and acting for the side to act,
    going on through connection errors (a server that went away), until it ends or
    ``until`` (a monotonic time)."""
    played = PlayedMatch(live_id)
    while time.monotonic() < until:
        try:
            status, state = call(base, "GET", f"/v1/live/{live_id}")
            if status != 200:
                time.sleep(0.2)
                continue
            if state["status"] != "playing":
                played.final = state
                return played
            action = {"ply": state["ply"], **choose(state, rng)}
            token = tokens[state["to_act"]]
            try:
                status, answer = call(base, "POST", f"/v1/live/{live_id}/actions", action, token)
            except (OSError, urllib.error.URLError, http.client.HTTPException):
                played.unanswered += 1  # committed or not: the next read tells
                time.sleep(0.2)
                continue
            if status == 200:
                played.acknowledged.append(answer["ply"])
            else:
                played.refused.append(status)
            if pause:
                time.sleep(pause)
        except (OSError, urllib.error.URLError, http.client.HTTPException, ValueError):
            time.sleep(0.2)
    return played
