"""kill -9 of the gunicorn master alone, mid-match (issue 22): its workers die with it, a
new master binds the same port at once (as a supervisor restarts it), and every match
finishes with no timeout and no lost acknowledged action, although the service stayed down
for longer than a move's time (LIVE.md §4: deadlines are suspended while no instance
serves; the player to act gets a fresh full move_seconds).

Through real gunicorn with the shipped config (2 gthread workers), bounded (under a minute).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.live.harness import Tokens
from tests.reliability.gunicorns import PlayedMatch, alive, call, play, start_on, stop, workers_of
from tests.server import free_port

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="kills by /proc (Linux)")

MATCHES = 4
MOVE_SECONDS = 4
DOWN_SECONDS = 2 * MOVE_SECONDS + 2
"""Longer than a move's time: without suspension every match would be lost on time."""
ACKNOWLEDGED_BEFORE_KILL = 24


def spectate(base: str, live_id: int, stop: threading.Event) -> None:
    """A spectator following the match's stream, reconnecting when it is cut."""
    import urllib.request

    while not stop.is_set():
        try:
            with urllib.request.urlopen(f"{base}/v1/live/{live_id}/stream", timeout=30) as answer:
                for line in answer:
                    if line.strip() and json.loads(line)["status"] in ("finished", "aborted"):
                        return
        except (OSError, ValueError):
            time.sleep(0.5)


def test_kill_nine_of_the_master_alone_loses_no_match(tmp_path: Path) -> None:
    database = tmp_path / "archive.sqlite3"
    tokens = Tokens.create(database)
    port = free_port()
    server = start_on(database, port)
    players = {"w": tokens.alice, "b": tokens.bob}
    played: list[PlayedMatch] = []
    threads: list[threading.Thread] = []
    done = threading.Event()
    try:
        ids = []
        for _ in range(MATCHES):
            body = {"variant": "backgammon", "length": 0, "move_seconds": MOVE_SECONDS,
                    "players": {"w": "alice", "b": "bob"}}  # fmt: skip
            status, state = call(server.base, "POST", "/v1/live", body, tokens.host)
            assert status == 201, state
            ids.append(state["id"])
            call(server.base, "POST", f"/v1/live/{state['id']}/join", {"seed": "a"}, tokens.alice)
            call(server.base, "POST", f"/v1/live/{state['id']}/join", {"seed": "b"}, tokens.bob)
        until = time.monotonic() + 150
        for number, live_id in enumerate(ids):
            results: list[PlayedMatch] = []
            played_thread = threading.Thread(
                target=lambda i=live_id, n=number, r=results: r.append(
                    play(server.base, i, players, random.Random(n), until)
                )
            )
            played_thread.results = results  # type: ignore[attr-defined]
            threads.append(played_thread)
            for _ in range(2):
                threading.Thread(
                    target=spectate, args=(server.base, live_id, done), daemon=True
                ).start()
        for thread in threads:
            thread.start()
        while time.monotonic() < until:  # mid-match: enough actions acknowledged
            plies = [call(server.base, "GET", f"/v1/live/{i}")[1]["ply"] for i in ids]
            if sum(plies) >= ACKNOWLEDGED_BEFORE_KILL:
                break
            time.sleep(0.1)
        workers = workers_of(server.process.pid)
        assert len(workers) == 2
        os.kill(server.process.pid, signal.SIGKILL)  # the master alone
        server.process.wait()
        killed = time.monotonic()
        while any(alive(pid) for pid in workers) and time.monotonic() - killed < 5:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in workers), "the workers outlived their master"
        time.sleep(DOWN_SECONDS)
        restarting = time.monotonic()
        server = start_on(database, port)  # the same port, bound at once
        assert time.monotonic() - restarting < 15
        for thread in threads:
            thread.join(timeout=max(until - time.monotonic(), 1))
        played = [result for thread in threads for result in thread.results]  # type: ignore[attr-defined]
        assert len(played) == MATCHES
        for match in played:
            final = match.final
            assert final is not None, f"match {match.live_id} did not finish"
            assert final["status"] == "finished"
            assert final["termination"] != "timeout", final
            # no acknowledged action lost: no ply acknowledged twice, and the match has
            # every acknowledged action plus at most the ones whose answer was lost
            assert len(set(match.acknowledged)) == len(match.acknowledged)
            lost_answers = final["ply"] - len(match.acknowledged)
            assert 0 <= lost_answers <= match.unanswered, (final["ply"], match)
            stored = call(server.base, "GET", f"/v1/matches/{final['match_id']}")[1]
            assert stored["verdict"]["valid"]
        log = server.log.read_text()
        assert "Traceback" not in log
    finally:
        done.set()
        stop(server)
