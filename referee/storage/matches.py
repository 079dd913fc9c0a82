"""Stored matches, on every backend: deduplicated by the SHA-256 of their canonical record
(a unique index: two imports of one record racing on two hosts store it once), searched by
their facts and by free text (SQLite's FTS5, PostgreSQL's ``tsvector``: the dialect's
``text_search``), paged by id, withdrawn (EVENTS.md §11) but never deleted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from referee.storage.model.matches import (
    MatchQuery,
    MatchSummary,
    NewMatch,
    Rechecked,
    Stored,
    StoredMatch,
    Withdrawal,
)
from referee.storage.shared import pages, timestamp
from referee.storage.sql import Database, Dialect, Row, Serial, Transaction, with_own_columns
from referee.storage.stores import MatchRestingError

FACT_COLUMNS = (
    *("sha256", "variant", "event", "site", "event_date", "match_length", "games"),
    "winner",
)
"""The facts stored as they are, each in the column of its name."""
RECORD_COLUMNS = ("original", "canonical", "rules_revision", "referee_version")
"""The record's texts and the revision and version that checked it, stored as they are."""
SUMMARY_COLUMNS = (
    "id, sha256, variant, valid, white, black, event, site, event_date, match_length,"
    " games, winner, created_at"
)
STORED_COLUMNS = (
    f"{SUMMARY_COLUMNS}, options, verdict, original, canonical, rules_revision, referee_version"
)
NOT_WITHDRAWN = "id NOT IN (SELECT match_id FROM match_withdrawals)"
"""A search's condition: matches withdrawn (EVENTS.md §11) are found no more."""
WITHDRAW = (
    "INSERT INTO match_withdrawals (match_id, at, by_name, reason) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (match_id) DO NOTHING"
)
UPDATE_VERDICT = (
    "UPDATE matches SET valid = ?, winner = ?, verdict = ?, rules_revision = ?,"
    " referee_version = ? WHERE id = ?"
)
EVENT_LIVE_MATCHES = (
    "SELECT live.match_id FROM event_live AS seat JOIN live_matches AS live"
    " ON live.id = seat.live_id WHERE seat.event_id = ? AND live.match_id IS NOT NULL"
)
"""The stored matches of an event's live matches (every one it made, a voided one too)."""


