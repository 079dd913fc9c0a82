"""The contract suite of storage: every test runs against every backend (``BACKENDS``).

A backend here is what the tests need to know of it beyond the Protocols: where its
storage is, how to hold its locks from another connection, where no storage is. Adding
PostgreSQL is adding its name to ``BACKENDS`` and a class like ``SqliteBackend``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Protocol

import pytest

import referee.storage.sqlite.database
from referee.storage import Location, open_storage, prepare_storage
from referee.storage.model import NewMatch
from referee.storage.sqlite import close_kept
from referee.storage.stores import Storage


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


BACKENDS: dict[str, Callable[[Path, pytest.MonkeyPatch], Backend]] = {"sqlite": SqliteBackend}


@pytest.fixture(params=sorted(BACKENDS))
def backend(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Backend:
    """A backend with its storage prepared."""
    made = BACKENDS[request.param](tmp_path, monkeypatch)
    prepare_storage(made.location)
    return made


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
