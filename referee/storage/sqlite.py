"""The game archive: the only code that touches SQL (SQLite through sqlite-utils).

One file, WAL mode, STRICT tables, migrations applied at start, FTS5 over names, events
and sites, matches deduplicated by the SHA-256 of their canonical record, API tokens kept
only as hashes. Several gunicorn workers may write at once: writes take the write lock up
front (``BEGIN IMMEDIATE``) and wait for it (``busy_timeout``, 5 s: shorter than any client
or proxy timeout), then fail with ArchiveBusyError (503, try again) instead of holding the
worker. The file is created readable by its owner only.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import secrets
import sqlite3
import urllib.parse
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from referee.errors import ArchiveBusyError, NotReadyError

BUSY_TIMEOUT_SECONDS = 5.0
MAX_PAGE = 500
TOKEN_BYTES = 32

migrations = Migrations("referee")


@migrations(name="0001_matches")
def _create_matches(db: Database) -> None:
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
def _create_tokens(db: Database) -> None:
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
def _create_live_matches(db: Database) -> None:
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
def _create_derived(db: Database) -> None:
    """What is computed from a stored record (replays, re-checks), kept per rules revision."""
    db["derived"].create(  # type: ignore[union-attr]
        {"match_id": int, "key": str, "revision": int, "body": bytes},
        pk=("match_id", "key"),
        not_null={"revision", "body"},
        foreign_keys=[("match_id", "matches", "id")],
        strict=True,
    )


@migrations(name="0005_verdict_revision")
def _add_verdict_revision(db: Database) -> None:
    """Which rules revision and referee version computed each stored verdict; verdicts
    stored before the columns existed are revision 0, so ``recheck`` finds them."""
    db["matches"].add_column("rules_revision", int, not_null_default=0)  # type: ignore[union-attr]
    db["matches"].add_column("referee_version", str)  # type: ignore[union-attr]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class NewMatch:
    """What the service hands the archive to store."""

    sha256: str
    variant: str
    valid: bool
    players: tuple[str, str]
    event: str | None
    site: str | None
    event_date: str | None
    match_length: int
    games: int
    winner: str | None
    options: dict[str, Any]
    verdict: dict[str, Any]
    original: str
    canonical: str
    rules_revision: int
    referee_version: str


@dataclass(frozen=True, slots=True)
class Rechecked:
    """A stored match's verdict computed anew, without touching its stored text."""

    id: int
    valid: bool
    winner: str | None
    verdict: dict[str, Any]
    rules_revision: int
    referee_version: str


@dataclass(frozen=True, slots=True)
class Stored:
    """The outcome of storing: the match's id and whether it was already there."""

    id: int
    duplicate: bool


@dataclass(frozen=True, slots=True)
class MatchQuery:
    """Filters of ``GET /v1/matches``; None means "any"."""

    player: str | None = None
    event: str | None = None
    variant: str | None = None
    valid: bool | None = None
    date_from: str | None = None
    date_to: str | None = None
    text: str | None = None
    limit: int = 50
    after_id: int | None = None


@dataclass(frozen=True, slots=True)
class Token:
    """A stored API token, without its secret."""

    id: int
    name: str | None
    prefix: str
    scopes: tuple[str, ...]
    created_at: str
    revoked_at: str | None


SUMMARY_COLUMNS = (
    "id, sha256, variant, valid, white, black, event, site, event_date, match_length,"
    " games, winner, created_at"
)


@dataclass(frozen=True, slots=True)
class Throw:
    """One throw of a live match's dice, as its proof lists it."""

    k: int
    dice: tuple[int, int]
    game: int
    use: str


class LiveConflictError(Exception):
    """The live match changed since it was read: read it again."""


