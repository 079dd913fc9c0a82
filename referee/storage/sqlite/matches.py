"""Stored matches in SQLite: deduplicated by SHA-256, searched with FTS5 over the players'
names, event and site, paged by id."""

from __future__ import annotations

import sqlite3

from referee.storage import queries
from referee.storage.model.matches import MatchQuery, NewMatch, Rechecked, Stored, Withdrawal
from referee.storage.reading import WITHDRAW, MatchReads, withdrawal_row
from referee.storage.rows import (
    EVENT_LIVE_MATCHES,
    match_filters,
    match_row,
    verdict_arguments,
)
from referee.storage.sqlite.database import Database
from referee.storage.stores import MatchRestingError


class SqliteMatches(MatchReads):
    """The match store of one connection."""

    def __init__(self, database: Database) -> None:
        self.database: Database = database

    def store(self, match: NewMatch) -> Stored:
        with self.database.writing() as connection:
            return insert_match(connection, match)

    def filters(self, query: MatchQuery) -> tuple[str, list[object]]:
        return _filters(query)

    def update_verdict(self, rechecked: Rechecked) -> None:
        with self.database.writing() as connection:
            connection.execute(queries.UPDATE_VERDICT, verdict_arguments(rechecked))

    def withdraw(self, withdrawal: Withdrawal) -> bool:
        with self.database.writing() as connection:
            resting = connection.execute(RESTING_ON, [withdrawal.match_id]).fetchone()
            if resting is not None:
                raise MatchRestingError(tuple(resting))
            cursor = connection.execute(WITHDRAW, withdrawal_row(withdrawal))
            return cursor.rowcount == 1


def insert_match(connection: sqlite3.Connection, match: NewMatch) -> Stored:
    """Insert a match inside a write transaction, or find the one with its SHA-256: the
    match store's and the live store's (a finished live match's record) one way in."""
    existing = connection.execute(
        "SELECT id FROM matches WHERE sha256 = ?", (match.sha256,)
    ).fetchone()
    if existing is not None:
        return Stored(int(existing[0]), duplicate=True)
    row = match_row(match)
    columns = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    cursor = connection.execute(
        f"INSERT INTO matches ({columns}) VALUES ({marks})", tuple(row.values())
    )
    assert cursor.lastrowid is not None
    return Stored(cursor.lastrowid, duplicate=False)


def _filters(query: MatchQuery) -> tuple[str, list[object]]:
    """The WHERE clause of a search and its arguments: a condition for each filter set."""
    text = _fts_phrases(query.text) if query.text else None
    conditions = [
        *match_filters(query),
        ("valid = ?", None if query.valid is None else int(query.valid)),
        ("event_date >= ?", query.date_from or None),
        ("event_date <= ?", query.date_to or None),
        (f"id IN ({EVENT_LIVE_MATCHES} UNION {_EVENT_PAIRED_MATCHES})", query.event_id),
        ("id IN (SELECT rowid FROM matches_fts WHERE matches_fts MATCH ?)", text),
    ]
    given = [(sql, value) for sql, value in conditions if value is not None]
    where = " AND ".join(["1 = 1", *(sql for sql, _ in given)])
    return where, [value for sql, value in given for _ in range(sql.count("?"))]


RESTING_ON = (
    "SELECT pairing.event_id, pairing.round, pairing.table_no"
    " FROM event_pairings AS pairing, json_each(pairing.match_ids) AS taken"
    " WHERE pairing.status = 'finished' AND taken.value = ?"
    " ORDER BY pairing.event_id, pairing.round, pairing.table_no LIMIT 1"
)
"""The finished pairing whose result rests on a stored match (a withdrawal's check)."""

_EVENT_PAIRED_MATCHES = (
    "SELECT taken.value FROM event_pairings AS pairing, json_each(pairing.match_ids) AS taken"
    " WHERE pairing.event_id = ?"
)
"""The matches an event's pairings count (a ``records`` event's records)."""


def _fts_phrases(text: str) -> str:
    """Free text as FTS5 phrases: every word quoted, so ``8/5`` or ``AND`` are just words."""
    words = text.replace("\x00", " ").split()
    return " ".join('"' + word.replace('"', '""') + '"' for word in words) or '""'
