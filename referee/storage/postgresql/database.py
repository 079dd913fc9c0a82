"""The pooled connections to a PostgreSQL archive, and PostgreSQL's errors as the project's.

A store takes a connection from its process's pool for each method and gives it back at
the method's end (``Database.rows``, ``Database.writing``): a ``Storage`` held by a stream
for minutes holds no connection while it sleeps. Reads run in autocommit; a write is one
transaction, committed when its block ends, rolled back when it raises. Where SQLite takes
its write lock up front, a write here checks what it read (a version, a unique key) in the
statement that writes, and waits for a row lock at most ``lock_timeout``.

Every driver error is read once, in ``translated``: a lock or pool timeout, a
serialization failure, a deadlock or a lost connection is ArchiveBusyError (503 with
Retry-After: a retry may succeed); no server, or no such database, is NotReadyError;
anything else is StorageError, caused by psycopg's error.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

import psycopg
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from referee.errors import ArchiveBusyError, NotReadyError
from referee.storage.errors import StorageError

Arguments = Sequence[object]
Row = DictRow
Pool = ConnectionPool[psycopg.Connection[DictRow]]

LOCK_TIMEOUT_SECONDS = float(os.environ.get("NARDY_REFEREE_POSTGRESQL_LOCK_TIMEOUT", "5"))
"""How long a statement waits for a row or table lock before the answer is 503."""
CONNECT_TIMEOUT_SECONDS = 5

_BUSY_STATES = {
    "55P03": "locked",  # lock_not_available: lock_timeout passed
    "40001": "conflict",  # serialization_failure
    "40P01": "conflict",  # deadlock_detected
    "57014": "locked",  # query_canceled (a statement or lock timeout)
    "57P01": "lost",  # admin_shutdown
    "57P02": "lost",  # crash_shutdown
    "57P03": "lost",  # cannot_connect_now (starting up, shutting down)
    "53300": "lost",  # too_many_connections
}
_MESSAGES = {
    "locked": "the archive stayed locked by another writer for {timeout:g} s; try again",
    "conflict": "the archive was changed by another writer at the same moment; try again",
    "lost": "the connection to the archive was lost; try again",
    "pool": "no connection to the archive was free for {timeout:g} s; try again",
}


class Database:
    """The archive at one ``url``, reached through this process's pool for it."""

    def __init__(self, pool: Pool, url: str) -> None:
        self.pool = pool
        self.url = url

    def rows(self, sql: str, arguments: Arguments = ()) -> list[Row]:
        """Every row a query answers (``?`` marks), read by column name. A connection
        found lost (the server restarted since it was pooled) is read again on another,
        once the pool has let go of every lost one: a read can be repeated."""
        sql = marked(sql)
        with translated(self):
            try:
                return self._read(sql, arguments)
            except psycopg.OperationalError as error:
                if classify(error) != "lost":
                    raise
                self.forget_lost()
                return self._read(sql, arguments)

    def _read(self, sql: str, arguments: Arguments) -> list[Row]:
        with self.pool.connection() as connection:
            return connection.execute(sql, arguments).fetchall()

    def row(self, sql: str, arguments: Arguments = ()) -> Row | None:
        """The first row a query answers (None: no row)."""
        rows = self.rows(sql, arguments)
        return rows[0] if rows else None

    @contextmanager
    def writing(self) -> Iterator[psycopg.Connection[DictRow]]:
        """A write transaction on a connection of the pool, committed when the block
        ends, rolled back when it raises."""
        with translated(self), self.pool.connection() as connection, connection.transaction():
            yield connection

    def ready(self) -> None:
        """Read from the archive: ArchiveBusyError when it cannot be read now,
        NotReadyError when it cannot be read at all (no server, unmigrated)."""
        try:
            self.rows("SELECT 1 FROM matches LIMIT 1")
        except StorageError as error:
            raise NotReadyError(f"the archive cannot be read: {error.__cause__}") from None

    def forget_lost(self) -> None:
        """Let the pool close every idle connection found lost (a server restarted), so
        that the next request does not meet one."""
        with suppress(psycopg.Error):  # check() logs and discards on its own
            self.pool.check()

    @property
    def timeout(self) -> float:
        return float(self.pool.timeout)


def marked(sql: str) -> str:
    """SQL written with ``?`` marks (``referee.storage.queries``) in psycopg's ``%s``."""
    return sql.replace("?", "%s")


def connect(url: str, **options: Any) -> psycopg.Connection[DictRow]:
    """A connection of its own (not pooled): for migrations and for asking whether the
    server is there. NotReadyError when it cannot be made."""
    try:
        return psycopg.connect(
            url, connect_timeout=CONNECT_TIMEOUT_SECONDS, row_factory=dict_row, **options
        )
    except psycopg.Error as error:
        raise NotReadyError(
            f"the archive's server cannot be reached: {first_line(error)}"
        ) from None


def unreachable(url: str) -> str | None:
    """Why no connection to ``url`` can be made now (None: one can)."""
    try:
        connect(url).close()
    except NotReadyError as error:
        return error.message
    return None


@contextmanager
def translated(database: Database | None = None) -> Iterator[None]:
    """The one reading of psycopg's errors (the module's docstring)."""
    try:
        yield
    except PoolTimeout:
        problem = None if database is None else unreachable(database.url)
        if problem is not None:
            raise NotReadyError(problem) from None
        timeout = database.timeout if database is not None else 0.0
        raise ArchiveBusyError(_MESSAGES["pool"].format(timeout=timeout)) from None
    except psycopg.Error as error:
        kind = classify(error)
        if kind == "lost" and database is not None:
            database.forget_lost()
        if kind is not None:
            raise ArchiveBusyError(_MESSAGES[kind].format(timeout=LOCK_TIMEOUT_SECONDS)) from None
        raise StorageError(f"the archive failed: {first_line(error)}") from error


def classify(error: psycopg.Error) -> str | None:
    """Which kind of busy an error is (None: not one a retry mends)."""
    state = error.sqlstate
    if state in _BUSY_STATES:
        return _BUSY_STATES[state]
    if isinstance(error, psycopg.OperationalError) and (state is None or state.startswith("08")):
        return "lost"  # the connection broke (class 08, or no answer at all)
    return None


def first_line(error: BaseException) -> str:
    """An error's first line: libpq's messages go on with hints and context."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