class Archive:
    """A connection to the archive file; one per request (connections are not shared)."""

    def __init__(self, path: str | Path) -> None:
        """A connection to the archive ``prepare`` made; a missing file is an error here,
        never silently created again (empty, unmigrated)."""
        path = Path(path)
        uri = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=rw"
        try:
            connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS)
        except sqlite3.OperationalError as error:
            raise NotReadyError(f"the archive cannot be opened: {error}") from None
        self.db = Database(connection)
        self.path = path

    @classmethod
    def prepare(cls, path: str | Path) -> None:
        """WAL mode and migrations, at start, outside any transaction.

        Several processes may start at once (gunicorn workers, the CLI): an exclusive lock
        on a file beside the database lets one of them migrate while the others wait.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(f"{path}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not path.exists():
                # Readable by its owner only (SQLite gives -wal and -shm the same mode).
                # Only here, before any connection: closing a descriptor of an open
                # database would drop this process's SQLite locks on it.
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600))
            archive = cls(path)
            try:
                archive.db.enable_wal()
                migrations.apply(archive.db)
            finally:
                archive.close()

    def close(self) -> None:
        self.db.conn.close()

    # -- matches --------------------------------------------------------------------------

    def store(self, match: NewMatch) -> Stored:
        """Insert the match, or find the one with the same canonical SHA-256."""
        row = _match_row(match)
        with _write_lock(self.db.conn) as conn:
            return _insert_match(conn, row)

    def get(self, match_id: int) -> dict[str, Any] | None:
        """Every stored column of one match, verdict and options decoded."""
        rows = _dicts(self.db.execute("SELECT * FROM matches WHERE id = ?", [match_id]))
        if not rows:
            return None
        record = rows[0]
        record["options"] = json.loads(record["options"] or "{}")
        record["verdict"] = json.loads(record["verdict"] or "null")
        return record

    def search(self, query: MatchQuery) -> list[dict[str, Any]]:
        """One page of match summaries, newest first, after the cursor's id."""
        where: list[str] = ["1 = 1"]
        args: list[object] = []
        if query.player:
            where.append("(lower(white) = lower(?) OR lower(black) = lower(?))")
            args += [query.player, query.player]
        if query.event:
            where.append("lower(event) = lower(?)")
            args.append(query.event)
        if query.variant:
            where.append("variant = ?")
            args.append(query.variant)
        if query.valid is not None:
            where.append("valid = ?")
            args.append(int(query.valid))
        if query.date_from:
            where.append("event_date >= ?")
            args.append(query.date_from)
        if query.date_to:
            where.append("event_date <= ?")
            args.append(query.date_to)
        if query.after_id is not None:
            where.append("id < ?")
            args.append(query.after_id)
        if query.text:
            where.append("id IN (SELECT rowid FROM matches_fts WHERE matches_fts MATCH ?)")
            args.append(_fts_phrase(query.text))
        sql = (
            f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE {' AND '.join(where)}"
            " ORDER BY id DESC LIMIT ?"
        )
        args.append(min(max(query.limit, 1), MAX_PAGE))
        return _dicts(self.db.execute(sql, args))

    def iterate(self, query: MatchQuery) -> Iterator[dict[str, Any]]:
        """Every match the query selects, page by page."""
        page_query = query
        while True:
            page = self.search(page_query)
            yield from page
            if len(page) < min(max(query.limit, 1), MAX_PAGE):
                return
            page_query = replace(page_query, after_id=page[-1]["id"])

    def games_of(self, match_id: int) -> int | None:
        """How many games a stored match has (None: no such match), without reading it."""
        row = self.db.execute("SELECT games FROM matches WHERE id = ?", [match_id]).fetchone()
        return None if row is None else int(row[0])

    # -- derived results ------------------------------------------------------------------

    def derived(self, match_id: int, key: str, revision: int) -> Any:
        """A kept result computed from the match under rules ``revision`` (None: not kept)."""
        row = self.db.execute(
            "SELECT body FROM derived WHERE match_id = ? AND key = ? AND revision = ?",
            [match_id, key, revision],
        ).fetchone()
        return None if row is None else json.loads(zlib.decompress(row[0]))

    def keep_derived(self, match_id: int, revision: int, results: dict[str, Any]) -> None:
        """Keep results (by key) computed from the match, replacing older revisions'."""
        rows = [
            (match_id, key, revision, zlib.compress(json.dumps(body).encode()))
            for key, body in results.items()
        ]
        with _write_lock(self.db.conn) as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO derived (match_id, key, revision, body)"
                " VALUES (?, ?, ?, ?)",
                rows,
            )

    def forget_derived(self, match_id: int, prefix: str, keep: int) -> None:
        """Keep only the ``keep`` most recently kept results whose key starts ``prefix``."""
        with _write_lock(self.db.conn) as conn:
            conn.execute(
                "DELETE FROM derived WHERE match_id = ? AND substr(key, 1, ?) = ? AND rowid NOT IN"
                " (SELECT rowid FROM derived WHERE match_id = ? AND substr(key, 1, ?) = ?"
                " ORDER BY rowid DESC LIMIT ?)",
                (match_id, len(prefix), prefix, match_id, len(prefix), prefix, keep),
            )

    def ready(self) -> None:
        """Read from the file (ArchiveBusyError when it cannot be read now)."""
        try:
            self.db.execute("SELECT count(*) FROM matches").fetchone()
        except sqlite3.OperationalError as error:
            busy = busy_or(error)
            if isinstance(busy, ArchiveBusyError):
                raise busy from None
            raise NotReadyError(f"the archive cannot be read: {error}") from None

    def older_than(self, revision: int | None, page: int = 100) -> Iterator[dict[str, Any]]:
        """Every stored match whose verdict predates ``revision`` (every match when None),
        by ascending id, a page at a time: what ``recheck`` needs, options decoded."""
        after = 0
        while True:
            rows = _dicts(
                self.db.execute(
                    "SELECT id, variant, options, verdict, original FROM matches"
                    " WHERE id > ? AND (? IS NULL OR rules_revision < ?) ORDER BY id LIMIT ?",
                    [after, revision, revision, page],
                )
            )
            for row in rows:
                row["options"] = json.loads(row["options"] or "{}")
                row["verdict"] = json.loads(row["verdict"] or "null")
                yield row
            if len(rows) < page:
                return
            after = rows[-1]["id"]

    def update_verdict(self, rechecked: Rechecked) -> None:
        """Store a re-computed verdict; the original and canonical text stay as they are."""
        conn = self.db.conn
        with _write_lock(conn):
            conn.execute(
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

    # -- live matches ---------------------------------------------------------------------

    def create_live(self, row: dict[str, Any]) -> int:
        """Insert a new live match; its id."""
        stamped = {**row, "created_at": _now(), "updated_at": _now()}
        columns = ", ".join(stamped)
        marks = ", ".join("?" for _ in stamped)
        with _write_lock(self.db.conn) as conn:
            cursor = conn.execute(
                f"INSERT INTO live_matches ({columns}) VALUES ({marks})", tuple(stamped.values())
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def live(self, live_id: int) -> dict[str, Any] | None:
        """Every column of one live match (``state`` as stored JSON text)."""
        rows = _dicts(self.db.execute("SELECT * FROM live_matches WHERE id = ?", [live_id]))
        return rows[0] if rows else None

    def live_versions(self, live_ids: list[int]) -> dict[int, tuple[int, float | None]]:
        """The version (bumped by every change) and deadline of each of these live matches."""
        marks = ", ".join("?" for _ in live_ids)
        rows = self.db.execute(
            f"SELECT id, version, deadline FROM live_matches WHERE id IN ({marks})", live_ids
        ).fetchall()
        return {row[0]: (row[1], row[2]) for row in rows}

    def live_throws(self, live_id: int) -> list[Throw]:
        rows = self.db.execute(
            "SELECT k, die1, die2, game, use FROM live_throws WHERE live_id = ? ORDER BY k",
            [live_id],
        ).fetchall()
        return [Throw(row[0], (row[1], row[2]), row[3], row[4]) for row in rows]

    def save_live(
        self,
        live_id: int,
        version: int,
        changes: dict[str, Any],
        throws: list[Throw],
        record: NewMatch | None = None,
    ) -> int | None:
        """Commit a change of a live match read at ``version``, with its new throws and, at
        the end, its record, in one transaction; LiveConflictError when another change came
        first. Returns the stored record's id. Writers of live matches queue first
        (``_queue``).

        ``synchronous=NORMAL`` (WAL): a commit survives the process being killed, not a
        power loss; it spares an fsync per action."""
        self.db.conn.execute("PRAGMA synchronous = NORMAL")
        with _queue(f"{self.path}.live-lock"), _write_lock(self.db.conn) as conn:
            row = conn.execute(
                "SELECT version FROM live_matches WHERE id = ?", [live_id]
            ).fetchone()
            if row is None or row[0] != version:
                raise LiveConflictError(live_id)
            match_id = None
            if record is not None:
                match_id = _insert_match(conn, _match_row(record)).id
                changes = {**changes, "match_id": match_id}
            updates = {**changes, "version": version + 1, "updated_at": _now()}
            assignments = ", ".join(f"{name} = ?" for name in updates)
            conn.execute(
                f"UPDATE live_matches SET {assignments} WHERE id = ?", (*updates.values(), live_id)
            )
            conn.executemany(
                "INSERT INTO live_throws (live_id, k, die1, die2, game, use)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(live_id, t.k, t.dice[0], t.dice[1], t.game, t.use) for t in throws],
            )
        return match_id

    def refresh_live_deadlines(self, now: float) -> int:
        """After a restart the player to act in every live match gets a fresh full time."""
        with _write_lock(self.db.conn) as conn:
            cursor = conn.execute(
                "UPDATE live_matches SET deadline = ? + move_seconds, version = version + 1"
                " WHERE status = 'playing'",
                (now,),
            )
        return cursor.rowcount

    # -- tokens ---------------------------------------------------------------------------

    def create_token(self, scopes: tuple[str, ...], name: str | None = None) -> tuple[Token, str]:
        """A new token: its record and the secret, which is shown once and never stored."""
        secret = "nrt_" + secrets.token_urlsafe(TOKEN_BYTES)
        created = _now()
        conn = self.db.conn
        with _write_lock(conn):
            cursor = conn.execute(
                "INSERT INTO tokens (name, prefix, token_hash, scopes, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (name, secret[:8], _hash_token(secret), " ".join(scopes), created),
            )
        assert cursor.lastrowid is not None
        return Token(cursor.lastrowid, name, secret[:8], scopes, created, None), secret

    def tokens(self) -> list[Token]:
        rows = self.db.execute(
            "SELECT id, name, prefix, scopes, created_at, revoked_at FROM tokens ORDER BY id"
        ).fetchall()
        return [
            Token(row[0], row[1], row[2], tuple(row[3].split()), row[4], row[5]) for row in rows
        ]

    def revoke_token(self, token_id: int) -> bool:
        conn = self.db.conn
        with _write_lock(conn):
            cursor = conn.execute(
                "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (_now(), token_id),
            )
        return cursor.rowcount == 1

    def token_holder(self, secret: str) -> Token | None:
        """The live token with this secret (None when unknown or revoked)."""
        row = self.db.execute(
            "SELECT id, name, prefix, scopes, created_at, revoked_at FROM tokens"
            " WHERE token_hash = ? AND revoked_at IS NULL",
            [_hash_token(secret)],
        ).fetchone()
        if row is None:
            return None
        return Token(row[0], row[1], row[2], tuple(row[3].split()), row[4], row[5])

    def token_scopes(self, secret: str) -> tuple[str, ...] | None:
        """The scopes of a live token, or None when it is unknown or revoked."""
        holder = self.token_holder(secret)
        return None if holder is None else holder.scopes


@contextmanager
def _queue(lock_path: str) -> Iterator[None]:
    """Live writers queue on a lock file before they ask SQLite for its write lock: they
    block in the kernel and go on at once when it is free, where SQLite's busy handler
    would sleep and retry (unfairly: seconds of tail latency under many writers)."""
    with open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@contextmanager
def _write_lock(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction that holds SQLite's write lock from its start."""
    if conn.in_transaction:
        conn.commit()
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        raise busy_or(error) from None
    try:
        yield conn
    except BaseException:
        conn.rollback()
        raise
    conn.commit()


def _match_row(match: NewMatch) -> dict[str, Any]:
    return {
        "sha256": match.sha256,
        "variant": match.variant,
        "valid": int(match.valid),
        "white": match.players[0],
        "black": match.players[1],
        "event": match.event,
        "site": match.site,
        "event_date": match.event_date,
        "match_length": match.match_length,
        "games": match.games,
        "winner": match.winner,
        "options": json.dumps(match.options),
        "verdict": json.dumps(match.verdict),
        "original": match.original,
        "canonical": match.canonical,
        "created_at": _now(),
        "rules_revision": match.rules_revision,
        "referee_version": match.referee_version,
    }


def _insert_match(conn: sqlite3.Connection, row: dict[str, Any]) -> Stored:
    """Insert a match row inside a write transaction, or find the one with its SHA-256."""
    existing = conn.execute("SELECT id FROM matches WHERE sha256 = ?", (row["sha256"],)).fetchone()
    if existing is not None:
        return Stored(int(existing[0]), duplicate=True)
    columns = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    cursor = conn.execute(f"INSERT INTO matches ({columns}) VALUES ({marks})", tuple(row.values()))
    assert cursor.lastrowid is not None
    return Stored(cursor.lastrowid, duplicate=False)


def busy_or(error: sqlite3.OperationalError) -> Exception:
    """The one reading of SQLite's errors: a database locked or busy past the busy timeout
    is ArchiveBusyError (503 with Retry-After); any other error stays what it is."""
    if getattr(error, "sqlite_errorcode", None) in _BUSY_CODES or "locked" in str(error):
        return ArchiveBusyError(
            f"the archive stayed locked by another writer for {BUSY_TIMEOUT_SECONDS:g} s; try again"
        )
    return error


_BUSY_CODES = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


def _dicts(cursor: sqlite3.Cursor) -> list[dict[str, Any]]:
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _fts_phrase(text: str) -> str:
    """Free text as FTS5 phrases: every word quoted, so ``8/5`` or ``AND`` are just words."""
    words = text.replace("\x00", " ").split()
    return " ".join('"' + word.replace('"', '""') + '"' for word in words) or '""'
