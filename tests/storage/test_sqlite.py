"""What only the SQLite backend does: its reading of SQLite's errors, its file."""

from __future__ import annotations

import gc
import sqlite3
import stat
import threading
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


def test_a_thread_that_ends_closes_the_connections_it_kept(tmp_path: Path) -> None:
    # A thread's storage, once closed, keeps its connection for the thread's next use; when
    # the thread ends the connection closes with it, so that another process may lock the
    # file for itself (no connection of this process left waiting for the collector).
    location = tmp_path / "archive.sqlite3"
    prepare_storage(location)

    def use_and_end() -> None:
        storage = open_storage(location)
        assert storage.matches.get(1) is None
        storage.close()

    collecting = gc.isenabled()
    gc.disable()
    try:
        thread = threading.Thread(target=use_and_end)
        thread.start()
        thread.join()
        holder = sqlite3.connect(location, isolation_level=None, timeout=0)
        try:
            holder.execute("PRAGMA locking_mode = EXCLUSIVE")
            holder.execute("BEGIN EXCLUSIVE")
        finally:
            holder.close()
    finally:
        if collecting:
            gc.enable()
