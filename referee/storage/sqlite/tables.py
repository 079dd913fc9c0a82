"""The SQLite archive's tables as rows (``referee.storage.tables``), for copy-archive: read
in their order, loaded into an empty archive in one write transaction keeping every id
(FTS5's triggers index the matches as they are loaded)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from referee.storage.sqlite.database import Database, translated
from referee.storage.stores import TableRow
from referee.storage.tables import COUNTS, ORDER, TABLES, plain

PAGE = 500
_EXTRA = {"live_matches": {"state": ""}}
"""Columns SQLite has and the other backends do not (the table before the log: empty)."""


class SqliteTables:
    """The archive's tables as rows, over one connection."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def counts(self) -> dict[str, int]:
        return {row["name"]: row["n"] for row in self.database.rows(COUNTS)}

    def rows(self, table: str) -> Iterator[TableRow]:
        columns = ", ".join(f'"{name}"' for name in TABLES[table])
        order = ORDER[table] or "rowid"
        after: tuple[object, ...] | None = None
        keys = [key.strip() for key in order.split(",")]
        while True:
            where = "1 = 1"
            arguments: list[object] = []
            if after is not None:
                where = f"({', '.join(keys)}) > ({', '.join('?' for _ in keys)})"
                arguments = list(after)
            found = self.database.rows(
                f"SELECT {columns}, {order} FROM {table} WHERE {where}"
                f" ORDER BY {order} LIMIT {PAGE}",
                arguments,
            )
            for row in found:
                yield plain(table, tuple(row)[: len(TABLES[table])])
            if len(found) < PAGE:
                return
            after = tuple(found[-1])[len(TABLES[table]) :]

    def load(self, rows: Callable[[str], Iterable[TableRow]]) -> None:
        with self.database.writing() as connection, translated():
            for table, columns in TABLES.items():
                extra = _EXTRA.get(table, {})
                names = ", ".join(f'"{name}"' for name in (*columns, *extra))
                marks = ", ".join("?" for _ in (*columns, *extra))
                statement = f"INSERT INTO {table} ({names}) VALUES ({marks})"
                batch: list[TableRow] = []
                for row in rows(table):
                    batch.append((*plain(table, row), *extra.values()))
                    if len(batch) == PAGE:
                        connection.executemany(statement, batch)
                        batch = []
                if batch:
                    connection.executemany(statement, batch)
