"""Bulk re-checks, on every backend, as pulled jobs: a run's batches are rows that a
process claims and holds while it re-checks them (``Database.claiming``: on SQLite one
process at a time, behind a lock file beside the archive; on PostgreSQL each claim holds
its batch's row, ``FOR UPDATE SKIP LOCKED``, in a transaction of its own, so processes
re-check batches side by side); each re-checked match is stored and counted done in a
short transaction of its own (``done``), and a batch is done when its block ends. A
process killed while it holds a batch lets it go with its life (or its connection), and
the next claimant re-checks only the matches not counted done. Processes starting at once
agree on one run (``Serial.RECHECK``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from referee.storage.matches import UPDATE_VERDICT, verdict_arguments
from referee.storage.model.matches import Rechecked
from referee.storage.model.rechecks import RecheckBatch, RecheckProgress, RecheckRun
from referee.storage.shared import timestamp
from referee.storage.sql import Database, Dialect, Serial

FIND_RUN = (
    "SELECT id, revision, batches, matches, created_at FROM recheck_runs"
    " WHERE finished_at IS NULL AND revision IS NOT DISTINCT FROM CAST(? AS INTEGER)"
    " ORDER BY id DESC LIMIT 1"
)
NEW_RUN = "INSERT INTO recheck_runs (revision, batches, matches, created_at) VALUES (?, 0, 0, ?)"
SPLIT = (
    "INSERT INTO recheck_batches (run_id, number, first_id, last_id, size, done)"
    " SELECT ?, n, min(id), max(id), count(*), false FROM (SELECT id,"
    " (row_number() OVER (ORDER BY id) - 1) / ? AS n FROM matches"
    " WHERE CAST(? AS INTEGER) IS NULL OR rules_revision < ?) AS s GROUP BY n"
)
"""The matches of a new run (id, batch size, revision twice), ``size`` to a batch."""
SIZE = (
    "SELECT count(*) AS batches, coalesce(sum(size), 0) AS matches FROM recheck_batches"
    " WHERE run_id = ?"
)
SIZED = "UPDATE recheck_runs SET batches = ?, matches = ?, finished_at = ? WHERE id = ?"
NEXT_BATCH = (
    "SELECT b.number, b.first_id, b.last_id, r.revision FROM recheck_batches b"
    " JOIN recheck_runs r ON r.id = b.run_id WHERE b.run_id = ? AND NOT b.done"
    " ORDER BY b.number LIMIT 1"
)
BATCH_IDS = (
    "SELECT id FROM matches m WHERE id BETWEEN ? AND ?"
    " AND (CAST(? AS INTEGER) IS NULL OR rules_revision < ?)"
    " AND NOT EXISTS (SELECT 1 FROM recheck_done d WHERE d.run_id = ? AND d.match_id = m.id)"
    " ORDER BY id"
)
"""The matches of a batch not done yet (first id, last id, revision twice, run)."""
BATCH_DONE = "UPDATE recheck_batches SET done = true WHERE run_id = ? AND number = ?"
FINISH = (
    "UPDATE recheck_runs SET finished_at = ? WHERE id = ? AND finished_at IS NULL"
    " AND NOT EXISTS (SELECT 1 FROM recheck_batches WHERE run_id = ? AND NOT done)"
)
"""Finish a run (time, run, run) when none of its batches is left."""
MATCH_DONE = (
    "INSERT INTO recheck_done (run_id, match_id, changed) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
)
PROGRESS = (
    "SELECT r.batches, r.matches, r.finished_at,"
    " (SELECT count(*) FROM recheck_batches b WHERE b.run_id = r.id AND b.done) AS done,"
    " (SELECT count(*) FROM recheck_done d WHERE d.run_id = r.id) AS rechecked,"
    " (SELECT count(*) FROM recheck_done d WHERE d.run_id = r.id AND d.changed) AS changed"
    " FROM recheck_runs r WHERE r.id = ?"
)


class Rechecks:
    """The re-check runs store."""

    def __init__(self, database: Database, dialect: Dialect) -> None:
        self.database = database
        self.dialect = dialect

    def start(self, revision: int | None, batch_size: int = 100) -> RecheckRun:
        with self.database.writing() as tx:
            self.dialect.serialize(tx, Serial.RECHECK)
            row = tx.row(FIND_RUN, [revision])
            if row is not None:
                return RecheckRun(
                    row["id"], row["revision"], row["batches"], row["matches"], row["created_at"]
                )
            stamp = timestamp()
            run_id = tx.insert(NEW_RUN, [revision, stamp])
            tx.execute(SPLIT, [run_id, max(batch_size, 1), revision, revision])
            size = tx.row(SIZE, [run_id])
            assert size is not None
            batches, matches = size["batches"], size["matches"]
            tx.execute(SIZED, [batches, matches, None if batches else stamp, run_id])
        return RecheckRun(run_id, revision, batches, matches, stamp)

    @contextmanager
    def claim(self, run_id: int) -> Iterator[RecheckBatch | None]:
        with self.database.claiming("recheck") as held:
            row = held.row(NEXT_BATCH + self.dialect.lock_rows("b"), [run_id])
            if row is None:
                with held.writing() as tx:
                    tx.execute(FINISH, [timestamp(), run_id, run_id])
                yield None
                return
            revision = row["revision"]
            ids = held.rows(
                BATCH_IDS, [row["first_id"], row["last_id"], revision, revision, run_id]
            )
            yield RecheckBatch(run_id, row["number"], tuple(found["id"] for found in ids))
            with held.writing() as tx:
                tx.execute(BATCH_DONE, [run_id, row["number"]])
                tx.execute(FINISH, [timestamp(), run_id, run_id])

    def done(self, run_id: int, rechecked: Rechecked, changed: bool) -> None:
        with self.database.writing() as tx:
            tx.execute(UPDATE_VERDICT, verdict_arguments(rechecked))
            tx.execute(MATCH_DONE, [run_id, rechecked.id, changed])

    def progress(self, run_id: int) -> RecheckProgress:
        row = self.database.row(PROGRESS, [run_id])
        assert row is not None, run_id
        return RecheckProgress(
            batches=row["batches"],
            batches_done=row["done"],
            matches=row["matches"],
            rechecked=row["rechecked"],
            changed=row["changed"],
            finished=row["finished_at"] is not None,
        )
