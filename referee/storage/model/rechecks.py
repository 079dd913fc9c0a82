"""What the re-check store takes and gives: a run over the archive, a batch of it, how far
it is."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RecheckRun:
    """One run of re-checks over the archive, shared by every process that joins it: the
    matches whose verdict predates rules ``revision`` (every match: None) when it began,
    split into ``batches`` batches."""

    id: int
    revision: int | None
    batches: int
    matches: int
    created_at: str


@dataclass(frozen=True, slots=True)
class RecheckBatch:
    """A batch of a run held by one process: the ids of its matches not re-checked yet in
    this run, ascending."""

    run_id: int
    number: int
    match_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RecheckProgress:
    """How far a run is: batches done, matches re-checked (and how many changed)."""

    batches: int
    batches_done: int
    matches: int
    rechecked: int
    changed: int
    finished: bool
