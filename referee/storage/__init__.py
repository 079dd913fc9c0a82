"""Storage: the only package that talks to a database (docs/architecture.md, Archive).

``open_storage(location)`` gives a ``Storage`` (``stores.py``): a store each for matches,
kept derived results, live matches and tokens, answering the frozen values of
``model.py``, never a driver's rows or errors. ``prepare_storage(location)`` creates and
migrates it, once at start. The location chooses the backend; today it is the path of a
SQLite file (``sqlite/``).

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

from pathlib import Path

from referee.storage.stores import Storage

Location = str | Path
"""Where the storage is: today a SQLite file's path."""


def open_storage(location: Location) -> Storage:
    """The stores of a new connection to the storage at ``location``, which
    ``prepare_storage`` made (NotReadyError when it is not there)."""
    from referee.storage import sqlite

    return sqlite.open_storage(Path(location))


def prepare_storage(location: Location) -> None:
    """Create the storage at ``location`` when it is not there and bring its schema up
    to date; several processes may do it at once."""
    from referee.storage import sqlite

    sqlite.prepare(Path(location))
