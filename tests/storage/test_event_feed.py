"""An event's storage for following it (EVENTS.md §9, §10): the change feed wakes a waiter
on an event's version when another connection saves a change of it (SQLite's poll,
PostgreSQL's NOTIFY sent by the save), and stays asleep while nothing changes; the
versions read by id; and an announced live match's seat (event, round, table)."""

from __future__ import annotations

import threading
import time

import pytest

from referee.storage import open_storage
from referee.storage.model.events import EventChange, EventSeat
from referee.storage.model.feed import EVENT_TOPIC
from referee.storage.stores import Storage
from tests.storage.conftest import Backend
from tests.storage.test_events import SETUP, pairing, started

PATIENCE = 20.0
"""How long a test waits for what must come (never reached when the feed works)."""


def _version(storage: Storage, event_id: int) -> int:
    return storage.events.versions([event_id])[event_id]


def _change(backend: Backend, event_id: int, version: int) -> None:
    """Save a change of the event from a connection of its own, as another worker would."""
    other = open_storage(backend.location)
    try:
        other.events.save(EventChange(event_id, version, "running", 1))
    finally:
        other.close()


def test_a_waiter_on_an_event_wakes_when_another_connection_saves_a_change(
    backend: Backend, storage: Storage
) -> None:
    event_id = started(storage)
    seen = _version(storage, event_id)
    storage.feed.wait(EVENT_TOPIC, event_id, seen, 0.3)  # a new feed may say "read again"
    later = threading.Timer(0.3, _change, (backend, event_id, seen))
    later.start()
    try:
        given_up = time.monotonic() + PATIENCE
        while time.monotonic() < given_up:  # read again on True only: a silent feed fails
            moved = storage.feed.wait(EVENT_TOPIC, event_id, seen, 1.0)
            if moved and _version(storage, event_id) != seen:
                break
        else:
            pytest.fail("the feed never told of the event's change")
    finally:
        later.join()
    assert _version(storage, event_id) == seen + 1


def test_a_waiter_on_an_event_sleeps_while_nothing_changes(storage: Storage) -> None:
    event_id = started(storage)
    other = started(storage)
    seen = _version(storage, event_id)
    storage.feed.wait(EVENT_TOPIC, event_id, seen, 0.3)
    storage.events.save(EventChange(other, _version(storage, other), "running", 1))
    assert storage.feed.wait(EVENT_TOPIC, event_id, seen, 0.5) is False


def test_versions_and_seats(storage: Storage) -> None:
    event_id = started(storage)
    assert storage.events.versions([event_id, event_id + 9]) == {event_id: 1}
    storage.events.save(
        EventChange(
            event_id, 1, "running", 1, pairings=(pairing(1, "alpha", "randy", live_ids=(7,)),)
        )
    )
    assert storage.events.seat(7) == EventSeat(event_id, SETUP.name, 1, 1)
    assert storage.events.seat(8) is None
    assert EventSeat(event_id, "A\nB", 2, 3).tags(leg=2) == {
        "Event": "A B",
        "EventId": str(event_id),
        "Round": "2",
        "Table": "3",
        "Leg": "2",
    }
