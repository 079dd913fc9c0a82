"""The bot streams' hub: one per process and archive, it waits on the change feed
(``Storage.feed``, topic ``bots``) for every bot stream the process holds open, reads what
each change brought once, and hands every stream its own lines in memory.

Decision: one transaction (a round paired, a challenge answered) concerns many bots at
once. When every bot stream waited on the feed and read its own news, such a change woke
two hundred threads at once, each making four or five queries (one loading a whole live
state to see whether its match ended): the last line went out 250 ms after the change on a
small server. Here one thread reads what a change brought for every name at once (a
query per kind of news that moved: the announcements, the news of challenges, whatever
the number of streams), hands it out by name with a stream open, the live matches it
names looked up at once in one query (``bot_lines.LiveEnded``), and a stream's thread
wakes only when it has a line to send. A quiet hub waits on the feed and reads nothing;
it reads anyway every ``KEEPALIVE_SECONDS`` (nothing a feed could miss waits longer), and
stops within ``LOOK_SECONDS`` of its last stream leaving.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque

from referee.errors import ArchiveBusyError, NotReadyError
from referee.events.bot_lines import Line, LiveEnded, Marks, Owed, lines_of
from referee.live.stream import KEEPALIVE_SECONDS, OUTAGE_LOOK_SECONDS
from referee.storage import Location, open_storage
from referee.storage.errors import StorageError
from referee.storage.model.feed import BOTS_TOPIC
from referee.storage.stores import Storage

LOOK_SECONDS = 1.0
"""How long the hub waits on the feed at most before it looks whether a stream is left."""
log = logging.getLogger(__name__)


class Subscription:
    """One bot stream's place at the hub: the lines handed to it, not taken yet."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lock = threading.Lock()
        self.lines: deque[Line] = deque()
        self.ready = threading.Event()

    def hand(self, lines: list[Line]) -> None:
        with self.lock:
            self.lines.extend(lines)
            self.ready.set()

    def take(self) -> list[Line]:
        """The lines handed so far, in order (then none until more are handed)."""
        with self.lock:
            taken = list(self.lines)
            self.lines.clear()
            self.ready.clear()
        return taken

    def wait(self, timeout: float) -> bool:
        """Whether lines were handed within ``timeout`` seconds."""
        return self.ready.wait(max(timeout, 0.0))


class BotHub:
    """The bot streams of one archive in this process (``hub``), and the thread that
    reads for them while any is open."""

    def __init__(self, location: Location) -> None:
        self.location = location
        self.lock = threading.Lock()
        self.streams: dict[str, list[Subscription]] = {}
        self.marks = Marks()
        self.running = False

    def join(self, storage: Storage, name: str) -> Subscription:
        """A stream of ``name`` joins: from now on it is handed every line owed to ``name``
        for what is announced after this call, and reads what came before itself (after
        this call, so that nothing falls between)."""
        latest = Marks.latest(storage)
        joined = Subscription(name)
        with self.lock:
            self.streams.setdefault(name, []).append(joined)
            if not self.running:
                self.marks, self.running = latest, True
                threading.Thread(target=self._run, name="bot-hub", daemon=True).start()
        return joined

    def leave(self, joined: Subscription) -> None:
        with self.lock:
            others = self.streams.get(joined.name, [])
            if joined in others:
                others.remove(joined)
            if not others:
                self.streams.pop(joined.name, None)

    def _run(self) -> None:
        next_read = time.monotonic() + KEEPALIVE_SECONDS
        failing = False  # said once an outage begins, not every look
        while (marks := self._wanted()) is not None:
            try:
                storage = open_storage(self.location)
            except (NotReadyError, StorageError) as error:  # its server restarts: look again
                if not failing:
                    log.warning("the bot streams' hub cannot open the archive: %s", error)
                failing = True
                time.sleep(OUTAGE_LOOK_SECONDS)
                continue
            try:
                wait = min(LOOK_SECONDS, next_read - time.monotonic())
                if storage.feed.wait_any(BOTS_TOPIC, marks.seen(), wait) or wait <= 0:
                    self.read(storage)
                    next_read = time.monotonic() + KEEPALIVE_SECONDS
                failing = False
            except (ArchiveBusyError, NotReadyError):
                time.sleep(OUTAGE_LOOK_SECONDS)  # wait it out: the marks stay where they were
            except Exception:  # a bug must not end every stream's news: log, look again
                log.exception("the bot streams' hub failed to read")
                time.sleep(OUTAGE_LOOK_SECONDS)
            finally:
                storage.close()

    def _wanted(self) -> Marks | None:
        """The marks to wait from while a stream is open; None (the thread ends) when none
        is: a stream that joins afterwards starts another thread."""
        with self.lock:
            if not self.streams:
                self.running = False
                return None
            return self.marks

    def read(self, storage: Storage) -> None:
        """Hand every stream the lines owed to its name since the hub's marks, then move
        the marks on. The names are taken after the counters are read: a stream that
        joins later reads up to them itself."""
        latest = Marks.latest(storage)
        with self.lock:
            names = list(self.streams)
            after = self.marks
        owed = Owed.by_name(storage, names, after, latest)
        ended = LiveEnded(storage)
        ended.look_up({live_id for each in owed.values() for live_id in each.live_ids()})
        news = {name: list(lines_of(storage, name, owed[name], ended)) for name in names}
        with self.lock:
            self.marks = after.upto(latest)
            handed = [(each, news[name]) for name in names for each in self.streams.get(name, [])]
        for each, lines in handed:
            if lines:
                each.hand(lines)


_lock = threading.Lock()
_hubs: dict[tuple[str, int], BotHub] = {}


def hub(location: Location) -> BotHub:
    """This process's hub of the bot streams of the archive at ``location``."""
    key = (str(location), os.getpid())
    with _lock:
        found = _hubs.get(key)
        if found is None:
            found = _hubs[key] = BotHub(location)
        return found
