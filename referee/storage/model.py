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
class MatchQuery:
    """Filters of ``GET /v1/matches``; None means "any". ``text``: words that must all
    appear in the players' names, the event or the site; ``after_id``: the cursor (the
    last id of the previous page, newest first)."""

    player: str | None = None
    event: str | None = None
    variant: str | None = None
    valid: bool | None = None
    date_from: str | None = None
    date_to: str | None = None
    text: str | None = None
    limit: int = 50
    after_id: int | None = None

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
    players (white, black), the clock and the committed server seed."""

    variant: str
    length: int
    options: dict[str, Any]
    players: tuple[str, str]
    move_seconds: int
    host_token_id: int | None
    server_seed: str
    commitment: str


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

Topic: TypeAlias = Literal["live"]
"""What a change feed follows: a counter per key that every change moves up (``"live"``: a
live match's version, keyed by its id)."""
LIVE_TOPIC: Topic = "live"
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
