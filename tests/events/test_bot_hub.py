"""The bot streams' hub (referee/events/hub.py): one process's bot streams are handed
their lines by one reading of each change (a query per kind of news, whatever the number
of streams); many streams, several of one bot, the lines of events and of challenges; a
stream that leaves is forgotten and the others go on; a revoked token ends its stream and
only it. On either backend (the site fixture)."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.events.hub import BotHub, hub
from referee.events.stream import matches_for
from referee.http.streams import StreamLimits
from referee.storage import open_storage
from referee.storage.stores import Storage
from tests.events.support import Site, make_site, until

DEADLINE = 30.0
"""Seconds a wait for what must happen may take (far above what it takes)."""
LOOK_SECONDS = 0.05
"""How often a reader asks whether it is told to stop."""


class Reader(threading.Thread):
    """One bot stream (``matches_for``, on a storage of its own) read in a thread of its
    own, noting every line until it is stopped; it is its own stream's check."""

    def __init__(self, site: Site, name: str) -> None:
        super().__init__(daemon=True)
        self.location = site.app.config["DATABASE"]
        self.name = name
        self.lines: list[dict[str, Any]] = []
        self.stopping = threading.Event()

    def alive(self, storage: Storage) -> bool:
        return not self.stopping.is_set()

    def wait_seconds(self, seconds: float) -> float:
        return min(seconds, LOOK_SECONDS)

    def run(self) -> None:
        storage = open_storage(self.location)
        lines = matches_for(hub(self.location), storage, self.name, self)
        try:
            for found in lines:
                if found is not None:
                    self.lines.append(found)
        finally:
            lines.close()
            storage.close()

    def stop(self) -> None:
        self.stopping.set()
        self.join(DEADLINE)
        assert not self.is_alive()


@contextmanager
def reading(site: Site, names: list[str]) -> Iterator[list[Reader]]:
    """A reader per name in ``names`` (a name twice: two streams of one bot), each joined
    at the hub before the block; all stopped after it."""
    readers = [Reader(site, name) for name in names]
    the_hub = hub(site.app.config["DATABASE"])
    try:
        for reader in readers:
            reader.start()
        until(lambda: held(the_hub) == len(readers), DEADLINE)
        yield readers
    finally:
        for reader in readers:
            reader.stop()


def held(the_hub: BotHub) -> int:
    """How many streams the hub holds."""
    with the_hub.lock:
        return sum(len(streams) for streams in the_hub.streams.values())


