"""Bulk re-check runs: processes join one run, claim batches nobody holds, count each match
done with its new verdict, and a run stopped part way resumes where it stopped."""

from __future__ import annotations

import threading

import pytest

from referee.storage import open_storage
from referee.storage.model.matches import Rechecked
from referee.storage.model.rechecks import RecheckBatch
from referee.storage.stores import Storage
from tests.storage.conftest import Backend, new_match


def stored(storage: Storage, revisions: list[int]) -> list[int]:
    return [
        storage.matches.store(new_match(n, rules_revision=r)).id for n, r in enumerate(revisions)
    ]


def recheck(storage: Storage, run_id: int, batch: RecheckBatch, changed: bool = False) -> None:
    for match_id in batch.match_ids:
        verdict = {"valid": True, "again": match_id}
        storage.rechecks.done(run_id, Rechecked(match_id, True, "w", verdict, 9, "2.0"), changed)


def test_a_run_covers_the_older_matches_in_batches(storage: Storage) -> None:
    ids = stored(storage, [0, 3, 1, 0, 0, 5, 2])
    run = storage.rechecks.start(3, batch_size=2)
    assert (run.revision, run.matches, run.batches) == (3, 5, 3)
    seen = []
    while True:
        with storage.rechecks.claim(run.id) as batch:
            if batch is None:
                break
            seen.append(batch.match_ids)
            recheck(storage, run.id, batch, changed=batch.number == 0)
    assert seen == [(ids[0], ids[2]), (ids[3], ids[4]), (ids[6],)]
    progress = storage.rechecks.progress(run.id)
    assert (progress.batches_done, progress.rechecked, progress.changed) == (3, 5, 2)
    assert progress.finished
    kept = storage.matches.get(ids[0])
    assert kept is not None and kept.verdict == {"valid": True, "again": ids[0]}
    assert kept.rules_revision == 9 and kept.original == "record 0\n"


def test_processes_starting_together_join_one_run(backend: Backend, storage: Storage) -> None:
    stored(storage, [0, 0, 0])
    run = storage.rechecks.start(None, batch_size=2)
    other = open_storage(backend.location)
    try:
        assert other.rechecks.start(None, batch_size=50) == run  # the unfinished one
        assert other.rechecks.start(4).id != run.id  # another target: another run
    finally:
        other.close()


def test_a_run_of_nothing_is_finished_at_once(storage: Storage) -> None:
    stored(storage, [5])
    run = storage.rechecks.start(5)
    assert (run.matches, run.batches) == (0, 0)
    assert storage.rechecks.progress(run.id).finished
    with storage.rechecks.claim(run.id) as batch:
        assert batch is None
    assert storage.rechecks.start(5).id != run.id  # a finished run is not joined


def test_a_batch_whose_block_fails_is_claimed_again_without_its_done_matches(
    storage: Storage,
) -> None:
    ids = stored(storage, [0, 0, 0, 0])
    run = storage.rechecks.start(None, batch_size=3)
    with pytest.raises(KeyboardInterrupt), storage.rechecks.claim(run.id) as batch:
        assert batch is not None and batch.match_ids == tuple(ids[:3])
        storage.rechecks.done(run.id, Rechecked(ids[0], True, None, {}, 9, "2"), False)
        raise KeyboardInterrupt  # the process stopped part way
    progress = storage.rechecks.progress(run.id)
    assert (progress.batches_done, progress.rechecked, progress.finished) == (0, 1, False)
    again = storage.rechecks.start(None)
    assert again.id == run.id  # resumed
    with storage.rechecks.claim(run.id) as batch:
        assert batch is not None and batch.match_ids == tuple(ids[1:3])
        recheck(storage, run.id, batch)
    with storage.rechecks.claim(run.id) as batch:
        assert batch is not None and batch.match_ids == (ids[3],)
        recheck(storage, run.id, batch)
    progress = storage.rechecks.progress(run.id)
    assert (progress.rechecked, progress.finished) == (4, True)


def test_matches_stored_after_a_run_began_are_not_in_it(storage: Storage) -> None:
    stored(storage, [0])
    run = storage.rechecks.start(None)
    late = storage.matches.store(new_match(99)).id
    with storage.rechecks.claim(run.id) as batch:
        assert batch is not None and late not in batch.match_ids


def test_a_held_batch_is_not_claimed_by_another(backend: Backend, storage: Storage) -> None:
    """Two processes at once each get a batch of their own. (SQLite: the second waits until
    the first lets go of its batch, then takes the next.)"""
    ids = stored(storage, [0, 0, 0, 0])
    run = storage.rechecks.start(None, batch_size=2)
    claimed: list[tuple[int, ...] | None] = []
    holding, other_done = threading.Event(), threading.Event()

    def other() -> None:
        holding.wait()
        second = open_storage(backend.location)
        try:
            with second.rechecks.claim(run.id) as batch:
                claimed.append(None if batch is None else batch.match_ids)
                if batch is not None:
                    recheck(second, run.id, batch)
        finally:
            second.close()
            other_done.set()

    thread = threading.Thread(target=other)
    thread.start()
    with storage.rechecks.claim(run.id) as batch:
        assert batch is not None
        holding.set()
        mine = batch.match_ids
        other_done.wait(1.0)  # PostgreSQL: the other has claimed and finished by now
        recheck(storage, run.id, batch)
    thread.join(10)
    assert sorted([mine, *claimed]) == [tuple(ids[:2]), tuple(ids[2:])]
    assert storage.rechecks.progress(run.id).finished
