"""Storage: the only package that talks to a database (docs/architecture.md, Archive).

``open_storage(location)`` gives a ``Storage`` (``stores.py``): a store each for matches,
kept derived results, live matches and tokens, answering the frozen values of
``model.py``, never a driver's rows or errors. ``prepare_storage(location)`` creates and
migrates it, once at start. The location chooses the backend; today it is the path of a
SQLite file (``sqlite/``), and a ``scheme://`` URL is refused (``StorageLocationError``).

A second backend (PostgreSQL through psycopg 3 and psycopg-pool, issue 19) is a second
implementation of the same Protocols, chosen here by its ``postgresql://`` location: its
own migrations; the four stores over one pooled connection per ``Storage``
(``Connection.close`` gives it back); ``SELECT ... FOR UPDATE`` or the same version
check where SQLite takes its write lock up front; text search with ``tsvector``; its
errors read once, as ``sqlite/database.py`` reads SQLite's (a lock or pool timeout is
``ArchiveBusyError``, no connection ``NotReadyError``, anything else ``StorageError``);
and the contract tests of ``tests/storage`` with one more parameter.

The backend is imported when storage is opened, so that what only checks records never
loads a driver.
"""

from __future__ import annotations

import re
from pathlib import Path

from referee.storage.stores import Storage

Location = str | Path
"""Where the storage is: today a SQLite file's path."""

_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")


class StorageLocationError(ValueError):
    """A set-up error: a storage location this version cannot use (the server does not
    start, the command line says why). Not an answer to a client."""


def sqlite_path(location: Location) -> Path:
    """The SQLite file at ``location``; StorageLocationError for a ``scheme://`` URL, which
    no backend reads yet (it would otherwise be a file under a folder named ``scheme:``).
    The message names the scheme only: a URL may hold a password."""
    url = _URL.match(str(location))
    if url is not None:
        raise StorageLocationError(
            f"the archive location is a {url[1][:20]}:// URL, which this version cannot use:"
            " the archive is one SQLite file, so set NARDY_REFEREE_DATABASE (or --database)"
            " to its path, such as var/referee.sqlite3 (PostgreSQL is not supported yet)"
        )
    return Path(location)


def open_storage(location: Location) -> Storage:
    """The stores of a new connection to the storage at ``location``, which
    ``prepare_storage`` made (NotReadyError when it is not there; StorageLocationError for
    a location this version cannot use)."""
    path = sqlite_path(location)
    from referee.storage import sqlite

    return sqlite.open_storage(path)


def prepare_storage(location: Location) -> None:
    """Create the storage at ``location`` when it is not there and bring its schema up
    to date; several processes may do it at once (StorageLocationError for a location
    this version cannot use)."""
    path = sqlite_path(location)
    from referee.storage import sqlite

    sqlite.prepare(path)
