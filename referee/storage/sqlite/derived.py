"""Kept derived results in SQLite: the JSON body compressed, keyed by match and key, with
the rules revision it was computed under."""

from __future__ import annotations

from collections.abc import Mapping

from referee.storage import queries
from referee.storage.model import Json
from referee.storage.rows import derived_body, derived_rows
from referee.storage.sqlite.database import Database


class SqliteDerived:
    """The derived results store of one connection."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def kept(self, match_id: int, key: str, revision: int) -> Json | None:
        return derived_body(self.database.row(queries.DERIVED_KEPT, [match_id, key, revision]))

    def keep(self, match_id: int, revision: int, results: Mapping[str, Json]) -> None:
        rows = derived_rows(match_id, revision, results)
        with self.database.writing() as connection:
            connection.executemany(
                "INSERT OR REPLACE INTO derived (match_id, key, revision, body)"
                " VALUES (?, ?, ?, ?)",
                rows,
            )

    def forget(self, match_id: int, prefix: str, keep: int) -> None:
        """A replaced result is a new row, so the last rowids are the results kept last."""
        with self.database.writing() as connection:
            connection.execute(
                "DELETE FROM derived WHERE match_id = ? AND substr(key, 1, ?) = ? AND rowid NOT IN"
                " (SELECT rowid FROM derived WHERE match_id = ? AND substr(key, 1, ?) = ?"
                " ORDER BY rowid DESC LIMIT ?)",
                (match_id, len(prefix), prefix, match_id, len(prefix), prefix, keep),
            )

    def claim(self, match_id: int, key: str, owner: str, now: float, seconds: float) -> bool:
        with self.database.writing() as connection:
            connection.execute(queries.DERIVED_CLAIM, (match_id, key, owner, now + seconds, now))
            row = connection.execute(queries.DERIVED_CLAIMANT, (match_id, key)).fetchone()
        return row is not None and row[0] == owner

    def release(self, match_id: int, key: str, owner: str) -> None:
        with self.database.writing() as connection:
            connection.execute(queries.DERIVED_RELEASE, (match_id, key, owner))
