"""Ratings as the service keeps them (EVENTS.md §8): computed from the ledger of rated
matches (``RatingStore``), kept per variant, brought up to date when read. A ledger that
grew in archive order is applied from the kept ratings; one that gained an older match
(two events' results saved out of order) is computed again from its start.
``rerate`` makes the ledger anew from the events and the archive.

Decision (issue 33): at most ``DAILY_PAIR_LIMIT`` rated matches between the same two names
(as a director reads them) in one variant count within any 24 hours, by the archive's
times of their records; later ones count for their event's standings, not for ratings
(lichess and FIBS rate every game; a host could otherwise move a rating at will with made-up
records between two names). The limit is for records events only, the matches a host
submits: a bots event's matches are played on the server, every one rated (a bot league
plays the same pair many times a day)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence, Set
from datetime import UTC, datetime, timedelta

from referee.challenges.rated import challenge_ledger
from referee.events.ratings import Rating, ratings
from referee.events.results import name_key, played, rated_matches
from referee.events.state import Kind, PairingStatus
from referee.storage.model.events import EventQuery, StoredEvent
from referee.storage.model.ratings import (
    KeptRatings,
    LedgerEntry,
    PlayerRating,
    RatedMatch,
    RatingStep,
    RatingUpdate,
)
from referee.storage.stores import Storage

ATTEMPTS = 5
"""Tries to keep fresh ratings while other workers keep theirs."""
DAILY_PAIR_LIMIT = 6
"""Rated matches between the same two names in one variant that count within 24 hours."""
DAY = timedelta(days=1)
Pair = tuple[str, frozenset[str]]


def pair_of(match: RatedMatch) -> Pair:
    """A rated match's variant and its two names, in either order, as a director reads them."""
    return match.variant, frozenset((name_key(match.white), name_key(match.black)))


def counted(
    matches: Iterable[tuple[RatedMatch, datetime]], unlimited: Set[int] = frozenset()
) -> list[RatedMatch]:
    """Of rated matches and their records' times, those that count for ratings, in archive
    order: at most ``DAILY_PAIR_LIMIT`` of one pair within any 24 hours, but every one of
    the ``unlimited`` events (bots events: ``unlimited_events``), which do not count
    towards the limit either."""
    kept: dict[Pair, list[datetime]] = {}
    found = []
    for match, at in sorted(matches, key=lambda item: item[0].match_id):
        if match.event_id in unlimited:
            found.append(match)
            continue
        times = kept.setdefault(pair_of(match), [])
        if sum(1 for earlier in times if at - earlier < DAY) < DAILY_PAIR_LIMIT:
            times.append(at)
            found.append(match)
    return found


def unlimited_events(storage: Storage, event_ids: Iterable[int]) -> set[int]:
    """Of events, the bots events: the daily limit is not for their matches (an event no
    longer there is limited, as a records event is)."""
    found = set()
    for event_id in set(event_ids):
        event = storage.events.get(event_id)
        if event is not None and event.setup.kind == Kind.BOTS:
            found.add(event_id)
    return found


def stored_at(storage: Storage, match_id: int) -> datetime:
    """When a match's record was stored (now, for one no longer there)."""
    stored = storage.matches.get(match_id)
    return datetime.now(UTC) if stored is None else datetime.fromisoformat(stored.created_at)


def within_limit(
    storage: Storage, pending: Sequence[RatedMatch], new: Sequence[RatedMatch]
) -> list[RatedMatch]:
    """Of a pairing's ``new`` rated matches, those that count (``counted``), after the
    ledger's and the ``pending`` ones of the same pairs. Only the ledger's matches stored
    within a day before the first new one are read: every match in the ledger counted
    when it was added, so none earlier changes what the new ones may."""
    pairs = {pair_of(match) for match in new}
    times = {match.match_id: stored_at(storage, match.match_id) for match in [*pending, *new]}
    since = (min(times[match.match_id] for match in new) - DAY).isoformat(timespec="seconds")
    earlier = []
    for variant in {match.variant for match in new}:
        for entry, at in storage.ratings.ledger_stored_since(variant, since):
            if pair_of(entry.match) in pairs:
                earlier.append(entry.match)
                times[entry.match.match_id] = datetime.fromisoformat(at)
    earlier += [match for match in pending if pair_of(match) in pairs]
    every = [*earlier, *new]
    unlimited = unlimited_events(storage, (match.event_id for match in every))
    allowed = {
        match.match_id
        for match in counted(((match, times[match.match_id]) for match in every), unlimited)
    }
    return [match for match in new if match.match_id in allowed]


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
    from the stored records: the finished, not awarded pairings of rated events, within the
    daily limit of a pair (in records events); and every finished rated challenge's
    (docs/challenges.md)."""
    found: list[tuple[RatedMatch, datetime]] = []
    unlimited: set[int] = set()
    for event in every_event(storage) if events is None else events:
        if event.setup.kind == Kind.BOTS:
            unlimited.add(event.id)
        for pairing in event.pairings:
            if pairing.status != PairingStatus.FINISHED or pairing.award is not None:
                continue
            matches, times = [], {}
            for match_id in pairing.match_ids:
                stored = storage.matches.get(match_id)
                if stored is not None:
                    matches.append(played(match_id, stored.verdict))
                    times[match_id] = datetime.fromisoformat(stored.created_at)
            rated = rated_matches(event.id, event.setup, pairing, matches)
            found.extend((match, times[match.match_id]) for match in rated)
    return counted(found, unlimited) + challenge_ledger(storage)


def rerate(storage: Storage, events: Iterable[StoredEvent] | None = None) -> dict[str, KeptRatings]:
    """Make the ledger anew from the archive (``events``: every event, as
    ``ledger_from_archive`` reads them) and compute every variant's ratings."""
    storage.ratings.replace_ledger(ledger_from_archive(storage, events))
    return {variant: current(storage, variant) for variant in storage.ratings.variants()}
