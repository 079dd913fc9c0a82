"""Ratings in PostgreSQL: SQLite's tables, reads and writes (``sqlite/ratings.py``). A
write holds the advisory lock of the ledger's numbers (``events.SEQ_LOCK``), so the kept
ratings of a variant are written by one writer at a time, each from the mark it checked."""

from __future__ import annotations

from collections.abc import Sequence

from referee.storage.model.ratings import RatedMatch, RatingUpdate
from referee.storage.postgresql.database import Database, marked
from referee.storage.postgresql.events import SEQ_LOCK, many, one
from referee.storage.sqlite.events import insert_rated
from referee.storage.sqlite.ratings import LEDGER_TABLES, MARK, RatingReads, keep_rows


class PostgresRatings(RatingReads):
    """The rating store."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.writer = database

    def keep(self, update: RatingUpdate) -> bool:
        with self.writer.writing() as connection:
            connection.execute("SELECT pg_advisory_xact_lock(%s)", [SEQ_LOCK])
            mark = connection.execute(marked(MARK), [update.variant]).fetchone()
            if (0 if mark is None else mark["through_seq"]) != update.from_seq:
                return False
            keep_rows(one(connection), many(connection), update)
        return True

    def replace_ledger(self, matches: Sequence[RatedMatch]) -> None:
        with self.writer.writing() as connection:
            connection.execute("SELECT pg_advisory_xact_lock(%s)", [SEQ_LOCK])
            for table in LEDGER_TABLES:
                connection.execute(f"DELETE FROM {table}")
            insert_rated(many(connection), sorted(matches, key=lambda m: m.match_id))
