"""What every store is written against, once for all backends: a backend's ``Database``
(its reads, its write transactions, its way of holding work and of reading a whole table)
and its ``Dialect`` (the SQL that really differs between SQLite and PostgreSQL).

Every statement is written with ``?`` marks; PostgreSQL's ``Database`` turns them into
psycopg's ``%s``. An argument that may be NULL where nothing else gives it a type is
``CAST(? AS INTEGER)`` (PostgreSQL must know its type). Rows are read by column name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from enum import StrEnum
from typing import Any, ClassVar, Protocol

from referee.storage.model.feed import Topic

Arguments = Sequence[object]


class Row(Protocol):
    """A row read by column name (``sqlite3.Row``, psycopg's dict rows)."""

    def __getitem__(self, key: str) -> Any: ...


class Transaction(Protocol):
    """The statements of one write transaction, committed when its block ends and rolled
    back when it raises (``Database.writing``)."""

    def execute(self, sql: str, arguments: Arguments = ()) -> int:
        """Run one statement; how many rows it changed."""

    def rows(self, sql: str, arguments: Arguments = ()) -> Sequence[Row]:
        """Every row a query answers, inside the transaction."""

    def row(self, sql: str, arguments: Arguments = ()) -> Row | None:
        """The first row a query answers (None: no row), inside the transaction."""

    def many(self, sql: str, rows: Sequence[Arguments]) -> None:
        """Run one statement for each of ``rows`` (nothing for none)."""

    def insert(self, sql: str, arguments: Arguments) -> int:
        """Run an ``INSERT`` of one row; the ``id`` it was given (SQLite's ``lastrowid``,
        PostgreSQL's ``RETURNING id``)."""


class Claim(Protocol):
    """A session that holds work while a block runs, against others claiming the same
    (``Database.claiming``): its reads, and its writes (``writing``)."""

    def rows(self, sql: str, arguments: Arguments = ()) -> Sequence[Row]: ...

    def row(self, sql: str, arguments: Arguments = ()) -> Row | None: ...

    def writing(self) -> AbstractContextManager[Transaction]: ...


class Database(Protocol):
    """A backend's connection, as the stores use it; its driver's errors never leave it
    (``ArchiveBusyError``, ``StorageUnavailableError``, ``StorageError``)."""

    def rows(self, sql: str, arguments: Arguments = ()) -> Sequence[Row]:
        """Every row a query answers."""

    def row(self, sql: str, arguments: Arguments = ()) -> Row | None:
        """The first row a query answers (None: no row)."""

    def writing(self, live: bool = False) -> AbstractContextManager[Transaction]:
        """A write transaction; ``live``: a live match's change (SQLite queues those)."""

    def claiming(self, name: str) -> AbstractContextManager[Claim]:
        """Hold work named ``name`` while the block runs: SQLite lets one process at a
        time in (a lock file); PostgreSQL holds the rows a claim reads with ``lock_rows``
        in a transaction of its own until the block ends."""

    def scan(self, table: str, columns: Sequence[str], order: str) -> Iterator[Sequence[object]]:
        """Every row of ``table`` (its ``columns``), in ``order``, a page at a time."""


class Serial(StrEnum):
    """Writes that one writer at a time makes, across processes and instances: SQLite's
    every write holds the one write lock from its start, PostgreSQL's hold a lock of
    their own (``Dialect.serialize``)."""

    NUMBERS = "numbers"
    """The writes that number the events' announcements and the ratings' ledger by
    ``seq`` (a reader after ``seq`` never sees a later one committed before an earlier
    one), and a withdrawal's check that no result rests on the match."""
    NEWS = "news"
    """The writes of challenges, which number the bot streams' news."""
    RECHECK = "recheck"
    """Processes starting a re-check run at once agree on one."""
    CLOCK = "clock"
    """One beat of the service's clock at a time."""
    ANALYSES = "analyses"
    """Queueing analyses: a token's queue counted and added to by one writer at a time."""


OwnColumns = Mapping[str, Mapping[str, Callable[[Mapping[str, object]], object]]]
"""Per table, the columns a backend's schema has beyond ``tables.TABLES``, each made from
the row's values by name."""


class Dialect(Protocol):
    """What differs between the backends' SQL, beyond ``?`` against ``%s`` and how an
    inserted row's id is learnt (``Transaction.insert``)."""

    own_columns: ClassVar[OwnColumns]
    """The columns of the backend's schema beyond ``tables.TABLES`` (SQLite's
    ``live_matches.state``, left empty; PostgreSQL's ``matches.search``, the document its
    text search reads), written with every row inserted."""
    kept_order: str
    """The column that orders kept derived results as kept (SQLite's ``rowid``,
    PostgreSQL's ``seq``)."""
    derived_keep: str
    """Keep a derived result (match, key, revision, body), replacing one kept under its
    key, as kept last."""
    event_date: str
    """A match's ``event_date`` as searches compare it (byte by byte, as SQLite does)."""
    paired_matches: str
    """The matches an event's pairings count (``?``: the event), one column."""
    resting_on: str
    """The finished pairing (``event_id``, ``round``, ``table_no``) whose result rests
    on a stored match (``?``), if any."""
    keeping_ids: str
    """What an ``INSERT`` that keeps the ids given says before ``VALUES`` (copy-archive)."""

    def starts_with(self, column: str) -> str:
        """A condition: ``column`` starts with the text of one ``?``."""

    def text_search(self, text: str) -> tuple[str, list[object]]:
        """A search's condition for free text (every word in the players' names, event or
        site) and its arguments."""

    def lock_rows(self, alias: str) -> str:
        """What a claim's query adds to hold the rows of ``alias`` it reads
        (``Database.claiming``)."""

    def insert_or_find(
        self, tx: Transaction, table: str, row: Mapping[str, object], key: str
    ) -> tuple[int, bool]:
        """Insert ``row``, or find the row with its unique ``key``: its id, and whether it
        was there already."""

    def serialize(self, tx: Transaction, serial: Serial) -> None:
        """Hold what makes ``serial``'s writes one at a time, until ``tx`` ends."""

    def notify(self, tx: Transaction, topic: Topic, key: int, counter: int) -> None:
        """Tell the change feed, on commit, that ``key``'s counter is ``counter``."""

    def notify_news(self, tx: Transaction, key: int, table: str) -> None:
        """Tell the bot streams, on commit, of news added to ``table`` (``key``: the bots
        topic's, ``ANNOUNCEMENTS`` or ``CHALLENGE_NEWS``)."""

    def ids_loaded(self, tx: Transaction) -> None:
        """After copy-archive loaded rows with their ids: new ids go on after them."""


def marks(count: int) -> str:
    """``count`` marks, comma-separated."""
    return ", ".join("?" for _ in range(count))


def insert_sql(table: str, columns: Sequence[str]) -> str:
    """``INSERT INTO table (columns) VALUES (?, ...)``."""
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks(len(columns))})"


def with_own_columns(dialect: Dialect, table: str, row: Mapping[str, object]) -> dict[str, object]:
    """``row`` with the backend's own columns of ``table`` added (``Dialect.own_columns``)."""
    own = dialect.own_columns.get(table, {})
    return {**row, **{name: made(row) for name, made in own.items()}}
