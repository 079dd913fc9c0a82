"""SQLite's change feed: one thread per process and file polls the counters being waited on
(for live matches and events, the ``version`` column of those watched, in one query each;
for the bot streams, the last ``seq`` of the announcements and of the news of challenges)
and wakes the waiters of those that moved: the live matches' and events' every
``NARDY_REFEREE_LIVE_POLL`` seconds (default 0.1), the bot streams' every
``NARDY_REFEREE_BOT_POLL`` seconds (default 0.02), each only while someone waits on it.
A file has no way to tell another process that it changed, and a poll of a few rows by
their keys costs less than any waiter's own query; the thread stops when nobody waits and
starts again with the next waiter."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from referee.errors import ArchiveBusyError, NotReadyError
from referee.storage.errors import StorageError
from referee.storage.model.feed import (
    ANNOUNCEMENTS,
    BOTS_TOPIC,
    CHALLENGE_NEWS,
    EVENT_TOPIC,
    GONE,
    LIVE_TOPIC,
    Topic,
)
from referee.storage.stores import FeedWaiters, Storage

POLL_SECONDS = 0.1
BOT_POLL_SECONDS = 0.02
"""How often the bots' counters are read: a new match reaches a bot within this (two
queries of an indexed maximum a poll, whoever waits)."""

Counters = Callable[[Storage, list[int]], dict[int, int]]
"""How the poller reads a topic's counters: those of these keys that exist."""


def _live_versions(storage: Storage, keys: list[int]) -> dict[int, int]:
    return {key: found.version for key, found in storage.live.versions(keys).items()}


def _bot_news(storage: Storage, keys: list[int]) -> dict[int, int]:
    readers: dict[int, Callable[[], int]] = {
        ANNOUNCEMENTS: storage.events.last_announcement,
        CHALLENGE_NEWS: storage.challenges.last_news,
    }
    return {key: readers[key]() for key in keys if key in readers}


COUNTERS: dict[Topic, Counters] = {
    LIVE_TOPIC: _live_versions,
    EVENT_TOPIC: lambda storage, keys: storage.events.versions(keys),
    BOTS_TOPIC: _bot_news,
}
"""Each topic's reading (a new topic adds its own)."""


class SqliteFeed:
    """The change feed of one archive file in this process."""

    def __init__(self, path: Path, poll: float, bot_poll: float = BOT_POLL_SECONDS) -> None:
        self.path = path
        self.poll = poll
        self.bot_poll = bot_poll
        self.waiters = FeedWaiters()
        self.lock = threading.Lock()
        self.polling = False

    def wait(self, topic: Topic, key: int, seen: int, timeout: float) -> bool:
        return self.wait_any(topic, {key: seen}, timeout)

    def wait_any(self, topic: Topic, seen: Mapping[int, int], timeout: float) -> bool:
        with self.lock:  # the poller stops under this lock when nobody waits
            waiters = self.waiters.enter_all(topic, seen)
            if not self.polling:
                self.polling = True
                threading.Thread(target=self._poll, name="sqlite-feed", daemon=True).start()
        try:
            return waiters[0].wait(timeout)
        finally:
            self.waiters.leave_all(waiters)

    def every(self, topic: Topic) -> float:
        """How often the counters of ``topic`` are read."""
        return self.bot_poll if topic == BOTS_TOPIC else self.poll

    def _poll(self) -> None:
        from referee.storage.sqlite import open_storage  # the package opens this module

        storage: Storage | None = None
        due: dict[Topic, float] = {}  # when each topic is read next
        try:
            while True:
                watched = self.waiters.keys()
                time.sleep(min((self.every(topic) for topic in watched), default=self.poll))
                watched = self.waiters.keys()
                if not watched:
                    with self.lock:  # a waiter that comes after this starts a new poller
                        if not len(self.waiters):
                            self.polling = False
                            return
                    continue
                now = time.monotonic()
                try:
                    storage = storage or open_storage(self.path)
                    for topic, keys in watched.items():
                        if due.get(topic, now) > now:
                            continue
                        due[topic] = now + self.every(topic) * 0.9  # a sleep runs over
                        counters = COUNTERS[topic](storage, keys)
                        for key in keys:
                            self.waiters.moved(topic, key, counters.get(key, GONE))
                except (ArchiveBusyError, NotReadyError, StorageError):
                    continue  # a busy or briefly unavailable archive: look again
        except BaseException:
            with self.lock:  # the next waiter starts another
                self.polling = False
            raise
        finally:
            if storage is not None:
                storage.close()


_lock = threading.Lock()
_feeds: dict[tuple[str, int], SqliteFeed] = {}


def feed(path: Path) -> SqliteFeed:
    """This process's feed of the archive file at ``path``."""
    key = (str(path), os.getpid())
    with _lock:
        found = _feeds.get(key)
        if found is None:
            poll = float(os.environ.get("NARDY_REFEREE_LIVE_POLL", POLL_SECONDS))
            bot_poll = float(os.environ.get("NARDY_REFEREE_BOT_POLL", BOT_POLL_SECONDS))
            found = _feeds[key] = SqliteFeed(path, poll, bot_poll)
        return found
