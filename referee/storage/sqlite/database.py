"""One connection to the SQLite archive file: reads, write transactions that take the
write lock up front, the queue of live writers, and SQLite's errors as the project's.

Several gunicorn workers may write at once: a write takes the lock at its start
(``BEGIN IMMEDIATE``) and waits for it up to ``BUSY_TIMEOUT_SECONDS`` (shorter than any
client or proxy timeout), then fails with ArchiveBusyError (503, try again) instead of
holding the worker. A read that meets a file locked for everyone fails the same way.
"""

from __future__ import annotations

import fcntl
import sqlite3
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path

import sqlite_utils

from referee.errors import ArchiveBusyError, NotReadyError
from referee.storage.errors import StorageError

BUSY_TIMEOUT_SECONDS = 5.0
_BUSY_CODES = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})

Arguments = Sequence[object]


class Database:
    """A connection to the archive file that ``prepare`` made, used by one thread at a
    time (SQLite connections are not shared between threads)."""

    def __init__(self, path: Path) -> None:
        """A missing file is NotReadyError here, never silently created again (empty,
        unmigrated)."""
        uri = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=rw"
        try:
            with translated():
                connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS)
        except StorageError as error:
            raise NotReadyError(f"the archive cannot be opened: {error.__cause__}") from None
        self.connection = connection
        self.path = path

    @property
    def utils(self) -> sqlite_utils.Database:
        """sqlite-utils over this connection (for the migrations)."""
        return sqlite_utils.Database(self.connection)

    def rows(self, sql: str, arguments: Arguments = ()) -> list[sqlite3.Row]:
        """Every row a query answers, read by column name."""
        with translated():
            cursor = self.connection.cursor()
            cursor.row_factory = sqlite3.Row
            return cursor.execute(sql, arguments).fetchall()

    def row(self, sql: str, arguments: Arguments = ()) -> sqlite3.Row | None:
        """The first row a query answers (None: no row)."""
        rows = self.rows(sql, arguments)
        return rows[0] if rows else None

    @contextmanager
    def writing(self, live: bool = False) -> Iterator[sqlite3.Connection]:
        """A write transaction that holds SQLite's write lock from its start, committed
        when the block ends, rolled back when it raises. A ``live`` writer first queues
        on a lock file (``queued``) and commits with ``synchronous=NORMAL`` (WAL: a
        commit survives the process being killed, not a power loss; it spares an fsync
        per action)."""
        connection = self.connection
        with translated():
            # a kept connection serves live and archive writes in turn: say it every time
            connection.execute(f"PRAGMA synchronous = {'NORMAL' if live else 'FULL'}")
            with queued(f"{self.path}.live-lock") if live else nullcontext():
                if connection.in_transaction:
                    connection.commit()
                connection.execute("BEGIN IMMEDIATE")
                try:
                    yield connection
                except BaseException:
                    connection.rollback()
                    raise
                connection.commit()

    def ready(self) -> None:
        """Read from the file: ArchiveBusyError when it cannot be read now, NotReadyError
        when it cannot be read at all (unmigrated, broken)."""
        try:
            self.rows("SELECT count(*) FROM matches")
        except StorageError as error:
            raise NotReadyError(f"the archive cannot be read: {error.__cause__}") from None

    def close(self) -> None:
        self.connection.close()


@contextmanager
def translated() -> Iterator[None]:
    """The one reading of SQLite's errors: locked or busy past the busy timeout is
    ArchiveBusyError (503 with Retry-After); any other is StorageError."""
    try:
        yield
    except sqlite3.Error as error:
        if busy(error):
            raise ArchiveBusyError(
                f"the archive stayed locked by another writer for {BUSY_TIMEOUT_SECONDS:g} s;"
                " try again"
            ) from None
        raise StorageError(f"the archive failed: {error}") from error


def busy(error: sqlite3.Error) -> bool:
    """Whether SQLite gave up waiting for a lock another connection holds."""
    code = getattr(error, "sqlite_errorcode", None)
    return (code is not None and (code & 0xFF) in _BUSY_CODES) or "locked" in str(error)


@contextmanager
def queued(lock_path: str) -> Iterator[None]:
    """Live writers queue on a lock file before they ask SQLite for its write lock: they
    block in the kernel and go on at once when it is free, where SQLite's busy handler
    would sleep and retry (unfairly: seconds of tail latency under many writers)."""
    with open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
