"""Ratings, on every backend: the ledger of rated matches (``rated_matches``, numbered by
``seq`` as added), and per variant the ratings computed from it (``ratings``), each name's
steps (``rating_history``) and how far into the ledger they were computed
(``rating_marks``). A write holds ``Serial.NUMBERS`` (the ledger's numbers), so the kept
ratings of a variant are written by one writer at a time, each from the mark it checked."""

from __future__ import annotations

from collections.abc import Sequence

from referee.storage.model.ratings import (
    KeptRatings,
    LedgerEntry,
    PlayerRating,
    RatedMatch,
    RatingStep,
    RatingUpdate,
)
from referee.storage.sql import Database, Dialect, Row, Serial, Transaction

LEDGER_COLUMNS = ", ".join(
    f"rated.{name}"
    for name in ("seq", "match_id", "event_id", "variant", "white", "black", "winner", "length")
)
MARK = "SELECT through_seq FROM rating_marks WHERE variant = ?"
"""How far into the ledger a variant's kept ratings were computed (no row: 0)."""
LEDGER_TABLES = ("rated_matches", "ratings", "rating_history", "rating_marks")


class Ratings:
    """The rating store."""

    def __init__(self, database: Database, dialect: Dialect) -> None:
        self.database = database
        self.dialect = dialect

    def ledger(self, variant: str, after_seq: int = 0) -> list[LedgerEntry]:
        rows = self.database.rows(
            f"SELECT {LEDGER_COLUMNS} FROM rated_matches AS rated"
            " WHERE variant = ? AND seq > ? ORDER BY seq",
            [variant, after_seq],
        )
        return [ledger_entry(row) for row in rows]

    def ledger_stored_since(self, variant: str, since: str) -> list[tuple[LedgerEntry, str]]:
        rows = self.database.rows(
            f"SELECT {LEDGER_COLUMNS}, stored.created_at FROM rated_matches AS rated"
            " JOIN matches AS stored ON stored.id = rated.match_id"
            " WHERE rated.variant = ? AND stored.created_at >= ? ORDER BY rated.seq",
            [variant, since],
        )
        return [(ledger_entry(row), row["created_at"]) for row in rows]

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

    def keep(self, update: RatingUpdate) -> bool:
        with self.database.writing() as tx:
            self.dialect.serialize(tx, Serial.NUMBERS)
            mark = tx.row(MARK, [update.variant])
            if (0 if mark is None else mark["through_seq"]) != update.from_seq:
                return False
            keep_rows(tx, update)
        return True

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

    def replace_ledger(self, matches: Sequence[RatedMatch]) -> None:
        with self.database.writing() as tx:
            self.dialect.serialize(tx, Serial.NUMBERS)
            for table in LEDGER_TABLES:
                tx.execute(f"DELETE FROM {table}")
            insert_rated(tx, sorted(matches, key=lambda m: m.match_id))


def ledger_entry(row: Row) -> LedgerEntry:
    """A ledger row (``LEDGER_COLUMNS``) as its entry."""
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


def keep_rows(tx: Transaction, update: RatingUpdate) -> None:
    """Write ratings computed from the ledger (their start checked by the caller)."""
    variant = update.variant
    if update.replace:
        for table in ("ratings", "rating_history"):
            tx.execute(f"DELETE FROM {table} WHERE variant = ?", [variant])
    tx.many(
        "INSERT INTO ratings (variant, name, rating, experience, matches)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (variant, name) DO UPDATE SET"
        " rating = excluded.rating, experience = excluded.experience,"
        " matches = excluded.matches",
        [(variant, p.name, p.rating, p.experience, p.matches) for p in update.players],
    )
    tx.many(
        "INSERT INTO rating_history (variant, name, match_id, event_id, before, after)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(variant, name, s.match_id, s.event_id, s.before, s.after) for name, s in update.steps],
    )
    tx.execute(
        "INSERT INTO rating_marks (variant, through_seq, last_match_id) VALUES (?, ?, ?)"
        " ON CONFLICT (variant) DO UPDATE SET through_seq = excluded.through_seq,"
        " last_match_id = excluded.last_match_id",
        [variant, update.through_seq, update.last_match_id],
    )


def insert_rated(tx: Transaction, rated: Sequence[RatedMatch]) -> None:
    """Add rated matches to the ledger (a match already in it stays as it is)."""
    tx.many(
        "INSERT INTO rated_matches (match_id, event_id, variant, white, black, winner, length)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING",
        [(m.match_id, m.event_id, m.variant, m.white, m.black, m.winner, m.length) for m in rated],
    )


def unrate(tx: Transaction, match_ids: Sequence[int]) -> None:
    """Take voided matches out of the ratings' ledger; their variants' kept ratings are
    forgotten, so the next read computes them again from the ledger's start."""
    voided = [(match_id,) for match_id in match_ids]
    for table in ("ratings", "rating_history", "rating_marks"):
        tx.many(
            f"DELETE FROM {table} WHERE variant IN"
            " (SELECT variant FROM rated_matches WHERE match_id = ?)",
            voided,
        )
    tx.many("DELETE FROM rated_matches WHERE match_id = ?", voided)
