"""What only the PostgreSQL backend does: its reading of psycopg's errors (a lost
connection, a dropped database, a pool with no free connection, any other failure), its
pools across a fork, and its text search giving FTS5's answers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest

from referee.errors import ArchiveBusyError, NotReadyError, StorageUnavailableError
from referee.storage import open_storage, prepare_storage
from referee.storage.errors import StorageError
from referee.storage.model.matches import MatchQuery
from referee.storage.postgresql import close_pools
from referee.storage.postgresql.search import document, query, tokens
from tests.storage.conftest import new_match
from tests.storage.postgresql import Server, required_server


@pytest.fixture
def server() -> Server:
    return required_server()


@pytest.fixture
def location(server: Server) -> Iterator[str]:
    url = server.fresh()
    prepare_storage(url)
    yield url
    server.drop(url)


def terminate(location: str) -> None:
    """End every other session on the database: this process's pooled connections."""
    with psycopg.connect(location, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def test_any_other_failure_is_a_storage_error_caused_by_psycopgs(location: str) -> None:
    storage = open_storage(location)
    stored = storage.matches.store(new_match(1))
    with psycopg.connect(location, autocommit=True) as other:
        other.execute("DROP TABLE derived")
    with pytest.raises(StorageError) as raised:
        storage.derived.kept(stored.id, "replay/1", 1)
    assert isinstance(raised.value.__cause__, psycopg.errors.UndefinedTable)
    with pytest.raises(StorageError):
        storage.derived.keep(stored.id, 1, {"replay/1": []})
    assert storage.matches.get(stored.id) is not None  # the pool is still usable


def test_a_read_on_a_lost_connection_is_read_again_and_a_write_unavailable(
    location: str,
) -> None:
    storage = open_storage(location)
    stored = storage.matches.store(new_match(1))
    terminate(location)  # the server restarted, say: every pooled connection is gone
    assert storage.matches.get(stored.id) is not None
    terminate(location)
    with pytest.raises(StorageUnavailableError) as raised:
        storage.tokens.create(("play",))
    assert "failing over" in raised.value.message and raised.value.retry_after == 2
    assert storage.tokens.create(("play",)).token.id  # the next write gets a new connection


def test_a_database_gone_under_the_pool_is_not_ready(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NARDY_REFEREE_POSTGRESQL_POOL_TIMEOUT", "0.3")
    url = server.fresh()
    prepare_storage(url)
    storage = open_storage(url)
    storage.ready()
    with psycopg.connect(server.url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE "{server.name(url)}" WITH (FORCE)')
    with pytest.raises(NotReadyError) as raised:
        storage.ready()
    assert "cannot be reached" in raised.value.message
    close_pools(url)


def test_a_pool_with_no_free_connection_is_busy(
    location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    close_pools(location)
    monkeypatch.setenv("NARDY_REFEREE_POSTGRESQL_POOL_MAX", "2")
    monkeypatch.setenv("NARDY_REFEREE_POSTGRESQL_POOL_TIMEOUT", "0.2")
    storage = open_storage(location)
    run = storage.rechecks.start(None)
    with ExitStack() as holding:
        for _ in range(2):  # a claim holds its connection while its block runs
            holding.enter_context(storage.rechecks.claim(run.id))
        with pytest.raises(ArchiveBusyError) as raised:
            storage.matches.get(1)
    assert "no connection to the archive was free" in raised.value.message
    assert storage.matches.get(1) is None
    close_pools(location)


def test_a_pool_made_before_a_fork_is_left_to_the_parent(location: str) -> None:
    storage = open_storage(location)
    first = storage.matches.store(new_match(1)).id
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's own pool
        code = 1
        try:
            forked = open_storage(location)
            code = 0 if forked.matches.store(new_match(2)).id != first else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    # the parent's sessions were not ended by the child
    assert [m.id for m in storage.matches.search(MatchQuery())][-1] == first
    assert storage.matches.store(new_match(3)).id > first


def test_the_tokens_are_fts5s() -> None:
    assert tokens("Cup 8/5") == ["cup", "8", "5"]
    assert tokens("O'Neil snake_case x1.5") == ["o", "neil", "snake", "case", "x1", "5"]
    assert tokens("Éve İstanbul naïve Ørsted ½ 日本語") == [
        "eve",
        "istanbul",
        "naive",
        "ørsted",
        "½",
        "日本語",
    ]
    assert (
        document(["Ann", None, "Ann Cup", ""]) == "'ann':1,8193 'cup':8194"
    )  # the third column's from 8193
    assert query('8/5 "') == "('8' <-> '5')"
    assert query('" \x00 -') is None


TEXTS = [
    "Éve",
    "straße",
    "O'Neil",
    "snake_case",
    "x1.5",
    "İstanbul",
    "Ørsted",
    "naïve",
    "ＡＢＣ",
    "a·b",
    "日本語",
    "Dave-Eve",
    "Bob & Eve",
    "8/5",
    "c:\\path",
    "e-mail@example.org",
]
QUERIES = [
    *TEXTS,
    "eve",
    "neil",
    "o neil",
    "case",
    "x1",
    "5",
    "istanbul",
    "naive",
    "abc",
    "ａｂｃ",
    "b",
    "dave eve",
    "dave-eve",
    "eve-dave",
    "example",
    "org",
    "mail",
    "path c",
    "8 5",
    "5/8",
    '"',
    "AND",
]


def test_the_search_finds_what_sqlites_finds(server: Server, tmp_path: Path) -> None:
    """FTS5's answers, not only on the contract's words: the same texts stored on both
    backends, the same queries, the same matches found."""
    found: dict[str, list[list[int]]] = {}
    url = server.fresh()
    try:
        for location in (str(tmp_path / "a.sqlite3"), url):
            prepare_storage(location)
            storage = open_storage(location)
            for number, text in enumerate(TEXTS):
                storage.matches.store(new_match(number, players=(text, "Zed"), site=text))
            found[location] = [
                [m.id for m in storage.matches.search(MatchQuery(text=q))] for q in QUERIES
            ]
            storage.close()
        sqlite, postgresql = found.values()
        assert dict(zip(QUERIES, postgresql, strict=True)) == dict(
            zip(QUERIES, sqlite, strict=True)
        )
    finally:
        server.drop(url)


@pytest.mark.parametrize(
    ("sqlstate", "words", "retry_after"),
    [
        ("53100", "disk is full", 30),  # disk_full
        ("53200", "short of resources", 30),  # out_of_memory: class 53
        ("53300", "no connection free", 5),  # too_many_connections
        ("25006", "read-only", 30),  # read_only_sql_transaction
        ("57P01", "failing over", 2),  # admin_shutdown
        ("57P02", "failing over", 2),  # crash_shutdown
        ("57P03", "failing over", 2),  # cannot_connect_now
        ("08006", "failing over", 2),  # connection_failure
    ],
)
def test_postgresql_s_bad_days_are_storage_unavailable(
    sqlstate: str, words: str, retry_after: int
) -> None:
    from referee.storage.postgresql.database import translated

    error = psycopg.errors.lookup(sqlstate)("as the server says it")
    with pytest.raises(StorageUnavailableError) as raised, translated():
        raise error
    assert words in raised.value.message and "as the server says it" in raised.value.message
    assert raised.value.retry_after == retry_after


@pytest.mark.parametrize("sqlstate", ["55P03", "40001", "40P01", "57014"])
def test_locks_and_conflicts_stay_busy(sqlstate: str) -> None:
    from referee.storage.postgresql.database import translated

    with pytest.raises(ArchiveBusyError), translated():
        raise psycopg.errors.lookup(sqlstate)("busy")
