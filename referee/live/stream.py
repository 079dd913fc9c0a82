"""Following live matches as they change (LIVE.md §2, the stream): one poller per process
wakes every stream whose match changed."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import Any

from referee.errors import ArchiveBusyError, NotReadyError
from referee.live.model import LiveMatch
from referee.live.service import current, state_json
from referee.storage import Location, open_storage
from referee.storage.errors import StorageError
from referee.storage.model import LiveVersion
from referee.storage.stores import Storage

STREAM_POLL_SECONDS = 0.1
KEEPALIVE_SECONDS = 10.0
GONE = LiveVersion(-1, None)
"""What the poller sees of a match that is not there: a version no match has."""


class ChangeBoard:
    """Wakes the streams of one process when their match changes: a single thread polls
    the versions and deadlines of the matches being watched (two columns each), so an
    idle stream costs a sleeping thread, not a query per poll."""

    def __init__(self, location: Location, poll: float = STREAM_POLL_SECONDS) -> None:
        self.location = location
        self.poll = poll
        self.lock = threading.Lock()
        self.watchers: dict[int, list[tuple[int, threading.Event]]] = {}
        self.poller_pid: int | None = None

    def wait(self, live_id: int, version: int, timeout: float) -> bool:
        """Whether the match left ``version`` (or passed its deadline) within ``timeout``."""
        event = threading.Event()
        entry = (version, event)
        with self.lock:
            if self.poller_pid != os.getpid():  # started lazily, in the serving process
                self.poller_pid = os.getpid()
                threading.Thread(target=self._poll, daemon=True).start()
            self.watchers.setdefault(live_id, []).append(entry)
        try:
            return event.wait(timeout)
        finally:
            with self.lock:
                self.watchers[live_id].remove(entry)
                if not self.watchers[live_id]:
                    del self.watchers[live_id]

    def _poll(self) -> None:
        storage = open_storage(self.location)
        try:
            while True:
                time.sleep(self.poll)
                with self.lock:
                    watched = list(self.watchers)
                if not watched:
                    continue
                try:
                    seen = storage.live.versions(watched)
                except (ArchiveBusyError, NotReadyError, StorageError):
                    continue  # a busy or briefly unavailable archive: look again
                now = time.time()
                with self.lock:
                    for live_id, entries in self.watchers.items():
                        found = seen.get(live_id, GONE)
                        version, deadline = found.version, found.deadline
                        for expected, event in entries:
                            if version != expected or (deadline is not None and now > deadline):
                                event.set()
        finally:
            storage.close()


def watch(storage: Storage, live_id: int, board: ChangeBoard) -> Iterator[dict[str, Any] | None]:
    """The state now and after every change; None after ``KEEPALIVE_SECONDS`` of quiet;
    ends after a finished or aborted state (LIVE.md §2)."""
    while True:
        match = current(storage, live_id)
        state = state_json(match)
        yield state
        if state["status"] in LiveMatch.ENDED:
            return
        while not board.wait(live_id, match.version, KEEPALIVE_SECONDS):
            yield None
