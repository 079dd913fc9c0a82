"""Re-checking stored matches under the current rules revision, their text untouched."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from referee import RULES_REVISION, __version__
from referee.adjudication import check_record
from referee.adjudication.budget import OFFLINE
from referee.rules.engine import CHOSEN, Engine
from referee.storage.model import Rechecked
from referee.storage.stores import Storage


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


def recheck(
    storage: Storage, everything: bool = False, engine: Engine = CHOSEN
) -> Iterator[VerdictChange]:
    """Check stored matches anew (those of older rules revisions, or ``everything``),
    store their new verdicts and yield what changed for each; stored text is untouched."""
    for stored in storage.matches.older_than(None if everything else RULES_REVISION):
        match_id = stored.id
        verdict = check_record(
            stored.original, stored.variant, "strict", stored.options, OFFLINE, engine
        )
        after = verdict.to_json()
        winner = None if verdict.match.winner is None else str(verdict.match.winner)
        storage.matches.update_verdict(
            Rechecked(match_id, verdict.valid, winner, after, RULES_REVISION, __version__)
        )
        before = stored.verdict
        yield VerdictChange(
            match_id,
            (bool(before.get("valid")), verdict.valid),
            (before.get("match", {}).get("winner"), winner),
            ([g["points"] for g in before.get("games", [])], [g["points"] for g in after["games"]]),
        )
