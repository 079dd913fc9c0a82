"""Events in PostgreSQL: SQLite's tables and reads (``sqlite/events.py``), column for
column. A change checks the version it read in the statement that updates the event's
row, as live matches do. The announcements to the bots and the ratings' ledger are read
by ``seq`` (``after_seq``): so that a reader never sees a later ``seq`` committed before
an earlier one, every write that hands out a ``seq`` holds one transaction-level advisory
lock (``SEQ_LOCK``): they commit in the order of their numbers, as SQLite's one writer
does."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import DictRow

from referee.storage.model.events import EventChange, EventSetup
from referee.storage.model.feed import ANNOUNCEMENTS
from referee.storage.postgresql.database import Database, marked
from referee.storage.postgresql.feed import CHANNEL, notify_bot_news
from referee.storage.shared import timestamp
from referee.storage.sqlite.events import (
    ENTRANT_INSERT,
    EventReads,
    Many,
    entrant_rows,
    new_event_row,
    save_rows,
)
from referee.storage.stores import EventConflictError

SEQ_LOCK = 0x6E617264_79000002
"""The advisory lock of the writes that number announcements and ledger entries."""


class PostgresEvents(EventReads):
    """The event store."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.writer = database

    def create(self, setup: EventSetup) -> int:
        row = new_event_row(setup)
        marks = ", ".join("%s" for _ in row)
        with self.writer.writing() as connection:
            created = connection.execute(
                f"INSERT INTO events ({', '.join(row)}) VALUES ({marks}) RETURNING id",
                list(row.values()),
            ).fetchone()
            assert created is not None
            event_id = int(created["id"])
            many(connection)(ENTRANT_INSERT, entrant_rows(event_id, setup))
        return event_id

    def save(self, change: EventChange) -> None:
        with self.writer.writing() as connection:
            connection.execute("SELECT pg_advisory_xact_lock(%s)", [SEQ_LOCK])
            checked = connection.execute(
                "UPDATE events SET status = %s, round = %s, version = %s, lease_until = %s,"
                " updated_at = %s WHERE id = %s AND version = %s",
                [
                    change.status,
                    change.round,
                    change.version + 1,
                    change.lease_until,
                    timestamp(),
                    change.event_id,
                    change.version,
                ],
            )
            if checked.rowcount != 1:
                raise EventConflictError(change.event_id)  # rolls the transaction back
            save_rows(many(connection), change)
            connection.execute(  # the change feed's (postgresql/feed.py), sent on commit
                "SELECT pg_notify(%s, %s)",
                [CHANNEL, f"event {change.event_id} {change.version + 1}"],
            )
            if any(pairing.live_ids for pairing in change.pairings):  # maybe announced
                notify_bot_news(connection, ANNOUNCEMENTS, "event_live")


def many(connection: psycopg.Connection[DictRow]) -> Many:
    """SQLite's ``executemany`` on a PostgreSQL connection (``?`` marks)."""

    def run(sql: str, rows: list[tuple[Any, ...]]) -> None:
        if rows:
            with connection.cursor() as cursor:
                cursor.executemany(marked(sql), rows)

    return run


def one(connection: psycopg.Connection[DictRow]) -> Any:
    """One statement (``?`` marks) on a PostgreSQL connection."""
    return lambda sql, arguments: connection.execute(marked(sql), arguments)