def event_lines(site: Site, entrants: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Start a knockout of ``entrants`` (one round of live matches); the match line each
    entrant is owed, as EVENTS.md §2 says it from the event's pairings."""
    created = site.create(format="knockout", kind="bots", entrants=entrants)
    event = site.start(created["id"])
    owed: dict[str, list[dict[str, Any]]] = {name: [] for name in entrants}
    for pairing in event["rounds_played"][0]["pairings"]:
        (live_id,) = pairing["live_ids"]
        for side, name, opponent in (
            ("w", pairing["w"], pairing["b"]),
            ("b", pairing["b"], pairing["w"]),
        ):
            owed[name].append(
                {"type": "match", "live_id": live_id, "event_id": event["id"], "round": 1,
                 "side": side, "table": pairing["table"], "opponent": opponent,
                 "challenge_id": None}
            )  # fmt: skip
    return owed


def has_lines(readers: list[Reader], count: int) -> bool:
    return all(len(reader.lines) >= count for reader in readers)


def test_every_stream_of_every_bot_is_handed_its_own_lines_once(site: Site) -> None:
    names = ["b1", "b2", "b3", "b4"] * 3
    with reading(site, names) as readers:
        first = event_lines(site, ["b1", "b2", "b3", "b4"])
        # each has read what waited when it opened: from now on lines are handed
        until(lambda: has_lines(readers, 1), DEADLINE)
        second = event_lines(site, ["b4", "b3", "b2", "b1"])
        until(lambda: has_lines(readers, 2), DEADLINE)
        for reader in readers:
            assert reader.lines == first[reader.name] + second[reader.name], reader.name


def test_a_challenge_and_its_match_are_handed_to_both_bots(site: Site) -> None:
    with reading(site, ["b1", "b2", "b2", "b3"]) as readers:
        waiting = event_lines(site, ["b1", "b2"])  # b3 is in nothing: told nothing
        until(lambda: has_lines(readers[:3], 1), DEADLINE)
        made = site.client.post(
            "/v1/challenges",
            json={"opponent": "b2", "variant": "backgammon", "length": 3},
            headers=site.auth(site.secrets["b1"]),
        ).get_json()
        until(lambda: has_lines(readers[1:3], 2), DEADLINE)
        for reader in readers[1:3]:
            told = reader.lines[1]
            assert (told["type"], told["id"], told["from"]) == ("challenge", made["id"], "b1")
        accepted = site.client.post(
            f"/v1/challenges/{made['id']}/accept", headers=site.auth(site.secrets["b2"])
        ).get_json()
        until(lambda: has_lines(readers[:1], 2) and has_lines(readers[1:3], 3), DEADLINE)
        match = {"type": "match", "live_id": accepted["live_id"], "event_id": None,
                 "round": None, "table": None, "challenge_id": made["id"]}  # fmt: skip
        assert readers[0].lines == [*waiting["b1"], {**match, "side": "w", "opponent": "b2"}]
        for reader in readers[1:3]:
            assert reader.lines[2] == {**match, "side": "b", "opponent": "b1"}
            assert len(reader.lines) == 3
        assert readers[3].lines == []


def test_a_stream_that_leaves_is_forgotten_and_the_others_go_on(site: Site) -> None:
    the_hub = hub(site.app.config["DATABASE"])
    with reading(site, ["b1", "b1", "b2"]) as readers:
        first = event_lines(site, ["b1", "b2"])
        until(lambda: has_lines(readers, 1), DEADLINE)
        readers[0].stop()
        assert held(the_hub) == 2
        second = event_lines(site, ["b2", "b1"])
        until(lambda: has_lines(readers[1:], 2), DEADLINE)
        assert readers[0].lines == first["b1"]
        assert readers[1].lines == first["b1"] + second["b1"]
        assert readers[2].lines == first["b2"] + second["b2"]
    assert held(the_hub) == 0
    until(lambda: not the_hub.running, DEADLINE)  # its thread stops with its last stream


def test_a_revoked_token_ends_its_stream_and_no_other(tmp_path: Path) -> None:
    """Through ``GET /v1/bot/stream``: the guard looks at the token again (here every
    0.05 s) and ends the stream; the hub forgets it, another bot's stream is still
    handed its lines."""
    site = make_site(tmp_path, STREAM_LIMITS=StreamLimits(recheck_seconds=0.05))
    chunks: dict[str, list[bytes]] = {"b1": [], "b2": []}

    def read(name: str) -> None:
        client = site.app.test_client()  # one of its own: the stream's context is its thread's
        headers = site.auth(site.secrets[name])
        for chunk in client.get("/v1/bot/stream", headers=headers, buffered=False).response:
            chunks[name].append(chunk)

    threads = {name: threading.Thread(target=read, args=(name,), daemon=True) for name in chunks}
    the_hub = hub(site.app.config["DATABASE"])
    try:
        for thread in threads.values():
            thread.start()
        until(lambda: held(the_hub) == 2, DEADLINE)
        assert site.storage.tokens.revoke(site.bots["b1"].id)
        threads["b1"].join(DEADLINE)
        assert not threads["b1"].is_alive()  # the stream ended
        assert held(the_hub) == 1
        owed = event_lines(site, ["b2", "b3"])
        until(lambda: b"live_id" in b"".join(chunks["b2"]), DEADLINE)
        assert json.loads(b"".join(chunks["b2"])) == owed["b2"][0]
        assert b"".join(chunks["b1"]).strip() == b""
    finally:
        for bot in ("b1", "b2"):
            site.storage.tokens.revoke(site.bots[bot].id)
        for thread in threads.values():
            thread.join(DEADLINE)
        site.storage.close()
    assert held(the_hub) == 0


class Counted:
    """A store whose every method called is counted, by name."""

    def __init__(self, store: object) -> None:
        self.store = store
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.store, name)

        def counted(*arguments: Any) -> Any:
            self.calls[name] += 1
            return method(*arguments)

        return counted


def test_one_reading_of_a_change_serves_every_stream(site: Site) -> None:
    """A round paired and a challenge made: the hub reads the announcements once and the
    news once for its eight streams of four bots, and hands each its lines."""
    the_hub = BotHub(site.app.config["DATABASE"])
    the_hub.running = True  # no thread of its own: the test reads for it
    joined = [the_hub.join(site.storage, name) for name in ["b1", "b2", "b3", "b4"] * 2]
    owed = event_lines(site, ["b1", "b2", "b3", "b4"])
    made = site.client.post(
        "/v1/challenges",
        json={"opponent": "b1", "variant": "backgammon", "length": 3},
        headers=site.auth(site.secrets["b5"]),
    ).get_json()
    events, challenges = Counted(site.storage.events), Counted(site.storage.challenges)
    the_hub.read(replace(site.storage, events=events, challenges=challenges))  # type: ignore[arg-type]
    assert (events.calls["announced_since"], challenges.calls["news_since"]) == (1, 1)
    assert (events.calls["announced"], challenges.calls["news"]) == (0, 0)
    for each in joined:
        lines = each.take()
        assert lines[: len(owed[each.name])] == owed[each.name], each.name
        told = [(found["type"], found["id"], found["from"]) for found in lines[1:]]
        assert told == ([("challenge", made["id"], "b5")] if each.name == "b1" else [])
