"""Ratings in SQLite: the ledger of rated matches (``rated_matches``, numbered by ``seq``
as added), and per variant the ratings computed from it (``ratings``), each name's steps
(``rating_history``) and how far into the ledger they were computed (``rating_marks``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from referee.storage.model.ratings import (
    KeptRatings,
    LedgerEntry,
    PlayerRating,
    RatedMatch,
    RatingStep,
    RatingUpdate,
)
from referee.storage.sqlite.database import Database
from referee.storage.sqlite.events import Many, Reader, insert_rated

_LEDGER_COLUMNS = ", ".join(
    f"rated.{name}"
    for name in ("seq", "match_id", "event_id", "variant", "white", "black", "winner", "length")
)


def _entry(row: Any) -> LedgerEntry:
    """A ledger row (``_LEDGER_COLUMNS``) as its entry."""
    return LedgerEntry(
        row["seq"],
        RatedMatch(
            row["match_id"],
            row["event_id"],
            row["variant"],
            row["white"],
            row["black"],
            row["winner"],
            row["length"],
        ),
    )


class RatingReads:
    """The rating store's reads, the same SQL on either backend (``postgresql/ratings.py``
    is these and its own writes)."""

    database: Reader

    def ledger(self, variant: str, after_seq: int = 0) -> list[LedgerEntry]:
        rows = self.database.rows(
            f"SELECT {_LEDGER_COLUMNS} FROM rated_matches AS rated"
            " WHERE variant = ? AND seq > ? ORDER BY seq",
            [variant, after_seq],
        )
        return [_entry(row) for row in rows]

    def ledger_stored_since(self, variant: str, since: str) -> list[tuple[LedgerEntry, str]]:
        rows = self.database.rows(
            f"SELECT {_LEDGER_COLUMNS}, stored.created_at FROM rated_matches AS rated"
            " JOIN matches AS stored ON stored.id = rated.match_id"
            " WHERE rated.variant = ? AND stored.created_at >= ? ORDER BY rated.seq",
            [variant, since],
        )
        return [(_entry(row), row["created_at"]) for row in rows]

    def variants(self) -> list[str]:
        rows = self.database.rows("SELECT DISTINCT variant FROM rated_matches ORDER BY variant")
        return [row["variant"] for row in rows]

    def kept(self, variant: str) -> KeptRatings:
        mark = self.database.row(
            "SELECT through_seq, last_match_id FROM rating_marks WHERE variant = ?", [variant]
        )
        rows = self.database.rows(
            "SELECT name, rating, experience, matches FROM ratings WHERE variant = ?"
            " ORDER BY rating DESC, name",
            [variant],
        )
        players = tuple(
            PlayerRating(row["name"], row["rating"], row["experience"], row["matches"])
            for row in rows
        )
        if mark is None:
            return KeptRatings(variant, 0, 0, ())
        return KeptRatings(variant, mark["through_seq"], mark["last_match_id"], players)

    def history(self, variant: str, name: str) -> list[RatingStep]:
        rows = self.database.rows(
            "SELECT match_id, event_id, before, after FROM rating_history"
            " WHERE variant = ? AND name = ? ORDER BY match_id",
            [variant, name],
        )
        return [
            RatingStep(row["match_id"], row["event_id"], row["before"], row["after"])
            for row in rows
        ]


class SqliteRatings(RatingReads):
    """The rating store of one connection."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.writer = database

    def keep(self, update: RatingUpdate) -> bool:
        with self.writer.writing() as connection:
            mark = connection.execute(MARK, [update.variant]).fetchone()
            if (0 if mark is None else mark[0]) != update.from_seq:
                return False
            keep_rows(connection.execute, connection.executemany, update)
        return True

    def replace_ledger(self, matches: Sequence[RatedMatch]) -> None:
        with self.writer.writing() as connection:
            for table in LEDGER_TABLES:
                connection.execute(f"DELETE FROM {table}")
            insert_rated(connection.executemany, sorted(matches, key=lambda m: m.match_id))


MARK = "SELECT through_seq FROM rating_marks WHERE variant = ?"
"""How far into the ledger a variant's kept ratings were computed (no row: 0)."""
LEDGER_TABLES = ("rated_matches", "ratings", "rating_history", "rating_marks")


def keep_rows(one: Callable[[str, list[Any]], object], many: Many, update: RatingUpdate) -> None:
    """Write ratings computed from the ledger (their start checked by the backend)."""
    variant = update.variant
    if update.replace:
        for table in ("ratings", "rating_history"):
            one(f"DELETE FROM {table} WHERE variant = ?", [variant])
    many(
        "INSERT INTO ratings (variant, name, rating, experience, matches)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (variant, name) DO UPDATE SET"
        " rating = excluded.rating, experience = excluded.experience,"
        " matches = excluded.matches",
        [(variant, p.name, p.rating, p.experience, p.matches) for p in update.players],
    )
    many(
        "INSERT INTO rating_history (variant, name, match_id, event_id, before, after)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(variant, name, s.match_id, s.event_id, s.before, s.after) for name, s in update.steps],
    )
    one(
        "INSERT INTO rating_marks (variant, through_seq, last_match_id) VALUES (?, ?, ?)"
        " ON CONFLICT (variant) DO UPDATE SET through_seq = excluded.through_seq,"
        " last_match_id = excluded.last_match_id",
        [variant, update.through_seq, update.last_match_id],
    )
