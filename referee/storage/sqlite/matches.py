"""Stored matches in SQLite: deduplicated by SHA-256, searched with FTS5 over the players'
names, event and site, paged by id."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

from referee.storage.model import (
    MatchQuery,
    MatchSummary,
    NewMatch,
    Rechecked,
    Stored,
    StoredMatch,
)
from referee.storage.shared import pages, timestamp
from referee.storage.sqlite.database import Database

FACT_COLUMNS = (
    "sha256",
    "variant",
    "event",
    "site",
    "event_date",
    "match_length",
    "games",
    "winner",
)
"""The facts stored as they are, each in the column of its name."""
RECORD_COLUMNS = ("original", "canonical", "rules_revision", "referee_version")
"""The record's texts and the revision and version that checked it, stored as they are."""
SUMMARY_COLUMNS = (
    "id, sha256, variant, valid, white, black, event, site, event_date, match_length,"
    " games, winner, created_at"
)


class SqliteMatches:
    """The match store of one connection."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def store(self, match: NewMatch) -> Stored:
        with self.database.writing() as connection:
            return insert_match(connection, match)

    def get(self, match_id: int) -> StoredMatch | None:
        row = self.database.row("SELECT * FROM matches WHERE id = ?", [match_id])
        return None if row is None else _stored(row)

    def search(self, query: MatchQuery) -> list[MatchSummary]:
        where, arguments = _filters(query)
        sql = f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE {where} ORDER BY id DESC LIMIT ?"
        rows = self.database.rows(sql, [*arguments, query.page_size])
        return [_summary(row) for row in rows]

    def iterate(self, query: MatchQuery) -> Iterator[MatchSummary]:
        return pages(self.search, query)

    def games_of(self, match_id: int) -> int | None:
        row = self.database.row("SELECT games FROM matches WHERE id = ?", [match_id])
        return None if row is None else int(row["games"])

    def older_than(self, revision: int | None, page: int = 100) -> Iterator[StoredMatch]:
        after = 0
        while True:
            rows = self.database.rows(
                "SELECT * FROM matches WHERE id > ? AND (? IS NULL OR rules_revision < ?)"
                " ORDER BY id LIMIT ?",
                [after, revision, revision, page],
            )
            yield from (_stored(row) for row in rows)
            if len(rows) < page:
                return
            after = rows[-1]["id"]

    def update_verdict(self, rechecked: Rechecked) -> None:
        with self.database.writing() as connection:
            connection.execute(
                "UPDATE matches SET valid = ?, winner = ?, verdict = ?, rules_revision = ?,"
                " referee_version = ? WHERE id = ?",
                (
                    int(rechecked.valid),
                    rechecked.winner,
                    json.dumps(rechecked.verdict),
                    rechecked.rules_revision,
                    rechecked.referee_version,
                    rechecked.id,
                ),
            )


def insert_match(connection: sqlite3.Connection, match: NewMatch) -> Stored:
    """Insert a match inside a write transaction, or find the one with its SHA-256: the
    match store's and the live store's (a finished live match's record) one way in."""
    existing = connection.execute(
        "SELECT id FROM matches WHERE sha256 = ?", (match.sha256,)
    ).fetchone()
    if existing is not None:
        return Stored(int(existing[0]), duplicate=True)
    row = _row(match)
    columns = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    cursor = connection.execute(
        f"INSERT INTO matches ({columns}) VALUES ({marks})", tuple(row.values())
    )
    assert cursor.lastrowid is not None
    return Stored(cursor.lastrowid, duplicate=False)


def _row(match: NewMatch) -> dict[str, object]:
    return {
        **{name: getattr(match, name) for name in (*FACT_COLUMNS, *RECORD_COLUMNS)},
        "valid": int(match.valid),
        "white": match.players[0],
        "black": match.players[1],
        "options": json.dumps(match.options),
        "verdict": json.dumps(match.verdict),
        "created_at": timestamp(),
    }


def _filters(query: MatchQuery) -> tuple[str, list[object]]:
    """The WHERE clause of a search and its arguments: a condition for each filter set."""
    text = _fts_phrases(query.text) if query.text else None
    conditions: list[tuple[str, object]] = [
        ("(lower(white) = lower(?) OR lower(black) = lower(?))", query.player or None),
        ("lower(event) = lower(?)", query.event or None),
        ("variant = ?", query.variant or None),
        ("valid = ?", None if query.valid is None else int(query.valid)),
        ("event_date >= ?", query.date_from or None),
        ("event_date <= ?", query.date_to or None),
        ("id < ?", query.after_id),
        ("id IN (SELECT rowid FROM matches_fts WHERE matches_fts MATCH ?)", text),
    ]
    given = [(sql, value) for sql, value in conditions if value is not None]
    where = " AND ".join(["1 = 1", *(sql for sql, _ in given)])
    return where, [value for sql, value in given for _ in range(sql.count("?"))]


def _fts_phrases(text: str) -> str:
    """Free text as FTS5 phrases: every word quoted, so ``8/5`` or ``AND`` are just words."""
    words = text.replace("\x00", " ").split()
    return " ".join('"' + word.replace('"', '""') + '"' for word in words) or '""'


def _facts(row: sqlite3.Row) -> dict[str, Any]:
    """The fields a summary and a stored match share, from a row of ``matches``."""
    return {
        **{name: row[name] for name in (*FACT_COLUMNS, "id", "created_at")},
        "valid": bool(row["valid"]),
        "players": (row["white"], row["black"]),
    }


def _summary(row: sqlite3.Row) -> MatchSummary:
    return MatchSummary(**_facts(row))


def _stored(row: sqlite3.Row) -> StoredMatch:
    return StoredMatch(
        **_facts(row),
        **{name: row[name] for name in RECORD_COLUMNS},
        options=json.loads(row["options"] or "{}"),
        verdict=json.loads(row["verdict"]),
    )
