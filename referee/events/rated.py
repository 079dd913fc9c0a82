"""Ratings as the service keeps them (EVENTS.md §8): computed from the ledger of rated
matches (``RatingStore``), kept per variant, brought up to date when read. A ledger that
grew in archive order is applied from the kept ratings; one that gained an older match
(two events' results saved out of order) is computed again from its start.
``rerate`` makes the ledger anew from the events and the archive."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from referee.events.ratings import Rating, ratings
from referee.events.results import played, rated_matches
from referee.events.state import PairingStatus
from referee.storage.model import (
    EventQuery,
    KeptRatings,
    LedgerEntry,
    PlayerRating,
    RatedMatch,
    RatingStep,
    RatingUpdate,
    StoredEvent,
)
from referee.storage.stores import Storage

ATTEMPTS = 5
"""Tries to keep fresh ratings while other workers keep theirs."""


def current(storage: Storage, variant: str) -> KeptRatings:
    """The variant's ratings after every rated match in the ledger."""
    for _ in range(ATTEMPTS):
        kept = storage.ratings.kept(variant)
        new = storage.ratings.ledger(variant, kept.through_seq)
        if not new:
            return kept
        storage.ratings.keep(_update(storage, kept, new))
    return storage.ratings.kept(variant)


def _update(storage: Storage, kept: KeptRatings, new: list[LedgerEntry]) -> RatingUpdate:
    in_order = all(entry.match.match_id > kept.last_match_id for entry in new)
    if in_order:
        table = {p.name: Rating(p.rating, p.experience, p.matches) for p in kept.players}
        entries = new
    else:
        table, entries = {}, storage.ratings.ledger(kept.variant)
    table, steps = ratings((entry.match for entry in entries), table)
    touched = {step.name for step in steps}
    return RatingUpdate(
        variant=kept.variant,
        from_seq=kept.through_seq,
        through_seq=max(entry.seq for entry in entries),
        last_match_id=max(kept.last_match_id, *(entry.match.match_id for entry in entries)),
        players=tuple(
            PlayerRating(name, found.rating, found.experience, found.matches)
            for name, found in table.items()
            if name in touched or not in_order
        ),
        steps=tuple(
            (step.name, RatingStep(step.match_id, step.event_id, step.before, step.after))
            for step in steps
        ),
        replace=not in_order,
    )


def rating_of(storage: Storage, variant: str, name: str) -> float:
    """A name's rating now (1500 before any rated match)."""
    for player in current(storage, variant).players:
        if player.name == name:
            return player.rating
    return Rating().rating


def every_event(storage: Storage) -> Iterator[StoredEvent]:
    after = None
    while True:
        page = storage.events.search(EventQuery(limit=100, after_id=after))
        for summary in page:
            event = storage.events.get(summary.id)
            if event is not None:
                yield event
        if len(page) < 100:
            return
        after = page[-1].id


def ledger_from_archive(
    storage: Storage, events: Iterable[StoredEvent] | None = None
) -> list[RatedMatch]:
    """Every rated match the events name (``events``, default ``every_event``), read again
    from the stored records: the finished, not awarded pairings of rated events."""
    found = []
    for event in every_event(storage) if events is None else events:
        for pairing in event.pairings:
            if pairing.status != PairingStatus.FINISHED or pairing.award is not None:
                continue
            matches = []
            for match_id in pairing.match_ids:
                stored = storage.matches.get(match_id)
                if stored is not None:
                    matches.append(played(match_id, stored.verdict))
            found.extend(rated_matches(event.id, event.setup, pairing, matches))
    return found


def rerate(storage: Storage, events: Iterable[StoredEvent] | None = None) -> dict[str, KeptRatings]:
    """Make the ledger anew from the archive (``events``: every event, as
    ``ledger_from_archive`` reads them) and compute every variant's ratings."""
    storage.ratings.replace_ledger(ledger_from_archive(storage, events))
    return {variant: current(storage, variant) for variant in storage.ratings.variants()}
