"""Analyses as jobs, on every backend (ANALYSIS.md §4): one row per match and plies, queued
(at most so many waiting per token, counted under a lock of their own: ``Serial.ANALYSES``),
claimed by workers on any hosts in a short transaction (``FOR UPDATE SKIP LOCKED`` on
PostgreSQL: claimants pass over each other's rows; one writer at a time on SQLite) and
held under a lease that the holder renews while gnubg runs. A holder that dies lets its
lease run out and the next claimant takes the job again; what a worker stores is kept
only while it still holds the job (its ``owner``, status running), so an analysis is
stored once whoever ran it meanwhile. The result is its JSON compressed (as kept derived
results are), with each side's PR beside it for the events' standings."""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence

from referee.storage.model.analyses import (
    FAILED,
    QUEUED,
    RUNNING,
    ClaimedAnalysis,
    Failed,
    Finished,
    MatchAnalysis,
    NewAnalysis,
    Queued,
    StoredAnalysis,
)
from referee.storage.shared import timestamp
from referee.storage.sql import Database, Dialect, Row, Serial, insert_sql, marks
from referee.storage.stores import AnalysisQueueFullError

COLUMNS = (
    "id, match_id, chequer_plies, cube_plies, status, token_id, event_id, seconds, attempts,"
    " engine_version, result, problem, created_at, started_at, finished_at"
)
FIND = f"SELECT {COLUMNS} FROM analyses WHERE match_id = ? AND chequer_plies = ? AND cube_plies = ?"
WAITING_OF_TOKEN = "SELECT count(*) AS n FROM analyses WHERE token_id = ? AND status IN (?, ?)"
REQUEUE = (
    "UPDATE analyses SET status = ?, token_id = ?, event_id = ?, seconds = ?, attempts = 0,"
    " owner = NULL, lease_until = NULL, problem = NULL, started_at = NULL, finished_at = NULL"
    " WHERE id = ?"
)
CLAIMABLE = "status = 'queued' OR (status = 'running' AND lease_until < ?)"
"""The analyses a worker may take (now): waiting ones, and those whose holder's lease ran
out."""
NEXT = (
    "SELECT id, match_id, chequer_plies, cube_plies, seconds, attempts FROM analyses a"
    f" WHERE {CLAIMABLE} ORDER BY id LIMIT 1"
)
TAKE = (
    "UPDATE analyses SET status = 'running', owner = ?, lease_until = ?,"
    " attempts = attempts + 1, started_at = ? WHERE id = ?"
)
HELD = "id = ? AND owner = ? AND status = 'running'"
"""The analysis (id) while ``owner`` holds it."""
RENEW = f"UPDATE analyses SET lease_until = ? WHERE {HELD}"
DONE_SQL = (
    "UPDATE analyses SET status = 'done', engine = 'gnubg', engine_version = ?, result = ?,"
    f" pr_w = ?, pr_b = ?, owner = NULL, lease_until = NULL, finished_at = ? WHERE {HELD}"
)
FAIL = (
    "UPDATE analyses SET status = 'failed', problem = ?, owner = NULL, lease_until = NULL,"
    " finished_at = ? WHERE id = ?"
)
FAILED_SQL = f"{FAIL} AND owner = ? AND status = 'running'"
"""Fail an analysis (problem, time, id) held by ``owner``; ``FAIL`` alone: one given up at
a claim, taken too often."""
RELEASE = (
    "UPDATE analyses SET status = 'queued', owner = NULL, lease_until = NULL,"
    f" attempts = attempts - 1, started_at = NULL WHERE {HELD}"
)


