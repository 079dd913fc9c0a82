"""Kept derived results: by match, key and rules revision; the most recent few by prefix."""

from __future__ import annotations

import pytest

from referee.storage.stores import Storage
from tests.storage.conftest import new_match


@pytest.fixture
def match_id(storage: Storage) -> int:
    return storage.matches.store(new_match(1)).id


def test_nothing_is_kept_at_first(storage: Storage, match_id: int) -> None:
    assert storage.derived.kept(match_id, "replay/1", 1) is None


def test_a_kept_result_is_read_back_under_its_key_and_revision(
    storage: Storage, match_id: int
) -> None:
    replay = [{"action": "roll", "dice": [3, 1], "play": "8/5 6/5", "error": None}]
    storage.derived.keep(match_id, 4, {"replay/1": replay, "replay/2": [], "check/x": {"a": 1}})
    assert storage.derived.kept(match_id, "replay/1", 4) == replay
    assert storage.derived.kept(match_id, "replay/2", 4) == []
    assert storage.derived.kept(match_id, "check/x", 4) == {"a": 1}
    assert storage.derived.kept(match_id, "replay/3", 4) is None
    assert storage.derived.kept(match_id, "replay/1", 5) is None  # another rules revision
    other = storage.matches.store(new_match(2)).id
    assert storage.derived.kept(other, "replay/1", 4) is None


def test_keeping_again_replaces_what_an_older_revision_kept(
    storage: Storage, match_id: int
) -> None:
    storage.derived.keep(match_id, 1, {"replay/1": ["old"]})
    storage.derived.keep(match_id, 2, {"replay/1": ["new"]})
    assert storage.derived.kept(match_id, "replay/1", 2) == ["new"]
    assert storage.derived.kept(match_id, "replay/1", 1) is None


def test_forget_keeps_the_results_kept_last_under_the_prefix(
    storage: Storage, match_id: int
) -> None:
    for n in range(5):
        storage.derived.keep(match_id, 1, {f"check/{n}": {"n": n}})
    storage.derived.keep(match_id, 1, {"check/1": {"n": "again"}})  # kept last now
    storage.derived.keep(match_id, 1, {"replay/1": ["kept"]})
    other = storage.matches.store(new_match(2)).id
    storage.derived.keep(other, 1, {"check/0": {"other": True}})
    storage.derived.forget(match_id, "check/", 2)
    left = {n for n in range(5) if storage.derived.kept(match_id, f"check/{n}", 1) is not None}
    assert left == {1, 4}
    assert storage.derived.kept(match_id, "check/1", 1) == {"n": "again"}
    assert storage.derived.kept(match_id, "replay/1", 1) == ["kept"]  # another prefix
    assert storage.derived.kept(other, "check/0", 1) == {"other": True}  # another match
