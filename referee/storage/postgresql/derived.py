"""Kept derived results in PostgreSQL: the JSON body compressed (as in SQLite), keyed by
match and key, with the rules revision it was computed under and the order it was kept in
(``seq``, from a sequence: a result kept again is kept last)."""

from __future__ import annotations

from collections.abc import Mapping

from referee.storage import queries
from referee.storage.model import Json
from referee.storage.postgresql.database import Database, marked
from referee.storage.rows import derived_body, derived_rows


class PostgresDerived:
    """The derived results store."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def kept(self, match_id: int, key: str, revision: int) -> Json | None:
        return derived_body(self.database.row(queries.DERIVED_KEPT, [match_id, key, revision]))

    def keep(self, match_id: int, revision: int, results: Mapping[str, Json]) -> None:
        rows = derived_rows(match_id, revision, results)
        with self.database.writing() as connection, connection.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO derived (match_id, key, revision, body) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (match_id, key) DO UPDATE SET revision = excluded.revision,"
                " body = excluded.body, seq = nextval('derived_seq')",
                rows,
            )

    def forget(self, match_id: int, prefix: str, keep: int) -> None:
        with self.database.writing() as connection:
            connection.execute(
                "DELETE FROM derived WHERE match_id = %s AND starts_with(key, %s) AND seq NOT IN"
                " (SELECT seq FROM derived WHERE match_id = %s AND starts_with(key, %s)"
                " ORDER BY seq DESC LIMIT %s)",
                [match_id, prefix, match_id, prefix, keep],
            )

    def claim(self, match_id: int, key: str, owner: str, now: float, seconds: float) -> bool:
        with self.database.writing() as connection:
            connection.execute(
                marked(queries.DERIVED_CLAIM), [match_id, key, owner, now + seconds, now]
            )
            row = connection.execute(marked(queries.DERIVED_CLAIMANT), [match_id, key]).fetchone()
        return row is not None and row["owner"] == owner

    def release(self, match_id: int, key: str, owner: str) -> None:
        with self.database.writing() as connection:
            connection.execute(marked(queries.DERIVED_RELEASE), [match_id, key, owner])
