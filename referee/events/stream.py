"""The bot stream (EVENTS.md §2, ``GET /v1/bot/stream``): a line for every live match a
bot is to play, those already waiting first, then each as soon as it exists.

Decision: a live match that does not exist yet has no version for the live matches'
change board to watch, so announcements get a board of their own with the same design:
one thread per process reads one number, the last announcement's ``seq``
(``EventStore.last_announcement``), every ``poll`` seconds, and wakes every bot stream
when it grows; each stream then reads its own new announcements. A quiet bot costs a
sleeping thread, and two hundred bots cost one query a poll, not two hundred.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import Any

from referee.live.model import LiveMatch
from referee.live.stream import ALWAYS, StreamCheck
from referee.storage import Location, open_storage
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
                    latest = storage.events.last_announcement()
                except Exception:  # a busy or briefly unavailable archive: look again
                    continue
                if latest != self.latest:
                    with self.condition:
                        self.latest = latest
                        self.condition.notify_all()
        finally:
            storage.close()


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
    }


def matches_for(
    storage: Storage, name: str, board: AnnouncementBoard, check: StreamCheck | None = None
) -> Iterator[dict[str, Any] | None]:
    """Every live match ``name`` is to play and has not finished: those announced already
    first, then each new one; None after ``KEEPALIVE_SECONDS`` without one. Ends as soon
    as ``check`` says the stream may not go on (a revoked token, a worker stopping)."""
    check = check or ALWAYS
    mark = 0
    sent: set[int] = set()
    while True:
        latest = storage.events.last_announcement()
        for entry in storage.events.announced(name, mark):
            if entry.live_id in sent:
                continue
            stored = storage.live.get(entry.live_id)
            if stored is None or stored.progress.status in LiveMatch.ENDED:
                continue
            sent.add(entry.live_id)
            yield line(entry, name)
        mark = max(mark, latest)
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
