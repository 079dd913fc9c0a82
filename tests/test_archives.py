"""The tests' new archives (tests/archives.py): a copy of one migrated once, as a new
archive migrated in place would be, and never over an archive that exists."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

from referee.storage.sqlite import migrations
from tests.archives import _prepare, prepare_from_copy


def tables(path: Path) -> list[tuple[str, str]]:
    """Every table, index and trigger, with its SQL, and the migrations applied."""
    with sqlite3.connect(path) as connection:
        shown = connection.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
        applied = connection.execute("SELECT name FROM _sqlite_migrations ORDER BY name")
        return shown + [("migration", name) for (name,) in applied.fetchall()]


def test_a_new_archive_is_what_migrating_in_place_makes(tmp_path: Path) -> None:
    assert migrations.prepare is prepare_from_copy  # tests/conftest.py's doing
    copied, migrated = tmp_path / "copied.sqlite3", tmp_path / "migrated.sqlite3"
    prepare_from_copy(copied)
    _prepare(migrated)
    assert tables(copied) == tables(migrated)
    assert stat.S_IMODE(copied.stat().st_mode) == 0o600
    with sqlite3.connect(copied) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_an_archive_that_exists_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "kept.sqlite3"
    prepare_from_copy(path)
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE mine (x)")
    prepare_from_copy(path)
    assert ("mine", "CREATE TABLE mine (x)") in tables(path)
