"""The archive's tables as every backend holds them, column for column: what
``nardy-referee copy-archive`` moves between backends and checks by count and checksum.

Each table's columns are given in the order a ``TableStore`` reads and loads them, with
the order of its rows (``ORDER``). A table that a new store adds goes here too. The runs of
``recheck`` are progress, not archive, and are not copied.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from referee.storage.stores import TableRow

TABLES: dict[str, tuple[str, ...]] = {
    "matches": (
        "id", "sha256", "variant", "valid", "white", "black", "event", "site", "event_date",
        "match_length", "games", "winner", "options", "verdict", "original", "canonical",
        "created_at", "rules_revision", "referee_version",
    ),
    "derived": ("match_id", "key", "revision", "body"),
    "tokens": ("id", "name", "prefix", "token_hash", "scopes", "created_at", "revoked_at"),
    "live_matches": (
        "id", "variant", "length", "options", "white", "black", "move_seconds",
        "host_token_id", "server_seed", "commitment", "seed_w", "seed_b", "status", "ply",
        "version", "throws", "deadline", "match_id", "state_version", "created_at",
        "updated_at", "dice_id", "mirrored",
    ),
    "live_throws": ("live_id", "k", "die1", "die2", "game", "use"),
    "live_log": ("live_id", "version", "ply", "entries", "state"),
}  # fmt: skip
"""Every table, in the order they are loaded (a row's references first)."""

BOOLEAN_COLUMNS = frozenset({("matches", "valid"), ("live_matches", "mirrored")})
"""Columns that are booleans (SQLite stores 0 and 1)."""
ORDER = {
    "matches": "id",
    "derived": None,  # the order the results were kept in: each backend's own (rowid, seq)
    "tokens": "id",
    "live_matches": "id",
    "live_throws": "live_id, k",
    "live_log": "live_id, version",
}
"""How each table's rows are ordered (None: by the order they were written)."""
COUNTS = " UNION ALL ".join(
    f"SELECT '{table}' AS name, count(*) AS n FROM {table}" for table in TABLES
)
"""The rows of every table, as (name, n)."""
IDENTITIES = ("matches", "tokens", "live_matches")
"""The tables whose ids a backend hands out (a copy keeps them, then goes on after them)."""


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
