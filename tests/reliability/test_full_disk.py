"""A full or read-only disk (issue 22), through real gunicorn with the shipped config: the
archive on a small tmpfs that is filled up (then remounted read-only). Writes are 503
``storage_unavailable`` with Retry-After, reads are served, /readyz says why, nothing is a
500; the server starts on the full disk; when space returns it writes again by itself,
without a restart. Needs root (it mounts a tmpfs); bounded (about half a minute)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.storage.sqlite import close_kept
from tests.reliability.gunicorns import start_on, stop
from tests.server import ROOT, Server, write_token

RECORD = (ROOT / "examples" / "backgammon_match.mat").read_text()
OTHER = (ROOT / "examples" / "long_nardy_match.mat").read_text()
THIRD = (ROOT / "examples" / "khachapuri_match.mat").read_text()
RECOVERY_SECONDS = 15.0


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 16 MiB tmpfs, unmounted afterwards."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(folder: Path) -> Path:
    """Fill the file system of ``folder`` to the last byte."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as output:
        try:
            while True:
                output.write(b"\0" * 65536)

        except OSError:
            pass
        for size in (4096, 512, 1):
            try:
                while True:
                    output.write(b"\0" * size)

            except OSError:
                pass
    return filler


def answer(server: Server, method: str, path: str, body: object = None, token: str | None = None,
           text: str | None = None) -> tuple[int, dict[str, str], object]:  # fmt: skip
    if text is not None:
        import urllib.error
        import urllib.request

        headers = {"Content-Type": "text/plain", "Authorization": f"Bearer {token}"}
        request = urllib.request.Request(server.base + path, text.encode(), headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, dict(response.headers), json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), json.loads(error.read())
    status, headers, payload = server.request(method, path, body, token, timeout=30)
    return status, headers, json.loads(payload) if payload else None


def assert_read_only(
    server: Server,
    token: str,
    host: str,
    players: dict[str, str],
    why: str,
    stored: int = 1,
    record: str = OTHER,
) -> None:
    """Reads served; writes, a live action among them, 503 storage_unavailable; /readyz
    503 saying ``why``; no 500."""
    assert server.request("GET", "/healthz")[0] == 200
    status, _, problem = answer(server, "GET", "/readyz")
    assert status == 503 and problem["code"] == "storage_unavailable", problem  # type: ignore[index]
    assert why in problem["detail"], problem  # type: ignore[index]
    status, _, found = answer(server, "GET", "/v1/matches")
    assert status == 200 and len(found["matches"]) == stored, found  # type: ignore[index]
    assert answer(server, "GET", "/v1/matches/1")[0] == 200
    assert answer(server, "GET", "/v1/live/1")[0] == 200
    status, headers, problem = answer(server, "POST", "/v1/matches", token=token, text=record)
    assert status == 503 and problem["code"] == "storage_unavailable", problem  # type: ignore[index]
    assert int(headers["Retry-After"]) > 0
    body = {"variant": "backgammon", "players": {"w": "alice", "b": "bob"}}
    status, _, problem = answer(server, "POST", "/v1/live", body, host)
    assert status == 503 and problem["code"] == "storage_unavailable", problem  # type: ignore[index]
    state = answer(server, "GET", "/v1/live/1")[2]
    assert state["status"] == "playing", state  # type: ignore[index]
    expect = state["expect"]  # type: ignore[index]
    action = {"ply": state["ply"], "action": "roll"}  # type: ignore[index]
    if "play" in expect:
        action = {**action, "action": "play", "play": state["legal_plays"][0]}  # type: ignore[index]
    to_act = players[state["to_act"]]  # type: ignore[index]
    status, _, problem = answer(server, "POST", "/v1/live/1/actions", action, to_act)
    assert (status, problem["code"]) == (503, "storage_unavailable"), problem  # type: ignore[index]


def until_writable(server: Server, token: str, text: str = OTHER) -> float:
    """Seconds until a write succeeds again (and /readyz says ready)."""
    started = time.monotonic()
    while time.monotonic() - started < RECOVERY_SECONDS:
        status, _, _ = answer(server, "POST", "/v1/matches", token=token, text=text)
        assert status in (200, 201, 503)
        if status != 503 and server.request("GET", "/readyz")[0] == 200:
            return time.monotonic() - started
        time.sleep(0.5)
    raise AssertionError("the server did not write again after the disk recovered")


def test_a_full_then_read_only_disk(disk: Path) -> None:
    database = disk / "archive.sqlite3"
    log = disk.parent / "gunicorn.log"  # not on the disk that fills up
    token = write_token(database)
    host = write_token(database, "director", "live:host")
    alice = write_token(database, "alice", "play")
    bob = write_token(database, "bob", "play")
    server = start_on(database, log=log)
    try:
        assert answer(server, "POST", "/v1/matches", token=token, text=RECORD)[0] == 201
        body = {"variant": "backgammon", "players": {"w": "alice", "b": "bob"}}
        assert answer(server, "POST", "/v1/live", body, host)[0] == 201
        answer(server, "POST", "/v1/live/1/join", {"seed": "a"}, alice)
        assert answer(server, "POST", "/v1/live/1/join", {"seed": "b"}, bob)[0] == 200
        players = {"w": alice, "b": bob}
        filler = fill(disk)
        assert_read_only(server, token, host, players, "full")
        stop(server)
        server = start_on(database, log=log)  # a start on the full disk works
        assert_read_only(server, token, host, players, "full")
        filler.unlink()
        recovered = until_writable(server, token)
        print(f"writes again {recovered:.1f} s after the disk had room")
        stop(server)  # a file system with files open for writing cannot turn read-only
        close_kept()  # this thread's connection (write_token's)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        try:
            server = start_on(database, log=log)  # a start on a read-only disk works
            assert_read_only(server, token, host, players, "read-only", 2, THIRD)
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)
        recovered = until_writable(server, token, THIRD)
        print(f"writes again {recovered:.1f} s after the disk turned read-write")
        status, _, found = answer(server, "GET", "/v1/matches")
        assert status == 200 and len(found["matches"]) == 3  # type: ignore[index]
        # each record was stored once, on recovery; this one is a duplicate
        assert answer(server, "POST", "/v1/matches", token=token, text=OTHER)[0] == 200
    finally:
        stop(server)
    log = log.read_text()
    assert " 500 " not in log and "Traceback" not in log, log[-3000:]
