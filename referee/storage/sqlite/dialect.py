"""SQLite's SQL where it differs from PostgreSQL's (``referee.storage.sql.Dialect``).

Every write holds the one write lock from its start (``BEGIN IMMEDIATE``): the writes that
PostgreSQL serializes with a lock of their own are one at a time here already, and a
match is found by its key before it is inserted. The change feed polls
(``feed.py``): a write tells it nothing. Free text is searched with FTS5 over the players'
names, event and site (``matches_fts``, kept by triggers); a pairing's matches are read
from its JSON list with ``json_each``; kept results are ordered by ``rowid`` (a result
kept again is a new row)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from referee.storage.model.feed import Topic
from referee.storage.sql import OwnColumns, Serial, Transaction, insert_sql


class SqliteDialect:
    """SQLite's SQL (one instance: ``DIALECT``)."""

    own_columns: ClassVar[OwnColumns] = {"live_matches": {"state": lambda row: ""}}
    """``live_matches.state``: the table before its log (migration 0006), left empty."""
    kept_order = "rowid"
    derived_keep = (
        "INSERT OR REPLACE INTO derived (match_id, key, revision, body) VALUES (?, ?, ?, ?)"
    )
    event_date = "event_date"
    paired_matches = (
        "SELECT taken.value FROM event_pairings AS pairing, json_each(pairing.match_ids) AS taken"
        " WHERE pairing.event_id = ?"
    )
    resting_on = (
        "SELECT pairing.event_id, pairing.round, pairing.table_no"
        " FROM event_pairings AS pairing, json_each(pairing.match_ids) AS taken"
        " WHERE pairing.status = 'finished' AND taken.value = ?"
        " ORDER BY pairing.event_id, pairing.round, pairing.table_no LIMIT 1"
    )
    keeping_ids = ""

    def starts_with(self, column: str) -> str:
        return f"instr({column}, ?) = 1"

    def text_search(self, text: str) -> tuple[str, list[object]]:
        return "id IN (SELECT rowid FROM matches_fts WHERE matches_fts MATCH ?)", [
            fts_phrases(text)
        ]

    def lock_rows(self, alias: str) -> str:
        return ""  # the claim holds the lock file (``Database.claiming``)

    def insert_or_find(
        self, tx: Transaction, table: str, row: Mapping[str, object], key: str
    ) -> tuple[int, bool]:
        found = tx.row(f"SELECT id FROM {table} WHERE {key} = ?", [row[key]])
        if found is not None:
            return int(found["id"]), True
        return tx.insert(insert_sql(table, list(row)), list(row.values())), False

    def serialize(self, tx: Transaction, serial: Serial) -> None:
        pass  # the write lock, held from the transaction's start

    def notify(self, tx: Transaction, topic: Topic, key: int, counter: int) -> None:
        pass  # the feed polls the counters

    def notify_news(self, tx: Transaction, key: int, table: str) -> None:
        pass  # the feed polls the last ``seq``

    def ids_loaded(self, tx: Transaction) -> None:
        pass  # a new row's id follows the largest there


def fts_phrases(text: str) -> str:
    """Free text as FTS5 phrases: every word quoted, so ``8/5`` or ``AND`` are just words."""
    words = text.replace("\x00", " ").split()
    return " ".join('"' + word.replace('"', '""') + '"' for word in words) or '""'


DIALECT = SqliteDialect()
