"""The PostgreSQL archive's tables as rows (``referee.storage.tables``), for copy-archive:
read in their order, loaded into an empty archive in one transaction keeping every id,
with each identity moved on past the ids copied and each match's search document made."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from psycopg import sql

from referee.storage.postgresql import search
from referee.storage.postgresql.database import Database, translated
from referee.storage.stores import TableRow
from referee.storage.tables import COUNTS, IDENTITIES, ORDER, TABLES, plain

PAGE = 500
_SEARCHED = [TABLES["matches"].index(name) for name in ("white", "black", "event", "site")]


class PostgresTables:
    """The archive's tables as rows."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def counts(self) -> dict[str, int]:
        return {row["name"]: row["n"] for row in self.database.rows(COUNTS)}

    def rows(self, table: str) -> Iterator[TableRow]:
        columns = sql.SQL(", ").join(map(sql.Identifier, TABLES[table]))
        order = sql.SQL(ORDER[table] or "seq")
        query = sql.SQL("SELECT {} FROM {} ORDER BY {}").format(
            columns, sql.Identifier(table), order
        )
        with (
            translated(self.database),
            self.database.pool.connection() as connection,
            connection.transaction(),
            connection.cursor(name=f"copy_{table}") as cursor,
        ):
            cursor.itersize = PAGE
            cursor.execute(query)
            for row in cursor:
                yield plain(table, row.values())

    def load(self, rows: Callable[[str], Iterable[TableRow]]) -> None:
        with self.database.writing() as connection:
            for table, columns in TABLES.items():
                names = list(columns) + (["search"] if table == "matches" else [])
                # the ids kept: an identity GENERATED ALWAYS (event_live's and
                # rated_matches' seq) takes a value given only when told to
                overriding = "OVERRIDING SYSTEM VALUE " if table in IDENTITIES else ""
                statement = sql.SQL("INSERT INTO {} ({}) " + overriding + "VALUES ({})").format(
                    sql.Identifier(table),
                    sql.SQL(", ").join(map(sql.Identifier, names)),
                    sql.SQL(", ").join(sql.Placeholder() for _ in names),
                )
                batch: list[TableRow] = []
                with connection.cursor() as cursor:
                    for row in rows(table):
                        batch.append(_with_search(table, plain(table, row)))
                        if len(batch) == PAGE:
                            cursor.executemany(statement, batch)
                            batch = []
                    if batch:
                        cursor.executemany(statement, batch)
            for table, column in IDENTITIES.items():
                connection.execute(
                    sql.SQL(
                        "SELECT setval(pg_get_serial_sequence({}, {}),"
                        " coalesce((SELECT max({}) FROM {}), 0) + 1, false)"
                    ).format(
                        sql.Literal(table),
                        sql.Literal(column),
                        sql.Identifier(column),
                        sql.Identifier(table),
                    )
                )


def _with_search(table: str, row: TableRow) -> TableRow:
    if table != "matches":
        return row
    columns = [row[index] for index in _SEARCHED]
    return (*row, search.document([None if c is None else str(c) for c in columns]))
