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


EVENT_TABLES = (
    """CREATE TABLE events (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, variant TEXT NOT NULL,
        length INTEGER NOT NULL, options TEXT NOT NULL, format TEXT NOT NULL,
        rounds INTEGER NOT NULL, double INTEGER NOT NULL, kind TEXT NOT NULL,
        move_seconds INTEGER NOT NULL, mirrored INTEGER NOT NULL, rated INTEGER NOT NULL,
        host_token_id INTEGER, status TEXT NOT NULL, round INTEGER NOT NULL,
        version INTEGER NOT NULL, lease_until REAL, created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL) STRICT""",
    "CREATE INDEX events_status ON events (status)",
    """CREATE TABLE event_entrants (
        event_id INTEGER NOT NULL REFERENCES events (id), position INTEGER NOT NULL,
        name TEXT NOT NULL, seed INTEGER, rating REAL,
        PRIMARY KEY (event_id, position)) STRICT""",
    """CREATE TABLE event_pairings (
        event_id INTEGER NOT NULL REFERENCES events (id), round INTEGER NOT NULL,
        table_no INTEGER NOT NULL, white TEXT NOT NULL, black TEXT NOT NULL,
        status TEXT NOT NULL, live_ids TEXT NOT NULL, match_ids TEXT NOT NULL,
        winner TEXT, points_w INTEGER, points_b INTEGER, termination TEXT,
        terminations TEXT NOT NULL, draw INTEGER NOT NULL, award TEXT,
        verdict_id INTEGER, dispute TEXT,
        PRIMARY KEY (event_id, round, table_no)) STRICT""",
    """CREATE TABLE event_byes (
        event_id INTEGER NOT NULL REFERENCES events (id), round INTEGER NOT NULL,
        name TEXT NOT NULL, PRIMARY KEY (event_id, round, name)) STRICT""",
    """CREATE TABLE event_live (
        seq INTEGER PRIMARY KEY, live_id INTEGER NOT NULL UNIQUE,
        event_id INTEGER NOT NULL REFERENCES events (id), round INTEGER NOT NULL,
        table_no INTEGER NOT NULL, white TEXT NOT NULL, black TEXT NOT NULL) STRICT""",
    "CREATE INDEX event_live_white ON event_live (white)",
    "CREATE INDEX event_live_black ON event_live (black)",
    """CREATE TABLE rated_matches (
        seq INTEGER PRIMARY KEY, match_id INTEGER NOT NULL UNIQUE,
        event_id INTEGER NOT NULL, variant TEXT NOT NULL, white TEXT NOT NULL,
        black TEXT NOT NULL, winner TEXT NOT NULL, length INTEGER NOT NULL) STRICT""",
    "CREATE INDEX rated_matches_variant ON rated_matches (variant, seq)",
    """CREATE TABLE ratings (
        variant TEXT NOT NULL, name TEXT NOT NULL, rating REAL NOT NULL,
        experience INTEGER NOT NULL, matches INTEGER NOT NULL,
        PRIMARY KEY (variant, name)) STRICT""",
    """CREATE TABLE rating_history (
        variant TEXT NOT NULL, name TEXT NOT NULL, match_id INTEGER NOT NULL,
        event_id INTEGER NOT NULL, before REAL NOT NULL, after REAL NOT NULL,
        PRIMARY KEY (variant, name, match_id)) STRICT""",
    """CREATE TABLE rating_marks (
        variant TEXT PRIMARY KEY, through_seq INTEGER NOT NULL,
        last_match_id INTEGER NOT NULL) STRICT""",
    "ALTER TABLE live_matches ADD COLUMN dice_id INTEGER",
    "ALTER TABLE live_matches ADD COLUMN mirrored INTEGER NOT NULL DEFAULT 0",
)
"""Plain SQL (a PostgreSQL twin reads the same, with BIGINT/DOUBLE PRECISION and
identity columns for ``seq``)."""


@migrations(name="0009_events")
def _create_events(db: Utilities) -> None:
    """Events (EVENTS.md): the event, its entrants and seeds, every pairing of every round,
    byes, and the announcements of its live matches (the bot stream reads them by
    ``seq``); the ratings' ledger of rated matches and the ratings kept from it, with
    each name's history; a live match's dice of a mirrored pair (``dice_id``, the match
    whose seed it shares, and ``mirrored``: no client seeds)."""
    for statement in EVENT_TABLES:
        db.execute(statement)


CORRECTION_TABLES = (
    """CREATE TABLE event_ledger (
        seq INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES events (id),
        at TEXT NOT NULL, by_name TEXT NOT NULL, action TEXT NOT NULL, round INTEGER,
        table_no INTEGER, name TEXT, reason TEXT NOT NULL) STRICT""",
    "CREATE INDEX event_ledger_event ON event_ledger (event_id, seq)",
    """CREATE TABLE event_withdrawals (
        event_id INTEGER NOT NULL REFERENCES events (id), name TEXT NOT NULL,
        round INTEGER NOT NULL, PRIMARY KEY (event_id, name)) STRICT""",
    """CREATE TABLE match_withdrawals (
        match_id INTEGER PRIMARY KEY REFERENCES matches (id), at TEXT NOT NULL,
        by_name TEXT NOT NULL, reason TEXT NOT NULL) STRICT""",
    "ALTER TABLE events ADD COLUMN join_seconds INTEGER",
    "ALTER TABLE events ADD COLUMN reserve_per_point INTEGER",
    "ALTER TABLE events ADD COLUMN delay INTEGER",
    "ALTER TABLE live_matches ADD COLUMN join_seconds INTEGER",
    "ALTER TABLE live_matches ADD COLUMN clock_reserve INTEGER",
    "ALTER TABLE live_matches ADD COLUMN clock_delay INTEGER",
    "ALTER TABLE live_matches ADD COLUMN reserve_w REAL",
    "ALTER TABLE live_matches ADD COLUMN reserve_b REAL",
    "ALTER TABLE live_matches ADD COLUMN turn_seconds REAL",
)
"""Plain SQL (PostgreSQL's 0006_corrections reads the same, with its own types)."""


