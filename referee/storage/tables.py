"""The archive's tables as every backend holds them, column for column: what
``nardy-referee copy-archive`` moves between backends and checks by count and checksum,
and the store that reads and loads them (``Tables``).

Each table's columns are given in the order a ``TableStore`` reads and loads them, with
the order of its rows (``ORDER``). A table that a new store adds goes here too, or, when it
is not archive, in ``NOT_ARCHIVE`` (the runs of ``recheck``, for one, are progress).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator

from referee.storage.sql import Database, Dialect, marks, with_own_columns
from referee.storage.stores import TableRow

TABLES: dict[str, tuple[str, ...]] = {
    "matches": (
        "id", "sha256", "variant", "valid", "white", "black", "event", "site", "event_date",
        "match_length", "games", "winner", "options", "verdict", "original", "canonical",
        "created_at", "rules_revision", "referee_version",
    ),
    "match_withdrawals": ("match_id", "at", "by_name", "reason"),
    "derived": ("match_id", "key", "revision", "body"),
    "tokens": ("id", "name", "prefix", "token_hash", "scopes", "created_at", "revoked_at"),
    "live_matches": (
        "id", "variant", "length", "options", "white", "black", "move_seconds",
        "host_token_id", "server_seed", "commitment", "seed_w", "seed_b", "status", "ply",
        "version", "throws", "deadline", "match_id", "state_version", "created_at",
        "updated_at", "dice_id", "mirrored", "join_seconds", "clock_reserve", "clock_delay",
        "reserve_w", "reserve_b", "turn_seconds",
    ),
    "live_throws": ("live_id", "k", "die1", "die2", "game", "use"),
    "live_log": ("live_id", "version", "ply", "entries", "state"),
    "events": (
        "id", "name", "variant", "length", "options", "format", "rounds", "double", "kind",
        "move_seconds", "mirrored", "rated", "host_token_id", "status", "round", "version",
        "lease_until", "created_at", "updated_at", "join_seconds", "reserve_per_point", "delay",
        "tiebreaks", "brackets", "analyse_matches",
    ),
    "event_entrants": ("event_id", "position", "name", "seed", "rating"),
    "event_pairings": (
        "event_id", "round", "table_no", "white", "black", "status", "live_ids", "match_ids",
        "winner", "points_w", "points_b", "termination", "terminations", "draw", "award",
        "verdict_id", "dispute", "bracket",
    ),
    "event_byes": ("event_id", "round", "name"),
    "event_withdrawals": ("event_id", "name", "round"),
    "event_ledger": (
        "seq", "event_id", "at", "by_name", "action", "round", "table_no", "name", "reason",
    ),
    "event_live": ("seq", "live_id", "event_id", "round", "table_no", "white", "black"),
    "rated_matches": (
        "seq", "match_id", "event_id", "variant", "white", "black", "winner", "length",
    ),
    "ratings": ("variant", "name", "rating", "experience", "matches"),
    "rating_history": ("variant", "name", "match_id", "event_id", "before", "after"),
    "rating_marks": ("variant", "through_seq", "last_match_id"),
    "challenges": (
        "id", "challenger", "opponent", "variant", "length", "options", "clock_reserve",
        "clock_delay", "rated", "token_id", "expires_at", "status", "reason", "live_id",
        "created_at", "answered_at",
    ),
    "bot_policies": ("name", "policy", "updated_at"),
    "analyses": (
        "id", "match_id", "chequer_plies", "cube_plies", "status", "token_id", "event_id",
        "seconds", "attempts", "owner", "lease_until", "engine", "engine_version", "result",
        "pr_w", "pr_b", "problem", "created_at", "started_at", "finished_at",
    ),
}  # fmt: skip
"""Every table, in the order they are loaded (a row's references first)."""

BOOLEAN_COLUMNS = frozenset(
    {
        ("matches", "valid"),
        ("live_matches", "mirrored"),
        ("events", "double"),
        ("events", "mirrored"),
        ("events", "rated"),
        ("events", "analyse_matches"),
        ("event_pairings", "draw"),
        ("challenges", "rated"),
    }
)
"""Columns that are booleans (SQLite stores 0 and 1)."""
ORDER = {
    "matches": "id",
    "match_withdrawals": "match_id",
    "derived": None,  # the order the results were kept in: ``Dialect.kept_order``
    "tokens": "id",
    "live_matches": "id",
    "live_throws": "live_id, k",
    "live_log": "live_id, version",
    "events": "id",
    "event_entrants": "event_id, position",
    "event_pairings": "event_id, round, table_no",
    "event_byes": "event_id, round, name",
    "event_withdrawals": "event_id, name",
    "event_ledger": "seq",
    "event_live": "seq",
    "rated_matches": "seq",
    "ratings": "variant, name",
    "rating_history": "variant, name, match_id",
    "rating_marks": "variant",
    "challenges": "id",
    "bot_policies": "name",
    "analyses": "id",
}
"""How each table's rows are ordered (None: by the order they were written)."""
COUNTS = " UNION ALL ".join(
    f"SELECT '{table}' AS name, count(*) AS n FROM {table}" for table in TABLES
)
"""The rows of every table, as (name, n)."""
IDENTITIES = {
    "matches": "id",
    "tokens": "id",
    "live_matches": "id",
    "events": "id",
    "event_live": "seq",
    "event_ledger": "seq",
    "rated_matches": "seq",
    "challenges": "id",
    "analyses": "id",
}
"""The tables whose ids (or numbers, ``seq``) a backend hands out, each with its column: a
copy keeps them, then goes on after them."""
NOT_ARCHIVE = frozenset(
    {
        *("recheck_runs", "recheck_batches", "recheck_done"),
        *("live_clock", "derived_claims"),
        *("challenge_news", "bot_streams"),
        *("_sqlite_migrations", "referee_migrations"),
        *(f"matches_fts{shadow}" for shadow in ("", "_config", "_data", "_docsize", "_idx")),
    }
)
"""The tables of a backend's schema that are not archive, and are not copied: the runs of
``recheck`` (progress), the service's clock and the claims on computations (of the
serving instances, not of the archive), the bot streams' news of challenges and the
bot streams open now (of the serving instances too), the migrations applied (each
backend's own, made by preparing the target), SQLite's text search of the matches (FTS5
and its shadow tables, made again by its triggers as the matches are loaded). Every other
table of either schema is in ``TABLES`` (tests/storage/test_tables.py checks it)."""


def plain(table: str, row: Iterable[object]) -> TableRow:
    """A row as plain values: booleans as booleans, whatever the backend stored."""
    columns = TABLES[table]
    return tuple(
        (None if value is None else bool(value)) if (table, column) in BOOLEAN_COLUMNS else value
        for column, value in zip(columns, row, strict=True)
    )


def checksum(rows: Iterable[TableRow]) -> str:
    """The SHA-256 of a table's rows, in order (bytes as hex, floats as their repr)."""
    digest = hashlib.sha256()
    for row in rows:
        values = [{"hex": value.hex()} if isinstance(value, bytes) else value for value in row]
        digest.update(json.dumps(values, ensure_ascii=False).encode())
        digest.update(b"\n")
    return digest.hexdigest()


PAGE = 500
"""The rows read or loaded at a time."""


class Tables:
    """The archive's tables as rows: read in their order (``Database.scan``), loaded into
    an empty archive in one write transaction keeping every id, with the backend's own
    columns made from each row (PostgreSQL's search document of a match; SQLite's FTS5
    triggers index the matches as they are loaded) and its ids going on after them."""

    def __init__(self, database: Database, dialect: Dialect) -> None:
        self.database = database
        self.dialect = dialect

    def counts(self) -> dict[str, int]:
        return {row["name"]: row["n"] for row in self.database.rows(COUNTS)}

    def rows(self, table: str) -> Iterator[TableRow]:
        order = ORDER[table] or self.dialect.kept_order
        for row in self.database.scan(table, TABLES[table], order):
            yield plain(table, row)

    def load(self, rows: Callable[[str], Iterable[TableRow]]) -> None:
        with self.database.writing() as tx:
            for table, columns in TABLES.items():
                own = list(self.dialect.own_columns.get(table, {}))
                names = ", ".join(f'"{name}"' for name in (*columns, *own))
                keeping = self.dialect.keeping_ids if table in IDENTITIES else ""
                count = len(columns) + len(own)
                statement = f"INSERT INTO {table} ({names}) {keeping}VALUES ({marks(count)})"
                batch: list[TableRow] = []
                for row in rows(table):
                    values = plain(table, row)
                    named = with_own_columns(
                        self.dialect, table, dict(zip(columns, values, strict=True))
                    )
                    batch.append((*values, *(named[name] for name in own)))
                    if len(batch) == PAGE:
                        tx.many(statement, batch)
                        batch = []
                tx.many(statement, batch)
            self.dialect.ids_loaded(tx)
