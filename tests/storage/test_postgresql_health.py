"""The PostgreSQL backend's bad days as one process sees them: a read-only database under
many writers opens at most the pool's size of connections of its own, and /readyz answers
503 for the lasting states only (read-only, checked), not for a connection lost once."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest

from referee.errors import StorageUnavailableError
from referee.storage import open_storage, prepare_storage
from referee.storage.postgresql import close_pools
from referee.storage.postgresql import database as _database
from tests.storage.postgresql import Server, required_server

WRITERS = 12
POOL_MAX = 2


@pytest.fixture
def server() -> Server:
    return required_server()


@pytest.fixture
def location(server: Server) -> Iterator[str]:
    url = server.fresh()
    prepare_storage(url)
    yield url
    server.drop(url)


def terminate(location: str) -> None:
    """End every other session on the database: this process's pooled connections."""
    with psycopg.connect(location, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def switch(server: Server, location: str, value: str) -> None:
    """The database's default_transaction_read_only (on: its sessions ended too)."""
    with psycopg.connect(server.url, autocommit=True) as admin:
        admin.execute(
            f'ALTER DATABASE "{server.name(location)}" SET default_transaction_read_only = {value}'
        )
    if value == "on":
        terminate(location)


class Counted:
    """``connect`` counted: how many connections of their own are open at once. Each
    waits, once made, until every writer has made one or given up (``release``), so
    that the writers overlap."""

    def __init__(self, real: Callable[..., psycopg.Connection[Any]]) -> None:
        self.real = real
        self.condition = threading.Condition()
        self.open = self.peak = self.settled = 0
        self.release = threading.Event()

    def __call__(self, url: str, **options: Any) -> psycopg.Connection[Any]:
        connection = self.real(url, **options)
        if not options.get("autocommit"):
            return connection  # unreachable()'s probe, not a write's
        close = connection.close

        def counted_close() -> None:
            with self.condition:
                self.open -= 1
            close()

        connection.close = counted_close  # type: ignore[method-assign]
        with self.condition:
            self.open += 1
            self.peak = max(self.peak, self.open)
            self.settle()
        self.release.wait(timeout=30)
        return connection

    def settle(self) -> None:
        """A writer holds a connection of its own or has given up (call with the lock)."""
        self.settled += 1
        self.condition.notify_all()


def test_a_read_only_database_opens_at_most_the_pools_size_of_own_connections(
    server: Server, location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    close_pools(location)
    monkeypatch.setenv("NARDY_REFEREE_POSTGRESQL_POOL_MAX", str(POOL_MAX))
    storage = open_storage(location)
    storage.tokens.create(("play",))
    switch(server, location, "on")
    for _ in range(3):  # a pooled connection ended first answers "failing over"
        with pytest.raises(StorageUnavailableError) as raised:
            storage.tokens.create(("play",))
        if "read-only" in raised.value.message:
            break  # read-only known: writes go on connections of their own
    assert "read-only" in raised.value.message
    counted = Counted(_database.connect)
    monkeypatch.setattr(_database, "connect", counted)
    answers: list[str] = []

    def write() -> None:
        try:
            storage.tokens.create(("play",))
            answers.append("stored")
        except StorageUnavailableError as error:
            answers.append("read-only" if "read-only" in error.message else error.message)
        finally:
            with counted.condition:
                if not counted.release.is_set():
                    counted.settle()

    writers = [threading.Thread(target=write) for _ in range(WRITERS)]
    for each in writers:
        each.start()
    with counted.condition:  # every writer has a connection of its own or gave up
        counted.condition.wait_for(lambda: counted.settled >= WRITERS, timeout=30)
    counted.release.set()
    for each in writers:
        each.join(timeout=30)
    assert answers == ["read-only"] * WRITERS
    assert 1 <= counted.peak <= POOL_MAX
    switch(server, location, "off")
    monkeypatch.setattr(_database, "connect", counted.real)
    assert storage.tokens.create(("play",)).token.id  # writes succeed after the switch back
    assert storage.tokens.create(("play",)).token.id  # and on the pool's new sessions
    close_pools(location)


def test_a_lost_connection_keeps_the_instance_ready_and_read_only_does_not(
    server: Server, location: str
) -> None:
    storage = open_storage(location)
    storage.ready()
    terminate(location)  # one pooled connection dropped, say by a firewall
    with pytest.raises(StorageUnavailableError) as raised:
        storage.tokens.create(("play",))
    assert raised.value.retry_after == 2  # the write still answers 503 with Retry-After
    storage.ready()  # the database is fine: the instance stays in the balancer
    switch(server, location, "on")
    with pytest.raises(StorageUnavailableError) as refused:
        storage.ready()
    assert "read-only" in refused.value.message
    switch(server, location, "off")
    terminate(location)
    storage.ready()
