"""Live matches, on every backend: one row per match (a version bumped by every change, the
deadline as a Unix time, the version of its last state), one row per change of its table
in its log (the ply, the record entries it added, the compact state after it: appended,
never rewritten) and one row per throw of its dice.

A change checks the version it read in the statement that updates the match's row: of
two changes made from one reading the second finds another version and is refused. On
SQLite the live writers queue for the write lock (``Database.writing(live=True)``); on
PostgreSQL the updated row stays locked until the change commits."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from referee.storage.errors import LiveConflictError
from referee.storage.matches import insert_match
from referee.storage.model import Json
from referee.storage.model.live import (
    LiveChange,
    LiveProgress,
    LiveSetup,
    LiveVersion,
    StoredLive,
    Throw,
)
from referee.storage.shared import timestamp
from referee.storage.sql import (
    Database,
    Dialect,
    Row,
    Serial,
    insert_sql,
    marks,
    with_own_columns,
)

GET = (
    "SELECT m.*, l.state AS last_state FROM live_matches m JOIN live_log l"
    " ON l.live_id = m.id AND l.version = m.state_version WHERE m.id = ?"
)
APPEND = "INSERT INTO live_log (live_id, version, ply, entries, state) VALUES (?, ?, ?, ?, ?)"
THROW = "INSERT INTO live_throws (live_id, k, die1, die2, game, use) VALUES (?, ?, ?, ?, ?, ?)"
REFRESH = (
    "UPDATE live_matches SET deadline = ? + coalesce(turn_seconds, move_seconds),"
    " version = version + 1"
    " WHERE status = 'playing' OR (status = 'waiting' AND deadline IS NOT NULL)"
)
"""What every match awaits gets its full time again from now: the decision in play (its
``move_seconds``, or its clock's delay and the reserve it began with), the bots' joining."""
CLOCK_READ = "SELECT served_at FROM live_clock WHERE id = 1"
CLOCK_BEAT = (
    "INSERT INTO live_clock (id, served_at) VALUES (1, ?)"
    " ON CONFLICT (id) DO UPDATE SET served_at = excluded.served_at"
)


class Live:
    """The live match store."""

    def __init__(self, database: Database, dialect: Dialect) -> None:
        self.database = database
        self.dialect = dialect

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
        row = with_own_columns(self.dialect, "live_matches", row)
        assert progress.state is not None
        with self.database.writing() as tx:
            live_id = tx.insert(insert_sql("live_matches", list(row)), list(row.values()))
            state = json.dumps(progress.state)
            tx.execute(APPEND, log_row(live_id, 0, progress.ply, (), state))
        return live_id

    def get(self, live_id: int) -> StoredLive | None:
        row = self.database.row(GET, [live_id])
        return None if row is None else stored_live(row, json.loads(row["last_state"]))

    def get_encoded(self, live_id: int) -> tuple[StoredLive, str] | None:
        row = self.database.row(GET, [live_id])
        return None if row is None else (stored_live(row, None), row["last_state"])

    def versions(self, live_ids: Sequence[int]) -> dict[int, LiveVersion]:
        if not live_ids:
            return {}
        rows = self.database.rows(
            f"SELECT id, version, deadline FROM live_matches WHERE id IN ({marks(len(live_ids))})",
            list(live_ids),
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
            text = json.dumps(state) if change.state_text is None else change.state_text
            logged = log_row(live_id, version, change.progress.ply, change.entries, text)
        update = _update(tuple(updates))
        throws = [(live_id, t.k, t.dice[0], t.dice[1], t.game, t.use) for t in change.new_throws]
        with self.database.writing(live=True) as tx:
            if tx.execute(update, (*updates.values(), live_id, change.version)) != 1:
                raise LiveConflictError(live_id)  # rolls the transaction back
            if logged is not None:
                tx.execute(APPEND, logged)
            match_id = None
            if change.record is not None:
                match_id = insert_match(tx, self.dialect, change.record).id
                tx.execute("UPDATE live_matches SET match_id = ? WHERE id = ?", [match_id, live_id])
            if throws:
                tx.many(THROW, throws)
        return match_id

    def refresh_deadlines(self, now: float) -> int:
        with self.database.writing() as tx:
            return tx.execute(REFRESH, (now,))

    def beat(self, now: float, gap: float) -> int:
        with self.database.writing(live=True) as tx:
            self.dialect.serialize(tx, Serial.CLOCK)  # one beat at a time across instances
            row = tx.row(CLOCK_READ)
            refreshed = 0
            if gap < 0 or row is None or row["served_at"] is None or now - row["served_at"] > gap:
                refreshed = tx.execute(REFRESH, (now,))
            tx.execute(CLOCK_BEAT, (now,))
        return refreshed

    def served_at(self) -> float | None:
        row = self.database.row(CLOCK_READ)
        return None if row is None else row["served_at"]


@cache
def _update(columns: tuple[str, ...]) -> str:
    """The statement of a change that sets ``columns`` (two sets: with a new state, without)."""
    assignments = ", ".join(f"{name} = ?" for name in columns)
    return f"UPDATE live_matches SET {assignments} WHERE id = ? AND version = ?"


@lru_cache(maxsize=256)
def _options(text: str) -> tuple[tuple[str, Any], ...]:
    """A match's options as stored (JSON), read once per text (a match is read for every
    action, and its options never change)."""
    return tuple(json.loads(text).items())


def log_row(
    live_id: int, version: int, ply: int, entries: Sequence[Json], state: str
) -> tuple[object, ...]:
    """A row of the match's log: the entries a change added and the state after it (as
    JSON text)."""
    return (live_id, version, ply, json.dumps(list(entries)), state)


def live_setup_row(setup: LiveSetup) -> dict[str, object]:
    """The columns of a new row of ``live_matches`` that its setup gives."""
    return {
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
        "mirrored": setup.mirrored,
        "join_seconds": setup.join_seconds,
        "clock_reserve": setup.reserve,
        "clock_delay": setup.delay,
    }


def progress_columns(progress: LiveProgress) -> dict[str, object]:
    """The columns of ``live_matches`` that every change writes."""
    return {
        "status": progress.status,
        "ply": progress.ply,
        "seed_w": progress.seeds[0],
        "seed_b": progress.seeds[1],
        "deadline": progress.deadline,
        "throws": progress.throws,
        "reserve_w": None if progress.reserves is None else progress.reserves[0],
        "reserve_b": None if progress.reserves is None else progress.reserves[1],
        "turn_seconds": progress.turn_seconds,
    }


def stored_live(row: Row, state: Json | None) -> StoredLive:
    """A live match from its row joined with its last state, ``state`` (``last_state``
    decoded, or None where it is left as text)."""
    setup = LiveSetup(
        variant=row["variant"],
        length=row["length"],
        options=dict(_options(row["options"])),
        players=(row["white"], row["black"]),
        move_seconds=row["move_seconds"],
        host_token_id=row["host_token_id"],
        server_seed=row["server_seed"],
        commitment=row["commitment"],
        dice_id=row["dice_id"],
        mirrored=bool(row["mirrored"]),
        join_seconds=row["join_seconds"],
        reserve=row["clock_reserve"],
        delay=row["clock_delay"],
    )
    reserves = None if row["reserve_w"] is None else (row["reserve_w"], row["reserve_b"])
    progress = LiveProgress(
        status=row["status"],
        ply=row["ply"],
        seeds=(row["seed_w"], row["seed_b"]),
        deadline=row["deadline"],
        state=state,
        throws=row["throws"],
        reserves=reserves,
        turn_seconds=row["turn_seconds"],
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
