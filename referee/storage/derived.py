"""Kept derived results, on every backend: the JSON body compressed, keyed by match and key,
with the rules revision it was computed under, in the order kept (a result kept again is
kept last: the dialect's ``derived_keep`` and ``kept_order``); and the claims on computing
one, which span every process and instance on the storage."""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping

from referee.storage.model import Json
from referee.storage.sql import Database, Dialect

KEPT = "SELECT body FROM derived WHERE match_id = ? AND key = ? AND revision = ?"
CLAIM = (
    "INSERT INTO derived_claims (match_id, key, owner, expires) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (match_id, key) DO UPDATE SET owner = excluded.owner,"
    " expires = excluded.expires"
    " WHERE derived_claims.expires < ? OR derived_claims.owner = excluded.owner"
)
CLAIMANT = "SELECT owner FROM derived_claims WHERE match_id = ? AND key = ?"
RELEASE = "DELETE FROM derived_claims WHERE match_id = ? AND key = ? AND owner = ?"


class Derived:
    """The derived results store."""

    def __init__(self, database: Database, dialect: Dialect) -> None:
        self.database = database
        self.dialect = dialect

    def kept(self, match_id: int, key: str, revision: int) -> Json | None:
        row = self.database.row(KEPT, [match_id, key, revision])
        return None if row is None else json.loads(zlib.decompress(row["body"]))

    def keep(self, match_id: int, revision: int, results: Mapping[str, Json]) -> None:
        rows = [
            (match_id, key, revision, zlib.compress(json.dumps(body).encode()))
            for key, body in results.items()
        ]
        with self.database.writing() as tx:
            tx.many(self.dialect.derived_keep, rows)

    def forget(self, match_id: int, prefix: str, keep: int) -> None:
        order, prefixed = self.dialect.kept_order, self.dialect.starts_with("key")
        with self.database.writing() as tx:
            tx.execute(
                f"DELETE FROM derived WHERE match_id = ? AND {prefixed} AND {order} NOT IN"
                f" (SELECT {order} FROM derived WHERE match_id = ? AND {prefixed}"
                f" ORDER BY {order} DESC LIMIT ?)",
                (match_id, prefix, match_id, prefix, keep),
            )

    def claim(self, match_id: int, key: str, owner: str, now: float, seconds: float) -> bool:
        with self.database.writing() as tx:
            tx.execute(CLAIM, (match_id, key, owner, now + seconds, now))
            row = tx.row(CLAIMANT, (match_id, key))
        return row is not None and row["owner"] == owner

    def release(self, match_id: int, key: str, owner: str) -> None:
        with self.database.writing() as tx:
            tx.execute(RELEASE, (match_id, key, owner))
