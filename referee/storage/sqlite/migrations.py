"""The archive's schema, step by step (sqlite-utils migrations), and ``prepare``: WAL mode
and the migrations, applied at start.

STRICT tables; FTS5 with triggers over player names, event and site; a unique SHA-256
of the canonical record; tokens kept only as hashes. The file is created readable by its
owner only.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

from sqlite_utils import Database as Utilities
from sqlite_utils.migrations import Migrations

from referee.storage.sqlite.database import Database, translated

migrations = Migrations("referee")


@migrations(name="0001_matches")
def _create_matches(db: Utilities) -> None:
    db["matches"].create(  # type: ignore[union-attr]
        {
            "id": int,
            "sha256": str,
            "variant": str,
            "valid": int,
            "white": str,
            "black": str,
            "event": str,
            "site": str,
            "event_date": str,
            "match_length": int,
            "games": int,
            "winner": str,
            "options": str,
            "verdict": str,
            "original": str,
            "canonical": str,
            "created_at": str,
        },
        pk="id",
        not_null={"sha256", "variant", "valid", "original", "canonical", "created_at"},
        strict=True,
    )
    db["matches"].create_index(["sha256"], unique=True)  # type: ignore[union-attr]
    db["matches"].create_index(["event_date"])  # type: ignore[union-attr]
    db["matches"].enable_fts(  # type: ignore[union-attr]
        ["white", "black", "event", "site"], create_triggers=True
    )


@migrations(name="0002_tokens")
def _create_tokens(db: Utilities) -> None:
    db["tokens"].create(  # type: ignore[union-attr]
        {
            "id": int,
            "name": str,
            "prefix": str,
            "token_hash": str,
            "scopes": str,
            "created_at": str,
            "revoked_at": str,
        },
        pk="id",
        not_null={"token_hash", "scopes", "created_at"},
        strict=True,
    )
    db["tokens"].create_index(["token_hash"], unique=True)  # type: ignore[union-attr]


@migrations(name="0003_live_matches")
def _create_live_matches(db: Utilities) -> None:
    db["live_matches"].create(  # type: ignore[union-attr]
        {
            "id": int,
            "variant": str,
            "length": int,
            "options": str,
            "white": str,
            "black": str,
            "move_seconds": int,
            "host_token_id": int,
            "server_seed": str,
            "commitment": str,
            "seed_w": str,
            "seed_b": str,
            "status": str,
            "ply": int,
            "version": int,
            "throws": int,
            "deadline": float,
            "state": str,
            "match_id": int,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        not_null={"variant", "length", "options", "white", "black", "move_seconds", "status"}
        | {"server_seed", "commitment", "ply", "version", "throws", "state"}
        | {"created_at", "updated_at"},
        strict=True,
    )
    db["live_matches"].create_index(["status"])  # type: ignore[union-attr]
    db["live_throws"].create(  # type: ignore[union-attr]
        {"live_id": int, "k": int, "die1": int, "die2": int, "game": int, "use": str},
        pk=("live_id", "k"),
        foreign_keys=[("live_id", "live_matches", "id")],
        strict=True,
    )


@migrations(name="0004_derived")
def _create_derived(db: Utilities) -> None:
    """What is computed from a stored record (replays, re-checks), kept per rules revision."""
    db["derived"].create(  # type: ignore[union-attr]
        {"match_id": int, "key": str, "revision": int, "body": bytes},
        pk=("match_id", "key"),
        not_null={"revision", "body"},
        foreign_keys=[("match_id", "matches", "id")],
        strict=True,
    )


@migrations(name="0005_verdict_revision")
def _add_verdict_revision(db: Utilities) -> None:
    """Which rules revision and referee version computed each stored verdict; verdicts
    stored before the columns existed are revision 0, so ``recheck`` finds them."""
    db["matches"].add_column("rules_revision", int, not_null_default=0)  # type: ignore[union-attr]
    db["matches"].add_column("referee_version", str)  # type: ignore[union-attr]


@migrations(name="0006_live_log")
def _create_live_log(db: Utilities) -> None:
    """Each live match's log: one row per change of its table (the ply, the record entries
    it added, the compact state after it), appended, never rewritten; the match's row
    points at its last state (``state_version``). Matches stored before keep their whole
    table in ``state``: it is moved into a first log row, its record into entries."""
    db["live_log"].create(  # type: ignore[union-attr]
        {"live_id": int, "version": int, "ply": int, "entries": str, "state": str},
        pk=("live_id", "version"),
        not_null={"ply", "entries", "state"},
        foreign_keys=[("live_id", "live_matches", "id")],
        strict=True,
    )
    db["live_matches"].add_column("state_version", int, not_null_default=0)  # type: ignore[union-attr]
    rows = db.execute("SELECT id, version, ply, state FROM live_matches").fetchall()
    for live_id, version, ply, text in rows:
        state = json.loads(text)
        entries, last, count = [], None, 0
        for game, record in enumerate(state.pop("records", []), start=1):
            entries.append(
                {"kind": "game", "game": game, "score": record["score"], "start": record["start"]}
            )
            entries.extend(record["actions"])
            last = record["actions"][-1] if record["actions"] else last
            count = len(record["actions"])
        state["last_action"], state["game_actions"] = last, count
        db.execute(
            "INSERT INTO live_log (live_id, version, ply, entries, state) VALUES (?, ?, ?, ?, ?)",
            [live_id, version, ply, json.dumps(entries), json.dumps(state)],
        )
        db.execute(
            "UPDATE live_matches SET state = '', state_version = ? WHERE id = ?", [version, live_id]
        )


@migrations(name="0007_rechecks")
def _create_rechecks(db: Utilities) -> None:
    """Bulk re-checks as pulled jobs: a run over the archive, its batches (ranges of ids),
    and each match re-checked in it, so that a run killed part way resumes."""
    db["recheck_runs"].create(  # type: ignore[union-attr]
        {
            "id": int,
            "revision": int,
            "batches": int,
            "matches": int,
            "created_at": str,
            "finished_at": str,
        },
        pk="id",
        not_null={"batches", "matches", "created_at"},
        strict=True,
    )
    db["recheck_batches"].create(  # type: ignore[union-attr]
        {
            "run_id": int,
            "number": int,
            "first_id": int,
            "last_id": int,
            "size": int,
            "done": int,
        },
        pk=("run_id", "number"),
        not_null={"first_id", "last_id", "size", "done"},
        foreign_keys=[("run_id", "recheck_runs", "id")],
        strict=True,
    )
    db["recheck_done"].create(  # type: ignore[union-attr]
        {"run_id": int, "match_id": int, "changed": int},
        pk=("run_id", "match_id"),
        not_null={"changed"},
        foreign_keys=[("run_id", "recheck_runs", "id")],
        strict=True,
    )


@migrations(name="0008_clock_and_claims")
def _create_clock_and_claims(db: Utilities) -> None:
    """The service's clock (one row: when a serving instance last beat it; deadlines run
    only while it is beaten) and the claims on computations of derived results (one
    request computes a replay, the others wait for it)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS live_clock"
        " (id INTEGER PRIMARY KEY CHECK (id = 1), served_at REAL) STRICT"
    )
    db.execute(
        "CREATE TABLE IF NOT EXISTS derived_claims (match_id INTEGER NOT NULL,"
        " key TEXT NOT NULL, owner TEXT NOT NULL, expires REAL NOT NULL,"
        " PRIMARY KEY (match_id, key)) STRICT"
    )


def prepare(path: Path) -> None:
    """WAL mode and migrations, at start, outside any transaction.

    Several processes may start at once (gunicorn workers, the CLI): an exclusive lock
    on a file beside the database lets one of them migrate while the others wait.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{path}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            # Readable by its owner only (SQLite gives -wal and -shm the same mode).
            # Only here, before any connection: closing a descriptor of an open
            # database would drop this process's SQLite locks on it.
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600))
        database = Database(path)
        try:
            with translated():
                database.utils.enable_wal()
                migrations.apply(database.utils)
        finally:
            database.close()
