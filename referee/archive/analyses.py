"""Analyses of stored matches as the API, the pages and the events ask for them (ANALYSIS.md
§2): queued once per match and settings (the record checked first as the engine that
will analyse it checks it, so that what it cannot analyse is refused at once: ``admitted``), at most
``MOST_WAITING`` waiting per token, read back as the API shows them. Workers make them
(``analysis_worker``)."""

from __future__ import annotations

import os
from typing import Any

from referee.adjudication.budget import WorkLimits
from referee.analysis import Settings, admitted, time_allowed
from referee.archive.stored import MAX_ID, known_variant, stored_match
from referee.errors import NotFoundError, RefereeError
from referee.rules.engine import CHOSEN, Engine
from referee.storage.model.analyses import NewAnalysis, Queued, StoredAnalysis
from referee.storage.stores import AnalysisQueueFullError, Storage

MOST_WAITING = int(os.environ.get("NARDY_REFEREE_ANALYSIS_QUEUE", "20"))
"""Analyses one token may have queued or running at once (an event's are its own)."""
QUEUE_RETRY_SECONDS = 60
"""When a full queue is told to ask again: about one 2-ply analysis of a short match."""


class QueueFullError(RefereeError):
    """A token has as many analyses waiting as it may: ask again once one is made."""

    code = "overloaded"
    title = "Too busy"
    status = 503
    retry_after = QUEUE_RETRY_SECONDS


def queue_analysis(
    storage: Storage,
    match_id: int,
    settings: Settings,
    token_id: int | None,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
    event_id: int | None = None,
) -> Queued:
    """The match's analysis at ``settings``: the one there (a failed one queued again), or
    a new one queued, with the engine's time from the record's length. Refused before
    anything is stored: NotFoundError, GoneError (a withdrawn match), ``admitted``'s
    refusals (no_engine, invalid_record, engine_failed), QueueFullError (``token_id``'s queue is
    full; an event's, ``token_id`` None, has no bound)."""
    stored = stored_match(storage, match_id)
    for found in storage.analyses.of_match(match_id):
        same = (found.chequer_plies, found.cube_plies) == (
            settings.chequer_plies,
            settings.cube_plies,
        )
        if same and found.status != "failed":
            return Queued(found, False)
    variant = known_variant(stored)
    actions = admitted(
        stored.original, variant=variant, options=stored.options, limits=limits, engine=engine
    )
    new = NewAnalysis(
        match_id=match_id,
        chequer_plies=settings.chequer_plies,
        cube_plies=settings.cube_plies,
        seconds=time_allowed(actions, settings),
        token_id=token_id,
        event_id=event_id,
    )
    try:
        return storage.analyses.queue(new, MOST_WAITING)
    except AnalysisQueueFullError as full:
        raise QueueFullError(
            f"this token has {full.waiting} analyses queued or running, as many as it may;"
            f" ask again in {QUEUE_RETRY_SECONDS} s or so, once one is made"
        ) from None


def analysis_of(storage: Storage, analysis_id: int) -> StoredAnalysis:
    """One analysis, or NotFoundError; GoneError when its match was withdrawn."""
    found = storage.analyses.get(analysis_id) if 0 < analysis_id <= MAX_ID else None
    if found is None:
        raise NotFoundError(f"no analysis with id {analysis_id}")
    stored_match(storage, found.match_id)
    return found


def analyses_of_match(storage: Storage, match_id: int) -> list[StoredAnalysis]:
    """A stored match's analyses, newest first (NotFoundError, GoneError as for the match)."""
    stored_match(storage, match_id)
    return storage.analyses.of_match(match_id)


def analysis_json(found: StoredAnalysis) -> dict[str, Any]:
    """An analysis as the API gives it (ANALYSIS.md §3, ``AnalysisJobSchema``): the job,
    and once done the analysis itself."""
    result = found.result or {}
    return {
        "id": found.id,
        "match_id": found.match_id,
        "status": found.status,
        "settings": {"chequer_plies": found.chequer_plies, "cube_plies": found.cube_plies},
        "engine": result.get("engine"),
        "players": result.get("players"),
        "games": result.get("games"),
        "names": result.get("names"),
        "problem": found.problem,
        "attempts": found.attempts,
        "created_at": found.created_at,
        "started_at": found.started_at,
        "finished_at": found.finished_at,
    }
