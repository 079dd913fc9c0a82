"""Live matches: created at version 0, saved whole by each change that read the current
version, with its throws and, at the end, its record in the same transaction."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from referee.storage.errors import LiveConflictError
from referee.storage.model.live import LiveChange, LiveProgress, LiveSetup, Throw
from referee.storage.model.matches import MatchQuery
from referee.storage.stores import Storage
from tests.storage.conftest import Backend, new_match
from tests.storage.test_matches import at_once

SETUP = LiveSetup(
    variant="long-nardy",
    length=3,
    options={"head_exception": True},
    players=("alice", "bob"),
    move_seconds=30,
    host_token_id=7,
    server_seed="ab" * 32,
    commitment="cd" * 32,
)
WAITING = LiveProgress(
    status="waiting", ply=0, seeds=(None, None), deadline=None, state={"table": [1]}, throws=0
)
PLAYING = LiveProgress(
    status="playing", ply=1, seeds=("s1", "s2"), deadline=1000.5, state={"table": [2]}, throws=1
)


def test_a_created_match_is_read_back_at_version_0(storage: Storage) -> None:
    live_id = storage.live.create(SETUP, WAITING)
    stored = storage.live.get(live_id)
    assert stored is not None
    assert (stored.id, stored.setup, stored.progress) == (live_id, SETUP, WAITING)
    assert (stored.version, stored.match_id) == (0, None)
    assert stored.created_at and stored.updated_at
    assert storage.live.throws(live_id) == []
    assert storage.live.get(live_id + 1) is None


def test_a_change_is_saved_whole_and_bumps_the_version(storage: Storage) -> None:
    live_id = storage.live.create(SETUP, WAITING)
    throw = Throw(1, (6, 5), 1, "opening")
    assert storage.live.save(LiveChange(live_id, 0, PLAYING, (throw,))) is None
    stored = storage.live.get(live_id)
    assert stored is not None
    assert (stored.version, stored.progress, stored.setup) == (1, PLAYING, SETUP)
    assert storage.live.throws(live_id) == [throw]
    later = replace(PLAYING, ply=2, deadline=None, throws=3)
    more = (Throw(2, (1, 1), 1, "roll"), Throw(3, (4, 2), 2, "opening"))
    storage.live.save(LiveChange(live_id, 1, later, more))
    assert storage.live.throws(live_id) == [throw, *more]
    stored = storage.live.get(live_id)
    assert stored is not None and (stored.version, stored.progress) == (2, later)


def test_a_change_of_a_match_read_at_another_version_is_refused(storage: Storage) -> None:
    live_id = storage.live.create(SETUP, WAITING)
    storage.live.save(LiveChange(live_id, 0, PLAYING, (Throw(1, (3, 1), 1, "opening"),)))
    stale = LiveChange(live_id, 0, replace(PLAYING, ply=9), (Throw(2, (2, 2), 1, "roll"),))
    with pytest.raises(LiveConflictError):
        storage.live.save(stale)
    stored = storage.live.get(live_id)
    assert stored is not None and (stored.version, stored.progress) == (1, PLAYING)
    assert [throw.k for throw in storage.live.throws(live_id)] == [1]
    with pytest.raises(LiveConflictError):
        storage.live.save(LiveChange(live_id + 1, 0, PLAYING, ()))  # no such match


def test_the_finishing_change_stores_the_record_with_it(storage: Storage) -> None:
    live_id = storage.live.create(SETUP, PLAYING)
    finished = replace(PLAYING, status="finished", deadline=None)
    match_id = storage.live.save(LiveChange(live_id, 0, finished, (), new_match(1)))
    assert match_id is not None
    stored = storage.live.get(live_id)
    assert stored is not None and stored.match_id == match_id
    record = storage.matches.get(match_id)
    assert record is not None and record.original == "record 1\n"


def test_a_record_stored_already_is_the_one_the_match_names(storage: Storage) -> None:
    earlier = storage.matches.store(new_match(1)).id
    live_id = storage.live.create(SETUP, PLAYING)
    assert storage.live.save(LiveChange(live_id, 0, PLAYING, (), new_match(1))) == earlier
    assert len(storage.matches.search(MatchQuery())) == 1


def test_a_refused_change_stores_no_record(storage: Storage) -> None:
    live_id = storage.live.create(SETUP, PLAYING)
    storage.live.save(LiveChange(live_id, 0, PLAYING, ()))
    with pytest.raises(LiveConflictError):
        storage.live.save(LiveChange(live_id, 0, PLAYING, (), new_match(1)))
    assert storage.matches.search(MatchQuery()) == []
    stored = storage.live.get(live_id)
    assert stored is not None and stored.match_id is None


def test_versions_and_deadlines_of_the_matches_asked_for(storage: Storage) -> None:
    first = storage.live.create(SETUP, WAITING)
    second = storage.live.create(SETUP, PLAYING)
    storage.live.save(LiveChange(second, 0, replace(PLAYING, deadline=77.25), ()))
    seen = storage.live.versions([first, second, second + 1])
    assert set(seen) == {first, second}
    assert (seen[first].version, seen[first].deadline) == (0, None)
    assert (seen[second].version, seen[second].deadline) == (1, 77.25)
    assert storage.live.versions([]) == {}


def test_refresh_gives_every_match_in_play_a_full_time(storage: Storage) -> None:
    waiting = storage.live.create(SETUP, WAITING)
    playing = [storage.live.create(replace(SETUP, move_seconds=s), PLAYING) for s in (10, 45)]
    finished = storage.live.create(SETUP, replace(PLAYING, status="finished", deadline=None))
    assert storage.live.refresh_deadlines(5000.0) == 2
    seen = storage.live.versions([waiting, *playing, finished])
    assert [seen[live_id].deadline for live_id in playing] == [5010.0, 5045.0]
    assert [seen[live_id].version for live_id in playing] == [1, 1]
    assert (seen[waiting].version, seen[waiting].deadline) == (0, None)
    assert (seen[finished].version, seen[finished].deadline) == (0, None)
    stored = storage.live.get(playing[0])
    assert stored is not None and stored.progress == replace(PLAYING, deadline=5010.0)


def test_each_change_appends_its_entries_to_the_log_in_order(storage: Storage) -> None:
    live_id = storage.live.create(SETUP, WAITING)
    other = storage.live.create(SETUP, WAITING)
    first = ({"kind": "game", "game": 1}, {"kind": "roll", "play": "24/18"})
    storage.live.save(LiveChange(live_id, 0, PLAYING, (), entries=first))
    storage.live.save(LiveChange(other, 0, PLAYING, (), entries=({"kind": "drop"},)))
    second = ({"kind": "double", "value": 2},)
    storage.live.save(LiveChange(live_id, 1, replace(PLAYING, ply=2), (), entries=second))
    assert storage.live.log(live_id) == [*first, *second]
    assert storage.live.log(other) == [{"kind": "drop"}]


def test_a_change_that_leaves_the_table_keeps_its_last_state(storage: Storage) -> None:
    # a bot joining before the other, an abort, a deadline refreshed: the table is as it was
    live_id = storage.live.create(SETUP, WAITING)
    storage.live.save(LiveChange(live_id, 0, PLAYING, ()))
    joined = replace(PLAYING, seeds=("s1", "other"), state=None)
    storage.live.save(LiveChange(live_id, 1, joined, ()))
    stored = storage.live.get(live_id)
    assert stored is not None and stored.version == 2
    assert (stored.progress.seeds, stored.progress.state) == (("s1", "other"), PLAYING.state)


def test_of_changes_made_at_once_from_one_reading_one_is_saved(
    backend: Backend, storage: Storage
) -> None:
    live_id = storage.live.create(SETUP, WAITING)

    def change(opened: Storage) -> str:
        try:
            opened.live.save(LiveChange(live_id, 0, PLAYING, (Throw(1, (3, 1), 1, "opening"),)))
        except LiveConflictError:
            return "refused"
        return "saved"

    assert sorted(at_once(backend, 4, change)) == ["refused", "refused", "refused", "saved"]
    stored = storage.live.get(live_id)
    assert stored is not None and stored.version == 1
    assert len(storage.live.throws(live_id)) == 1


def test_a_match_is_read_with_its_state_as_the_json_text_stored(storage: Storage) -> None:
    live_id = storage.live.create(SETUP, WAITING)
    found = storage.live.get_encoded(live_id)
    assert found is not None
    stored, text = found
    assert json.loads(text) == WAITING.state
    assert (stored.version, stored.progress) == (0, replace(WAITING, state=None))
    # the text a caller made is stored as it is, and read back so
    made = '{"table":  [2]}'
    storage.live.save(LiveChange(live_id, 0, PLAYING, (), state_text=made))
    found = storage.live.get_encoded(live_id)
    assert found is not None and found[1] == made
    assert found[0].progress == replace(PLAYING, state=None)
    stored_again = storage.live.get(live_id)
    assert stored_again is not None and stored_again.progress == PLAYING
    # a change that leaves the table keeps the text as it was
    storage.live.save(LiveChange(live_id, 1, replace(PLAYING, state=None), ()))
    found = storage.live.get_encoded(live_id)
    assert found is not None and (found[0].version, found[1]) == (2, made)
    assert storage.live.get_encoded(live_id + 1) is None
