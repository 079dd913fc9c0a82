"""Live matches in PostgreSQL: SQLite's tables (``sqlite/live.py``): one row per match (a
version bumped by every change, the deadline as a Unix time, the version of its last
state), its log (one row per change of its table, appended, never rewritten) and its
throws. A change checks the version it read in the statement that updates the match's row,
which then holds the row's lock until the change commits: of two changes made from one
reading the second finds another version and is refused, without a lock taken up front."""

from __future__ import annotations

import json
from collections.abc import Sequence

import psycopg
from psycopg.rows import DictRow

from referee.storage import queries
from referee.storage.errors import LiveConflictError
from referee.storage.model import Json
from referee.storage.model.live import (
    LiveChange,
    LiveProgress,
    LiveSetup,
    LiveVersion,
    StoredLive,
    Throw,
)
from referee.storage.postgresql.database import Database, marked
from referee.storage.postgresql.matches import insert_match
from referee.storage.rows import live_setup_row, progress_columns, stored_live
from referee.storage.shared import timestamp


class PostgresLive:
    """The live match store."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def create(self, setup: LiveSetup, progress: LiveProgress) -> int:
        stamp = timestamp()
        row = {
            **live_setup_row(setup),
            **progress_columns(progress),
            "state_version": 0,
            "version": 0,
            "created_at": stamp,
            "updated_at": stamp,
        }
        columns = ", ".join(row)
        marks = ", ".join("%s" for _ in row)
        assert progress.state is not None
        with self.database.writing() as connection:
            created = connection.execute(
                f"INSERT INTO live_matches ({columns}) VALUES ({marks}) RETURNING id",
                list(row.values()),
            ).fetchone()
            assert created is not None
            live_id = int(created["id"])
            _append(connection, live_id, 0, progress.ply, (), progress.state)
        return live_id

    def get(self, live_id: int) -> StoredLive | None:
        row = self.database.row(marked(queries.LIVE_GET), [live_id])
        return None if row is None else stored_live(row)

    def versions(self, live_ids: Sequence[int]) -> dict[int, LiveVersion]:
        if not live_ids:
            return {}
        rows = self.database.rows(
            "SELECT id, version, deadline FROM live_matches WHERE id = ANY(?)", [list(live_ids)]
        )
        return {row["id"]: LiveVersion(row["version"], row["deadline"]) for row in rows}

    def throws(self, live_id: int) -> list[Throw]:
        rows = self.database.rows(marked(queries.LIVE_THROWS), [live_id])
        return [
            Throw(row["k"], (row["die1"], row["die2"]), row["game"], row["use"]) for row in rows
        ]

    def log(self, live_id: int) -> list[Json]:
        rows = self.database.rows(marked(queries.LIVE_LOG), [live_id])
        return [entry for row in rows for entry in json.loads(row["entries"])]

    def save(self, change: LiveChange) -> int | None:
        live_id = change.live_id
        version = change.version + 1
        updates: dict[str, object] = {
            **progress_columns(change.progress),
            "version": version,
            "updated_at": timestamp(),
        }
        state = change.progress.state
        if state is not None:
            updates["state_version"] = version
        with self.database.writing() as connection:
            assignments = ", ".join(f"{name} = %s" for name in updates)
            checked = connection.execute(
                f"UPDATE live_matches SET {assignments} WHERE id = %s AND version = %s",
                [*updates.values(), live_id, change.version],
            )
            if checked.rowcount != 1:
                raise LiveConflictError(live_id)  # rolls the transaction back
            if state is not None:
                _append(connection, live_id, version, change.progress.ply, change.entries, state)
            match_id = None
            if change.record is not None:
                match_id = insert_match(connection, change.record).id
                connection.execute(
                    "UPDATE live_matches SET match_id = %s WHERE id = %s", [match_id, live_id]
                )
            if change.new_throws:
                with connection.cursor() as cursor:
                    cursor.executemany(
                        marked(queries.LIVE_THROW),
                        [
                            (live_id, t.k, t.dice[0], t.dice[1], t.game, t.use)
                            for t in change.new_throws
                        ],
                    )
        return match_id

    def refresh_deadlines(self, now: float) -> int:
        with self.database.writing() as connection:
            cursor = connection.execute(marked(queries.LIVE_REFRESH), [now])
            return cursor.rowcount

    def beat(self, now: float, gap: float) -> int:
        with self.database.writing() as connection:
            # One beat at a time across instances: the row is locked until the commit.
            connection.execute("LOCK TABLE live_clock IN SHARE ROW EXCLUSIVE MODE")
            row = connection.execute(marked(queries.CLOCK_READ)).fetchone()
            refreshed = 0
            if gap < 0 or row is None or row["served_at"] is None or now - row["served_at"] > gap:
                refreshed = connection.execute(marked(queries.LIVE_REFRESH), [now]).rowcount
            connection.execute(marked(queries.CLOCK_BEAT), [now])
        return refreshed

    def served_at(self) -> float | None:
        row = self.database.row(queries.CLOCK_READ)
        return None if row is None else row["served_at"]


def _append(
    connection: psycopg.Connection[DictRow],
    live_id: int,
    version: int,
    ply: int,
    entries: Sequence[Json],
    state: Json,
) -> None:
    """A row of the match's log: the entries a change added and the state after it."""
    connection.execute(
        "INSERT INTO live_log (live_id, version, ply, entries, state) VALUES (%s, %s, %s, %s, %s)",
        [live_id, version, ply, json.dumps(list(entries)), json.dumps(state)],
    )
