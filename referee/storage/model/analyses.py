"""What the analyses store takes and gives (ANALYSIS.md): an analysis asked for, as stored
(a job: queued, running, done or failed), as a worker holds it, how it ended, and a
match's analysis in brief (its PR) for the events."""

from __future__ import annotations

from dataclasses import dataclass

from referee.storage.model import Json

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
"""The statuses of an analysis (ANALYSIS.md §3)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NewAnalysis:
    """An analysis to queue: the match and the plies (one analysis per match and plies),
    the seconds gnubg is allowed for it, and who asked: a token, or an event (``token_id``
    None: it counts against no token's queue)."""

    match_id: int
    chequer_plies: int
    cube_plies: int
    seconds: float
    token_id: int | None
    event_id: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredAnalysis:
    """An analysis as stored: where it stands, how often a worker took it, and once done
    its result (the analysis's JSON, ANALYSIS.md §3 without the job's fields) and each
    side's PR, or once failed its problem (``code``, ``title``, ``detail``)."""

    id: int
    match_id: int
    chequer_plies: int
    cube_plies: int
    status: str
    token_id: int | None
    event_id: int | None
    seconds: float
    attempts: int
    engine_version: str | None
    result: Json | None
    problem: dict[str, str] | None
    created_at: str
    started_at: str | None
    finished_at: str | None


@dataclass(frozen=True, slots=True)
class Queued:
    """What queueing gave: the analysis, and whether it waits because of this call (new,
    or a failed one queued again) rather than being there already."""

    analysis: StoredAnalysis
    queued: bool


@dataclass(frozen=True, slots=True)
class ClaimedAnalysis:
    """An analysis a worker holds (``owner``) until its lease runs out: the match, the
    plies, gnubg's time, and how many times it has been taken (this time included)."""

    id: int
    match_id: int
    chequer_plies: int
    cube_plies: int
    seconds: float
    attempts: int
    owner: str


@dataclass(frozen=True, slots=True)
class Finished:
    """An analysis made: its JSON, gnubg's version, each side's PR (None: nothing
    decided)."""

    result: Json
    engine_version: str
    pr: tuple[float | None, float | None]


@dataclass(frozen=True, slots=True)
class Failed:
    """An analysis that could not be made: why (``code``, ``title``, ``detail``)."""

    problem: dict[str, str]


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """A match's analysis at given plies, in brief: where it stands and, once done, each
    side's PR, with the match's players' names as stored (``white`` the left column)."""

    match_id: int
    status: str
    white: str
    black: str
    pr: tuple[float | None, float | None]
