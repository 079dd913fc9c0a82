"""What the event store takes and gives (EVENTS.md): an event's setup, its pairings, its
ledger of corrections, a change of it, the event as stored and as a list shows it, its
announcements to the bots and where a live match sits in it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.storage.model import MAX_PAGE
from referee.storage.model.ratings import RatedMatch


@dataclass(frozen=True, slots=True, kw_only=True)
class EventSetup:
    """What an event is from its creation on, never changed: its name, the matches it
    plays (variant, length, options, clock), its format and rounds, its kind, entrants
    (as given), whether its pairs are mirrored and its matches rated, and its host."""

    name: str
    variant: str
    length: int
    options: dict[str, Any]
    format: str
    rounds: int
    double: bool
    kind: str
    entrants: tuple[str, ...]
    move_seconds: int
    mirrored: bool
    rated: bool
    host_token_id: int | None
    join_seconds: int | None = None
    """How long its live matches wait for their bots (EVENTS.md §12)."""
    reserve_per_point: int | None = None
    """The backgammon clock of its live matches: the reserve per point of the match length
    and the delay per decision, in seconds (None: ``move_seconds`` per decision)."""
    delay: int | None = None
    tiebreaks: tuple[str, ...] | None = None
    """The standings' tie-breaks in the director's order (EVENTS.md §13; None: §5's)."""
    brackets: BracketOptions | None = None
    """A double elimination's or a knockout's bracket options (None: a plain knockout,
    or another format)."""
    analyse: bool = False
    """Every finished match is analysed by gnubg (EVENTS.md §13, ANALYSIS.md §5)."""

    def match_length(self, bracket: str | None) -> int:
        """The length of a pairing's matches in ``bracket`` (EVENTS.md §13)."""
        return (
            self.length if self.brackets is None else self.brackets.length_of(bracket, self.length)
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class BracketOptions:
    """The brackets of an event (EVENTS.md §13): a double elimination's grand final reset,
    a knockout's consolation and last chance, and each bracket's match length (a bracket
    not named plays the event's ``length``)."""

    grand_final_reset: bool = True
    consolation: bool = False
    last_chance: bool = False
    lengths: tuple[tuple[str, int], ...] = ()

    def length_of(self, bracket: str | None, default: int) -> int:
        return dict(self.lengths).get(bracket or "", default)


@dataclass(frozen=True, slots=True)
class Seeded:
    """An entrant as the event started: its seed and its rating then."""

    name: str
    seed: int
    rating: float


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredPairing:
    """One pairing of a round (``table`` from 1): its entrants (``white`` is the first
    named), where it stands, its live matches and stored records, and its result."""

    round: int
    table: int
    white: str
    black: str
    status: str
    live_ids: tuple[int, ...] = ()
    match_ids: tuple[int, ...] = ()
    winner: str | None = None
    points: tuple[int, int] | None = None
    termination: str | None = None
    terminations: tuple[str, ...] = ()
    draw: bool = False
    award: str | None = None
    """The host's reason, when the result was awarded."""
    verdict_id: int | None = None
    """A disputed pairing's stored record (its verdict)."""
    dispute: str | None = None
    """Why the pairing is disputed."""
    bracket: str | None = None
    """The bracket it belongs to (EVENTS.md §13; None: a round robin's or a Swiss's)."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as stored: its setup, status and current round, its seeds (once started),
    every pairing of every round (by round and table), its byes as (round, name), the
    ``version`` every change bumps, and until when a worker holds the right to create its
    live matches (a Unix time)."""

    id: int
    setup: EventSetup
    status: str
    round: int
    seeds: tuple[Seeded, ...]
    pairings: tuple[StoredPairing, ...]
    byes: tuple[tuple[int, str], ...]
    version: int
    lease_until: float | None
    created_at: str
    updated_at: str
    withdrawn: tuple[tuple[str, int], ...] = ()
    """The entrants withdrawn (EVENTS.md §11), each with the last round it was paired in."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Correction:
    """An entry of an event's ledger (EVENTS.md §11): a void, a withdrawal, an award, a
    forfeit or a no-show, by whom (a token's name, or ``server``) and why; ``seq`` numbers
    the entries as they were added (0 in a change not saved yet)."""

    seq: int = 0
    at: str
    by: str
    action: str
    round: int | None = None
    table: int | None = None
    name: str | None = None
    reason: str


@dataclass(frozen=True, slots=True)
class EventChange:
    """A change of event ``event_id`` read at ``version``: its status and round now, its
    seeds (None: unchanged), the pairings it adds or changes, the byes it adds, the lease
    on creating its live matches, and the rated matches its results add to the ledger."""

    event_id: int
    version: int
    status: str
    round: int
    seeds: tuple[Seeded, ...] | None = None
    pairings: tuple[StoredPairing, ...] = ()
    byes: tuple[tuple[int, str], ...] = ()
    lease_until: float | None = None
    rated: tuple[RatedMatch, ...] = ()
    unrated: tuple[int, ...] = ()
    """Matches whose results were voided: out of the ratings' ledger, and the variant's
    kept ratings computed again."""
    withdrawn: tuple[tuple[str, int], ...] = ()
    """Entrants it withdraws, each with the last round it was paired in."""
    corrections: tuple[Correction, ...] = ()
    """What it adds to the event's ledger."""


@dataclass(frozen=True, slots=True)
class EventSummary:
    """An event as a list shows it."""

    id: int
    name: str
    variant: str
    length: int
    format: str
    kind: str
    status: str
    round: int
    rounds: int
    entrants: int
    created_at: str


@dataclass(frozen=True, slots=True)
class EventQuery:
    """Filters of ``GET /v1/events``: the status (None: any), a page of ``limit`` newest
    first after the cursor ``after_id``."""

    status: str | None = None
    limit: int = 50
    after_id: int | None = None

    @property
    def page_size(self) -> int:
        """The events one page holds: ``limit`` within 1 and ``MAX_PAGE``."""
        return min(max(self.limit, 1), MAX_PAGE)


@dataclass(frozen=True, slots=True)
class EventLive:
    """A live match of an event, as the bot stream announces it (``seq``: the order in
    which the announcements were made)."""

    seq: int
    live_id: int
    event_id: int
    round: int
    table: int
    white: str
    black: str


def event_name(name: str) -> str:
    """An event's name in its one form, the one its events row keeps and its records'
    ``Event`` tag writes (a tag is one line): every run of whitespace one space, none at
    either end. A search by the event's id compares the tag with the kept name."""
    return " ".join(name.split())


@dataclass(frozen=True, slots=True)
class EventSeat:
    """Where a live match sits in an event (EVENTS.md §10: its record's tags): the
    event's name and id, the round and the table."""

    event_id: int
    name: str
    round: int
    table: int

    def tags(self, leg: int | None = None) -> dict[str, str]:
        """The record's header tags: ``Event``, ``EventId``, ``Round``, ``Table`` and, for
        a match of a mirrored pair, ``Leg`` (1 or 2); the name as ``event_name`` writes
        it."""
        tags = {
            "Event": event_name(self.name),
            "EventId": str(self.event_id),
            "Round": str(self.round),
            "Table": str(self.table),
        }
        if leg is not None:
            tags["Leg"] = str(leg)
        return tags


@dataclass(frozen=True, slots=True)
class EventInPlay:
    """What a worker watches of a running event: its version, round and lease, the live
    matches of its undecided pairings, and whether a pairing still waits for them."""

    event_id: int
    version: int
    round: int
    lease_until: float | None
    live_ids: tuple[int, ...]
    unattached: bool
