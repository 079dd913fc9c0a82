"""The SQLite backend: one file, WAL, STRICT tables, FTS5, sqlite-utils migrations; one
connection per ``Storage``, shared by its stores (``referee.storage.assembly``): the
connection (``database.py``), its SQL where it differs (``dialect.py``), the schema
(``migrations.py``, and ``startup.py`` on a disk that cannot be written) and the change
feed (``feed.py``).

A thread keeps its connection open between uses (``Storage.close`` gives it back): opening
one costs more than most reads, and a worker serves every request of a thread in turn.
SQLite connections are not shared between threads, nor kept across a fork.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from pathlib import Path

from referee.storage.assembly import assemble
from referee.storage.sqlite.database import DISK, Database
from referee.storage.sqlite.dialect import DIALECT
from referee.storage.sqlite.feed import feed
from referee.storage.sqlite.startup import prepare
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


class _Idle(dict[tuple[str, int], Database]):
    """One thread's connections given back, by file and process. They are closed when the
    thread ends (its locals go), not whenever the collector comes by: an idle connection
    still holds the file open, and another process's exclusive lock waits for it."""

    def __del__(self) -> None:
        for (_, pid), database in self.items():
            if pid != os.getpid():  # a forked child leaves its parent's connections be
                continue
            # Freed by another thread (a daemon thread's, at exit): left to the collector.
            with contextlib.suppress(sqlite3.ProgrammingError):
                database.close()


def _idle() -> _Idle:
    if not hasattr(_kept, "idle"):
        _kept.idle = _Idle()
    idle: _Idle = _kept.idle
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
    return assemble(database, DIALECT, _Lent(database, key), feed(path))
