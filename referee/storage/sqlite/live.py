"""Live matches in SQLite: one row per match (a version bumped by every change, the
deadline as a Unix time, the version of its last state), one row per change of its table
in its log (the ply, the record entries it added, the compact state after it: appended,
never rewritten) and one row per throw of its dice."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

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
from referee.storage.rows import live_setup_row, progress_columns, stored_live
from referee.storage.shared import timestamp
from referee.storage.sqlite.database import Database
from referee.storage.sqlite.matches import insert_match


class SqliteLive:
    """The live match store of one connection. Changes commit in a write transaction
    that checks the version read; live writers queue for it (``Database.writing``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def create(self, setup: LiveSetup, progress: LiveProgress) -> int:
        stamp = timestamp()
        row = {
            **live_setup_row(setup),
            **progress_columns(progress),
            "state": "",
            "state_version": 0,
            "version": 0,
            "created_at": stamp,
            "updated_at": stamp,
        }
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        with self.database.writing() as connection:
            cursor = connection.execute(
                f"INSERT INTO live_matches ({columns}) VALUES ({marks})", tuple(row.values())
            )
            live_id = cursor.lastrowid
            assert live_id is not None and progress.state is not None
            connection.execute(
                queries.LIVE_APPEND, _log_row(live_id, 0, progress.ply, (), progress.state)
            )
        return live_id

    def get(self, live_id: int) -> StoredLive | None:
        row = self.database.row(
            "SELECT m.*, l.state AS last_state FROM live_matches m JOIN live_log l"
            " ON l.live_id = m.id AND l.version = m.state_version WHERE m.id = ?",
            [live_id],
        )
        return None if row is None else stored_live(row)

    def versions(self, live_ids: Sequence[int]) -> dict[int, LiveVersion]:
        marks = ", ".join("?" for _ in live_ids)
        rows = self.database.rows(
            f"SELECT id, version, deadline FROM live_matches WHERE id IN ({marks})", live_ids
        )
        return {row["id"]: LiveVersion(row["version"], row["deadline"]) for row in rows}

    def throws(self, live_id: int) -> list[Throw]:
        rows = self.database.rows(
            "SELECT k, die1, die2, game, use FROM live_throws WHERE live_id = ? ORDER BY k",
            [live_id],
        )
        return [
            Throw(row["k"], (row["die1"], row["die2"]), row["game"], row["use"]) for row in rows
        ]

    def log(self, live_id: int) -> list[Json]:
        rows = self.database.rows(
            "SELECT entries FROM live_log WHERE live_id = ? ORDER BY version", [live_id]
        )
        return [entry for row in rows for entry in json.loads(row["entries"])]

    def save(self, change: LiveChange) -> int | None:
        live_id = change.live_id
        version = change.version + 1
        # Everything but the statements is made before the write lock is taken: the live
        # writers queue on it, so its time is the live path's ceiling.
        updates = {
            **progress_columns(change.progress),
            "version": version,
            "updated_at": timestamp(),
        }
        state = change.progress.state
        logged = None
        if state is not None:
            updates["state_version"] = version
            logged = _log_row(live_id, version, change.progress.ply, change.entries, state)
        assignments = ", ".join(f"{name} = ?" for name in updates)
        update = f"UPDATE live_matches SET {assignments} WHERE id = ? AND version = ?"
        throws = [(live_id, t.k, t.dice[0], t.dice[1], t.game, t.use) for t in change.new_throws]
        with self.database.writing(live=True) as connection:
            checked = connection.execute(update, (*updates.values(), live_id, change.version))
            if checked.rowcount != 1:
                raise LiveConflictError(live_id)  # rolls the transaction back
            if logged is not None:
                connection.execute(queries.LIVE_APPEND, logged)
            match_id = None
            if change.record is not None:
                match_id = insert_match(connection, change.record).id
                connection.execute(
                    "UPDATE live_matches SET match_id = ? WHERE id = ?", [match_id, live_id]
                )
            if throws:
                connection.executemany(queries.LIVE_THROW, throws)
        return match_id

    def refresh_deadlines(self, now: float) -> int:
        with self.database.writing() as connection:
            return _refresh(connection, now)

    def beat(self, now: float, gap: float) -> int:
        with self.database.writing(live=True) as connection:
            row = connection.execute(queries.CLOCK_READ).fetchone()
            refreshed = 0
            if gap < 0 or row is None or row[0] is None or now - row[0] > gap:
                refreshed = _refresh(connection, now)
            connection.execute(queries.CLOCK_BEAT, (now,))
        return refreshed

    def served_at(self) -> float | None:
        row = self.database.row(queries.CLOCK_READ)
        return None if row is None else row["served_at"]


def _refresh(connection: sqlite3.Connection, now: float) -> int:
    """The player to act in every match in play gets a fresh full time from ``now``."""
    return connection.execute(queries.LIVE_REFRESH, (now,)).rowcount


def _log_row(
    live_id: int, version: int, ply: int, entries: Sequence[Json], state: Json
) -> tuple[object, ...]:
    """A row of the match's log: the entries a change added and the state after it."""
    return (live_id, version, ply, json.dumps(list(entries)), json.dumps(state))
