"""Live matches in SQLite: one row per match (a version bumped by every change, the
deadline as a Unix time, the version of its last state), one row per change of its table
in its log (the ply, the record entries it added, the compact state after it: appended,
never rewritten) and one row per throw of its dice."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from referee.storage.errors import LiveConflictError
from referee.storage.model import (
    Json,
    LiveChange,
    LiveProgress,
    LiveSetup,
    LiveVersion,
    StoredLive,
    Throw,
)
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
            "variant": setup.variant,
            "length": setup.length,
            "options": json.dumps(setup.options),
            "white": setup.players[0],
            "black": setup.players[1],
            "move_seconds": setup.move_seconds,
            "host_token_id": setup.host_token_id,
            "server_seed": setup.server_seed,
            "commitment": setup.commitment,
            "dice_id": setup.dice_id,
            "mirrored": int(setup.mirrored),
            **_progress_columns(progress),
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
            _append(connection, live_id, 0, progress.ply, (), progress.state)
        return live_id

    def get(self, live_id: int) -> StoredLive | None:
        row = self.database.row(
            "SELECT m.*, l.state AS last_state FROM live_matches m JOIN live_log l"
            " ON l.live_id = m.id AND l.version = m.state_version WHERE m.id = ?",
            [live_id],
        )
        return None if row is None else _stored(row)

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
        with self.database.writing(live=True) as connection:
            row = connection.execute(
                "SELECT version FROM live_matches WHERE id = ?", [live_id]
            ).fetchone()
            if row is None or row[0] != change.version:
                raise LiveConflictError(live_id)
            version = change.version + 1
            updates = {
                **_progress_columns(change.progress),
                "version": version,
                "updated_at": timestamp(),
            }
            state = change.progress.state
            if state is not None:
                updates["state_version"] = version
                _append(connection, live_id, version, change.progress.ply, change.entries, state)
            match_id = None
            if change.record is not None:
                match_id = updates["match_id"] = insert_match(connection, change.record).id
            assignments = ", ".join(f"{name} = ?" for name in updates)
            connection.execute(
                f"UPDATE live_matches SET {assignments} WHERE id = ?", (*updates.values(), live_id)
            )
            connection.executemany(
                "INSERT INTO live_throws (live_id, k, die1, die2, game, use)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(live_id, t.k, t.dice[0], t.dice[1], t.game, t.use) for t in change.new_throws],
            )
        return match_id

    def refresh_deadlines(self, now: float) -> int:
        with self.database.writing() as connection:
            cursor = connection.execute(
                "UPDATE live_matches SET deadline = ? + move_seconds, version = version + 1"
                " WHERE status = 'playing'",
                (now,),
            )
        return cursor.rowcount


def _progress_columns(progress: LiveProgress) -> dict[str, object]:
    return {
        "status": progress.status,
        "ply": progress.ply,
        "seed_w": progress.seeds[0],
        "seed_b": progress.seeds[1],
        "deadline": progress.deadline,
        "throws": progress.throws,
    }


def _append(
    connection: sqlite3.Connection,
    live_id: int,
    version: int,
    ply: int,
    entries: Sequence[Json],
    state: Json,
) -> None:
    """A row of the match's log: the entries a change added and the state after it."""
    connection.execute(
        "INSERT INTO live_log (live_id, version, ply, entries, state) VALUES (?, ?, ?, ?, ?)",
        (live_id, version, ply, json.dumps(list(entries)), json.dumps(state)),
    )


def _stored(row: sqlite3.Row) -> StoredLive:
    setup = LiveSetup(
        variant=row["variant"],
        length=row["length"],
        options=json.loads(row["options"]),
        players=(row["white"], row["black"]),
        move_seconds=row["move_seconds"],
        host_token_id=row["host_token_id"],
        server_seed=row["server_seed"],
        commitment=row["commitment"],
        dice_id=row["dice_id"],
        mirrored=bool(row["mirrored"]),
    )
    progress = LiveProgress(
        status=row["status"],
        ply=row["ply"],
        seeds=(row["seed_w"], row["seed_b"]),
        deadline=row["deadline"],
        state=json.loads(row["last_state"]),
        throws=row["throws"],
    )
    return StoredLive(
        id=row["id"],
        setup=setup,
        progress=progress,
        version=row["version"],
        match_id=row["match_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )
