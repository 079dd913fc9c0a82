"""Storage: the only package that talks to a database (docs/architecture.md, Archive).

``open_storage(location)`` gives a ``Storage`` (``stores.py``): a store each for matches,
kept derived results, live matches, tokens, bulk re-checks and the tables as rows,
answering the frozen values of ``model/``, never a driver's rows or errors.
``prepare_storage(location)`` creates and migrates it, once at start. The location
chooses the backend:

* a path: a SQLite file (``sqlite/``, through sqlite-utils), the embedded default;
* a ``postgresql://`` (or ``postgres://``) URL, libpq's form: PostgreSQL (``postgresql/``,
  through psycopg 3 and psycopg-pool), its own migrations, one pool per process;
* any other ``scheme://`` URL is refused (``StorageLocationError``).

The backend is imported when storage is opened, so that what only checks records never
loads a driver.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from referee.storage.stores import Storage

Location = str | Path
"""Where the storage is: a SQLite file's path, or a PostgreSQL URL."""
Backend = Literal["sqlite", "postgresql"]

_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
POSTGRESQL_SCHEMES = ("postgresql", "postgres")


class StorageLocationError(ValueError):
    """A set-up error: a storage location this version cannot use (the server does not
    start, the command line says why). Not an answer to a client."""


def backend_of(location: Location) -> Backend:
    """Which backend reads ``location``; StorageLocationError for a ``scheme://`` URL that
    none reads (it would otherwise be a file under a folder named ``scheme:``). The
    message names the scheme only: a URL may hold a password."""
    url = _URL.match(str(location))
    if url is None:
        return "sqlite"
    if url[1].lower() in POSTGRESQL_SCHEMES:
        return "postgresql"
    raise StorageLocationError(
        f"the archive location is a {url[1][:20]}:// URL, which this version cannot use:"
        " set NARDY_REFEREE_DATABASE (or --database) to a SQLite file's path, such as"
        " var/referee.sqlite3, or to a PostgreSQL URL (postgresql://USER@HOST/DATABASE)"
    )


def sqlite_path(location: Location) -> Location:
    """The location, checked (``backend_of``): a SQLite file's path, or a PostgreSQL URL as
    given. (The command line's ``--database`` check calls it by this name.)"""
    return Path(location) if backend_of(location) == "sqlite" else str(location)


def open_storage(location: Location) -> Storage:
    """The stores of a new connection to the storage at ``location``, which
    ``prepare_storage`` made (NotReadyError when it is not there; StorageLocationError for
    a location this version cannot use)."""
    if backend_of(location) == "postgresql":
        from referee.storage import postgresql

        return postgresql.open_storage(str(location))
    from referee.storage import sqlite

    return sqlite.open_storage(Path(location))


def prepare_storage(location: Location) -> None:
    """Create the storage at ``location`` when it is not there (a PostgreSQL database must
    exist: its tables are made) and bring its schema up to date; several processes may do
    it at once (StorageLocationError for a location this version cannot use)."""
    if backend_of(location) == "postgresql":
        from referee.storage import postgresql

        postgresql.prepare(str(location))
        return
    from referee.storage import sqlite

    sqlite.prepare(Path(location))
