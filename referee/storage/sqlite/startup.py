"""Preparing the archive at start, on a disk that may not take a write.

``migrations.prepare`` creates the file, turns WAL on and migrates, all of which may need
to write. On a full or read-only disk (StorageUnavailableError, or the operating system's
ENOSPC, EROFS, EDQUOT) the server still starts when the file is there with every
migration applied: it serves reads (``Database.rows`` reads the file as it stands where
SQLite cannot make its WAL files) and answers writes 503 ``storage_unavailable`` until the
disk takes them again, with no restart. Otherwise (no file, or migrations pending) the
start fails with StorageUnavailableError, which the application turns into a server that
answers 503 until ``prepare`` succeeds (``referee.http.storage``).
"""

from __future__ import annotations

import errno
import logging
from pathlib import Path

from referee.errors import NotReadyError, StorageUnavailableError
from referee.storage.sqlite import migrations
from referee.storage.sqlite.database import Database, disk_problem

log = logging.getLogger(__name__)
UNWRITABLE = frozenset({errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EACCES})


def prepare(path: Path) -> None:
    """``migrations.prepare``, or, on a disk that cannot be written, a check that the
    archive can be served as it stands (StorageUnavailableError when it cannot)."""
    try:
        migrations.prepare(path)
        return
    except StorageUnavailableError as error:
        why = error.message
    except OSError as error:
        if error.errno not in UNWRITABLE:
            raise
        why = f"{error.strerror} ({error.filename})"
    problem = disk_problem(path) or why
    pending = pending_migrations(path)
    if pending:
        raise StorageUnavailableError(
            f"the archive cannot be prepared ({problem}): migrations {', '.join(pending)}"
            " wait for a disk that can be written"
        )
    log.warning("the archive's disk cannot be written (%s): reads are served", problem)


def pending_migrations(path: Path) -> list[str]:
    """The names of the migrations not applied to the archive at ``path``, read without
    writing (every one when it cannot be read)."""
    names = [migration.name for migration in migrations.migrations._migrations]
    if not path.exists():
        return names
    try:
        database = Database(path)
    except NotReadyError:
        return names
    try:
        table = migrations.migrations.migrations_table
        rows = database.rows(f"SELECT name FROM {table} WHERE migration_set = ?", ["referee"])
    except (StorageUnavailableError, NotReadyError):
        return names
    except Exception:  # no migrations table: nothing applied
        return names
    finally:
        database.close()
    applied = {row["name"] for row in rows}
    return [name for name in names if name not in applied]
