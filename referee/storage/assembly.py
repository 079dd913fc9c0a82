"""A ``Storage`` over a backend: every store, written once, on the backend's ``Database``
and ``Dialect`` (``sql.py``), with the backend's connection and change feed."""

from __future__ import annotations

from referee.storage.analyses import Analyses
from referee.storage.challenges import Challenges
from referee.storage.derived import Derived
from referee.storage.events import Events
from referee.storage.live import Live
from referee.storage.matches import Matches
from referee.storage.ratings import Ratings
from referee.storage.rechecks import Rechecks
from referee.storage.sql import Database, Dialect
from referee.storage.stores import ChangeFeed, Connection, Storage
from referee.storage.tables import Tables
from referee.storage.tokens import Tokens


def assemble(
    database: Database, dialect: Dialect, connection: Connection, feed: ChangeFeed
) -> Storage:
    """The stores of one backend connection."""
    return Storage(
        matches=Matches(database, dialect),
        derived=Derived(database, dialect),
        live=Live(database, dialect),
        tokens=Tokens(database),
        rechecks=Rechecks(database, dialect),
        tables=Tables(database, dialect),
        connection=connection,
        events=Events(database, dialect),
        ratings=Ratings(database, dialect),
        feed=feed,
        challenges=Challenges(database, dialect),
        analyses=Analyses(database, dialect),
    )
