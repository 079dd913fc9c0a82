"""Settling a bots event reads only the live matches that may give a result (the Swiss of
200 bots, docs/performance.md): one in play before its deadline is not read, one that
ended is, and its pairing gets the result; and the keeper settles again when a match ends
while it settles."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.events import service as events
from referee.events.keeper import Keeper
from referee.live import service as live
from referee.storage.model.events import StoredEvent
from referee.storage.model.live import StoredLive
from referee.storage.stores import Storage
from tests.events.support import Site, make_site

Pairing = dict[str, Any]


def first_match_played(site: Site) -> tuple[int, Pairing, Pairing]:
    """A Swiss of four bots started, the live match of round 1's first pairing played to
    its end: the event's id, that pairing and the other (its match not begun)."""
    created = site.create(format="swiss", rounds=2, kind="bots", entrants=["b1", "b2", "b3", "b4"])
    event = site.start(created["id"])
    ended, other = event["rounds_played"][0]["pairings"]
    site.play(ended["live_ids"][0], random.Random(3))
    return int(event["id"]), ended, other


@pytest.fixture
def keeperless(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    """A site whose app starts no keeper: the test settles, and nothing before it."""
    monkeypatch.setenv("NARDY_REFEREE_EVENTS_POLL", "0")
    made = make_site(tmp_path)
    yield made
    made.storage.close()


def test_settling_reads_the_ended_live_match_and_not_the_one_in_play(
    keeperless: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = keeperless
    event_id, ended, in_play = first_match_played(site)
    (playing,) = in_play["live_ids"]
    live.join(site.storage, playing, site.bots[in_play["w"]], "")
    assert live.join(site.storage, playing, site.bots[in_play["b"]], "")["status"] == "playing"
    read: list[int] = []
    get = site.storage.live.get

    def counted(live_id: int) -> StoredLive | None:
        read.append(live_id)
        return get(live_id)

    monkeypatch.setattr(site.storage.live, "get", counted)
    events.settle(site.storage, event_id)
    assert read == ended["live_ids"]
    first, second = site.event(event_id)["rounds_played"][0]["pairings"]
    assert first["status"] == "finished" and first["winner"] in (ended["w"], ended["b"])
    assert second["status"] == "playing"


def test_a_live_match_that_ends_while_the_keeper_settles_is_taken_at_its_next_look(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id, _, last = first_match_played(site)
    settle = events.settle

    looking = threading.current_thread()

    def settled_as_the_last_match_ends(storage: Storage, event_id: int) -> None:
        settle(storage, event_id)  # it read the last match still waiting for its bots
        if threading.current_thread() is looking:  # not the app's own keeper thread
            site.play(last["live_ids"][0], random.Random(4))

    keeper = Keeper(site.app.config["DATABASE"], poll=0)
    monkeypatch.setattr(events, "settle", settled_as_the_last_match_ends)
    assert keeper.look(site.storage)
    monkeypatch.setattr(events, "settle", settle)
    keeper.look(site.storage)
    stored = site.storage.events.get(event_id)
    assert stored is not None and stored.round == 2  # round 1 decided, round 2 paired


def test_the_event_now_is_read_once_when_nothing_is_to_settle(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id, ended, _ = first_match_played(site)
    reads: list[int] = []
    get = site.storage.events.get

    def counted(wanted: int) -> StoredEvent | None:
        reads.append(wanted)
        return get(wanted)

    monkeypatch.setattr(site.storage.events, "get", counted)
    settled = events.now(site.storage, event_id)  # the ended match is taken: read again
    first = settled.pairings[0]
    assert first.live_ids == tuple(ended["live_ids"]) and first.status == "finished"
    assert len(reads) > 1
    reads.clear()
    assert events.now(site.storage, event_id) == settled
    assert reads == [event_id]
