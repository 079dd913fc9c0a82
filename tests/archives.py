"""New SQLite archives made cheaply in the tests: most tests make an app on a new archive
file, and migrating it took 22 ms each. Each test process migrates one archive once and
copies it (owner-only, as ``migrations.prepare`` makes it) wherever a new archive is
wanted; ``prepare`` itself still runs on the copy and finds every migration applied. An
archive that exists, or a place the copy cannot be written, is left to ``prepare`` alone,
and the servers and commands the tests start migrate their own (the PostgreSQL tests copy
a migrated template database the same way: tests/storage/postgresql.py)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from referee.storage.sqlite import migrations

_made: list[bytes] = []


def _migrated() -> bytes:
    """The bytes of a migrated, closed archive (made once per process)."""
    if not _made:
        with tempfile.TemporaryDirectory(prefix="nardy-template-") as folder:
            template = Path(folder) / "template.sqlite3"
            _prepare(template)
            _made.append(template.read_bytes())
    return _made[0]


def prepare_from_copy(path: Path) -> None:
    """``migrations.prepare`` on a copy of the migrated archive where none exists yet."""
    if not path.exists() and path.parent.is_dir():
        try:
            made = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except OSError:  # another maker came first, or no place: prepare's own way
            made = -1
        if made >= 0:
            try:
                with os.fdopen(made, "wb") as copy:
                    copy.write(_migrated())
            except OSError:  # a part of a copy is no archive: prepare makes one anew
                path.unlink(missing_ok=True)
    _prepare(path)


_prepare: Callable[[Path], None] = migrations.prepare


def copy_new_archives() -> None:
    """From now on in this process, new archives are copies (``prepare_from_copy``)."""
    migrations.prepare = prepare_from_copy
