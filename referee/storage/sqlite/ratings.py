"""Ratings in SQLite: the ledger of rated matches (``rated_matches``, numbered by ``seq``
as added), and per variant the ratings computed from it (``ratings``), each name's steps
(``rating_history``) and how far into the ledger they were computed (``rating_marks``)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.storage.model import (
    KeptRatings,
    LedgerEntry,
    PlayerRating,
    RatedMatch,
    RatingStep,
    RatingUpdate,
)
from referee.storage.sqlite.database import Database
from referee.storage.sqlite.events import insert_rated


class SqliteRatings:
    """The rating store of one connection."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def ledger(self, variant: str, after_seq: int = 0) -> list[LedgerEntry]:
        rows = self.database.rows(
            "SELECT seq, match_id, event_id, variant, white, black, winner, length"
            " FROM rated_matches WHERE variant = ? AND seq > ? ORDER BY seq",
            [variant, after_seq],
        )
        return [
            LedgerEntry(
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
            for row in rows
        ]

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
        variant = update.variant
        with self.database.writing() as connection:
            mark = connection.execute(
                "SELECT through_seq FROM rating_marks WHERE variant = ?", [variant]
            ).fetchone()
            if (0 if mark is None else mark[0]) != update.from_seq:
                return False
            if update.replace:
                for table in ("ratings", "rating_history"):
                    connection.execute(f"DELETE FROM {table} WHERE variant = ?", [variant])
            connection.executemany(
                "INSERT INTO ratings (variant, name, rating, experience, matches)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (variant, name) DO UPDATE SET"
                " rating = excluded.rating, experience = excluded.experience,"
                " matches = excluded.matches",
                [(variant, p.name, p.rating, p.experience, p.matches) for p in update.players],
            )
            connection.executemany(
                "INSERT INTO rating_history (variant, name, match_id, event_id, before, after)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (variant, name, s.match_id, s.event_id, s.before, s.after)
                    for name, s in update.steps
                ],
            )
            connection.execute(
                "INSERT INTO rating_marks (variant, through_seq, last_match_id) VALUES (?, ?, ?)"
                " ON CONFLICT (variant) DO UPDATE SET through_seq = excluded.through_seq,"
                " last_match_id = excluded.last_match_id",
                (variant, update.through_seq, update.last_match_id),
            )
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
        with self.database.writing() as connection:
            for table in ("rated_matches", "ratings", "rating_history", "rating_marks"):
                connection.execute(f"DELETE FROM {table}")
            insert_rated(connection, sorted(matches, key=lambda match: match.match_id))
