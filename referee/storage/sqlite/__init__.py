"""The SQLite backend: one file, WAL, STRICT tables, FTS5, sqlite-utils migrations; one
connection per ``Storage``, shared by its four stores."""

from __future__ import annotations

from pathlib import Path

from referee.storage.sqlite.database import Database
from referee.storage.sqlite.derived import SqliteDerived
from referee.storage.sqlite.live import SqliteLive
from referee.storage.sqlite.matches import SqliteMatches
from referee.storage.sqlite.migrations import prepare
from referee.storage.sqlite.tokens import SqliteTokens
from referee.storage.stores import Storage

__all__ = ["open_storage", "prepare"]


def open_storage(path: Path) -> Storage:
    """The stores of a new connection to the archive file ``prepare`` made."""
    database = Database(path)
    return Storage(
        matches=SqliteMatches(database),
        derived=SqliteDerived(database),
        live=SqliteLive(database),
        tokens=SqliteTokens(database),
        connection=database,
    )