class Analyses:
    """The analyses store."""

    def __init__(self, database: Database, dialect: Dialect) -> None:
        self.database = database
        self.dialect = dialect

    def queue(self, new: NewAnalysis, most_waiting: int | None = None) -> Queued:
        with self.database.writing() as tx:
            self.dialect.serialize(tx, Serial.ANALYSES)
            found = tx.row(FIND, [new.match_id, new.chequer_plies, new.cube_plies])
            if found is not None and found["status"] != FAILED:
                return Queued(stored_analysis(found), False)
            if most_waiting is not None and new.token_id is not None:
                counted = tx.row(WAITING_OF_TOKEN, [new.token_id, QUEUED, RUNNING])
                waiting = 0 if counted is None else int(counted["n"])
                if waiting >= most_waiting:
                    raise AnalysisQueueFullError(waiting)
            if found is not None:
                arguments = [QUEUED, new.token_id, new.event_id, new.seconds, found["id"]]
                tx.execute(REQUEUE, arguments)
                analysis_id = int(found["id"])
            else:
                row = {
                    **{name: getattr(new, name) for name in NEW_COLUMNS},
                    "status": QUEUED,
                    "attempts": 0,
                    "created_at": timestamp(),
                }
                analysis_id = tx.insert(insert_sql("analyses", list(row)), list(row.values()))
            made = tx.row(f"SELECT {COLUMNS} FROM analyses WHERE id = ?", [analysis_id])
        assert made is not None
        return Queued(stored_analysis(made), True)

    def get(self, analysis_id: int) -> StoredAnalysis | None:
        row = self.database.row(f"SELECT {COLUMNS} FROM analyses WHERE id = ?", [analysis_id])
        return None if row is None else stored_analysis(row)

    def of_match(self, match_id: int) -> list[StoredAnalysis]:
        rows = self.database.rows(
            f"SELECT {COLUMNS} FROM analyses WHERE match_id = ? ORDER BY id DESC", [match_id]
        )
        return [stored_analysis(row) for row in rows]

    def claimable(self, now: float) -> bool:
        return (
            self.database.row(f"SELECT 1 AS one FROM analyses WHERE {CLAIMABLE}", [now]) is not None
        )

    def claim(
        self, owner: str, now: float, lease_seconds: float, given_up: Failed, most_attempts: int
    ) -> ClaimedAnalysis | None:
        stamp = timestamp()
        with self.database.writing() as tx:
            while True:
                row = tx.row(NEXT + self.dialect.lock_rows("a"), [now])
                if row is None:
                    return None
                if row["attempts"] < most_attempts:
                    break
                tx.execute(FAIL, [json.dumps(given_up.problem), stamp, row["id"]])
            tx.execute(TAKE, [owner, now + lease_seconds, stamp, row["id"]])
        return ClaimedAnalysis(
            id=row["id"],
            match_id=row["match_id"],
            chequer_plies=row["chequer_plies"],
            cube_plies=row["cube_plies"],
            seconds=row["seconds"],
            attempts=row["attempts"] + 1,
            owner=owner,
        )

    def renew(self, analysis_id: int, owner: str, now: float, lease_seconds: float) -> bool:
        with self.database.writing() as tx:
            return tx.execute(RENEW, [now + lease_seconds, analysis_id, owner]) == 1

    def finish(self, analysis_id: int, owner: str, outcome: Finished | Failed) -> bool:
        stamp = timestamp()
        with self.database.writing() as tx:
            if isinstance(outcome, Failed):
                arguments = [json.dumps(outcome.problem), stamp, analysis_id, owner]
                return tx.execute(FAILED_SQL, arguments) == 1
            body = zlib.compress(json.dumps(outcome.result).encode())
            pr_w, pr_b = outcome.pr
            arguments = [outcome.engine_version, body, pr_w, pr_b, stamp, analysis_id, owner]
            return tx.execute(DONE_SQL, arguments) == 1

    def release(self, analysis_id: int, owner: str) -> bool:
        with self.database.writing() as tx:
            return tx.execute(RELEASE, [analysis_id, owner]) == 1

    def of_matches(
        self, match_ids: Sequence[int], chequer_plies: int, cube_plies: int
    ) -> list[MatchAnalysis]:
        if not match_ids:
            return []
        rows = self.database.rows(
            "SELECT a.match_id, a.status, m.white, m.black, a.pr_w, a.pr_b FROM analyses a"
            " JOIN matches m ON m.id = a.match_id"
            f" WHERE a.match_id IN ({marks(len(match_ids))}) AND a.chequer_plies = ?"
            " AND a.cube_plies = ? ORDER BY a.match_id",
            [*match_ids, chequer_plies, cube_plies],
        )
        return [
            MatchAnalysis(
                row["match_id"],
                row["status"],
                row["white"] or "",
                row["black"] or "",
                (row["pr_w"], row["pr_b"]),
            )
            for row in rows
        ]


NEW_COLUMNS = ("match_id", "chequer_plies", "cube_plies", "seconds", "token_id", "event_id")
"""The columns of a new analysis given by ``NewAnalysis``, each of its field's name."""


def stored_analysis(row: Row) -> StoredAnalysis:
    result = row["result"]
    problem = row["problem"]
    return StoredAnalysis(
        id=row["id"],
        match_id=row["match_id"],
        chequer_plies=row["chequer_plies"],
        cube_plies=row["cube_plies"],
        status=row["status"],
        token_id=row["token_id"],
        event_id=row["event_id"],
        seconds=row["seconds"],
        attempts=row["attempts"],
        engine_version=row["engine_version"],
        result=None if result is None else json.loads(zlib.decompress(result)),
        problem=None if problem is None else json.loads(problem),
        created_at=row["created_at"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
    )
