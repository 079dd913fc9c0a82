"""The PostgreSQL backend (psycopg 3, psycopg-pool): chosen by a ``postgresql://`` location.
The stores are every backend's (``referee.storage.assembly``) over its pooled connections
(``database.py``) and its SQL where it differs (``dialect.py``); the schema is
``migrations.py``, the change feed ``feed.py``; what only this backend needs: its bad
days (``health.py``), text with NUL (``text.py``) and FTS5's words (``search.py``).

One pool per process and location, created on first use: gunicorn builds the app in its
master (``preload_app``) and forks the workers, so a pool made before a fork is left to
the parent (never closed in the child, which would end the parent's sessions on the shared
sockets) and the child makes its own. A ``Storage`` takes a connection from the pool for
each store method (``database.py``), so it holds none between them.

Pool settings come from the environment (docs/operations.md): ``NARDY_REFEREE_POSTGRESQL_
POOL_MIN`` (connections kept open, default 1), ``..._POOL_MAX`` (at most, default 10),
``..._POOL_TIMEOUT`` (seconds a request waits for a free one, default 5: then 503) and
``NARDY_REFEREE_POSTGRESQL_LOCK_TIMEOUT`` (seconds a statement waits for a lock, default 5).
"""

from __future__ import annotations

import os
import threading

from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from referee.errors import NotReadyError
from referee.storage.assembly import assemble
from referee.storage.postgresql import database as _database
from referee.storage.postgresql.database import Database, Pool, configure, unreachable
from referee.storage.postgresql.dialect import DIALECT
from referee.storage.postgresql.feed import feed, stop_feeds
from referee.storage.postgresql.health import health
from referee.storage.postgresql.migrations import prepare
from referee.storage.stores import Storage

__all__ = ["close_pools", "open_storage", "prepare"]

_lock = threading.Lock()
_pools: dict[str, Pool] = {}
"""This process's pools, by location."""
_owner = os.getpid()
_inherited: list[Pool] = []
"""Pools a parent made before forking this process: kept from the garbage collector, whose
closing of their connections would end the parent's sessions."""


def _forget_inherited() -> None:
    global _owner
    _inherited.extend(_pools.values())
    _pools.clear()
    _owner = os.getpid()


os.register_at_fork(after_in_child=_forget_inherited)


def _setting(name: str, default: float) -> float:
    return float(os.environ.get(f"NARDY_REFEREE_POSTGRESQL_{name}", default))


def pool(url: str) -> Pool:
    """This process's pool for ``url``, made on first use (NotReadyError when the server
    or the database is not there: then no pool is made)."""
    with _lock:
        if os.getpid() != _owner:
            _forget_inherited()
        found = _pools.get(url)
        if found is not None and not found.closed:
            return found
        problem = unreachable(url)
        if problem is not None:
            raise NotReadyError(problem)
        made: Pool = ConnectionPool(
            url,
            min_size=int(_setting("POOL_MIN", 1)),
            max_size=max(int(_setting("POOL_MAX", 10)), 2),
            timeout=_setting("POOL_TIMEOUT", 5),
            kwargs={
                "autocommit": True,
                "row_factory": dict_row,
                "connect_timeout": _database.CONNECT_TIMEOUT_SECONDS,
            },
            configure=configure,
            open=False,
            name="nardy-referee",
        )
        made.open(wait=False)
        _pools[url] = made
        return made


def close_pools(url: str | None = None) -> None:
    """Close this process's pool for ``url`` (every pool when None), and stop its change
    feed: before the database is dropped, say, or at the end of a test."""
    stop_feeds(url)
    with _lock:
        urls = list(_pools) if url is None else [url] if url in _pools else []
        closing = [_pools.pop(each) for each in urls]
    for each in closing:
        each.close()


class _Pooled:
    """A ``Storage``'s connection: the pool lends one per store method, so closing gives
    nothing back."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def ready(self) -> None:
        self.database.ready()

    def unwritable(self) -> str | None:
        return health(self.database.url).why

    def close(self) -> None:
        pass


def open_storage(url: str) -> Storage:
    """The stores of the archive at ``url`` (a ``postgresql://`` URL), through this
    process's pool."""
    database = Database(pool(url), url)
    return assemble(database, DIALECT, _Pooled(database), feed(url))
