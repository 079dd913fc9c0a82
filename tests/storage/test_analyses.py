"""Analyses as jobs: one per match and plies, a bounded queue per token, claimed oldest first
under a lease, taken again once a holder's lease runs out, stored once by whoever holds it,
given up after too many takings, and each side's PR read back for the standings."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from referee.errors import ArchiveBusyError
from referee.storage import open_storage
from referee.storage.model.analyses import Failed, Finished, NewAnalysis
from referee.storage.stores import AnalysisQueueFullError, Storage
from tests.storage.conftest import Backend, new_match

T = 1_000_000.0
"""A Unix time the tests count from (the store takes the time it is given)."""
GIVEN_UP = Failed({"code": "engine_failed", "title": "Engine failed", "detail": "gave up"})
RESULT = {"engine": {"name": "gnubg", "version": "1.07.001"}, "games": [{"index": 1}]}


def asked(match_id: int, plies: tuple[int, int] = (0, 0), token_id: int | None = 1) -> NewAnalysis:
    return NewAnalysis(
        match_id=match_id,
        chequer_plies=plies[0],
        cube_plies=plies[1],
        seconds=42.5,
        token_id=token_id,
    )


def matches(storage: Storage, count: int) -> list[int]:
    return [storage.matches.store(new_match(number)).id for number in range(count)]


def test_one_analysis_per_match_and_plies(storage: Storage) -> None:
    first, second = matches(storage, 2)
    made = storage.analyses.queue(asked(first))
    assert made.queued and made.analysis.status == "queued"
    assert (made.analysis.match_id, made.analysis.seconds, made.analysis.attempts) == (
        first,
        42.5,
        0,
    )
    again = storage.analyses.queue(asked(first, token_id=2))
    assert not again.queued and again.analysis == made.analysis
    other = storage.analyses.queue(asked(first, (2, 1)))
    assert other.queued and other.analysis.id != made.analysis.id
    storage.analyses.queue(asked(second))
    assert [found.id for found in storage.analyses.of_match(first)] == [
        other.analysis.id,
        made.analysis.id,
    ]
    assert storage.analyses.get(made.analysis.id) == made.analysis
    assert storage.analyses.get(made.analysis.id + 100) is None


def test_a_token_queues_so_many_and_no_more(storage: Storage) -> None:
    ids = matches(storage, 5)
    for match_id in ids[:2]:
        storage.analyses.queue(asked(match_id), most_waiting=2)
    with pytest.raises(AnalysisQueueFullError) as full:
        storage.analyses.queue(asked(ids[2]), most_waiting=2)
    assert full.value.waiting == 2
    assert storage.analyses.of_match(ids[2]) == []  # nothing half-stored
    # asked again, a queued one is found, not refused
    assert not storage.analyses.queue(asked(ids[0]), most_waiting=2).queued
    storage.analyses.queue(asked(ids[2], token_id=2), most_waiting=2)  # another token's
    storage.analyses.queue(asked(ids[3], token_id=None), most_waiting=2)  # an event's
    # one that ends leaves room
    claimed = storage.analyses.claim("w", T, 60, GIVEN_UP, 3)
    assert claimed is not None
    assert storage.analyses.finish(claimed.id, "w", Finished(RESULT, "1.07.001", (1.0, 2.0)))
    assert storage.analyses.queue(asked(ids[4]), most_waiting=2).queued


def test_workers_take_the_oldest_first_and_nothing_when_none_waits(storage: Storage) -> None:
    ids = matches(storage, 2)
    assert not storage.analyses.claimable(T)
    assert storage.analyses.claim("w", T, 60, GIVEN_UP, 3) is None
    queued = [storage.analyses.queue(asked(match_id)).analysis.id for match_id in ids]
    assert storage.analyses.claimable(T)
    taken = [storage.analyses.claim("w", T, 60, GIVEN_UP, 3) for _ in ids]
    assert [claimed.id if claimed else None for claimed in taken] == queued
    assert taken[0] is not None and (taken[0].seconds, taken[0].attempts) == (42.5, 1)
    assert not storage.analyses.claimable(T + 59)
    running = storage.analyses.get(queued[0])
    assert running is not None and running.status == "running" and running.started_at


def test_a_holders_lease_runs_out_and_the_analysis_is_stored_once(storage: Storage) -> None:
    (match_id,) = matches(storage, 1)
    storage.analyses.queue(asked(match_id))
    first = storage.analyses.claim("first", T, 10, GIVEN_UP, 3)
    assert first is not None
    assert storage.analyses.claim("second", T + 5, 10, GIVEN_UP, 3) is None
    assert storage.analyses.renew(first.id, "first", T + 5, 10)  # held until T + 15
    assert storage.analyses.claim("second", T + 14, 10, GIVEN_UP, 3) is None
    second = storage.analyses.claim("second", T + 16, 10, GIVEN_UP, 3)
    assert second is not None and (second.id, second.attempts) == (first.id, 2)
    late = Finished({"by": "first"}, "1.07.001", (9.0, 9.0))
    assert not storage.analyses.renew(first.id, "first", T + 17, 10)
    assert not storage.analyses.finish(first.id, "first", late)
    assert not storage.analyses.release(first.id, "first")
    assert storage.analyses.finish(second.id, "second", Finished(RESULT, "1.07.001", (3.5, None)))
    assert not storage.analyses.finish(second.id, "second", late)  # ended: stored once
    done = storage.analyses.get(first.id)
    assert done is not None
    assert (done.status, done.result, done.engine_version, done.attempts) == (
        "done",
        RESULT,
        "1.07.001",
        2,
    )
    assert done.problem is None and done.finished_at is not None


def test_a_failed_analysis_keeps_its_problem_and_is_queued_again_when_asked(
    storage: Storage,
) -> None:
    (match_id,) = matches(storage, 1)
    storage.analyses.queue(asked(match_id))
    claimed = storage.analyses.claim("w", T, 60, GIVEN_UP, 3)
    assert claimed is not None
    problem = {"code": "engine_timeout", "title": "Engine timed out", "detail": "after 3 s"}
    assert storage.analyses.finish(claimed.id, "w", Failed(problem))
    failed = storage.analyses.get(claimed.id)
    assert failed is not None and (failed.status, failed.problem, failed.result) == (
        "failed",
        problem,
        None,
    )
    again = storage.analyses.queue(replace(asked(match_id), seconds=99.0, token_id=7))
    assert again.queued and again.analysis.id == claimed.id
    assert (again.analysis.status, again.analysis.problem, again.analysis.attempts) == (
        "queued",
        None,
        0,
    )
    assert (again.analysis.seconds, again.analysis.token_id) == (99.0, 7)


def test_an_analysis_taken_too_often_is_given_up(storage: Storage) -> None:
    first, second = matches(storage, 2)
    storage.analyses.queue(asked(first))
    for attempt in range(2):  # two workers die holding it
        claimed = storage.analyses.claim(f"w{attempt}", T + 100 * attempt, 10, GIVEN_UP, 2)
        assert claimed is not None and claimed.attempts == attempt + 1
    storage.analyses.queue(asked(second))
    taken = storage.analyses.claim("w2", T + 200, 10, GIVEN_UP, 2)
    assert taken is not None and taken.match_id == second  # the first was given up
    given_up = storage.analyses.of_match(first)[0]
    assert (given_up.status, given_up.problem) == ("failed", GIVEN_UP.problem)


def test_a_stopping_worker_gives_its_analysis_back(storage: Storage) -> None:
    (match_id,) = matches(storage, 1)
    storage.analyses.queue(asked(match_id))
    claimed = storage.analyses.claim("w", T, 60, GIVEN_UP, 3)
    assert claimed is not None
    assert not storage.analyses.release(claimed.id, "someone else")
    assert storage.analyses.release(claimed.id, "w")
    back = storage.analyses.get(claimed.id)
    assert back is not None and (back.status, back.attempts, back.started_at) == (
        "queued",
        0,
        None,
    )
    assert storage.analyses.claim("v", T, 60, GIVEN_UP, 3) is not None


def test_the_analyses_of_matches_in_brief_with_each_sides_pr(storage: Storage) -> None:
    ids = [
        storage.matches.store(new_match(number, players=players)).id
        for number, players in enumerate([("Ann", "Bob"), ("Bob", "Cy"), ("Cy", "Ann")])
    ]
    for match_id, pr in zip(ids[:2], [(4.25, 11.0), (None, 7.5)], strict=True):
        storage.analyses.queue(asked(match_id, (2, 2)))
        claimed = storage.analyses.claim("w", T, 60, GIVEN_UP, 3)
        assert claimed is not None
        storage.analyses.finish(claimed.id, "w", Finished(RESULT, "1.07.001", pr))
    storage.analyses.queue(asked(ids[2], (2, 2)))  # queued, not done
    storage.analyses.queue(asked(ids[0], (0, 0)))  # other plies
    found = storage.analyses.of_matches(ids, 2, 2)
    assert [(f.match_id, f.status, f.white, f.black, f.pr) for f in found] == [
        (ids[0], "done", "Ann", "Bob", (4.25, 11.0)),
        (ids[1], "done", "Bob", "Cy", (None, 7.5)),
        (ids[2], "queued", "Cy", "Ann", (None, None)),
    ]
    assert storage.analyses.of_matches([], 2, 2) == []


def test_workers_claiming_at_once_each_take_another_analysis(
    backend: Backend, storage: Storage
) -> None:
    ids = matches(storage, 12)
    for match_id in ids:
        storage.analyses.queue(asked(match_id))
    taken: dict[str, list[int]] = {}
    start = threading.Barrier(3)

    def worker(name: str) -> None:
        own = open_storage(backend.location)
        taken[name] = []
        start.wait()
        try:
            while True:
                try:
                    claimed = own.analyses.claim(name, T, 60, GIVEN_UP, 3)
                except ArchiveBusyError:  # SQLite's tests wait 0.1 s for the write lock
                    continue
                if claimed is None:
                    break
                taken[name].append(claimed.match_id)
        finally:
            own.close()

    threads = [threading.Thread(target=worker, args=(f"w{n}",)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    every = [match_id for found in taken.values() for match_id in found]
    assert sorted(every) == ids  # each taken once, none left
