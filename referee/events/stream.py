"""The bot stream (EVENTS.md §2, ``GET /v1/bot/stream``): a line for every live match a
bot is to play, those already waiting first, then each as soon as it exists; and a line
for every challenge to it while it is open, and for the live match of every challenge of
it that was accepted (EVENTS.md §14).

Decision: a live match that does not exist yet has no version for the live matches'
change board to watch, so announcements get a board of their own with the same design:
one thread per process reads one number, the last announcement's ``seq``
(``EventStore.last_announcement``) and the last challenge news's added (``news_count``),
every ``poll`` seconds, and wakes every bot stream when it grows; each stream then reads
its own new announcements. A quiet bot costs a sleeping thread, and two hundred bots cost
two queries a poll, not two hundred.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import Any

from referee.challenges import rules
from referee.live.model import LiveMatch
from referee.live.stream import ALWAYS, StreamCheck
from referee.storage import Location, open_storage
from referee.storage.challenge_model import ChallengeNews
from referee.storage.model import EventLive
from referee.storage.stores import Storage

POLL_SECONDS = 0.1
KEEPALIVE_SECONDS = 10.0


class AnnouncementBoard:
    """Wakes the bot streams of one process when a live match is announced."""

    def __init__(self, location: Location, poll: float = POLL_SECONDS) -> None:
        self.location = location
        self.poll = poll
        self.latest = -1
        self.condition = threading.Condition()
        self.poller_pid: int | None = None

    def wait(self, mark: int, timeout: float) -> bool:
        """Whether an announcement after ``mark`` was made within ``timeout``."""
        with self.condition:
            if self.poller_pid != os.getpid():  # started lazily, in the serving process
                self.poller_pid = os.getpid()
                threading.Thread(target=self._poll, name="bot-board", daemon=True).start()
            return self.condition.wait_for(lambda: self.latest > mark, timeout)

    def _poll(self) -> None:
        try:
            storage = open_storage(self.location)
        except Exception:  # no archive here (a test's, removed): nothing to watch
            with self.condition:
                self.poller_pid = None
            return
        try:
            while True:
                time.sleep(self.poll)
                try:
                    latest = news_count(storage)
                except Exception:  # a busy or briefly unavailable archive: look again
                    continue
                if latest != self.latest:
                    with self.condition:
                        self.latest = latest
                        self.condition.notify_all()
        finally:
            storage.close()


def news_count(storage: Storage) -> int:
    """What the board watches: the last announcement's ``seq`` and the last challenge
    news's, added (each only grows, so their sum grows whenever either does)."""
    return storage.events.last_announcement() + storage.challenges.last_news()


def line(entry: EventLive, name: str) -> dict[str, Any]:
    """The stream's line for one live match (EVENTS.md §2, with the table and the
    opponent added)."""
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


def news_line(storage: Storage, news: ChallengeNews, name: str) -> dict[str, Any] | None:
    """The stream's line for news of a challenge (EVENTS.md §14): the challenge while it
    is open, or the live match it became while that has not ended (None: neither)."""
    found = storage.challenges.get(news.challenge_id)
    if found is None:
        return None
    if news.kind == "challenge":
        if rules.status_at(found, time.time()) != "open":
            return None
        return rules.stream_line(found)
    stored = storage.live.get(news.live_id or 0)
    if stored is None or stored.progress.status in LiveMatch.ENDED:
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


def _new_lines(
    storage: Storage, name: str, marks: list[int], sent: set[tuple[str, int]]
) -> Iterator[dict[str, Any]]:
    """The lines announced to ``name`` after ``marks`` (the events' ``seq`` and the
    challenge news's), each once; ``marks`` moved on to what was read."""
    latest = (storage.events.last_announcement(), storage.challenges.last_news())
    for entry in storage.events.announced(name, marks[0]):
        if ("match", entry.live_id) in sent:
            continue
        stored = storage.live.get(entry.live_id)
        if stored is None or stored.progress.status in LiveMatch.ENDED:
            continue
        sent.add(("match", entry.live_id))
        yield line(entry, name)
    for news in storage.challenges.news(name, marks[1]):
        key = (
            ("match", news.live_id or 0)
            if news.kind == "match"
            else ("challenge", news.challenge_id)
        )
        if key in sent:
            continue
        found = news_line(storage, news, name)
        if found is not None:
            sent.add(key)
            yield found
    marks[0], marks[1] = max(marks[0], latest[0]), max(marks[1], latest[1])


def matches_for(
    storage: Storage, name: str, board: AnnouncementBoard, check: StreamCheck | None = None
) -> Iterator[dict[str, Any] | None]:
    """Every live match ``name`` is to play and has not finished: those announced already
    first, then each new one; None after ``KEEPALIVE_SECONDS`` without one. Ends as soon
    as ``check`` says the stream may not go on (a revoked token, a worker stopping)."""
    check = check or ALWAYS
    marks = [0, 0]
    sent: set[tuple[str, int]] = set()
    while True:
        yield from _new_lines(storage, name, marks, sent)
        mark = marks[0] + marks[1]
        last_line = time.monotonic()
        while check.alive(storage):
            left = last_line + KEEPALIVE_SECONDS - time.monotonic()
            if left <= 0:
                last_line = time.monotonic()
                yield None
            elif board.wait(mark, check.wait_seconds(left)):
                break
        else:
            return