class Matches:
    """The match store."""

    def __init__(self, database: Database, dialect: Dialect) -> None:
        self.database = database
        self.dialect = dialect

    def store(self, match: NewMatch) -> Stored:
        with self.database.writing() as tx:
            return insert_match(tx, self.dialect, match)

    def get(self, match_id: int) -> StoredMatch | None:
        row = self.database.row(f"SELECT {STORED_COLUMNS} FROM matches WHERE id = ?", [match_id])
        return None if row is None else stored_match(row)

    def search(self, query: MatchQuery) -> list[MatchSummary]:
        where, arguments = self.filters(query)
        sql = (
            f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE {where} AND {NOT_WITHDRAWN}"
            " ORDER BY id DESC LIMIT ?"
        )
        rows = self.database.rows(sql, [*arguments, query.page_size])
        return [summary(row) for row in rows]

    def filters(self, query: MatchQuery) -> tuple[str, list[object]]:
        """The WHERE clause of a search and its arguments: a condition for each filter set
        (dates compared byte by byte on every backend, as SQLite does)."""
        dialect = self.dialect
        event_matches = f"id IN ({EVENT_LIVE_MATCHES} UNION {dialect.paired_matches})"
        conditions: list[tuple[str, object]] = [
            ("(lower(white) = lower(?) OR lower(black) = lower(?))", query.player or None),
            ("lower(event) = lower(?)", query.event or None),
            ("variant = ?", query.variant or None),
            ("id < ?", query.after_id),
            ("valid = ?", query.valid),
            (f"{dialect.event_date} >= ?", query.date_from or None),
            (f"{dialect.event_date} <= ?", query.date_to or None),
            (event_matches, query.event_id),
        ]
        given = [(sql, value) for sql, value in conditions if value is not None]
        where = ["1 = 1", *(sql for sql, _ in given)]
        arguments = [value for sql, value in given for _ in range(sql.count("?"))]
        if query.text:
            text, words = dialect.text_search(query.text)
            where.append(text)
            arguments.extend(words)
        return " AND ".join(where), arguments

    def iterate(self, query: MatchQuery) -> Iterator[MatchSummary]:
        return pages(self.search, query)

    def games_of(self, match_id: int) -> int | None:
        row = self.database.row("SELECT games FROM matches WHERE id = ?", [match_id])
        return None if row is None else int(row["games"])

    def older_than(self, revision: int | None, page: int = 100) -> Iterator[StoredMatch]:
        after = 0
        while True:
            rows = self.database.rows(
                f"SELECT {STORED_COLUMNS} FROM matches WHERE id > ?"
                " AND (CAST(? AS INTEGER) IS NULL OR rules_revision < ?) ORDER BY id LIMIT ?",
                [after, revision, revision, page],
            )
            yield from (stored_match(row) for row in rows)
            if len(rows) < page:
                return
            after = rows[-1]["id"]

    def update_verdict(self, rechecked: Rechecked) -> None:
        with self.database.writing() as tx:
            tx.execute(UPDATE_VERDICT, verdict_arguments(rechecked))

    def withdraw(self, withdrawal: Withdrawal) -> bool:
        with self.database.writing() as tx:
            # the events' saves are serialized so too: none makes a result rest on it meanwhile
            self.dialect.serialize(tx, Serial.NUMBERS)
            resting = tx.row(self.dialect.resting_on, [withdrawal.match_id])
            if resting is not None:
                raise MatchRestingError(
                    (resting["event_id"], resting["round"], resting["table_no"])
                )
            arguments = (withdrawal.match_id, withdrawal.at, withdrawal.by, withdrawal.reason)
            return tx.execute(WITHDRAW, arguments) == 1

    def withdrawal(self, match_id: int) -> Withdrawal | None:
        row = self.database.row(
            "SELECT match_id, at, by_name, reason FROM match_withdrawals WHERE match_id = ?",
            [match_id],
        )
        if row is None:
            return None
        return Withdrawal(row["match_id"], row["at"], row["by_name"], row["reason"])


def insert_match(tx: Transaction, dialect: Dialect, match: NewMatch) -> Stored:
    """Insert a match inside a write transaction, or find the one with its SHA-256: the
    match store's and the live store's (a finished live match's record) one way in."""
    row = with_own_columns(dialect, "matches", match_row(match))
    match_id, found = dialect.insert_or_find(tx, "matches", row, "sha256")
    return Stored(match_id, duplicate=found)


def match_row(match: NewMatch) -> dict[str, object]:
    """The columns of a new row of ``matches``."""
    return {
        **{name: getattr(match, name) for name in (*FACT_COLUMNS, *RECORD_COLUMNS)},
        "valid": match.valid,
        "white": match.players[0],
        "black": match.players[1],
        "options": json.dumps(match.options),
        "verdict": json.dumps(match.verdict),
        "created_at": timestamp(),
    }


def verdict_arguments(rechecked: Rechecked) -> tuple[object, ...]:
    """The arguments of ``UPDATE_VERDICT``."""
    return (
        rechecked.valid,
        rechecked.winner,
        json.dumps(rechecked.verdict),
        rechecked.rules_revision,
        rechecked.referee_version,
        rechecked.id,
    )


def match_facts(row: Row) -> dict[str, Any]:
    """The fields a summary and a stored match share, from a row of ``matches``."""
    return {
        **{name: row[name] for name in (*FACT_COLUMNS, "id", "created_at")},
        "valid": bool(row["valid"]),
        "players": (row["white"], row["black"]),
    }


def summary(row: Row) -> MatchSummary:
    return MatchSummary(**match_facts(row))


def stored_match(row: Row) -> StoredMatch:
    return StoredMatch(
        **match_facts(row),
        **{name: row[name] for name in RECORD_COLUMNS},
        options=json.loads(row["options"] or "{}"),
        verdict=json.loads(row["verdict"]),
    )
