"""The reads of the match store, the same on every backend: SQL with ``?`` marks over a
backend's ``rows``/``row``; each backend gives only its search conditions (``filters``:
SQLite's FTS5, PostgreSQL's ``tsvector``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from referee.storage.model.matches import MatchQuery, MatchSummary, StoredMatch, Withdrawal
from referee.storage.rows import STORED_COLUMNS, SUMMARY_COLUMNS, Row, stored_match, summary
from referee.storage.shared import pages


class Reader(Protocol):
    """What a backend's connection reads with (``?`` marks)."""

    def rows(self, sql: str, arguments: Sequence[object] = ()) -> Sequence[Row]: ...

    def row(self, sql: str, arguments: Sequence[object] = ()) -> Row | None: ...


NOT_WITHDRAWN = "id NOT IN (SELECT match_id FROM match_withdrawals)"
"""A search's condition: matches withdrawn (EVENTS.md §11) are found no more."""
WITHDRAW = (
    "INSERT INTO match_withdrawals (match_id, at, by_name, reason) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (match_id) DO NOTHING"
)


def withdrawal_row(withdrawal: Withdrawal) -> tuple[object, ...]:
    """The arguments of ``WITHDRAW``."""
    return (withdrawal.match_id, withdrawal.at, withdrawal.by, withdrawal.reason)


class MatchReads:
    """The match store's reads; a backend's store adds its writes and ``filters``."""

    database: Reader

    def filters(self, query: MatchQuery) -> tuple[str, list[object]]:
        """The WHERE clause of a search (``?`` marks) and its arguments."""
        raise NotImplementedError

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

    def iterate(self, query: MatchQuery) -> Iterator[MatchSummary]:
        return pages(self.search, query)

    def withdrawal(self, match_id: int) -> Withdrawal | None:
        row = self.database.row(
            "SELECT match_id, at, by_name, reason FROM match_withdrawals WHERE match_id = ?",
            [match_id],
        )
        if row is None:
            return None
        return Withdrawal(row["match_id"], row["at"], row["by_name"], row["reason"])

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
