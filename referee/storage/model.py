"""What the stores take and give: frozen values with typed fields, the same for every
backend, so no caller ever reads a column name or a driver's row."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

Json: TypeAlias = Any
"""A JSON document as ``json.loads`` gives it (kept results: replays, verdicts)."""

MAX_PAGE = 500
"""The most match summaries one search answers."""


# -- matches ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchFacts:
    """What a match is in brief, as a search lists it: its key (``sha256``), variant,
    validity, players (white, black), tags, length, games and winner."""

    sha256: str
    variant: str
    valid: bool
    players: tuple[str, str]
    event: str | None
    site: str | None
    event_date: str | None
    match_length: int
    games: int
    winner: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class NewMatch(MatchFacts):
    """A match to store: its facts, the options it was checked under, its verdict, the
    record as received and canonical, and which rules revision and referee version
    checked it (None: stored before versions were kept)."""

    options: dict[str, Any]
    verdict: dict[str, Any]
    original: str
    canonical: str
    rules_revision: int
    referee_version: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredMatch(NewMatch):
    """A match as stored: what was stored, its id and when."""

    id: int
    created_at: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchSummary(MatchFacts):
    """A stored match as a search lists it: its facts, id and when it was stored."""

    id: int
    created_at: str


@dataclass(frozen=True, slots=True)
class Stored:
    """The outcome of storing: the match's id and whether it was already there."""

    id: int
    duplicate: bool


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A match withdrawn from the archive's reads and searches (EVENTS.md §11), kept for
    audit: when, by whom (the token's name) and why."""

    match_id: int
    at: str
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class MatchQuery:
    """Filters of ``GET /v1/matches``; None means "any". ``text``: words that must all
    appear in the players' names, the event or the site; ``after_id``: the cursor (the
    last id of the previous page, newest first); ``event_id``: the matches an event made
    or took, as its own tables name them (not a record's ``EventId`` text, which anyone
    could write)."""

    player: str | None = None
    event: str | None = None
    variant: str | None = None
    valid: bool | None = None
    date_from: str | None = None
    date_to: str | None = None
    text: str | None = None
    limit: int = 50
    after_id: int | None = None
    event_id: int | None = None

    @property
    def page_size(self) -> int:
        """The summaries one page holds: ``limit`` within 1 and ``MAX_PAGE``."""
        return min(max(self.limit, 1), MAX_PAGE)


@dataclass(frozen=True, slots=True)
class Rechecked:
    """A stored match's verdict computed anew, without touching its stored text."""

    id: int
    valid: bool
    winner: str | None
    verdict: dict[str, Any]
    rules_revision: int
    referee_version: str


# -- live matches ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LiveSetup:
    """What a live match is from its creation on, never changed: the variant, the
    players (white, black), the clock and the committed server seed; a match of a
    mirrored pair (EVENTS.md §7) throws the dice of live match ``dice_id`` (None: its
    own) without client seeds."""

    variant: str
    length: int
    options: dict[str, Any]
    players: tuple[str, str]
    move_seconds: int
    host_token_id: int | None
    server_seed: str
    commitment: str
    dice_id: int | None = None
    mirrored: bool = False
    join_seconds: int | None = None
    """How long the bots have to join (EVENTS.md §12; None: the match waits for them)."""
    reserve: int | None = None
    """The backgammon clock's reserve of each player at the start, in seconds (None: no
    clock, each decision has ``move_seconds``), and its delay per decision."""
    delay: int | None = None


@dataclass(frozen=True, slots=True)
class LiveProgress:
    """Where a live match stands, written by every change: its status, ply, the bots'
    seeds (white, black; None until joined), deadline, throws made, and its table's
    compact state (a size that does not grow with the match; None in a change that left
    the table as it was)."""

    status: str
    ply: int
    seeds: tuple[str | None, str | None]
    deadline: float | None
    state: dict[str, Any] | None
    throws: int
    reserves: tuple[float, float] | None = None
    """The clock's reserves (white's, black's) as the current decision began (None: no
    clock)."""
    turn_seconds: float | None = None
    """The full time of what the match awaits now (a decision, or the bots' joining): what
    a restart gives again from its start (None: ``move_seconds``)."""


@dataclass(frozen=True, slots=True)
class Throw:
    """One throw of a live match's dice, as its proof lists it."""

    k: int
    dice: tuple[int, int]
    game: int
    use: str


@dataclass(frozen=True, slots=True)
class LiveChange:
    """A change of the live match ``live_id`` read at ``version``: where it stands now,
    the throws it made and, when it has finished, its record."""

    live_id: int
    version: int
    progress: LiveProgress
    new_throws: tuple[Throw, ...]
    record: NewMatch | None = None
    entries: tuple[dict[str, Any], ...] = ()
    """What the change adds to the match's log: the entries of its record, in order."""


@dataclass(frozen=True, slots=True)
class StoredLive:
    """A live match as stored: its setup, its progress (with the state as the last change
    left it), the ``version`` every change bumps, and the stored record's id once it has
    finished."""

    id: int
    setup: LiveSetup
    progress: LiveProgress
    version: int
    match_id: int | None
    created_at: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class LiveVersion:
    """What a stream watches of a live match: its version and deadline."""

    version: int
    deadline: float | None


# -- the change feed -----------------------------------------------------------------------

Topic: TypeAlias = Literal["live", "event", "bots"]
"""What a change feed follows: a counter per key that every change moves up (``"live"``: a
live match's version, keyed by its id; ``"event"``: an event's version, by its id;
``"bots"``: what the bot streams owe, two keys, ``ANNOUNCEMENTS`` and ``CHALLENGE_NEWS``)."""
LIVE_TOPIC: Topic = "live"
EVENT_TOPIC: Topic = "event"
BOTS_TOPIC: Topic = "bots"
ANNOUNCEMENTS = 0
"""The bots topic's key of the events' announcements: the last one's ``seq``
(``EventStore.last_announcement``)."""
CHALLENGE_NEWS = 1
"""The bots topic's key of the news of challenges: the last one's ``seq``
(``ChallengeStore.last_news``)."""
GONE = -1
"""The counter of a key that is not there (no such live match): below every counter."""


# -- bulk re-checks ------------------------------------------------------------------------


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


# -- tokens ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    """A stored API token, without its secret."""

    id: int
    name: str | None
    prefix: str
    scopes: tuple[str, ...]
    created_at: str
    revoked_at: str | None


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A token just created, with its secret: shown once, never stored."""

    token: Token
    secret: str


# -- events (EVENTS.md) ------------------------------------------------------------------


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
class RatedMatch:
    """A finished match of a rated event, as ratings count it: its archive id, event,
    variant, players (the record's White and Black), winner's name and length."""

    match_id: int
    event_id: int
    variant: str
    white: str
    black: str
    winner: str
    length: int


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


# -- ratings (EVENTS.md §8) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """A rated match in the ledger, numbered in the order it was added (``seq``)."""

    seq: int
    match: RatedMatch


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One name's rating in one variant."""

    name: str
    rating: float
    experience: int
    matches: int


@dataclass(frozen=True, slots=True)
class RatingStep:
    """One name's rating before and after one rated match."""

    match_id: int
    event_id: int
    before: float
    after: float


@dataclass(frozen=True, slots=True)
class KeptRatings:
    """The ratings of a variant as kept: computed from the ledger up to ``through_seq``,
    whose highest match id is ``last_match_id``."""

    variant: str
    through_seq: int
    last_match_id: int
    players: tuple[PlayerRating, ...]


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """Ratings computed from the ledger: the kept ratings they start from
    (``from_seq``; ``replace``: from nothing), up to ``through_seq``; the players whose
    rating changed and the steps of their history (by name)."""

    variant: str
    from_seq: int
    through_seq: int
    last_match_id: int
    players: tuple[PlayerRating, ...]
    steps: tuple[tuple[str, RatingStep], ...]
    replace: bool = False
