"""Bot streams on two instances of one PostgreSQL (issue 30): what one instance makes (a
challenge, the live match it becomes once accepted, an event's live match) reaches the bot
streams on the other, told by the change feed (``LISTEN/NOTIFY``)."""

from __future__ import annotations

import json
import sys
import threading
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.multihost.cluster import Postgres, Tokens, instance
from tests.reliability.gunicorns import call, stop

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="gunicorn instances (Linux)")

PATIENCE = 8.0
"""How long a test waits for a line: less than a bot stream's keep-alive (10 s), after
which the stream reads again anyway, so a stream the feed does not wake fails the test."""


class BotStream(threading.Thread):
    """A bot's stream on one instance: every line it shows, in order."""

    def __init__(self, base: str, token: str) -> None:
        super().__init__(daemon=True)
        headers = {"Authorization": f"Bearer {token}"}
        self.request = urllib.request.Request(f"{base}/v1/bot/stream", headers=headers)
        self.lines: list[dict[str, Any]] = []
        self.changed = threading.Condition()
        self.opened = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with urllib.request.urlopen(self.request, timeout=60) as answer:
                self.opened.set()
                for line in answer:
                    if line.strip():
                        with self.changed:
                            self.lines.append(json.loads(line))
                            self.changed.notify_all()
        except BaseException as error:  # the test reads it
            self.error = error
            self.opened.set()

    def shown(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first line ``wanted`` accepts, once the stream has shown it."""
        with self.changed:
            self.changed.wait_for(lambda: any(wanted(line) for line in self.lines), PATIENCE)
            found = [line for line in self.lines if wanted(line)]
        assert found, f"the stream never showed it: {self.lines}, {self.error}"
        return found[0]


def test_what_one_instance_makes_reaches_the_bot_streams_on_another(
    postgres: Postgres, tmp_path: Path
) -> None:
    url = postgres.fresh()
    tokens = Tokens.create(url)
    maker, streams = instance(url, tmp_path, "maker"), instance(url, tmp_path, "streams")
    try:
        alice, bob = BotStream(streams.base, tokens.alice), BotStream(streams.base, tokens.bob)
        for bot in (alice, bob):
            bot.start()
            assert bot.opened.wait(PATIENCE) and bot.error is None
        body = {"opponent": "bob", "variant": "backgammon", "length": 1}
        status, made = call(maker.base, "POST", "/v1/challenges", body, tokens.alice)
        assert status == 201, made
        told = bob.shown(lambda line: line["type"] == "challenge")
        assert (told["id"], told["from"]) == (made["id"], "alice")
        path = f"/v1/challenges/{made['id']}/accept"
        status, accepted = call(maker.base, "POST", path, None, tokens.bob)
        assert status == 200, accepted
        for bot, side in ((alice, "w"), (bob, "b")):
            match = bot.shown(lambda line: line.get("challenge_id") == made["id"])
            assert match["type"] == "match" and match["live_id"] == accepted["live_id"]
            assert match["side"] == side
        event = {
            "name": "Across",
            "variant": "backgammon",
            "length": 1,
            "format": "swiss",
            "rounds": 1,
            "kind": "bots",
            "move_seconds": 600,
            "entrants": ["alice", "bob"],
        }
        status, created = call(maker.base, "POST", "/v1/events", event, tokens.host)
        assert status == 201, created
        status, started = call(maker.base, "POST", f"/v1/events/{created['id']}/start", None,
                               tokens.host)  # fmt: skip
        assert status == 200, started
        for bot in (alice, bob):
            match = bot.shown(lambda line: line.get("event_id") == created["id"])
            assert match["type"] == "match" and match["round"] == 1
        for server in (maker, streams):
            assert "Traceback" not in server.log.read_text()
    finally:
        stop(maker)
        stop(streams)
