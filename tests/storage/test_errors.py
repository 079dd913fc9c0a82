"""What storage answers when it cannot do its work now (busy), or at all (not ready): the
project's own errors, never a driver's."""

from __future__ import annotations

import pytest

from referee.errors import ArchiveBusyError, NotReadyError
from referee.storage import open_storage, prepare_storage
from referee.storage.model.matches import MatchQuery
from referee.storage.stores import Storage
from tests.storage.conftest import Backend, new_match


def test_a_write_while_another_holds_the_lock_is_busy(backend: Backend, storage: Storage) -> None:
    with backend.locked():
        with pytest.raises(ArchiveBusyError) as raised:
            storage.matches.store(new_match(1))
        with pytest.raises(ArchiveBusyError):
            storage.tokens.create(("play",))
    assert raised.value.status == 503 and raised.value.retry_after
    assert "locked" in raised.value.message
    assert not storage.matches.store(new_match(1)).duplicate  # the busy write left nothing


def test_reads_go_on_while_another_writes(backend: Backend, storage: Storage) -> None:
    stored = storage.matches.store(new_match(1))
    with backend.locked():
        assert storage.matches.games_of(stored.id) == 3
        assert [found.id for found in storage.matches.search(MatchQuery(text="alice"))] == [
            stored.id
        ]
        storage.ready()


def test_a_read_while_another_keeps_readers_out_is_busy(backend: Backend, storage: Storage) -> None:
    stored = storage.matches.store(new_match(1))
    storage.close()  # a request's storage is closed when the request ends
    with backend.locked(readers_too=True):
        reading = open_storage(backend.location)
        try:
            for read in (
                lambda: reading.matches.get(stored.id),
                lambda: reading.matches.search(MatchQuery()),
                lambda: list(reading.matches.iterate(MatchQuery())),
                lambda: reading.derived.kept(stored.id, "replay/1", 1),
                lambda: reading.tokens.holder("nrt_x"),
                lambda: reading.live.versions([1]),
                reading.ready,
            ):
                with pytest.raises(ArchiveBusyError):
                    read()
        finally:
            reading.close()
    after = open_storage(backend.location)
    try:
        assert after.matches.get(stored.id) is not None
    finally:
        after.close()


def test_no_storage_at_the_location_is_not_ready(backend: Backend) -> None:
    with pytest.raises(NotReadyError) as raised:
        open_storage(backend.missing())
    assert raised.value.status == 503 and raised.value.retry_after


def test_storage_never_prepared_is_not_ready(backend: Backend) -> None:
    unprepared = open_storage(backend.unprepared())
    try:
        with pytest.raises(NotReadyError):
            unprepared.ready()
    finally:
        unprepared.close()


def test_prepared_storage_is_ready_and_preparing_again_keeps_it(
    backend: Backend, storage: Storage
) -> None:
    storage.ready()
    stored = storage.matches.store(new_match(1))
    prepare_storage(backend.location)
    again = open_storage(backend.location)
    try:
        again.ready()
        assert again.matches.get(stored.id) is not None
    finally:
        again.close()
