"""PostgreSQL's SQL where it differs from SQLite's (``referee.storage.sql.Dialect``).

Where SQLite's one writer takes the write lock up front, a write here checks what it read
in the statement that writes, and the writes that must be one at a time across instances
hold a lock of their own (``serialize``): a transaction-level advisory lock, or the
clock's table. A match is inserted first and found by its key when it was there
(``ON CONFLICT``: two transactions storing one record at once, the second waits for the
first at the unique index, then finds its row). A change tells the change feed on commit
(``NOTIFY``, ``feed.py``). Free text is searched with a ``tsvector`` of the words FTS5
would index (``search.py``); a pairing's matches are read from its JSON list as
``jsonb``; kept results are ordered by ``seq`` (from a sequence: a result kept again is
kept last)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from referee.storage.model.feed import Topic
from referee.storage.postgresql import search
from referee.storage.postgresql.feed import notify, notify_bot_news
from referee.storage.sql import OwnColumns, Serial, Transaction, insert_sql
from referee.storage.tables import IDENTITIES

SEQ_LOCK = 0x6E617264_79000002
"""The advisory lock of the writes that number announcements and ledger entries; the
re-check runs' start has held the same one since it shipped."""
NEWS_LOCK = 0x6E617264_79000003
"""The advisory lock of the writes that number the bot streams' news of challenges."""
ANALYSES_LOCK = 0x6E617264_79000004
"""The advisory lock of queueing analyses (a token's queue counted, then added to)."""
ADVISORY = {
    Serial.NUMBERS: SEQ_LOCK,
    Serial.RECHECK: SEQ_LOCK,
    Serial.NEWS: NEWS_LOCK,
    Serial.ANALYSES: ANALYSES_LOCK,
}


def search_document(row: Mapping[str, object]) -> str:
    """The ``search`` column of a match: the ``tsvector`` of its searched columns."""
    columns = [row[name] for name in ("white", "black", "event", "site")]
    return search.document([None if column is None else str(column) for column in columns])


class PostgresDialect:
    """PostgreSQL's SQL (one instance: ``DIALECT``)."""

    own_columns: ClassVar[OwnColumns] = {"matches": {"search": search_document}}
    kept_order = "seq"
    derived_keep = (
        "INSERT INTO derived (match_id, key, revision, body) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (match_id, key) DO UPDATE SET revision = excluded.revision,"
        " body = excluded.body, seq = nextval('derived_seq')"
    )
    event_date = 'event_date COLLATE "C"'
    paired_matches = (
        "SELECT CAST(jsonb_array_elements_text(CAST(match_ids AS jsonb)) AS bigint)"
        " FROM event_pairings WHERE event_id = ?"
    )
    resting_on = (
        "SELECT event_id, round, table_no FROM event_pairings WHERE status = 'finished'"
        " AND CAST(match_ids AS jsonb) @> jsonb_build_array(CAST(? AS bigint))"
        " ORDER BY event_id, round, table_no LIMIT 1"
    )
    keeping_ids = "OVERRIDING SYSTEM VALUE "
    """An identity ``GENERATED ALWAYS`` (event_live's and rated_matches' seq) takes a
    value given only when told to."""

    def starts_with(self, column: str) -> str:
        return f"starts_with({column}, ?)"

    def text_search(self, text: str) -> tuple[str, list[object]]:
        words = search.query(text)
        if words is None:
            return "false", []  # no word with a token: nothing found, as in FTS5
        return "search @@ CAST(? AS tsquery)", [words]

    def lock_rows(self, alias: str) -> str:
        return f" FOR UPDATE OF {alias} SKIP LOCKED"

    def insert_or_find(
        self, tx: Transaction, table: str, row: Mapping[str, object], key: str
    ) -> tuple[int, bool]:
        inserted = tx.row(
            f"{insert_sql(table, list(row))} ON CONFLICT ({key}) DO NOTHING RETURNING id",
            list(row.values()),
        )
        if inserted is not None:
            return int(inserted["id"]), False
        found = tx.row(f"SELECT id FROM {table} WHERE {key} = ?", [row[key]])
        assert found is not None  # the conflicting row was committed before ON CONFLICT
        return int(found["id"]), True

    def serialize(self, tx: Transaction, serial: Serial) -> None:
        if serial is Serial.CLOCK:  # the row is locked until the commit
            tx.execute("LOCK TABLE live_clock IN SHARE ROW EXCLUSIVE MODE")
        else:
            tx.execute("SELECT pg_advisory_xact_lock(?)", [ADVISORY[serial]])

    def notify(self, tx: Transaction, topic: Topic, key: int, counter: int) -> None:
        notify(tx, topic, key, counter)

    def notify_news(self, tx: Transaction, key: int, table: str) -> None:
        notify_bot_news(tx, key, table)

    def ids_loaded(self, tx: Transaction) -> None:
        for table, column in IDENTITIES.items():
            tx.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                f" coalesce((SELECT max({column}) FROM {table}), 0) + 1, false)"
            )


DIALECT = PostgresDialect()
