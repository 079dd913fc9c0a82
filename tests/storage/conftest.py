"""The contract suite of storage: every test runs against every backend (``BACKENDS``).

A backend here is what the tests need to know of it beyond the Protocols: where its
storage is, how to hold its locks from another connection, where no storage is. The
PostgreSQL parameters need a server (``tests/storage/postgresql.py``): without one they
skip saying why, and fail under ``REQUIRE_POSTGRESQL=1``.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Protocol

import psycopg
import pytest

import referee.storage.postgresql.database
import referee.storage.sqlite.database
from referee.storage import Location, open_storage, prepare_storage
from referee.storage.model.matches import NewMatch
from referee.storage.sqlite import close_kept
from referee.storage.stores import Storage
from tests.storage.postgresql import required_server


class Backend(Protocol):
    """What the contract tests ask of a backend besides its stores."""

    location: Location

    def locked(self, readers_too: bool = False) -> AbstractContextManager[None]:
        """Another connection holds the write lock (and, ``readers_too``, keeps readers
        out) while the block runs."""

    def missing(self) -> Location:
        """A location where there is no storage at all."""

    def unprepared(self) -> Location:
        """A location where storage exists but was never prepared (no schema)."""

    def close(self) -> None:
        """Let go of what the backend made for the test."""


class SqliteBackend:
    """A file in a temporary folder; storage waits 0.1 s for a lock, so that the tests
    of a busy archive are quick."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(referee.storage.sqlite.database, "BUSY_TIMEOUT_SECONDS", 0.1)
        self.location = folder / "archive.sqlite3"
        self.folder = folder

    @contextmanager
    def locked(self, readers_too: bool = False) -> Iterator[None]:
        if readers_too:  # an exclusive lock needs every connection closed, kept ones too
            close_kept()
        holder = sqlite3.connect(self.location, isolation_level=None)
        try:
            if readers_too:
                holder.execute("PRAGMA locking_mode = EXCLUSIVE")
                holder.execute("BEGIN EXCLUSIVE")
                holder.execute("UPDATE matches SET event = event")
            else:
                holder.execute("BEGIN IMMEDIATE")
            yield
        finally:
            holder.close()

    def missing(self) -> Path:
        return self.folder / "nowhere" / "archive.sqlite3"

    def unprepared(self) -> Path:
        empty = self.folder / "empty.sqlite3"
        empty.touch()
        return empty

    def close(self) -> None:
        close_kept()


LOCKED_TABLES = "matches, tokens, derived, live_matches, live_throws, live_log"


class PostgresBackend:
    """A fresh database on the tests' server; storage waits 0.1 s for a lock."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.server = required_server()
        monkeypatch.setattr(referee.storage.postgresql.database, "LOCK_TIMEOUT_SECONDS", 0.1)
        self.location = self.server.fresh()
        self.made = [self.location]

    @contextmanager
    def locked(self, readers_too: bool = False) -> Iterator[None]:
        mode = "ACCESS EXCLUSIVE" if readers_too else "SHARE ROW EXCLUSIVE"
        with psycopg.connect(self.location) as holder:  # a transaction until the block ends
            holder.execute(f"LOCK TABLE {LOCKED_TABLES} IN {mode} MODE")
            yield

    def missing(self) -> str:
        return self.server.url_for("nardy_no_such_database")

    def unprepared(self) -> str:
        self.made.append(self.server.fresh())
        return self.made[-1]

    def close(self) -> None:
        for made in self.made:
            self.server.drop(made)


BACKENDS: dict[str, Callable[[Path, pytest.MonkeyPatch], Backend]] = {
    "sqlite": SqliteBackend,
    "postgresql": PostgresBackend,
}


ONLY = os.environ.get("NARDY_REFEREE_TEST_BACKEND")
"""``make test`` runs the suite once more on PostgreSQL (NARDY_REFEREE_TEST_BACKEND=postgresql):
then only that backend's parameters."""


@pytest.fixture(params=[ONLY] if ONLY in BACKENDS else sorted(BACKENDS))
def backend(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Backend]:
    """A backend with its storage prepared."""
    made = BACKENDS[request.param](tmp_path, monkeypatch)
    try:
        prepare_storage(made.location)
        yield made
    finally:
        made.close()


@pytest.fixture
def storage(backend: Backend) -> Iterator[Storage]:
    """The stores of one connection to a fresh, empty storage."""
    opened = open_storage(backend.location)
    yield opened
    opened.close()


def new_match(number: int, **fields: Any) -> NewMatch:
    """A match to store, told apart by ``number`` (its key, texts and verdict); the store
    takes the facts as given, so they need not come from a real record."""
    defaults: dict[str, Any] = {
        "sha256": f"{number:064x}",
        "variant": "backgammon",
        "valid": True,
        "players": ("Alice", "Bob"),
        "event": None,
        "site": None,
        "event_date": None,
        "match_length": 5,
        "games": 3,
        "winner": "w",
        "options": {},
        "verdict": {"valid": True, "number": number},
        "original": f"record {number}\n",
        "canonical": f"canonical {number}\n",
        "rules_revision": 1,
        "referee_version": "1.0",
    }
    return NewMatch(**{**defaults, **fields})
