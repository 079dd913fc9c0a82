"""What a bot stream says (EVENTS.md §2, §14): a line for a live match of an event, for
an open challenge, for the live match of an accepted challenge; and which of them a name
is owed after given marks of the announcements and of the news of challenges."""

from __future__ import annotations

import time
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from referee.challenges import rules
from referee.live.model import LiveMatch
from referee.storage.model.challenges import ChallengeNews
from referee.storage.model.events import EventLive
from referee.storage.model.feed import ANNOUNCEMENTS, CHALLENGE_NEWS
from referee.storage.stores import Storage

Line = dict[str, Any]
LineKey = tuple[str, int]
"""What a line is about (``("match", live id)``, ``("challenge", id)``): sent once."""


@dataclass(frozen=True, slots=True)
class Marks:
    """How far a reader has read: the ``seq`` of the last announcement of a live match
    (``EventStore.last_announcement``) and of the last news of a challenge
    (``ChallengeStore.last_news``), the two counters of the feed's ``bots`` topic."""

    announcements: int = 0
    news: int = 0

    @classmethod
    def latest(cls, storage: Storage) -> Marks:
        return cls(storage.events.last_announcement(), storage.challenges.last_news())

    def seen(self) -> dict[int, int]:
        """The counters as the change feed's ``wait_any`` takes them."""
        return {ANNOUNCEMENTS: self.announcements, CHALLENGE_NEWS: self.news}

    def upto(self, other: Marks) -> Marks:
        """The further of the two, counter by counter."""
        return Marks(max(self.announcements, other.announcements), max(self.news, other.news))


@dataclass(slots=True)
class LiveEnded:
    """Whether live matches have ended, each looked up once (by one reading: a wake of the
    hub, a stream's first reading). Those at version 0 are as they were made, waiting for
    their bots: known from one query of the versions of many (``look_up``), without
    loading a live state."""

    storage: Storage
    known: dict[int, bool] = field(default_factory=dict)

    def look_up(self, live_ids: set[int]) -> None:
        """Learn at once which of ``live_ids`` have not changed since they were made."""
        if live_ids - self.known.keys():
            found = self.storage.live.versions(sorted(live_ids - self.known.keys()))
            self.known.update((key, False) for key, seen in found.items() if seen.version == 0)

    def __call__(self, live_id: int) -> bool:
        found = self.known.get(live_id)
        if found is None:
            stored = self.storage.live.get(live_id)
            found = self.known[live_id] = (
                stored is None or stored.progress.status in LiveMatch.ENDED
            )
        return found


@dataclass(frozen=True, slots=True)
class Owed:
    """What a name is owed since given marks, as stored: the announcements of its
    events' live matches and the news of its challenges, in order."""

    entries: list[EventLive]
    news: list[ChallengeNews]

    @classmethod
    def read(cls, storage: Storage, name: str, after: Marks, latest: Marks) -> Owed:
        """What was announced to ``name`` after ``after`` (a kind is not read when
        ``latest`` shows nothing of it since)."""
        moved = latest.announcements > after.announcements
        told = latest.news > after.news
        return cls(
            storage.events.announced(name, after.announcements) if moved else [],
            storage.challenges.news(name, after.news) if told else [],
        )

    @classmethod
    def by_name(
        cls, storage: Storage, names: Collection[str], after: Marks, latest: Marks
    ) -> dict[str, Owed]:
        """What each of ``names`` is owed after ``after``, as ``read`` says it, from one
        reading of everyone's (a query per kind of news that moved, whatever the number of
        names), handed out by name."""
        entries: dict[str, list[EventLive]] = {name: [] for name in names}
        news: dict[str, list[ChallengeNews]] = {name: [] for name in names}
        if latest.announcements > after.announcements:
            for entry in storage.events.announced_since(after.announcements):
                for name in {entry.white, entry.black} & entries.keys():
                    entries[name].append(entry)
        if latest.news > after.news:
            for told in storage.challenges.news_since(after.news):
                if told.name in news:
                    news[told.name].append(told)
        return {name: cls(entries[name], news[name]) for name in entries}

    def live_ids(self) -> set[int]:
        """The live matches it names."""
        return {entry.live_id for entry in self.entries} | {
            news.live_id for news in self.news if news.live_id is not None
        }


def line(entry: EventLive, name: str) -> Line:
    """The stream's line for one live match of an event (EVENTS.md §2, with the table and
    the opponent added)."""
    side = "w" if entry.white == name else "b"
    return {
        "type": "match",
        "live_id": entry.live_id,
        "event_id": entry.event_id,
        "round": entry.round,
        "side": side,
        "table": entry.table,
        "opponent": entry.black if side == "w" else entry.white,
        "challenge_id": None,
    }


def news_line(storage: Storage, news: ChallengeNews, name: str, ended: LiveEnded) -> Line | None:
    """The stream's line for news of a challenge (EVENTS.md §14): the challenge while it
    is open, or the live match it became while that has not ended (None: neither)."""
    found = storage.challenges.get(news.challenge_id)
    if found is None:
        return None
    if news.kind == "challenge":
        if rules.status_at(found, time.time()) != "open":
            return None
        return rules.stream_line(found)
    if ended(news.live_id or 0):
        return None
    side = "w" if found.challenger == name else "b"
    return {
        "type": "match",
        "live_id": news.live_id,
        "event_id": None,
        "round": None,
        "side": side,
        "table": None,
        "opponent": found.opponent if side == "w" else found.challenger,
        "challenge_id": found.id,
    }


def key_of(found: Line) -> LineKey:
    """What a line is about: a match line's live match, a challenge line's challenge."""
    return (found["type"], found["live_id"] if found["type"] == "match" else found["id"])


def lines_of(storage: Storage, name: str, owed: Owed, ended: LiveEnded) -> Iterator[Line]:
    """The lines of what ``name`` is owed, each once, the matches of events first, in
    the order announced; none for a live match that ended or a challenge no longer open."""
    sent: set[LineKey] = set()
    for entry in owed.entries:
        if ("match", entry.live_id) not in sent and not ended(entry.live_id):
            sent.add(("match", entry.live_id))
            yield line(entry, name)
    for news in owed.news:
        key = (
            ("match", news.live_id or 0)
            if news.kind == "match"
            else ("challenge", news.challenge_id)
        )
        if key in sent:
            continue
        found = news_line(storage, news, name, ended)
        if found is not None:
            sent.add(key)
            yield found
