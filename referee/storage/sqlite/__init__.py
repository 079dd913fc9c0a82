"""The SQLite backend: one file, WAL, STRICT tables, FTS5, sqlite-utils migrations; one
connection per ``Storage``, shared by its stores.

A thread keeps its connection open between uses (``Storage.close`` gives it back): opening
one costs more than most reads, and a worker serves every request of a thread in turn.
SQLite connections are not shared between threads, nor kept across a fork.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from referee.storage.sqlite.challenges import SqliteChallenges
from referee.storage.sqlite.database import DISK, Database
from referee.storage.sqlite.derived import SqliteDerived
from referee.storage.sqlite.events import SqliteEvents
from referee.storage.sqlite.feed import feed
from referee.storage.sqlite.live import SqliteLive
from referee.storage.sqlite.matches import SqliteMatches
from referee.storage.sqlite.ratings import SqliteRatings
from referee.storage.sqlite.rechecks import SqliteRechecks
from referee.storage.sqlite.startup import prepare
from referee.storage.sqlite.tables import SqliteTables
from referee.storage.sqlite.tokens import SqliteTokens
from referee.storage.stores import Storage

__all__ = ["close_kept", "open_storage", "prepare"]

_kept = threading.local()
"""Per thread: the connections given back, by file and process."""


class _Lent:
    """A connection lent to one ``Storage``; closing it gives it back to its thread."""

    def __init__(self, database: Database, key: tuple[str, int]) -> None:
        self.database = database
        self.key = key
        self.returned = False

    def ready(self) -> None:
        self.database.ready()

    def unwritable(self) -> str | None:
        return DISK.why

    def close(self) -> None:
        if self.returned:
            return
        self.returned = True
        database = self.database
        if database.connection.in_transaction:
            database.connection.rollback()
        idle = _idle()
        if self.key in idle or database.degraded:
            database.close()
        else:
            idle[self.key] = database


def _idle() -> dict[tuple[str, int], Database]:
    if not hasattr(_kept, "idle"):
        _kept.idle = {}
    idle: dict[tuple[str, int], Database] = _kept.idle
    return idle


def close_kept() -> None:
    """Close the connections this thread keeps (before another process locks the file
    for itself, say)."""
    idle = _idle()
    for database in idle.values():
        database.close()
    idle.clear()


def open_storage(path: Path) -> Storage:
    """The stores of a connection to the archive file ``prepare`` made: this thread's
    own, given back when the storage is closed, or a new one."""
    key = (str(path), os.getpid())
    database = _idle().pop(key, None)
    if database is None or not path.exists():  # never write on into a file since removed
        database = Database(path)
    return Storage(
        matches=SqliteMatches(database),
        derived=SqliteDerived(database),
        live=SqliteLive(database),
        tokens=SqliteTokens(database),
        rechecks=SqliteRechecks(database),
        tables=SqliteTables(database),
        connection=_Lent(database, key),
        events=SqliteEvents(database),
        ratings=SqliteRatings(database),
        feed=feed(path),
        challenges=SqliteChallenges(database),
    )
