"""An app on a fresh archive with the tokens of two hosts and five bots, and helpers to
play an event's live matches in process (at random, as the tests' bots do), to
submit records, and to wait for what must happen."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from referee.app import create_app
from referee.live import service as live
from referee.storage import open_storage
from referee.storage.model.tokens import Token
from referee.storage.stores import Storage
from tests.api.support import archive_at
from tests.bot_choice import quiet_play

BOTS = ("b1", "b2", "b3", "b4", "b5")


def until(what: Callable[[], Any], timeout: float) -> Any:
    """Poll ``what`` until it answers something true (failing after ``timeout`` seconds);
    that answer."""
    deadline = time.monotonic() + timeout
    while True:
        found = what()
        if found:
            return found
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.02)


@dataclass
class Site:
    app: Flask
    client: FlaskClient
    storage: Storage
    host: str
    other_host: str
    bots: dict[str, Token]
    secrets: dict[str, str]

    def auth(self, secret: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {secret or self.host}"}

    def create(self, **body: Any) -> dict[str, Any]:
        event = {"name": "test", "variant": "backgammon", "length": 1, **body}
        answer = self.client.post("/v1/events", json=event, headers=self.auth())
        assert answer.status_code == 201, answer.get_json()
        found: dict[str, Any] = answer.get_json()
        return found

    def start(self, event_id: int) -> dict[str, Any]:
        answer = self.client.post(f"/v1/events/{event_id}/start", headers=self.auth())
        assert answer.status_code == 200, answer.get_json()
        found: dict[str, Any] = answer.get_json()
        return found

    def event(self, event_id: int) -> dict[str, Any]:
        found: dict[str, Any] = self.client.get(f"/v1/events/{event_id}").get_json()
        return found

    def play(self, live_id: int, rng: random.Random) -> dict[str, Any]:
        """Both bots join and play the live match at random (``quiet_play``) to its end."""
        state = live.state(self.storage, live_id)
        players = state["players"]
        if state["status"] == "waiting":
            live.join(self.storage, live_id, self.bots[players["w"]], "w-seed")
            state = live.join(self.storage, live_id, self.bots[players["b"]], "")
        while state["status"] == "playing":
            token = self.bots[players[state["to_act"]]]
            if "play" in state["expect"]:
                details = {"play": quiet_play(rng, state["legal_plays"])}
                state = live.act(self.storage, live_id, token, state["ply"], "play", details)
            else:
                state = live.act(self.storage, live_id, token, state["ply"], "roll", {})
        return state

    def play_round(self, event_id: int, seed: int = 0) -> dict[str, Any]:
        """Play every live match of the current round; the event afterwards."""
        rng = random.Random(seed)
        event = self.event(event_id)
        for pairing in event["rounds_played"][-1]["pairings"]:
            for live_id in pairing["live_ids"]:
                self.play(live_id, rng)
        return self.event(event_id)

    def play_out(self, event_id: int, seed: int = 0) -> dict[str, Any]:
        event = self.event(event_id)
        while event["status"] == "running":
            seed += 1
            event = self.play_round(event_id, seed)
        return event


def make_site(folder: Path, **config: Any) -> Site:
    """A site on a new archive: a file in ``folder``, or a fresh PostgreSQL database under
    NARDY_REFEREE_TEST_BACKEND=postgresql (``tests.api.support.archive_at``)."""
    database = archive_at(folder)
    app = create_app({"DATABASE": database, **config})
    storage = open_storage(database)
    host = storage.tokens.create(("live:host",), "director").secret
    other_host = storage.tokens.create(("live:host",), "other").secret
    issued = {name: storage.tokens.create(("play",), name) for name in BOTS}
    return Site(
        app,
        app.test_client(),
        storage,
        host,
        other_host,
        {name: found.token for name, found in issued.items()},
        {name: found.secret for name, found in issued.items()},
    )