@migrations(name="0010_corrections")
def _create_corrections(db: Utilities) -> None:
    """Corrections, no-shows and clocks (EVENTS.md §11, §12): an event's ledger of every
    correction, its withdrawn entrants, the matches withdrawn from the archive's reads;
    an event's and a live match's join time and backgammon clock, a live match's two
    reserves and the full time of what it awaits now (``turn_seconds``)."""
    for statement in CORRECTION_TABLES:
        db.execute(statement)


@migrations(name="0011_tiebreaks")
def _add_tiebreaks(db: Utilities) -> None:
    """An event's tie-breaks in the director's order (EVENTS.md §13): a JSON list, NULL for
    the default (PostgreSQL's 0007_tiebreaks)."""
    db.execute("ALTER TABLE events ADD COLUMN tiebreaks TEXT")


CHALLENGE_TABLES = (
    """CREATE TABLE challenges (
        id INTEGER PRIMARY KEY, challenger TEXT NOT NULL, opponent TEXT NOT NULL,
        variant TEXT NOT NULL, length INTEGER NOT NULL, options TEXT NOT NULL,
        clock_reserve INTEGER, clock_delay INTEGER, rated INTEGER NOT NULL,
        token_id INTEGER NOT NULL, expires_at REAL NOT NULL, status TEXT NOT NULL,
        reason TEXT, live_id INTEGER, created_at REAL NOT NULL, answered_at REAL) STRICT""",
    "CREATE INDEX challenges_open ON challenges (status, expires_at)",
    "CREATE INDEX challenges_token ON challenges (token_id, status)",
    "CREATE INDEX challenges_pair ON challenges (challenger, opponent, answered_at)",
    """CREATE TABLE challenge_news (
        seq INTEGER PRIMARY KEY, name TEXT NOT NULL, challenge_id INTEGER NOT NULL,
        kind TEXT NOT NULL, live_id INTEGER) STRICT""",
    "CREATE INDEX challenge_news_name ON challenge_news (name, seq)",
    """CREATE TABLE bot_policies (
        name TEXT PRIMARY KEY, policy TEXT NOT NULL, updated_at REAL NOT NULL) STRICT""",
    """CREATE TABLE bot_streams (
        stream TEXT PRIMARY KEY, name TEXT NOT NULL, seen_at REAL NOT NULL) STRICT""",
    "CREATE INDEX bot_streams_seen ON bot_streams (seen_at)",
)
"""Plain SQL (PostgreSQL's 0008_challenges reads the same, with its own types)."""


@migrations(name="0012_challenges")
def _create_challenges(db: Utilities) -> None:
    """Challenges between bots (EVENTS.md §14): the challenges, the news the bot streams
    owe about them, the bots' policies, and the bot streams open now (refreshed while
    open, so that which bots are online is known on every instance)."""
    for statement in CHALLENGE_TABLES:
        db.execute(statement)


@migrations(name="0013_brackets")
def _add_brackets(db: Utilities) -> None:
    """An event's bracket options (EVENTS.md §13: a JSON object, NULL for none) and each
    pairing's bracket (NULL outside brackets); PostgreSQL's 0009_brackets."""
    db.execute("ALTER TABLE events ADD COLUMN brackets TEXT")
    db.execute("ALTER TABLE event_pairings ADD COLUMN bracket TEXT")


ANALYSIS_TABLES = (
    """CREATE TABLE analyses (
        id INTEGER PRIMARY KEY, match_id INTEGER NOT NULL REFERENCES matches (id),
        chequer_plies INTEGER NOT NULL, cube_plies INTEGER NOT NULL, status TEXT NOT NULL,
        token_id INTEGER, event_id INTEGER, seconds REAL NOT NULL, attempts INTEGER NOT NULL,
        owner TEXT, lease_until REAL, engine TEXT, engine_version TEXT, result BLOB,
        pr_w REAL, pr_b REAL, problem TEXT, created_at TEXT NOT NULL, started_at TEXT,
        finished_at TEXT) STRICT""",
    "CREATE UNIQUE INDEX analyses_setting ON analyses (match_id, chequer_plies, cube_plies)",
    "CREATE INDEX analyses_status ON analyses (status, id)",
    "CREATE INDEX analyses_token ON analyses (token_id, status)",
    "ALTER TABLE events ADD COLUMN analyse_matches INTEGER NOT NULL DEFAULT 0",
)
"""Plain SQL (PostgreSQL's 0010_analyses reads the same, with its own types)."""


@migrations(name="0014_analyses")
def _create_analyses(db: Utilities) -> None:
    """Analyses as jobs (ANALYSIS.md §4): one per match and plies, its status, who queued
    it (a token or an event), gnubg's time, the worker holding it and until when, how often
    it was taken, and once ended its result (compressed JSON) with each side's PR, or its
    problem; and an event's ``analyse`` (EVENTS.md §13: every finished match analysed)."""
    for statement in ANALYSIS_TABLES:
        db.execute(statement)


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
