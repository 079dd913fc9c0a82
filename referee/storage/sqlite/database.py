"""One connection to the SQLite archive file: reads, write transactions that take the
write lock up front, the queue of live writers, and SQLite's errors as the project's: the
``Database`` the stores are written against (``referee.storage.sql``).

Several gunicorn workers may write at once: a write takes the lock at its start
(``BEGIN IMMEDIATE``) and waits for it up to ``BUSY_TIMEOUT_SECONDS`` (shorter than any
client or proxy timeout), then fails with ArchiveBusyError (503, try again) instead of
holding the worker. A read that meets a file locked for everyone fails the same way.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path

import sqlite_utils

from referee.errors import ArchiveBusyError, NotReadyError, StorageUnavailableError
from referee.storage.errors import StorageError
from referee.storage.sql import Arguments, marks

BUSY_TIMEOUT_SECONDS = 5.0
_BUSY_CODES = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})
PAGE = 500
"""The rows ``scan`` reads at a time."""


class Database:
    """A connection to the archive file that ``prepare`` made, used by one thread at a
    time (SQLite connections are not shared between threads)."""

    def __init__(self, path: Path) -> None:
        """A missing file is NotReadyError here, never silently created again (empty,
        unmigrated)."""
        self.path = path
        self.synchronous = ""
        """The ``synchronous`` setting last given to the connection ('' at first)."""
        self.degraded = False
        """Opened read-only and immutable: the disk is full or read-only (``rows``)."""
        try:
            self.connection = self._connect("rw")
        except NotReadyError:
            if not path.exists() or disk_problem(path) is None:
                raise
            self.degraded = True
            self.connection = self._connect("ro&immutable=1")

    def _connect(self, mode: str) -> sqlite3.Connection:
        uri = f"file:{urllib.parse.quote(str(self.path.resolve()))}?mode={mode}"
        try:
            with translated():
                return sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS)
        except (StorageError, StorageUnavailableError) as error:
            raise NotReadyError(f"the archive cannot be opened: {error}") from None

    @property
    def utils(self) -> sqlite_utils.Database:
        """sqlite-utils over this connection (for the migrations)."""
        return sqlite_utils.Database(self.connection)

    def rows(self, sql: str, arguments: Arguments = ()) -> list[sqlite3.Row]:
        """Every row a query answers, read by column name. On a disk that cannot be
        written (full, read-only) SQLite cannot make the files a WAL reader needs when no
        other connection has them open: the file is then read as it stands (read-only,
        immutable; such a connection is never kept, ``_Lent.close``)."""
        try:
            return self._rows(sql, arguments)
        except (StorageUnavailableError, StorageError):  # CANTOPEN on a read-only disk
            if self.degraded or disk_problem(self.path) is None:
                raise
        self.connection.close()
        self.degraded = True
        self.connection = self._connect("ro&immutable=1")
        return self._rows(sql, arguments)

    def _rows(self, sql: str, arguments: Arguments) -> list[sqlite3.Row]:
        with translated():
            return named(self.connection).execute(sql, arguments).fetchall()

    def row(self, sql: str, arguments: Arguments = ()) -> sqlite3.Row | None:
        """The first row a query answers (None: no row)."""
        rows = self.rows(sql, arguments)
        return rows[0] if rows else None

    @contextmanager
    def writing(self, live: bool = False) -> Iterator[Transaction]:
        """A write transaction that holds SQLite's write lock from its start, committed
        when the block ends, rolled back when it raises. A ``live`` writer first queues
        on a lock file (``queued``) and commits with ``synchronous=NORMAL`` (WAL: a
        commit survives the process being killed, not a power loss; it spares an fsync
        per action)."""
        connection = self.connection
        try:
            with translated():
                # a kept connection serves live and archive writes in turn
                synchronous = "NORMAL" if live else "FULL"
                if self.synchronous != synchronous:
                    connection.execute(f"PRAGMA synchronous = {synchronous}")
                    self.synchronous = synchronous
                with queued(f"{self.path}.live-lock") if live else nullcontext():
                    if connection.in_transaction:
                        connection.commit()
                    connection.execute("BEGIN IMMEDIATE")
                    try:
                        yield Transaction(connection)
                    except BaseException:
                        connection.rollback()
                        raise
                    connection.commit()
        except (StorageError, OSError) as error:
            # what a disk that cannot be written also makes SQLite say (it cannot open the
            # file for writing) or the lock file's open
            why = disk_problem(self.path)
            if why is None:
                raise
            DISK.failed(why)
            raise StorageUnavailableError(
                f"the archive cannot be written now ({why}); reads are still served,"
                " try the write again later"
            ) from error
        DISK.wrote()

    @contextmanager
    def claiming(self, name: str) -> Iterator[Database]:
        """One process at a time holds work named ``name``: a lock file beside the archive
        (``*.NAME-lock``), let go when the block ends or the process dies; its reads and
        writes are this connection's own, each write a short transaction."""
        with queued(f"{self.path}.{name}-lock"):
            yield self

    def scan(self, table: str, columns: Sequence[str], order: str) -> Iterator[Sequence[object]]:
        """Every row of ``table`` in ``order``, ``PAGE`` at a time, each page after the
        last row's keys (no transaction held between pages)."""
        names = ", ".join(f'"{name}"' for name in columns)
        keys = [key.strip() for key in order.split(",")]
        after: tuple[object, ...] | None = None
        while True:
            where = "1 = 1"
            if after is not None:
                where = f"({', '.join(keys)}) > ({marks(len(keys))})"
            found = self.rows(
                f"SELECT {names}, {order} FROM {table} WHERE {where} ORDER BY {order} LIMIT {PAGE}",
                list(after or ()),
            )
            for row in found:
                yield tuple(row)[: len(columns)]
            if len(found) < PAGE:
                return
            after = tuple(found[-1])[len(columns) :]

    def ready(self) -> None:
        """Read from the file: ArchiveBusyError when it cannot be read now, NotReadyError
        when it cannot be read at all (unmigrated, broken), StorageUnavailableError when
        it is read but cannot be written (a full or read-only disk: reads are served)."""
        try:
            self.rows("SELECT count(*) FROM matches")
        except StorageUnavailableError as error:
            raise NotReadyError(f"the archive cannot be read: {error.message}") from None
        except StorageError as error:
            raise NotReadyError(f"the archive cannot be read: {error.__cause__}") from None
        problem = disk_problem(self.path)
        if problem is not None:
            raise StorageUnavailableError(
                f"the archive is read but cannot be written: {problem}; reads are served,"
                " writes are answered 503 until it can be written again"
            )

    def close(self) -> None:
        self.connection.close()


