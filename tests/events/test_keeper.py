"""The keeper thread when its archive fails: a server that went away is a warning and a new
connection, never a traceback a second; and a keeper stops when told."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from referee.errors import NotReadyError, StorageUnavailableError
from referee.events import keeper as keeper_module
from referee.events.keeper import Keeper, stop_keepers


@dataclass
class FailingEvents:
    """``events.running`` of an archive whose server is failing over."""

    looks: threading.Semaphore

    def running(self) -> list[int]:
        self.looks.release()
        raise StorageUnavailableError("the archive's server is failing over")


@dataclass
class FakeStorage:
    events: FailingEvents
    closed: bool = False

    def close(self) -> None:
        self.closed = True


@dataclass
class Opener:
    """``open_storage`` handing out failing storages, then refusing (the archive is gone)."""

    allowed: int
    looks: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    opened: list[FakeStorage] = field(default_factory=list)

    def __call__(self, location: object) -> FakeStorage:
        if len(self.opened) == self.allowed:
            raise NotReadyError("no archive there")
        self.opened.append(FakeStorage(FailingEvents(self.looks)))
        return self.opened[-1]


def test_an_unavailable_archive_is_a_warning_and_a_new_connection(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    opener = Opener(allowed=3)
    monkeypatch.setattr(keeper_module, "open_storage", opener)
    keeper = Keeper(tmp_path / "archive.sqlite3", poll=0.001)
    with caplog.at_level(logging.WARNING, logger="nardy_referee.events"):
        keeper.ensure_started()
        assert keeper.thread is not None
        keeper.thread.join(timeout=30)
    assert not keeper.alive
    assert len(opener.opened) == 3  # each failure gave up its connection for a new one
    assert all(storage.closed for storage in opener.opened)
    failures = [r for r in caplog.records if r.name == "nardy_referee.events"]
    assert len(failures) == 3
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in failures)
    assert keeper.wanted  # the next request starts a keeper again


def test_stop_keepers_ends_a_looking_keeper(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    opener = Opener(allowed=10**9)
    monkeypatch.setattr(keeper_module, "open_storage", opener)
    keeper = Keeper(tmp_path / "archive.sqlite3", poll=0.001)
    keeper.ensure_started()
    assert opener.looks.acquire(timeout=30)  # it is looking
    stop_keepers()
    assert not keeper.alive
