"""Following live matches as they change (LIVE.md §2, the stream): one poller per process
wakes every stream whose match changed."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import Any, Protocol

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
        self.watchers: dict[int, list[tuple[int, threading.Event, bool]]] = {}
        self.poller_pid: int | None = None

    def wait(self, live_id: int, version: int, timeout: float, deadline: bool = True) -> bool:
        """Whether the match left ``version`` (or, with ``deadline``, passed its deadline)
        within ``timeout``."""
        event = threading.Event()
        entry = (version, event, deadline)
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
                        late = deadline is not None and now > deadline
                        for expected, event, at_deadline in entries:
                            if version != expected or (at_deadline and late):
                                event.set()
        finally:
            storage.close()


class StreamCheck(Protocol):
    """What a stream asks between lines (``referee.http.streams.StreamGuard``)."""

    def alive(self, storage: Storage) -> bool:
        """Whether the stream may go on (its token is live, its worker serves)."""

    def wait_seconds(self, seconds: float) -> float:
        """How long it may sleep before it asks ``alive`` again."""


SUSPENDED_LOOK_SECONDS = 1.0
"""While a missed deadline is not applied (the service's clock stopped), how often a
stream looks again."""


class _Always:
    def alive(self, storage: Storage) -> bool:
        return True

    def wait_seconds(self, seconds: float) -> float:
        return seconds


def watch(
    storage: Storage, live_id: int, board: ChangeBoard, check: StreamCheck | None = None
) -> Iterator[dict[str, Any] | None]:
    """The state now and after every change; None after ``KEEPALIVE_SECONDS`` of quiet;
    ends after a finished or aborted state (LIVE.md §2), or as soon as ``check`` says the
    stream may not go on (a revoked token, a worker stopping)."""
    check = check or _Always()
    shown = None
    quiet = 0.0
    while True:
        match = current(storage, live_id)
        if match.version != shown:
            shown, quiet = match.version, 0.0
            state = state_json(match)
            yield state
            if state["status"] in LiveMatch.ENDED:
                return
        # a deadline passed but not applied (the clock is suspended): wake on changes only,
        # and look again every SUSPENDED_LOOK_SECONDS
        late = match.deadline is not None and time.time() > match.deadline
        while True:
            if not check.alive(storage):
                return
            wait = check.wait_seconds(KEEPALIVE_SECONDS - quiet)
            if late:
                wait = min(wait, SUSPENDED_LOOK_SECONDS)
            if board.wait(live_id, match.version, wait, deadline=not late):
                break
            quiet += wait
            if quiet >= KEEPALIVE_SECONDS:
                yield None
                quiet = 0.0
            if late:
                break