class Transaction:
    """The statements of one write transaction on the connection (``Database.writing``)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def execute(self, sql: str, arguments: Arguments = ()) -> int:
        return self.connection.execute(sql, arguments).rowcount

    def rows(self, sql: str, arguments: Arguments = ()) -> list[sqlite3.Row]:
        return named(self.connection).execute(sql, arguments).fetchall()

    def row(self, sql: str, arguments: Arguments = ()) -> sqlite3.Row | None:
        found: sqlite3.Row | None = named(self.connection).execute(sql, arguments).fetchone()
        return found

    def many(self, sql: str, rows: Sequence[Arguments]) -> None:
        self.connection.executemany(sql, rows)

    def insert(self, sql: str, arguments: Arguments) -> int:
        inserted = self.connection.execute(sql, arguments).lastrowid
        assert inserted is not None
        return inserted


def named(connection: sqlite3.Connection) -> sqlite3.Cursor:
    """A cursor whose rows are read by column name."""
    cursor = connection.cursor()
    cursor.row_factory = sqlite3.Row
    return cursor


@contextmanager
def translated() -> Iterator[None]:
    """The one reading of SQLite's errors: locked or busy past the busy timeout is
    ArchiveBusyError (503 with Retry-After); a full or read-only disk (or one that fails
    to write) is StorageUnavailableError (503 with Retry-After, remembered for /readyz
    until a write succeeds); any other is StorageError."""
    try:
        yield
    except sqlite3.Error as error:
        if busy(error):
            raise ArchiveBusyError(
                f"the archive stayed locked by another writer for {BUSY_TIMEOUT_SECONDS:g} s;"
                " try again"
            ) from None
        why = unwritable(error)
        if why is not None:
            DISK.failed(why)
            raise StorageUnavailableError(
                f"the archive cannot be written now ({why}); reads are still served,"
                " try the write again later"
            ) from None
        raise StorageError(f"the archive failed: {error}") from error


def busy(error: sqlite3.Error) -> bool:
    """Whether SQLite gave up waiting for a lock another connection holds."""
    code = getattr(error, "sqlite_errorcode", None)
    return (code is not None and (code & 0xFF) in _BUSY_CODES) or "locked" in str(error)


def unwritable(error: sqlite3.Error) -> str | None:
    """Why the disk cannot take a write (full, read-only, failing), or None for any other
    error: SQLite's primary codes FULL, READONLY and IOERR."""
    code = getattr(error, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    if primary == sqlite3.SQLITE_FULL or "full" in str(error):
        return "the disk is full"
    if primary == sqlite3.SQLITE_READONLY or "readonly" in str(error):
        return "the archive's file or disk is read-only"
    if primary == sqlite3.SQLITE_IOERR or "disk I/O error" in str(error):
        return "the disk failed to read or write"
    return None


class DiskState:
    """What this process last learned of the archive's disk: the last write that failed
    for want of a writable disk, forgotten once a write succeeds (``Database.writing``)
    or after ``MEMORY_SECONDS`` (another process may have written since)."""

    MEMORY_SECONDS = 10.0

    def __init__(self) -> None:
        self.last: tuple[str, float] | None = None

    @property
    def why(self) -> str | None:
        last = self.last
        if last is None or time.monotonic() - last[1] > self.MEMORY_SECONDS:
            return None
        return last[0]

    def failed(self, why: str) -> None:
        self.last = (why, time.monotonic())

    def wrote(self) -> None:
        self.last = None


DISK = DiskState()
MIN_FREE_BYTES = 256 * 1024
"""Less room than this on the archive's file system: /readyz says the disk is full."""


def disk_problem(path: Path) -> str | None:
    """Why the archive at ``path`` cannot be written, as its file system says (read-only,
    full) or the last write said; None when it can, as far as is known."""
    try:
        stats = os.statvfs(path.parent)
    except OSError:
        return DISK.why
    if stats.f_flag & os.ST_RDONLY:
        return "the archive's disk is read-only"
    free = stats.f_bavail * stats.f_frsize
    if free < MIN_FREE_BYTES:
        return f"the disk is full ({free} bytes free)"
    if not os.access(path, os.W_OK):
        return "the archive's file is read-only"
    return DISK.why


@contextmanager
def queued(lock_path: str) -> Iterator[None]:
    """Live writers queue on a lock file before they ask SQLite for its write lock: they
    block in the kernel and go on at once when it is free, where SQLite's busy handler
    would sleep and retry (unfairly: seconds of tail latency under many writers)."""
    descriptor = _lock_file(lock_path)
    fcntl.flock(descriptor, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(descriptor, fcntl.LOCK_UN)


_lock_files = threading.local()


def _lock_file(lock_path: str) -> int:
    """This thread's descriptor of the lock file, opened once per thread and process (an
    action spares an open and a close; ``flock`` excludes descriptors opened apart, so the
    threads of a process queue as processes do; a forked child opens its own)."""
    kept: dict[str, tuple[int, int]] = _lock_files.__dict__.setdefault("kept", {})
    pid, descriptor = kept.get(lock_path, (0, -1))
    if pid != os.getpid():
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC
        descriptor = os.open(lock_path, flags, 0o600)
        kept[lock_path] = (os.getpid(), descriptor)
    return descriptor
