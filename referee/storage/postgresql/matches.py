"""Stored matches in PostgreSQL: deduplicated by SHA-256 (a unique index, so that two
imports of one record racing on two hosts store it once), searched with a ``tsvector``
(``search.py``), paged by id."""

from __future__ import annotations

import psycopg
from psycopg.rows import DictRow

from referee.storage import queries
from referee.storage.model.matches import MatchQuery, NewMatch, Rechecked, Stored, Withdrawal
from referee.storage.postgresql import search
from referee.storage.postgresql.database import Database, marked
from referee.storage.postgresql.events import SEQ_LOCK
from referee.storage.reading import WITHDRAW, MatchReads, withdrawal_row
from referee.storage.rows import (
    EVENT_LIVE_MATCHES,
    match_filters,
    match_row,
    verdict_arguments,
)
from referee.storage.stores import MatchRestingError


class PostgresMatches(MatchReads):
    """The match store."""

    def __init__(self, database: Database) -> None:
        self.database: Database = database

    def store(self, match: NewMatch) -> Stored:
        with self.database.writing() as connection:
            return insert_match(connection, match)

    def filters(self, query: MatchQuery) -> tuple[str, list[object]]:
        return _filters(query)

    def update_verdict(self, rechecked: Rechecked) -> None:
        with self.database.writing() as connection:
            update_verdict(connection, rechecked)

    def withdraw(self, withdrawal: Withdrawal) -> bool:
        with self.database.writing() as connection:
            # the events' saves hold this lock too: none makes a result rest on it meanwhile
            connection.execute("SELECT pg_advisory_xact_lock(%s)", [SEQ_LOCK])
            resting = connection.execute(marked(RESTING_ON), [withdrawal.match_id]).fetchone()
            if resting is not None:
                seat = (resting["event_id"], resting["round"], resting["table_no"])
                raise MatchRestingError(seat)
            cursor = connection.execute(marked(WITHDRAW), withdrawal_row(withdrawal))
            return cursor.rowcount == 1


def insert_match(connection: psycopg.Connection[DictRow], match: NewMatch) -> Stored:
    """Insert a match inside a write transaction, or find the one with its SHA-256: the
    match store's and the live store's (a finished live match's record) one way in. Two
    transactions storing one record at once: the second waits for the first at the unique
    index, then finds its row."""
    row = match_row(match)
    columns = ", ".join(row)
    marks = ", ".join("%s" for _ in row)
    inserted = connection.execute(
        f"INSERT INTO matches ({columns}, search) VALUES ({marks}, %s::tsvector)"
        " ON CONFLICT (sha256) DO NOTHING RETURNING id",
        [*row.values(), search.document((*match.players, match.event, match.site))],
    ).fetchone()
    if inserted is not None:
        return Stored(int(inserted["id"]), duplicate=False)
    existing = connection.execute(
        "SELECT id FROM matches WHERE sha256 = %s", [match.sha256]
    ).fetchone()
    assert existing is not None  # the conflicting row was committed before ON CONFLICT
    return Stored(int(existing["id"]), duplicate=True)


def update_verdict(connection: psycopg.Connection[DictRow], rechecked: Rechecked) -> None:
    """Store a re-computed verdict inside a write transaction."""
    connection.execute(marked(queries.UPDATE_VERDICT), verdict_arguments(rechecked))


RESTING_ON = (
    "SELECT event_id, round, table_no FROM event_pairings WHERE status = 'finished'"
    " AND CAST(match_ids AS jsonb) @> jsonb_build_array(CAST(? AS bigint))"
    " ORDER BY event_id, round, table_no LIMIT 1"
)
"""The finished pairing whose result rests on a stored match (a withdrawal's check)."""

_EVENT_PAIRED_MATCHES = (
    "SELECT CAST(jsonb_array_elements_text(CAST(match_ids AS jsonb)) AS bigint)"
    " FROM event_pairings WHERE event_id = ?"
)
"""The matches an event's pairings count (a ``records`` event's records)."""


def _filters(query: MatchQuery) -> tuple[str, list[object]]:
    """The WHERE clause of a search and its arguments: a condition for each filter set
    (the same conditions as SQLite's; dates compared byte by byte, as SQLite does)."""
    text = search.query(query.text) if query.text else None
    conditions = [
        *match_filters(query),
        ("valid = ?", query.valid),
        ('event_date COLLATE "C" >= ?', query.date_from or None),
        ('event_date COLLATE "C" <= ?', query.date_to or None),
        (f"id IN ({EVENT_LIVE_MATCHES} UNION {_EVENT_PAIRED_MATCHES})", query.event_id),
        ("search @@ CAST(? AS tsquery)", text),
    ]
    given = [(sql, value) for sql, value in conditions if value is not None]
    nothing = ["false"] if query.text and text is None else []  # no word: nothing found
    where = " AND ".join(["true", *nothing, *(sql for sql, _ in given)])
    return where, [value for sql, value in given for _ in range(sql.count("?"))]
