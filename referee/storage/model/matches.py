"""What the match store takes and gives: a match to store, as stored and as a search lists
it, a withdrawal, a search's filters and a verdict computed anew."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.storage.model import MAX_PAGE


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
