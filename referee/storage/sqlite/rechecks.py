"""Bulk re-checks in SQLite: one process at a time. A process holds a lock file beside the
archive (``*.recheck-lock``) while it holds a batch, so processes started together take
batches in turn; each re-checked match is stored and counted done in a short write
transaction of its own, and a batch is done when its block ends. A process killed while
it holds a batch lets go of the lock with its life, and the next one re-checks only the
matches not counted done."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from referee.storage import queries
from referee.storage.model.matches import Rechecked
from referee.storage.model.rechecks import RecheckBatch, RecheckProgress, RecheckRun
from referee.storage.rows import recheck_progress, verdict_arguments
from referee.storage.shared import timestamp
from referee.storage.sqlite.database import Database, queued


class SqliteRechecks:
    """The re-check runs store of one connection."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def start(self, revision: int | None, batch_size: int = 100) -> RecheckRun:
        with self.database.writing() as connection:
            row = connection.execute(queries.RECHECK_FIND_RUN, [revision]).fetchone()
            if row is not None:
                return RecheckRun(*row)
            stamp = timestamp()
            run_id = connection.execute(queries.RECHECK_NEW_RUN, [revision, stamp]).lastrowid
            assert run_id is not None
            split = [run_id, max(batch_size, 1), revision, revision]
            connection.execute(queries.RECHECK_SPLIT, split)
            batches, matches = connection.execute(queries.RECHECK_SIZE, [run_id]).fetchone()
            finished = None if batches else stamp
            connection.execute(queries.RECHECK_SIZED, [batches, matches, finished, run_id])
        return RecheckRun(run_id, revision, batches, matches, stamp)

    @contextmanager
    def claim(self, run_id: int) -> Iterator[RecheckBatch | None]:
        with queued(f"{self.database.path}.recheck-lock"):
            row = self.database.row(queries.RECHECK_NEXT_BATCH, [run_id])
            if row is None:
                with self.database.writing() as connection:
                    connection.execute(queries.RECHECK_FINISH, [timestamp(), run_id, run_id])
                yield None
                return
            revision = row["revision"]
            ids = self.database.rows(
                queries.RECHECK_BATCH_IDS,
                [row["first_id"], row["last_id"], revision, revision, run_id],
            )
            yield RecheckBatch(run_id, row["number"], tuple(found["id"] for found in ids))
            with self.database.writing() as connection:
                connection.execute(queries.RECHECK_BATCH_DONE, [run_id, row["number"]])
                connection.execute(queries.RECHECK_FINISH, [timestamp(), run_id, run_id])

    def done(self, run_id: int, rechecked: Rechecked, changed: bool) -> None:
        with self.database.writing() as connection:
            connection.execute(queries.UPDATE_VERDICT, verdict_arguments(rechecked))
            connection.execute(queries.RECHECK_MATCH_DONE, [run_id, rechecked.id, changed])

    def progress(self, run_id: int) -> RecheckProgress:
        row = self.database.row(queries.RECHECK_PROGRESS, [run_id])
        assert row is not None, run_id
        return recheck_progress(row)
