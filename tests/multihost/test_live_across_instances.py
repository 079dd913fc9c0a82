"""Live matches on two instances of one PostgreSQL (issue 19): each match's two bots talk to
different instances, a stream on a third shows every change in order, a kill -9 of one
instance mid-match loses no acknowledged action, and a deadline expires once however many
instances look at it."""

from __future__ import annotations

import json
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.multihost.cluster import (
    Bot,
    Postgres,
    Tokens,
    check_no_acknowledged_action_lost,
    instance,
    new_match,
)
from tests.reliability.gunicorns import call, stop
from tests.reliability.test_crash import kill_9

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="kills by /proc (Linux)")

PATIENCE = 8.0
"""How long a bot waits for the third instance's stream to show the state it acts on: less
than a stream's keepalive (10 s), after which a stream reads its match again anyway, so a
stream that is not woken by another instance's change fails the test."""


class Spectator(threading.Thread):
    """A stream on one instance: every state it shows, in order."""

    def __init__(self, base: str, live_id: int) -> None:
        super().__init__(daemon=True)
        self.url = f"{base}/v1/live/{live_id}/stream"
        self.states: list[dict[str, Any]] = []
        self.changed = threading.Condition()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with urllib.request.urlopen(self.url, timeout=60) as answer:
                for line in answer:
                    if not line.strip():
                        continue
                    with self.changed:
                        self.states.append(json.loads(line))
                        self.changed.notify_all()
        except BaseException as error:  # the test reads it
            self.error = error

    def shown(self, state: dict[str, Any]) -> None:
        """Wait until the stream has shown ``state``'s ply and status."""
        with self.changed:
            seen = self.changed.wait_for(
                lambda: any(
                    (s["ply"], s["status"], s["to_act"])
                    == (state["ply"], state["status"], state["to_act"])
                    for s in self.states[-3:]
                ),
                PATIENCE,
            )
        assert seen, f"the stream never showed ply {state['ply']}: {self.states[-1:]}"


def test_bots_on_two_instances_finish_and_a_third_streams_every_change(
    postgres: Postgres, tmp_path: Path
) -> None:
    url = postgres.fresh()
    tokens = Tokens.create(url)
    servers = [instance(url, tmp_path, name) for name in ("a", "b", "c")]
    a, b, c = (server.base for server in servers)
    try:
        ids = [new_match(a, tokens) for _ in range(2)]
        spectators = {live_id: Spectator(c, live_id) for live_id in ids}
        for spectator in spectators.values():
            spectator.start()
        until = time.monotonic() + 120
        bots = {
            live_id: [
                Bot(live_id, "w", tokens.alice, [a], until, 2 * n, spectators[live_id].shown),
                Bot(live_id, "b", tokens.bob, [b], until, 2 * n + 1, spectators[live_id].shown),
            ]
            for n, live_id in enumerate(ids)
        }
        for pair in bots.values():
            for bot in pair:
                bot.start()
        for live_id, pair in bots.items():
            for bot in pair:
                bot.join(max(until - time.monotonic(), 1))
            finals = [bot.final for bot in pair]
            assert finals[0] is not None and finals[1] is not None, f"{live_id} unfinished"
            assert finals[0]["status"] == "finished" and finals[0] == finals[1]
            assert not [bot.refused for bot in pair if bot.refused]
            check_no_acknowledged_action_lost(finals[0], pair)
            spectator = spectators[live_id]
            spectator.join(30)
            assert spectator.error is None and not spectator.is_alive()
            plies = [state["ply"] for state in spectator.states]
            # every change in order: each ply once at least, never going back, to the end
            assert plies == sorted(plies)
            assert sorted(set(plies)) == list(range(finals[0]["ply"] + 1))
            assert spectator.states[-1] == finals[0]
            # both instances answer the same about the finished match and its record
            assert call(b, "GET", f"/v1/live/{live_id}")[1] == finals[0]
            stored = call(c, "GET", f"/v1/matches/{finals[0]['match_id']}")[1]
            assert stored["verdict"]["valid"]
        for server in servers:
            assert "Traceback" not in server.log.read_text()
    finally:
        for server in servers:
            stop(server)


