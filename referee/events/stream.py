"""The bot stream (EVENTS.md §2, ``GET /v1/bot/stream``): a line for every live match a
bot is to play, those already waiting first, then each as soon as it exists; and a line
for every challenge to it while it is open, and for the live match of every challenge of
it that was accepted (EVENTS.md §14).

Decision: a live match that does not exist yet has no version to watch, so the bot
streams wait on the storage's change feed (``Storage.feed``, topic ``bots``) for two
counters of their own: the last announcement's ``seq`` (``EventStore.last_announcement``)
and the last challenge news's (``ChallengeStore.last_news``). On PostgreSQL every
transaction that adds to either notifies (``LISTEN/NOTIFY``, whichever instance made it);
on SQLite the feed's one thread per process reads both every ``NARDY_REFEREE_BOT_POLL``
seconds while a bot stream waits. When either grows, every waiting bot stream reads its
own new announcements and news. A quiet bot costs a sleeping thread, and two hundred bots
cost no query while nothing happens (PostgreSQL) or two a poll (SQLite), not two hundred.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from referee.challenges import rules
from referee.errors import ArchiveBusyError, NotReadyError
from referee.live.model import LiveMatch
from referee.live.stream import ALWAYS, OUTAGE_LOOK_SECONDS, StreamCheck
from referee.storage.model.challenges import ChallengeNews
from referee.storage.model.events import EventLive
from referee.storage.model.feed import ANNOUNCEMENTS, BOTS_TOPIC, CHALLENGE_NEWS
from referee.storage.stores import Storage

KEEPALIVE_SECONDS = 10.0


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
    storage: Storage, name: str, check: StreamCheck | None = None
) -> Iterator[dict[str, Any] | None]:
    """Every live match ``name`` is to play and has not finished: those announced already
    first, then each new one; None after ``KEEPALIVE_SECONDS`` without one. Ends as soon
    as ``check`` says the stream may not go on (a revoked token, a worker stopping).
    It reads when the feed says there may be news, and after every keep-alive. While the
    archive cannot be read (busy, its server restarting) it looks again every
    ``OUTAGE_LOOK_SECONDS``, keep-alives going on."""
    check = check or ALWAYS
    marks = [0, 0]
    sent: set[tuple[str, int]] = set()
    last_line = time.monotonic()
    while True:
        try:
            for found in _new_lines(storage, name, marks, sent):
                last_line = time.monotonic()
                yield found
            read = True
        except (ArchiveBusyError, NotReadyError):
            read = False  # wait it out: what was sent is not sent again
        while True:
            if not check.alive(storage):
                return
            left = last_line + KEEPALIVE_SECONDS - time.monotonic()
            if left <= 0:  # and read again: nothing a feed could miss waits longer
                last_line = time.monotonic()
                yield None
                break
            wait = check.wait_seconds(left)
            if not read:
                time.sleep(max(min(wait, OUTAGE_LOOK_SECONDS), 0.0))
                break
            seen = {ANNOUNCEMENTS: marks[0], CHALLENGE_NEWS: marks[1]}
            if storage.feed.wait_any(BOTS_TOPIC, seen, wait):
                break
