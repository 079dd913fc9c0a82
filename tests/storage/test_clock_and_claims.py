"""The service's clock (``LiveStore.beat``, ``served_at``) and the claims on computing a
derived result (``DerivedStore.claim``, ``release``), for every backend."""

from __future__ import annotations

from dataclasses import replace

from referee.storage.stores import Storage
from tests.storage.conftest import new_match
from tests.storage.test_live import PLAYING, SETUP, WAITING


def test_the_clock_is_unbeaten_at_first(storage: Storage) -> None:
    assert storage.live.served_at() is None


def test_the_first_beat_and_a_beat_after_a_gap_give_a_fresh_full_time(storage: Storage) -> None:
    waiting = storage.live.create(SETUP, WAITING)
    playing = storage.live.create(replace(SETUP, move_seconds=10), PLAYING)
    assert storage.live.beat(100.0, 5.0) == 1  # never beaten: a gap
    assert storage.live.served_at() == 100.0
    seen = storage.live.versions([waiting, playing])
    assert (seen[playing].deadline, seen[playing].version) == (110.0, 1)
    assert (seen[waiting].deadline, seen[waiting].version) == (None, 0)
    assert storage.live.beat(104.0, 5.0) == 0  # within the gap: the clock runs on
    assert storage.live.versions([playing])[playing] == seen[playing]
    assert storage.live.served_at() == 104.0
    assert storage.live.beat(120.0, 5.0) == 1  # nobody beat it for 16 s
    assert storage.live.versions([playing])[playing].deadline == 130.0
    assert storage.live.beat(121.0, -1.0) == 1  # a start always refreshes
    assert storage.live.versions([playing])[playing].deadline == 131.0


def test_one_claim_at_a_time_until_it_runs_out_or_is_released(storage: Storage) -> None:
    match_id = storage.matches.store(new_match(1)).id
    assert storage.derived.claim(match_id, "replay", "a", 100.0, 10.0)
    assert not storage.derived.claim(match_id, "replay", "b", 105.0, 10.0)
    assert storage.derived.claim(match_id, "replay", "a", 106.0, 10.0)  # renewed: to 116
    assert storage.derived.claim(match_id, "other", "b", 106.0, 10.0)  # another key
    assert not storage.derived.claim(match_id, "replay", "b", 115.0, 10.0)
    assert storage.derived.claim(match_id, "replay", "b", 117.0, 10.0)  # a's ran out
    storage.derived.release(match_id, "replay", "a")  # not a's any more: nothing
    assert not storage.derived.claim(match_id, "replay", "c", 118.0, 10.0)
    storage.derived.release(match_id, "replay", "b")
    assert storage.derived.claim(match_id, "replay", "c", 118.0, 10.0)