def test_kill_9_of_an_instance_mid_match_loses_no_acknowledged_action(
    postgres: Postgres, tmp_path: Path
) -> None:
    url = postgres.fresh()
    tokens = Tokens.create(url)
    first, second = instance(url, tmp_path, "first"), instance(url, tmp_path, "second")
    try:
        ids = [new_match(first.base, tokens) for _ in range(3)]
        until = time.monotonic() + 150
        bots = [
            Bot(live_id, side, token, bases, until, 2 * n + (side == "b"))
            for n, live_id in enumerate(ids)
            for side, token, bases in (
                ("w", tokens.alice, [first.base, second.base]),
                ("b", tokens.bob, [second.base, first.base]),
            )
        ]
        for bot in bots:
            bot.start()
        while time.monotonic() < until:  # mid-match: some actions acknowledged
            if sum(len(bot.acknowledged) for bot in bots) >= 30:
                break
            time.sleep(0.05)
        killed = kill_9(first)  # master and workers, while bots talk to it
        assert len(killed) == 3
        for bot in bots:
            bot.join(max(until - time.monotonic(), 1))
        assert all(bot.moved for bot in bots if bot.side == "w")  # they went on elsewhere
        for live_id in ids:
            pair = [bot for bot in bots if bot.live_id == live_id]
            final = pair[0].final
            assert final is not None and final["status"] == "finished", live_id
            assert final["termination"] != "timeout"
            check_no_acknowledged_action_lost(final, pair)
            stored = call(second.base, "GET", f"/v1/matches/{final['match_id']}")[1]
            assert stored["verdict"]["valid"]
        assert "Traceback" not in second.log.read_text()
    finally:
        stop(first)
        stop(second)


def test_a_missed_deadline_expires_once_while_both_instances_look(
    postgres: Postgres, tmp_path: Path
) -> None:
    url = postgres.fresh()
    tokens = Tokens.create(url)
    servers = [instance(url, tmp_path, name) for name in ("one", "two")]
    try:
        ids = [new_match(servers[0].base, tokens, move_seconds=1, length=3) for _ in range(3)]
        before = {i: call(servers[0].base, "GET", f"/v1/live/{i}")[1] for i in ids}
        spectators = {i: Spectator(servers[1].base, i) for i in ids}
        for spectator in spectators.values():
            spectator.start()
        time.sleep(1.5)  # every deadline has passed; nobody acted
        answers: list[dict[str, Any]] = []
        lock = threading.Lock()

        def look(base: str, live_id: int) -> None:
            status, state = call(base, "GET", f"/v1/live/{live_id}")
            assert status == 200, state
            with lock:
                answers.append(state)

        lookers = [
            threading.Thread(target=look, args=(server.base, live_id))
            for live_id in ids
            for server in servers
            for _ in range(4)
        ]
        for looker in lookers:
            looker.start()
        for looker in lookers:
            looker.join(30)
        assert len(answers) == len(lookers)
        for live_id in ids:
            seen = [state for state in answers if state["id"] == live_id]
            assert all(state == seen[0] for state in seen)  # one outcome, whoever looked
            final = seen[0]
            waiting = before[live_id]["to_act"]
            assert final["status"] == "finished" and final["termination"] == "timeout"
            assert final["winner"] == ("b" if waiting == "w" else "w")
            assert final["ply"] == before[live_id]["ply"]  # no action: a timeout, once
            assert [game["termination"] for game in final["games"]] == ["timeout"]
            spectator = spectators[live_id]
            spectator.join(30)
            # the stream saw one change: the state before, then the timeout
            assert [s["status"] for s in spectator.states] == ["playing", "finished"]
            stored = call(servers[1].base, "GET", f"/v1/matches/{final['match_id']}")[1]
            assert stored["verdict"]["valid"]
    finally:
        for server in servers:
            stop(server)
