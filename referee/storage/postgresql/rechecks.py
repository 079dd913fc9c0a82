"""Bulk re-checks in PostgreSQL: a run's batches are rows that a process claims with
``FOR UPDATE SKIP LOCKED`` and holds, in a transaction of its own, while it re-checks
them; each re-checked match is stored and counted done in a short transaction of its own
(``done``). A process killed while it holds a batch lets go of it with its connection, and
the next claimant re-checks only the matches not counted done. Processes starting at once
agree on one run under an advisory lock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from referee.storage import queries
from referee.storage.model.matches import Rechecked
from referee.storage.model.rechecks import RecheckBatch, RecheckProgress, RecheckRun
from referee.storage.postgresql.database import Database, marked, translated
from referee.storage.postgresql.matches import update_verdict
from referee.storage.rows import recheck_progress
from referee.storage.shared import timestamp

START_LOCK = 0x6E617264_79000002
"""The advisory lock under which processes starting at once agree on one run."""
CLAIM = marked(queries.RECHECK_NEXT_BATCH) + " FOR UPDATE OF b SKIP LOCKED"


class PostgresRechecks:
    """The re-check runs store."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def start(self, revision: int | None, batch_size: int = 100) -> RecheckRun:
        with self.database.writing() as connection:
            connection.execute("SELECT pg_advisory_xact_lock(%s)", [START_LOCK])
            row = connection.execute(marked(queries.RECHECK_FIND_RUN), [revision]).fetchone()
            if row is not None:
                return RecheckRun(*row.values())
            stamp = timestamp()
            made = connection.execute(
                marked(queries.RECHECK_NEW_RUN) + " RETURNING id", [revision, stamp]
            ).fetchone()
            assert made is not None
            run_id = made["id"]
            split = [run_id, max(batch_size, 1), revision, revision]
            connection.execute(marked(queries.RECHECK_SPLIT), split)
            size = connection.execute(marked(queries.RECHECK_SIZE), [run_id]).fetchone()
            assert size is not None
            batches, matches = size.values()
            finished = None if batches else stamp
            connection.execute(marked(queries.RECHECK_SIZED), [batches, matches, finished, run_id])
        return RecheckRun(run_id, revision, batches, matches, stamp)

    @contextmanager
    def claim(self, run_id: int) -> Iterator[RecheckBatch | None]:
        with (
            translated(self.database),
            self.database.pool.connection() as connection,
            connection.transaction(),
        ):
            row = connection.execute(CLAIM, [run_id]).fetchone()
            if row is None:
                connection.execute(marked(queries.RECHECK_FINISH), [timestamp(), run_id, run_id])
                yield None
                return
            revision = row["revision"]
            ids = connection.execute(
                marked(queries.RECHECK_BATCH_IDS),
                [row["first_id"], row["last_id"], revision, revision, run_id],
            ).fetchall()
            # the block runs while this transaction holds the batch's row
            yield RecheckBatch(run_id, row["number"], tuple(found["id"] for found in ids))
            connection.execute(marked(queries.RECHECK_BATCH_DONE), [run_id, row["number"]])
            connection.execute(marked(queries.RECHECK_FINISH), [timestamp(), run_id, run_id])

    def done(self, run_id: int, rechecked: Rechecked, changed: bool) -> None:
        with self.database.writing() as connection:
            update_verdict(connection, rechecked)
            connection.execute(marked(queries.RECHECK_MATCH_DONE), [run_id, rechecked.id, changed])

    def progress(self, run_id: int) -> RecheckProgress:
        row = self.database.row(marked(queries.RECHECK_PROGRESS), [run_id])
        assert row is not None, run_id
        return recheck_progress(row)
