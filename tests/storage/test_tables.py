"""The archive's tables as rows: read in order with plain values, loaded into an empty
archive keeping every id, after which new rows get new ids."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.storage import open_storage, prepare_storage
from referee.storage.model import LiveChange, MatchQuery, Throw
from referee.storage.stores import Storage
from referee.storage.tables import TABLES, checksum
from tests.storage.conftest import Backend, new_match
from tests.storage.test_live import PLAYING, SETUP, WAITING
from tests.storage.test_matches import ODD


def filled(storage: Storage) -> None:
    """A little of everything, with gaps in the ids."""
    first = storage.matches.store(new_match(1, event="Cup 8/5", valid=False)).id
    storage.matches.store(new_match(2, players=("Ann", ODD), original=f"{ODD}\n"))
    storage.derived.keep(first, 3, {"replay/1": [1, 2], "check/x": {"a": None}})
    storage.derived.keep(first, 3, {"replay/1": ["again"]})  # kept last now
    storage.tokens.create(("play",), "bot")
    revoked = storage.tokens.create(("archive:write",)).token.id
    storage.tokens.revoke(revoked)
    live_id = storage.live.create(SETUP, WAITING)
    storage.live.save(LiveChange(live_id, 0, PLAYING, (Throw(1, (6, 5), 1, "opening"),)))
    entries = ({"kind": "game", "game": 1},)
    storage.live.save(LiveChange(live_id, 1, PLAYING, (), new_match(3), entries))


@pytest.fixture
def copy(backend: Backend, tmp_path: Path) -> Iterator[Storage]:
    """An empty archive of the same backend, to load into."""
    second = BackendCopy(backend, tmp_path)
    yield second.storage
    second.close()


class BackendCopy:
    def __init__(self, backend: Backend, tmp_path: Path) -> None:
        self.backend = backend
        self.location = backend.unprepared()
        prepare_storage(self.location)
        self.storage = open_storage(self.location)

    def close(self) -> None:
        self.storage.close()


def test_the_rows_of_every_table_are_plain_values_in_order(storage: Storage) -> None:
    filled(storage)
    counts = storage.tables.counts()
    assert counts == {
        "matches": 3,
        "derived": 2,
        "tokens": 2,
        "live_matches": 1,
        "live_throws": 1,
        "live_log": 3,
    }
    matches = list(storage.tables.rows("matches"))
    assert [row[0] for row in matches] == [1, 2, 3]
    assert [row[TABLES["matches"].index("valid")] for row in matches] == [False, True, True]
    derived = list(storage.tables.rows("derived"))
    assert [row[1] for row in derived] == ["check/x", "replay/1"]  # in the order kept
    assert isinstance(derived[0][3], bytes)
    log = list(storage.tables.rows("live_log"))
    assert [(row[0], row[1]) for row in log] == [(1, 0), (1, 1), (1, 2)]
    for table, columns in TABLES.items():
        assert all(len(row) == len(columns) for row in storage.tables.rows(table)), table


def test_an_archive_loaded_from_rows_is_the_same_archive(storage: Storage, copy: Storage) -> None:
    filled(storage)
    copy.tables.load(lambda table: storage.tables.rows(table))
    assert copy.tables.counts() == storage.tables.counts()
    for table in TABLES:
        assert checksum(copy.tables.rows(table)) == checksum(storage.tables.rows(table)), table
    assert copy.matches.get(2) == storage.matches.get(2)
    assert [m.id for m in copy.matches.search(MatchQuery(text="8/5"))] == [1]
    live = copy.live.get(1)
    assert live is not None and live == storage.live.get(1)
    assert copy.live.log(1) == [{"kind": "game", "game": 1}]
    assert copy.derived.kept(1, "replay/1", 3) == ["again"]
    token = storage.tokens.all()[0]
    assert copy.tokens.all() == storage.tokens.all() and token.name == "bot"
    # new rows go on after the ids copied
    assert copy.matches.store(new_match(7)).id == 4
    assert copy.tokens.create(("play",)).token.id == 3
    assert copy.live.create(SETUP, WAITING) == 2


def test_a_load_that_fails_leaves_the_archive_empty(storage: Storage, copy: Storage) -> None:
    filled(storage)

    def broken(table: str) -> Iterator[tuple[object, ...]]:
        yield from storage.tables.rows(table)
        if table == "live_matches":
            raise RuntimeError("the source went away")

    with pytest.raises(RuntimeError):
        copy.tables.load(broken)
    assert set(copy.tables.counts().values()) == {0}
