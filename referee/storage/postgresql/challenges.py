"""Challenges in PostgreSQL: SQLite's tables and SQL (``sqlite/challenges.py``), column
for column. The news of the bot streams is read by ``seq`` (``after_seq``): so that a
reader never sees a later ``seq`` committed before an earlier one, every write that hands
one out holds a transaction-level advisory lock (``NEWS_LOCK``), as the events'
announcements do; a write to the ratings' ledger holds the events' (``SEQ_LOCK``) too."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import DictRow

from referee.storage.model.feed import CHALLENGE_NEWS
from referee.storage.postgresql.database import Database, marked
from referee.storage.postgresql.events import SEQ_LOCK
from referee.storage.postgresql.feed import notify_bot_news
from referee.storage.sqlite.challenges import ChallengeSql

NEWS_LOCK = 0x6E617264_79000003
"""The advisory lock of the writes that number the bot streams' news of challenges."""


class PostgresChallenges(ChallengeSql):
    """The challenge store."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.writer = database

    @contextmanager
    def writing(self) -> Iterator[psycopg.Connection[DictRow]]:
        with self.writer.writing() as connection:
            connection.execute("SELECT pg_advisory_xact_lock(%s)", [NEWS_LOCK])
            yield connection

    def execute(self, connection: Any, sql: str, arguments: Sequence[object]) -> Any:
        return connection.execute(marked(sql), list(arguments))

    def _news(self, connection: Any, rows: list[tuple[object, ...]]) -> None:
        super()._news(connection, rows)
        if rows:  # the bot streams hear of it on commit (postgresql/feed.py)
            notify_bot_news(connection, CHALLENGE_NEWS, "challenge_news")

    def ledger_lock(self, connection: Any) -> None:
        connection.execute("SELECT pg_advisory_xact_lock(%s)", [SEQ_LOCK])
