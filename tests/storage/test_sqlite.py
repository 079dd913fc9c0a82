"""What only the SQLite backend does: its reading of SQLite's errors, its file."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from referee.errors import NotReadyError
from referee.storage import open_storage, prepare_storage
from referee.storage.errors import StorageError
from tests.storage.conftest import new_match


def test_a_file_that_is_no_database_is_not_ready(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    storage = open_storage(junk)
    try:
        with pytest.raises(NotReadyError, match="cannot be read"):
            storage.ready()
        with pytest.raises(StorageError):
            storage.matches.get(1)
    finally:
        storage.close()


def test_any_other_failure_is_a_storage_error_caused_by_sqlites(tmp_path: Path) -> None:
    database = tmp_path / "a.sqlite3"
    prepare_storage(database)
    storage = open_storage(database)
    try:
        stored = storage.matches.store(new_match(1))
        with sqlite3.connect(database) as other:
            other.execute("DROP TABLE derived")
        with pytest.raises(StorageError) as raised:
            storage.derived.kept(stored.id, "replay/1", 1)
        assert isinstance(raised.value.__cause__, sqlite3.OperationalError)
        with pytest.raises(StorageError):
            storage.derived.keep(stored.id, 1, {"replay/1": []})
        assert storage.matches.get(stored.id) is not None  # the connection is still usable
    finally:
        storage.close()


def test_the_file_is_created_readable_by_its_owner_only_and_never_again(tmp_path: Path) -> None:
    database = tmp_path / "folder" / "a.sqlite3"
    prepare_storage(database)
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    database.unlink()
    with pytest.raises(NotReadyError):
        open_storage(database)
    assert not database.exists()
