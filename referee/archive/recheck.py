"""Re-checking stored matches under the current rules revision, their text untouched.

A bulk re-check is a run of pulled jobs (``storage.rechecks``): every process that starts
one while another is under way joins it, claims a batch of match ids that no other process
holds, re-checks them, and stores each new verdict together with the match counted done;
so processes on any hosts share one run, each match is re-checked once, and a run killed
part way resumes at the next start, without the matches already done.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from referee import RULES_REVISION, __version__
from referee.adjudication import check_record
from referee.adjudication.budget import OFFLINE
from referee.rules.engine import CHOSEN, Engine
from referee.storage.model.matches import Rechecked, StoredMatch
from referee.storage.model.rechecks import RecheckRun
from referee.storage.stores import Storage

BATCH_SIZE = 50
"""Matches a process claims at a time."""


@dataclass(frozen=True, slots=True)
class VerdictChange:
    """How a re-check changed a stored match's verdict: (before, after) pairs."""

    match_id: int
    valid: tuple[bool, bool]
    winner: tuple[str | None, str | None]
    points: tuple[list[int], list[int]]

    @property
    def changed(self) -> bool:
        return any(before != after for before, after in (self.valid, self.winner, self.points))

    def describe(self) -> str:
        parts = [
            f"{name} {before} -> {after}"
            for name, (before, after) in (
                ("valid", self.valid),
                ("winner", self.winner),
                ("points", self.points),
            )
            if before != after
        ]
        return f"match {self.match_id}: " + "; ".join(parts)


def start(storage: Storage, everything: bool = False, batch_size: int = BATCH_SIZE) -> RecheckRun:
    """Join the run under way over the matches of older rules revisions (``everything``:
    every match), or begin one."""
    return storage.rechecks.start(None if everything else RULES_REVISION, batch_size)


def recheck(
    storage: Storage,
    everything: bool = False,
    engine: Engine = CHOSEN,
    run: RecheckRun | None = None,
) -> Iterator[VerdictChange]:
    """Check stored matches anew (those of older rules revisions, or ``everything``),
    batch after batch of the run (``start``'s, unless given) that no other process holds,
    store their new verdicts and yield what changed for each; stored text is untouched."""
    if run is None:
        run = start(storage, everything)
    while True:
        with storage.rechecks.claim(run.id) as batch:
            if batch is None:
                return
            for match_id in batch.match_ids:
                stored = storage.matches.get(match_id)
                if stored is not None:
                    rechecked, change = checked_again(stored, engine)
                    storage.rechecks.done(run.id, rechecked, change.changed)
                    yield change


def checked_again(stored: StoredMatch, engine: Engine) -> tuple[Rechecked, VerdictChange]:
    """A stored match's verdict computed anew, and how it changed."""
    verdict = check_record(
        stored.original, stored.variant, "strict", stored.options, OFFLINE, engine
    )
    after = verdict.to_json()
    winner = None if verdict.match.winner is None else str(verdict.match.winner)
    rechecked = Rechecked(stored.id, verdict.valid, winner, after, RULES_REVISION, __version__)
    before = stored.verdict
    change = VerdictChange(
        stored.id,
        (bool(before.get("valid")), verdict.valid),
        (before.get("match", {}).get("winner"), winner),
        ([g["points"] for g in before.get("games", [])], [g["points"] for g in after["games"]]),
    )
    return rechecked, change
