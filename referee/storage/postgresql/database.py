"""The pooled connections to a PostgreSQL archive, and PostgreSQL's errors as the project's:
the ``Database`` the stores are written against (``referee.storage.sql``; their ``?`` marks
become psycopg's ``%s`` here, ``marked``).

A store takes a connection from its process's pool for each method and gives it back at
the method's end (``Database.rows``, ``Database.writing``): a ``Storage`` held by a stream
for minutes holds no connection while it sleeps. Reads run in autocommit; a write is one
transaction, committed when its block ends, rolled back when it raises. Where SQLite takes
its write lock up front, a write here checks what it read (a version, a unique key) in the
statement that writes, and waits for a row lock at most ``lock_timeout``.

Every driver error is read once, in ``translated``: a lock or pool timeout, a
serialization failure or a deadlock is ArchiveBusyError (503 with Retry-After: a retry may
succeed); PostgreSQL's bad days (a full disk or any class 53 shortage, a read-only
database or standby, 25006, a server shutting down or failing over, 57P01..57P03, a lost
connection, class 08) are StorageUnavailableError (503 with Retry-After, remembered for
the live clock, and a full disk for /readyz: ``health.py``); no server, or no such database, is
NotReadyError; anything else is StorageError, caused by psycopg's error. A connection
found lost or read-only is let go, so the pool recovers without a restart.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from typing import Any

import psycopg
from psycopg.rows import DictRow, dict_row
from psycopg.sql import SQL, Identifier
from psycopg_pool import ConnectionPool, PoolTimeout

from referee.errors import ArchiveBusyError, NotReadyError, StorageUnavailableError
from referee.storage.errors import StorageError
from referee.storage.postgresql import text
from referee.storage.postgresql.health import Health, health
from referee.storage.sql import Arguments

Row = DictRow
Pool = ConnectionPool[psycopg.Connection[DictRow]]

PAGE = 500
"""The rows ``scan`` reads at a time."""
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
    "53100": "full",  # disk_full
    "53300": "connections",  # too_many_connections
    "25006": "read_only",  # read_only_sql_transaction (a standby, or switched read-only)
}
_BUSY = {"locked", "conflict"}
_MESSAGES = {
    "locked": "the archive stayed locked by another writer for {timeout:g} s; try again",
    "conflict": "the archive was changed by another writer at the same moment; try again",
    "lost": "the archive's server is shutting down, restarting or failing over",
    "full": "the archive's disk is full",
    "shortage": "the archive's server is short of resources",
    "connections": "the archive's server has no connection free",
    "read_only": "the archive is read-only (a standby, or switched read-only)",
    "pool": "no connection to the archive was free for {timeout:g} s; try again",
}
_RETRY_SECONDS = {"lost": 2, "connections": 5}
"""Retry-After of the bad days that pass in seconds (the others: StorageUnavailableError's)."""


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
    def writing(self, live: bool = False) -> Iterator[Transaction]:
        """A write transaction on a connection of the pool, committed when the block
        ends, rolled back when it raises; on a connection of its own after a read-only
        refusal or on a pooled session born read-only (``health.py``), until one
        succeeds (at most the pool's size of them at once: ``_own``): then the pool's
        sessions are made anew. A ``live`` write is no different here: the row it
        updates stays locked until it commits."""
        state = health(self.url)
        with translated(self), self._writer(state) as connection, connection.transaction():
            yield Transaction(connection)
        if (state.last is not None or state.read_only) and state.wrote():
            self.pool.drain()

    @contextmanager
    def claiming(self, name: str) -> Iterator[Claim]:
        """A transaction of its own, on a connection of the pool, holding the rows its
        claim reads (``FOR UPDATE ... SKIP LOCKED``: others pass over them) until the
        block ends; its writes are in it, committed at the end."""
        with (
            translated(self),
            self.pool.connection() as connection,
            connection.transaction(),
        ):
            yield Claim(Transaction(connection))

    def scan(self, table: str, columns: Sequence[str], order: str) -> Iterator[Sequence[object]]:
        """Every row of ``table`` in ``order`` through a cursor on the server, in one
        transaction (one snapshot), ``PAGE`` rows at a time."""
        query = SQL("SELECT {} FROM {} ORDER BY {}").format(
            SQL(", ").join(map(Identifier, columns)), Identifier(table), SQL(order)
        )
        with (
            translated(self),
            self.pool.connection() as connection,
            connection.transaction(),
            connection.cursor(name=f"copy_{table}") as cursor,
        ):
            cursor.itersize = PAGE
            cursor.execute(query)
            for row in cursor:
                yield tuple(row.values())

    @contextmanager
    def _writer(self, state: Health) -> Iterator[psycopg.Connection[DictRow]]:
        """The connection a write takes: the pool's, unless it may be read-only."""
        if not state.read_only:
            with self.pool.connection() as connection:
                if not born_read_only(connection):
                    with let_go_when_read_only(connection):
                        yield connection
                    return
                connection.close()  # the pool replaces it; a new session may write
                state.suspect()
        with self._own(state) as connection:
            if connection is None:
                raise StorageUnavailableError(
                    f"{_MESSAGES['read_only']}; nothing was stored, reads are served where"
                    " they can be; try again later"
                )
            yield connection

    @contextmanager
    def _own(self, state: Health) -> Iterator[psycopg.Connection[DictRow] | None]:
        """A connection of its own while the pool's may be read-only, at most the pool's
        size of them at once in this process (None: every slot is taken, the archive is
        most likely read-only still): a read-only database under many writers does not
        use up the server's connections."""
        slots = state.own_slots(self.pool.max_size)
        if not slots.acquire(blocking=False):
            yield None
            return
        try:
            with own_connection(self.url) as connection:
                yield connection
        finally:
            slots.release()

    def ready(self) -> None:
        """Read from the archive: ArchiveBusyError when it cannot be read now,
        NotReadyError when it cannot be read at all (no server, unmigrated),
        StorageUnavailableError when it is read but cannot take writes (read-only, a
        standby, checked now, or the last write here refused for want of disk: a lasting
        state). A passing error (a lost connection, no connection free on the server) is
        no reason: the balancer would take the instance out for nothing."""
        try:
            row = self.row(READY_QUERY)
        except StorageError as error:
            raise NotReadyError(f"the archive cannot be read: {error.__cause__}") from None
        why = health(self.url).lasting
        if row is not None and row["standby"]:
            why = "the archive's server is a standby (read-only)"
        elif row is not None and row["read_only"] == "on" and self._still_read_only():
            why = _MESSAGES["read_only"]
        if why is not None:
            raise StorageUnavailableError(
                f"the archive is read but cannot be written: {why}; reads are served,"
                " writes are answered 503 until it can be written again"
            )

    def _still_read_only(self) -> bool:
        """Whether a new session is read-only too (else the pool's are stale: drained).
        When every slot of the connections of their own is taken, writes are trying:
        read-only still, as far as this process knows."""
        with translated(self), self._own(health(self.url)) as connection:
            if connection is None:
                return True
            found = connection.execute("SHOW default_transaction_read_only").fetchone()
        if found is not None and found["default_transaction_read_only"] == "on":
            return True
        self.pool.drain()
        return False

    def forget_lost(self) -> None:
        """Let the pool close every idle connection found lost (a server restarted), so
        that the next request does not meet one."""
        with suppress(psycopg.Error):  # check() logs and discards on its own
            self.pool.check()

    @property
    def timeout(self) -> float:
        return float(self.pool.timeout)


class Transaction:
    """The statements of one transaction on a connection (``?`` marks)."""

    def __init__(self, connection: psycopg.Connection[DictRow]) -> None:
        self.connection = connection

    def execute(self, sql: str, arguments: Arguments = ()) -> int:
        return self.connection.execute(marked(sql), arguments).rowcount

    def rows(self, sql: str, arguments: Arguments = ()) -> list[Row]:
        return self.connection.execute(marked(sql), arguments).fetchall()

    def row(self, sql: str, arguments: Arguments = ()) -> Row | None:
        return self.connection.execute(marked(sql), arguments).fetchone()

    def many(self, sql: str, rows: Sequence[Arguments]) -> None:
        if rows:
            with self.connection.cursor() as cursor:
                cursor.executemany(marked(sql), rows)

    def insert(self, sql: str, arguments: Arguments) -> int:
        inserted = self.row(sql + " RETURNING id", arguments)
        assert inserted is not None
        return int(inserted["id"])


class Claim:
    """What a claim reads and writes through: its own transaction (``Database.claiming``)."""

    def __init__(self, transaction: Transaction) -> None:
        self.transaction = transaction

    def rows(self, sql: str, arguments: Arguments = ()) -> list[Row]:
        return self.transaction.rows(sql, arguments)

    def row(self, sql: str, arguments: Arguments = ()) -> Row | None:
        return self.transaction.row(sql, arguments)

    def writing(self) -> AbstractContextManager[Transaction]:
        return nullcontext(self.transaction)


READY_QUERY = (
    "SELECT (SELECT 1 FROM matches LIMIT 1) AS one, pg_is_in_recovery() AS standby,"
    " current_setting('transaction_read_only') AS read_only"
)
"""Readiness: the archive is read, and whether this session may write."""


def configure(connection: psycopg.Connection[DictRow]) -> None:
    """Every connection: waits for a lock at most LOCK_TIMEOUT_SECONDS, and writes and
    reads strings with NUL in them (``text.py``)."""
    milliseconds = max(int(LOCK_TIMEOUT_SECONDS * 1000), 1)
    connection.execute(f"SET lock_timeout = {milliseconds}")
    text.adapt(connection)


@contextmanager
def own_connection(url: str) -> Iterator[psycopg.Connection[DictRow]]:
    """A connection of its own (not the pool's), configured as the pool's, closed after."""
    connection = connect(url, autocommit=True)
    try:
        configure(connection)
        yield connection
    finally:
        connection.close()


def born_read_only(connection: psycopg.Connection[DictRow]) -> bool:
    """Whether the session started read-only (a standby's, or the database's default then):
    PostgreSQL reports both settings at the start (ParameterStatus, no round trip)."""
    info = connection.info
    return "on" in (
        info.parameter_status("default_transaction_read_only"),
        info.parameter_status("in_hot_standby"),
    )


@contextmanager
def let_go_when_read_only(connection: psycopg.Connection[DictRow]) -> Iterator[None]:
    """Close a pooled connection that met a read-only refusal: the pool replaces it (its
    session keeps the read-only setting it started with)."""
    try:
        yield
    except psycopg.Error as error:
        if classify(error) == "read_only":
            connection.close()
        raise


def marked(sql: str) -> str:
    """SQL written with ``?`` marks (``referee.storage.sql``) in psycopg's ``%s``."""
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
        if kind in _BUSY:
            raise ArchiveBusyError(_MESSAGES[kind].format(timeout=LOCK_TIMEOUT_SECONDS)) from None
        if kind is not None:
            raise unavailable(kind, error, database) from None
        raise StorageError(f"the archive failed: {first_line(error)}") from error


def unavailable(
    kind: str, error: psycopg.Error, database: Database | None
) -> StorageUnavailableError:
    """A bad day's 503, remembered for the live clock and, a full disk, for /readyz
    (``health.py``)."""
    why = _MESSAGES[kind]
    if database is not None:
        health(database.url).failed(why, kind)
    refusal = StorageUnavailableError(
        f"{why} ({first_line(error)}); nothing was stored, reads are served where they"
        " can be; try again later"
    )
    if kind in _RETRY_SECONDS:
        refusal.retry_after = _RETRY_SECONDS[kind]
    return refusal


def classify(error: psycopg.Error) -> str | None:
    """Which kind of busy or bad day an error is (None: not one a retry mends)."""
    state = error.sqlstate
    if state in _BUSY_STATES:
        return _BUSY_STATES[state]
    if state is not None and state.startswith("53"):
        return "shortage"  # insufficient_resources: memory, configuration limits
    if isinstance(error, psycopg.OperationalError) and (state is None or state.startswith("08")):
        return "lost"  # the connection broke (class 08, or no answer at all)
    return None


def first_line(error: BaseException) -> str:
    """An error's first line: libpq's messages go on with hints and context."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
