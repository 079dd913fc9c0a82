"""The change feed of the bot streams (topic ``bots``, EVENTS.md §2 and §14): a waiter on
the last announcement's and the last challenge news's ``seq`` wakes when another connection
announces a live match or tells of a challenge (SQLite's poll, PostgreSQL's NOTIFY sent by
the write), and stays asleep while neither moves."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from referee.storage import open_storage
from referee.storage.model.events import EventChange
from referee.storage.model.feed import ANNOUNCEMENTS, BOTS_TOPIC, CHALLENGE_NEWS
from referee.storage.stores import Storage
from tests.storage.conftest import Backend
from tests.storage.test_challenges import challenge
from tests.storage.test_events import pairing, started

PATIENCE = 20.0
"""How long a test waits for what must come (never reached when the feed works)."""


def _marks(storage: Storage) -> dict[int, int]:
    return {
        ANNOUNCEMENTS: storage.events.last_announcement(),
        CHALLENGE_NEWS: storage.challenges.last_news(),
    }


def _elsewhere(backend: Backend, write: Callable[[Storage], object]) -> None:
    """``write`` from a connection of its own, as another worker would."""
    other = open_storage(backend.location)
    try:
        write(other)
    finally:
        other.close()


def _woken(storage: Storage, seen: dict[int, int]) -> dict[int, int]:
    """Wait on the feed until a reading shows other marks than ``seen`` (reading again on
    True only, so a feed that never tells fails); those marks."""
    given_up = time.monotonic() + PATIENCE
    while time.monotonic() < given_up:
        if storage.feed.wait_any(BOTS_TOPIC, seen, 1.0) and _marks(storage) != seen:
            return _marks(storage)
    pytest.fail(f"the feed never told of news after {seen}")


def _announce(event_id: int, live_id: int) -> Callable[[Storage], object]:
    def write(storage: Storage) -> None:
        version = storage.events.versions([event_id])[event_id]
        found = pairing(1, "alpha", "randy", live_ids=(live_id,))
        storage.events.save(EventChange(event_id, version, "running", 1, pairings=(found,)))

    return write


def _woken_by(
    backend: Backend, storage: Storage, write: Callable[[Storage], object]
) -> tuple[dict[int, int], dict[int, int]]:
    """The marks before and after ``write`` from another connection, once the feed woke
    this one's waiter to them."""
    seen = _marks(storage)
    storage.feed.wait_any(BOTS_TOPIC, seen, 0.3)  # a new feed may say "read again"
    later = threading.Timer(0.3, _elsewhere, (backend, write))
    later.start()
    try:
        return seen, _woken(storage, seen)
    finally:
        later.join()


def test_a_bot_waiter_wakes_when_another_connection_announces_a_match(
    backend: Backend, storage: Storage
) -> None:
    seen, now = _woken_by(backend, storage, _announce(started(storage), 7))
    assert now[ANNOUNCEMENTS] > seen[ANNOUNCEMENTS]
    assert now[CHALLENGE_NEWS] == seen[CHALLENGE_NEWS]


def test_a_bot_waiter_wakes_when_another_connection_tells_of_a_challenge(
    backend: Backend, storage: Storage
) -> None:
    seen, now = _woken_by(backend, storage, challenge)
    assert now[CHALLENGE_NEWS] > seen[CHALLENGE_NEWS]


def test_news_stored_between_the_read_and_the_wait_is_not_missed(
    backend: Backend, storage: Storage
) -> None:
    seen = _marks(storage)
    storage.feed.wait_any(BOTS_TOPIC, seen, 0.3)
    _elsewhere(backend, challenge)
    time.sleep(0.3)  # the notification (PostgreSQL) has arrived before the wait
    assert storage.feed.wait_any(BOTS_TOPIC, seen, PATIENCE) is True
    assert _marks(storage) != seen


def test_a_bot_waiter_sleeps_while_nothing_is_announced(storage: Storage) -> None:
    event_id = started(storage)
    seen = _marks(storage)
    storage.feed.wait_any(BOTS_TOPIC, seen, 0.3)
    version = storage.events.versions([event_id])[event_id]
    storage.events.save(EventChange(event_id, version, "running", 1))  # no announcement
    assert storage.feed.wait_any(BOTS_TOPIC, seen, 0.5) is False
    assert challenge(storage, told=False) > 0  # a challenge its policy answered: no news
    assert storage.feed.wait_any(BOTS_TOPIC, seen, 0.5) is False
    assert _marks(storage) == seen
