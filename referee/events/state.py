"""An event being changed: the stored event read once, the pairings and byes a change
adds or alters, and the change to save (``EventChange``), plus the event as the pure
functions see it (seed order, rounds so far, results)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from enum import StrEnum

from referee.events.standings import Meeting, Result, RoundSoFar
from referee.storage.model.events import (
    Correction,
    EventChange,
    EventSetup,
    Seeded,
    StoredEvent,
    StoredPairing,
)
from referee.storage.model.ratings import RatedMatch


class EventStatus(StrEnum):
    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"


class PairingStatus(StrEnum):
    PENDING = "pending"
    PLAYING = "playing"
    FINISHED = "finished"
    DISPUTED = "disputed"


class Format(StrEnum):
    ROUND_ROBIN = "round-robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    DOUBLE_ELIMINATION = "double-elimination"


class Kind(StrEnum):
    BOTS = "bots"
    RECORDS = "records"


class Working:
    """The event as read, with the change being made to it."""

    def __init__(self, stored: StoredEvent) -> None:
        self.stored = stored
        self.status = stored.status
        self.round = stored.round
        self.seeds = stored.seeds
        self.lease_until = stored.lease_until
        self.pairings = {(p.round, p.table): p for p in stored.pairings}
        self.byes = list(stored.byes)
        self.changed: dict[tuple[int, int], StoredPairing] = {}
        self.new_byes: list[tuple[int, str]] = []
        self.rated: list[RatedMatch] = []
        self.seeds_changed = False
        self.withdrawn = dict(stored.withdrawn)
        """The entrants withdrawn, each with the last round it was paired in."""
        self.new_withdrawn: list[tuple[str, int]] = []
        self.corrections: list[Correction] = []
        self.unrated: list[int] = []

    @property
    def setup(self) -> EventSetup:
        return self.stored.setup

    @property
    def id(self) -> int:
        return self.stored.id

    @property
    def per_pairing(self) -> int:
        """Matches a pairing plays: two in a mirrored pair, else one."""
        return 2 if self.setup.mirrored else 1

    @property
    def dirty(self) -> bool:
        """Whether there is anything to save."""
        stored = self.stored
        return bool(
            self.changed
            or self.new_byes
            or self.rated
            or self.seeds_changed
            or self.new_withdrawn
            or self.corrections
            or self.unrated
            or (self.status, self.round, self.lease_until)
            != (stored.status, stored.round, stored.lease_until)
        )

    def seed_names(self) -> list[str]:
        return [seeded.name for seeded in self.seeds]

    def set_seeds(self, seeds: tuple[Seeded, ...]) -> None:
        self.seeds, self.seeds_changed = seeds, True

    def in_round(self, number: int) -> list[StoredPairing]:
        return [p for (r, _), p in sorted(self.pairings.items()) if r == number]

    def byes_of(self, number: int) -> list[str]:
        return sorted(name for r, name in self.byes if r == number)

    def find(self, number: int, table: int) -> StoredPairing | None:
        return self.pairings.get((number, table))

    def put(self, pairing: StoredPairing) -> None:
        key = (pairing.round, pairing.table)
        self.pairings[key] = self.changed[key] = pairing

    def add_bye(self, number: int, name: str) -> None:
        self.byes.append((number, name))
        self.new_byes.append((number, name))

    def withdraw(self, name: str) -> None:
        """Pair ``name`` no more, from the next round on."""
        self.withdrawn[name] = self.round
        self.new_withdrawn.append((name, self.round))

    def note(
        self,
        action: str,
        by: str,
        reason: str,
        pairing: StoredPairing | None = None,
        name: str | None = None,
    ) -> None:
        """Add an entry to the event's ledger: what was done, by whom and why, to which
        pairing (its round and table) and which entrant."""
        self.corrections.append(
            Correction(
                at=datetime.now(UTC).isoformat(timespec="seconds"),
                by=by,
                action=action,
                round=None if pairing is None else pairing.round,
                table=None if pairing is None else pairing.table,
                name=name,
                reason=reason,
            )
        )

    def decided(self, number: int) -> bool:
        """Whether every pairing of round ``number`` has its result."""
        return all(p.status == PairingStatus.FINISHED for p in self.in_round(number))

    def rounds_so_far(self) -> list[RoundSoFar]:
        return [
            RoundSoFar(
                number,
                tuple(meeting(p) for p in self.in_round(number)),
                tuple(self.byes_of(number)),
            )
            for number in range(1, self.round + 1)
        ]

    def change(self) -> EventChange:
        return EventChange(
            event_id=self.id,
            version=self.stored.version,
            status=self.status,
            round=self.round,
            seeds=self.seeds if self.seeds_changed else None,
            pairings=tuple(self.changed.values()),
            byes=tuple(self.new_byes),
            lease_until=self.lease_until,
            rated=tuple(self.rated),
            unrated=tuple(self.unrated),
            withdrawn=tuple(self.new_withdrawn),
            corrections=tuple(self.corrections),
        )


def meeting(pairing: StoredPairing) -> Meeting:
    """A pairing as standings see it: a result once it is finished."""
    result = None
    if pairing.status == PairingStatus.FINISHED and pairing.points is not None:
        both_lost = pairing.winner is None and not pairing.draw
        result = Result(None if pairing.draw else pairing.winner, pairing.points, both_lost)
    return Meeting(pairing.white, pairing.black, result)


def disputed(pairing: StoredPairing, why: str, verdict_id: int | None = None) -> StoredPairing:
    return replace(
        pairing,
        status=PairingStatus.DISPUTED,
        dispute=why,
        verdict_id=verdict_id if verdict_id is not None else pairing.verdict_id,
    )
