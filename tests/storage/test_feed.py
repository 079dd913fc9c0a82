"""The change feed (``ChangeFeed``): a waiter on a live match's version wakes when another
connection saves a change, stays asleep while nothing changes, hears a change saved between
its read and its wait, and (PostgreSQL) is woken when the listening connection is lost,
then hears changes again once it is back."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from referee.storage import open_storage
from referee.storage.model.feed import LIVE_TOPIC
from referee.storage.model.live import LiveChange
from referee.storage.stores import Storage
from tests.storage.conftest import Backend
from tests.storage.test_live import PLAYING, SETUP, WAITING

PATIENCE = 20.0
"""How long a test waits for what must come (never reached when the feed works)."""


def _version(storage: Storage, live_id: int) -> int:
    stored = storage.live.get(live_id)
    assert stored is not None
    return stored.version


def _change(backend: Backend, live_id: int, version: int) -> None:
    """Save a change of the match from a connection of its own, as another worker would."""
    other = open_storage(backend.location)
    try:
        other.live.save(LiveChange(live_id, version, PLAYING, ()))
    finally:
        other.close()


def _woken_to(storage: Storage, live_id: int, seen: int) -> int:
    """Wait on the feed until a reading shows another version than ``seen`` (the caller's
    way: read again on True only, so a feed that never tells fails); that version."""
    given_up = time.monotonic() + PATIENCE
    while time.monotonic() < given_up:
        if not storage.feed.wait(LIVE_TOPIC, live_id, seen, 1.0):
            continue
        now = _version(storage, live_id)
        if now != seen:
            return now
    pytest.fail(f"the feed never told of the change from version {seen}")


def _settled(storage: Storage, live_id: int, seen: int) -> None:
    """Let the feed say once that it may have missed something (it has just started)."""
    storage.feed.wait(LIVE_TOPIC, live_id, seen, 0.3)


def test_a_waiter_wakes_when_another_connection_saves_a_change(
    backend: Backend, storage: Storage
) -> None:
    live_id = storage.live.create(SETUP, WAITING)
    _settled(storage, live_id, 0)
    later = threading.Timer(0.3, _change, (backend, live_id, 0))
    later.start()
    try:
        assert _woken_to(storage, live_id, 0) == 1
    finally:
        later.join()


def test_a_waiter_sleeps_while_nothing_changes(storage: Storage) -> None:
    live_id = storage.live.create(SETUP, WAITING)
    _settled(storage, live_id, 0)
    assert storage.feed.wait(LIVE_TOPIC, live_id, 0, 0.5) is False
    other = storage.live.create(SETUP, WAITING)  # another match's change wakes nobody here
    assert storage.feed.wait(LIVE_TOPIC, live_id, 0, 0.5) is False
    assert _version(storage, other) == 0


def test_a_change_saved_between_the_read_and_the_wait_is_not_missed(
    backend: Backend, storage: Storage
) -> None:
    live_id = storage.live.create(SETUP, WAITING)
    _settled(storage, live_id, 0)
    seen = _version(storage, live_id)
    _change(backend, live_id, seen)
    time.sleep(0.3)  # the notification (PostgreSQL) has arrived before the wait
    assert storage.feed.wait(LIVE_TOPIC, live_id, seen, PATIENCE) is True
    assert _version(storage, live_id) == seen + 1


def test_every_waiter_of_a_match_wakes(backend: Backend, storage: Storage) -> None:
    live_id = storage.live.create(SETUP, WAITING)
    woken: list[int] = []

    def follow() -> None:
        mine = open_storage(backend.location)
        try:
            woken.append(_woken_to(mine, live_id, 0))
        finally:
            mine.close()

    followers = [threading.Thread(target=follow) for _ in range(5)]
    for each in followers:
        each.start()
    time.sleep(0.5)
    _change(backend, live_id, 0)
    for each in followers:
        each.join(PATIENCE + 5)
    assert woken == [1] * 5


def _listeners(admin: psycopg.Connection[tuple[object, ...]], database: str) -> list[int]:
    rows = admin.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
        [database, "nardy-referee feed"],
    ).fetchall()
    return [int(str(row[0])) for row in rows]


def test_a_lost_listening_connection_wakes_every_waiter_and_listens_again(
    backend: Backend, storage: Storage
) -> None:
    if not str(backend.location).startswith("postgresql"):
        pytest.skip("SQLite's feed polls: it has no connection to lose")
    from tests.storage.postgresql import required_server

    server = required_server()
    live_id = storage.live.create(SETUP, WAITING)
    _settled(storage, live_id, 0)
    database = server.name(str(backend.location))
    with psycopg.connect(server.url, autocommit=True) as admin:
        listeners = _listeners(admin, database)
        assert len(listeners) == 1  # one per process, outside the pool
        answers: list[bool] = []
        waiting = threading.Thread(
            target=lambda: answers.append(storage.feed.wait(LIVE_TOPIC, live_id, 0, PATIENCE))
        )
        waiting.start()
        time.sleep(0.3)
        admin.execute("SELECT pg_terminate_backend(%s)", [listeners[0]])
        waiting.join(PATIENCE + 5)
        assert answers == [True]  # woken with nothing changed: it reads again
        assert _version(storage, live_id) == 0
        # listening again (on a new connection, once it is made): a change is heard
        given_up = time.monotonic() + PATIENCE
        again = _listeners(admin, database)
        while again in ([], listeners) and time.monotonic() < given_up:
            time.sleep(0.05)
            again = _listeners(admin, database)
        assert len(again) == 1 and again != listeners
        _settled(storage, live_id, 0)
        _change(backend, live_id, 0)
        assert _woken_to(storage, live_id, 0) == 1
