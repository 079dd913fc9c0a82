"""The archive's tables as rows: read in order with plain values, loaded into an empty
archive keeping every id, after which new rows get new ids."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import psycopg
import pytest

from referee.storage import open_storage, prepare_storage
from referee.storage.model.analyses import Failed, Finished, NewAnalysis
from referee.storage.model.challenges import Answer, ChallengeTerms, NewChallenge, Policy
from referee.storage.model.events import Correction, EventChange, Seeded, StoredPairing
from referee.storage.model.live import LiveChange, Throw
from referee.storage.model.matches import MatchQuery, Withdrawal
from referee.storage.model.ratings import PlayerRating, RatedMatch, RatingStep, RatingUpdate
from referee.storage.stores import Storage
from referee.storage.tables import (
    BOOLEAN_COLUMNS,
    IDENTITIES,
    NOT_ARCHIVE,
    ORDER,
    TABLES,
    checksum,
)
from tests.storage.conftest import Backend, PostgresBackend, new_match
from tests.storage.test_events import SETUP as EVENT_SETUP
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
    storage.matches.withdraw(Withdrawal(2, "2026-12-01T10:00:00Z", "admin", "wrong names"))
    filled_events(storage, live_id)
    filled_challenges(storage, live_id)
    filled_analyses(storage, first)


def filled_analyses(storage: Storage, match_id: int) -> None:
    """An analysis done (its result compressed, its PR) and one queued."""
    for plies in (2, 0):
        new = NewAnalysis(match_id=match_id, chequer_plies=plies, cube_plies=plies,
                          seconds=30.5, token_id=1)  # fmt: skip
        storage.analyses.queue(new)
    failed = Failed({"code": "engine_failed", "title": "Engine failed", "detail": "-"})
    claimed = storage.analyses.claim("worker", time.time(), 60, failed, 3)
    assert claimed is not None
    done = Finished({"engine": {"name": "gnubg"}, "games": []}, "1.07.001", (5.5, None))
    storage.analyses.finish(claimed.id, "worker", done)


def filled_challenges(storage: Storage, live_id: int) -> None:
    """A challenge accepted (its live match), one open, a policy; a bot stream open (not
    archive: not copied)."""
    terms = ChallengeTerms(variant="backgammon", length=3, options={}, clock=None, rated=True)
    for opponent in ("Bob", "Cy"):
        new = NewChallenge(challenger="Ann", opponent=opponent, terms=terms, token_id=1,
                           expires_at=time.time() + 60)  # fmt: skip
        storage.challenges.create(new)
    storage.challenges.answer(Answer(challenge_id=1, status="accepted", now=time.time(),
                                     live_id=live_id))  # fmt: skip
    storage.challenges.set_policy("Bob", Policy(accept="any", block=("Cy",)))
    storage.challenges.seen("stream-1", "Bob", time.time())


EVENT = replace(EVENT_SETUP, length=3, rounds=3, double=True, entrants=("Ann", "Bob", "Cy"))


def filled_events(storage: Storage, live_id: int) -> None:
    """An event with seeds, a bye, a pairing played (its live match announced, its match
    rated), and ratings kept from the ledger; another event only created."""
    event_id = storage.events.create(EVENT)
    seeds = (Seeded("Cy", 1, 1510.5), Seeded("Ann", 2, 1500.0), Seeded("Bob", 3, 1490.0))
    played = StoredPairing(round=1, table=1, white="Ann", black="Bob", status="playing")
    storage.events.save(
        EventChange(
            event_id,
            0,
            "running",
            1,
            seeds=seeds,
            pairings=(replace(played, live_ids=(live_id,)),),
            byes=((1, "Cy"),),
            lease_until=1234.5,
        )
    )
    done = replace(
        played,
        status="finished",
        live_ids=(live_id,),
        match_ids=(3,),
        winner="Ann",
        points=(3, 1),
        termination="bore_off",
        terminations=("bore_off",),
    )
    rated = RatedMatch(3, event_id, "backgammon", "Ann", "Bob", "Ann", 3)
    storage.events.save(EventChange(event_id, 1, "running", 2, pairings=(done,), rated=(rated,)))
    fault = Correction(at="2026-12-01T11:00:00Z", by="host", action="withdraw", round=1,
                       name="Cy", reason="went home")  # fmt: skip
    storage.events.save(
        EventChange(event_id, 2, "running", 2, withdrawn=(("Cy", 1),), corrections=(fault,))
    )
    steps = (("Ann", RatingStep(3, event_id, 1500.0, 1508.25)),)
    steps += (("Bob", RatingStep(3, event_id, 1490.0, 1481.75)),)
    players = (PlayerRating("Ann", 1508.25, 3, 1), PlayerRating("Bob", 1481.75, 3, 1))
    storage.ratings.keep(RatingUpdate("backgammon", 0, 1, 3, players, steps))
    storage.events.create(EVENT)


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
        "events": 2,
        "event_entrants": 6,
        "event_pairings": 1,
        "event_byes": 1,
        "event_withdrawals": 1,
        "event_ledger": 1,
        "match_withdrawals": 1,
        "event_live": 1,
        "rated_matches": 1,
        "ratings": 2,
        "rating_history": 2,
        "rating_marks": 1,
        "challenges": 2,
        "bot_policies": 1,
        "analyses": 2,
    }
    challenges = list(storage.tables.rows("challenges"))
    assert [row[TABLES["challenges"].index("rated")] for row in challenges] == [True, True]
    matches = list(storage.tables.rows("matches"))
    assert [row[0] for row in matches] == [1, 2, 3]
    assert [row[TABLES["matches"].index("valid")] for row in matches] == [False, True, True]
    derived = list(storage.tables.rows("derived"))
    assert [row[1] for row in derived] == ["check/x", "replay/1"]  # in the order kept
    assert isinstance(derived[0][3], bytes)
    log = list(storage.tables.rows("live_log"))
    assert [(row[0], row[1]) for row in log] == [(1, 0), (1, 1), (1, 2)]
    events = list(storage.tables.rows("events"))
    assert [row[0] for row in events] == [1, 2]
    for column in ("double", "mirrored", "rated"):
        assert [row[TABLES["events"].index(column)] for row in events] == [
            getattr(EVENT, column)
        ] * 2
    (pairing,) = storage.tables.rows("event_pairings")
    assert pairing[TABLES["event_pairings"].index("draw")] is False
    entrants = list(storage.tables.rows("event_entrants"))
    assert [(row[0], row[1]) for row in entrants] == [(e, n) for e in (1, 2) for n in (1, 2, 3)]
    for table, columns in TABLES.items():
        assert all(len(row) == len(columns) for row in storage.tables.rows(table)), table


def test_an_archive_loaded_from_rows_is_the_same_archive(storage: Storage, copy: Storage) -> None:
    filled(storage)
    copy.tables.load(lambda table: storage.tables.rows(table))
    assert copy.tables.counts() == storage.tables.counts()
    for table in TABLES:
        assert checksum(copy.tables.rows(table)) == checksum(storage.tables.rows(table)), table
    assert copy.matches.get(2) == storage.matches.get(2)
    assert copy.matches.withdrawal(2) == storage.matches.withdrawal(2) is not None
    assert copy.events.ledger(1) == storage.events.ledger(1) != []
    assert [m.id for m in copy.matches.search(MatchQuery(text="8/5"))] == [1]
    live = copy.live.get(1)
    assert live is not None and live == storage.live.get(1)
    assert copy.live.log(1) == [{"kind": "game", "game": 1}]
    assert copy.derived.kept(1, "replay/1", 3) == ["again"]
    assert copy.analyses.of_match(1) == storage.analyses.of_match(1)
    assert copy.analyses.of_matches([1], 2, 2) == storage.analyses.of_matches([1], 2, 2) != []
    token = storage.tokens.all()[0]
    assert copy.tokens.all() == storage.tokens.all() and token.name == "bot"
    # new rows go on after the ids copied
    assert copy.matches.store(new_match(7)).id == 4
    assert copy.tokens.create(("play",)).token.id == 3
    again = NewAnalysis(match_id=1, chequer_plies=1, cube_plies=1, seconds=1.0, token_id=None)
    assert copy.analyses.queue(again).analysis.id == 3
    assert copy.live.create(SETUP, WAITING) == 2
    assert copy.challenges.get(1) == storage.challenges.get(1) is not None
    assert copy.challenges.policy("Bob") == storage.challenges.policy("Bob") is not None
    assert copy.challenges.online(0) == []  # the streams open are the serving instances'
    terms = ChallengeTerms(variant="backgammon", length=1, options={}, clock=None, rated=False)
    new = NewChallenge(challenger="Ann", opponent="Bob", terms=terms, token_id=1,
                       expires_at=time.time() + 60)  # fmt: skip
    assert copy.challenges.create(new) == 3
    for event_id in (1, 2):
        assert copy.events.get(event_id) == storage.events.get(event_id)
    assert copy.events.running() == storage.events.running() == [1]
    assert copy.ratings.kept("backgammon") == storage.ratings.kept("backgammon")
    assert copy.ratings.history("backgammon", "Ann") == storage.ratings.history("backgammon", "Ann")
    assert copy.ratings.ledger("backgammon") == storage.ratings.ledger("backgammon")
    assert copy.events.last_announcement() == storage.events.last_announcement() == 1
    # the events, announcements and ledger entries go on after those copied too
    assert copy.events.create(EVENT) == 3
    pairing = StoredPairing(round=1, table=1, white="Ann", black="Bob", status="playing")
    later = RatedMatch(4, 3, "backgammon", "Ann", "Bob", "Bob", 3)
    copy.events.save(
        EventChange(3, 0, "running", 1, pairings=(replace(pairing, live_ids=(2,)),), rated=(later,))
    )
    assert [(live.seq, live.live_id) for live in copy.events.announced("Ann")] == [(2, 2)]
    assert [entry.seq for entry in copy.ratings.ledger("backgammon")] == [1, 2]


def test_a_load_that_fails_leaves_the_archive_empty(storage: Storage, copy: Storage) -> None:
    filled(storage)
    for failing in ("live_matches", "rated_matches", list(TABLES)[-1]):

        def broken(table: str, failing: str = failing) -> Iterator[tuple[object, ...]]:
            yield from storage.tables.rows(table)
            if table == failing:
                raise RuntimeError("the source went away")

        with pytest.raises(RuntimeError):
            copy.tables.load(broken)
        assert set(copy.tables.counts().values()) == {0}, failing


EXTRA_COLUMNS = {
    "sqlite": {"live_matches": {"state"}},
    "postgresql": {"matches": {"search"}, "derived": {"seq"}},
}
"""The columns a backend has beyond ``TABLES`` (made by the load or by the backend)."""


def catalog_rows(backend: Backend, postgresql: str, sqlite: str) -> list[tuple[str, str]]:
    """The rows of a query of the backend's catalog (two columns)."""
    if isinstance(backend, PostgresBackend):
        with psycopg.connect(backend.location) as connection:
            return [(a, b) for a, b in connection.execute(postgresql.encode()).fetchall()]
    with closing(sqlite3.connect(backend.location)) as connection:
        return [(a, b) for a, b in connection.execute(sqlite).fetchall()]


def catalog(backend: Backend) -> dict[str, set[str]]:
    """Every table of the backend's schema, with its columns, as its catalog tells."""
    rows = catalog_rows(
        backend,
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = 'public'",
        "SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c"
        " WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'",
    )
    found: dict[str, set[str]] = {}
    for table, column in rows:
        found.setdefault(table, set()).add(column)
    return found


def test_every_table_of_the_schema_is_copied_or_said_not_to_be_archive(
    backend: Backend,
) -> None:
    name = "postgresql" if isinstance(backend, PostgresBackend) else "sqlite"
    tables = catalog(backend)
    assert not set(TABLES) & NOT_ARCHIVE
    forgotten = set(tables) - set(TABLES) - NOT_ARCHIVE
    assert not forgotten, f"neither in TABLES nor in NOT_ARCHIVE: {sorted(forgotten)}"
    assert set(TABLES) <= set(tables)
    for table, columns in TABLES.items():
        assert len(set(columns)) == len(columns), table
        extra = EXTRA_COLUMNS[name].get(table, set())
        assert tables[table] == set(columns) | extra, table
    assert set(ORDER) == set(TABLES)
    assert {table for table, _ in BOOLEAN_COLUMNS} <= set(TABLES)
    assert all(column in TABLES[table] for table, column in BOOLEAN_COLUMNS)
    assert all(column in TABLES[table] for table, column in IDENTITIES.items())


def test_the_tables_load_after_what_they_reference(backend: Backend) -> None:
    """A table's foreign keys name tables loaded before it (``TABLES`` in load order)."""
    order = list(TABLES)
    rows = catalog_rows(
        backend,
        "SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint"
        " WHERE contype = 'f'",
        'SELECT m.name, f."table" FROM sqlite_master m, pragma_foreign_key_list(m.name) f'
        " WHERE m.type = 'table'",
    )
    references = [(table, target) for table, target in rows if table in TABLES]
    assert ("event_pairings", "events") in references
    for table, target in references:
        assert order.index(target) < order.index(table), (table, target)
