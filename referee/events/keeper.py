"""The keeper: one thread per serving process that settles the running events whose live
matches changed (EVENTS.md §5: the next round is paired as soon as the current one has
every result), so that results arrive whether or not anyone reads the event, whichever
worker sees them first, and carry on after a restart. Settling is idempotent and every
change checks the event's version, so the keepers of several workers may race freely."""

from __future__ import annotations

import logging
import os
import threading
import weakref

from referee.errors import NotReadyError, StorageUnavailableError
from referee.events import service
from referee.storage import Location, open_storage
from referee.storage.errors import StorageError
from referee.storage.stores import Storage

POLL_SECONDS = 0.25
IDLE_POLLS = 40
"""Looks without a running event before the thread stops (the next request starts it)."""
log = logging.getLogger("nardy_referee.events")
_made: weakref.WeakSet[Keeper] = weakref.WeakSet()


class Keeper:
    """Looks at the running events every ``poll`` seconds. Its thread is started in the
    process that serves (after gunicorn's fork) by the requests about events and the bot
    streams, and by any request while ``wanted`` (running events when the app was made:
    after a restart); it stops after ``IDLE_POLLS`` looks without a running event, or when
    the archive is not there, so a process without events holds no connection for it."""

    def __init__(self, location: Location, poll: float = POLL_SECONDS) -> None:
        self.location = location
        self.poll = poll
        self.lock = threading.Lock()
        self.pid: int | None = None
        self.thread: threading.Thread | None = None
        self.wanted = False
        self.stopping = threading.Event()
        self.waiting: dict[int, int] = {}
        """Live matches known to wait for their bots (live id: version), not looked at
        again until they change."""

    def ensure_started(self) -> None:
        """Start the thread in this process unless it runs (cheap: every request asks)."""
        if self.poll <= 0 or (self.pid == os.getpid() and self.alive):
            return
        with self.lock:
            if self.pid != os.getpid() or not self.alive:
                self.pid = os.getpid()
                self.stopping.clear()
                self.thread = threading.Thread(target=self._run, name="event-keeper", daemon=True)
                self.thread.start()
                _made.add(self)

    def stop(self) -> None:
        """End the thread after its current look (the next request may start it again)."""
        self.stopping.set()
        if self.alive and self.thread is not threading.current_thread():
            assert self.thread is not None
            self.thread.join()

    def wake(self) -> None:
        """Before any request: start the thread while it is wanted."""
        if self.wanted:
            self.ensure_started()

    @property
    def alive(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def _run(self) -> None:
        try:
            storage = open_storage(self.location)
        except (NotReadyError, StorageError):
            return  # no archive here: nothing to keep
        idle, failed = 0, False
        try:
            while idle < IDLE_POLLS and not self.stopping.wait(self.poll):
                try:
                    idle, failed = (0 if self.look(storage) else idle + 1), False
                except NotReadyError:
                    return  # the archive went away
                except StorageUnavailableError as error:  # a full disk, a failover, a closed pool
                    log.warning("settling the running events waits: %s", error)
                    idle, failed = idle + 1, True
                    storage.close()
                    try:
                        storage = open_storage(self.location)  # a new connection or pool
                    except (NotReadyError, StorageError):
                        self.wanted = True  # the next request starts a keeper again
                        return
                except Exception:  # a busy archive, a bug: log it and look again later
                    log.exception("settling the running events failed")
                    idle, failed = idle + 1, True  # an archive dropped under us: stop
            # Still wanted after failures: the next request starts a keeper again.
            self.wanted = failed
        finally:
            storage.close()

    def look(self, storage: Storage) -> bool:
        """Settle every running event that has something to settle; whether one runs. The
        matches without a deadline are noted before settling, as they were when it read
        them: one that ends meanwhile has a new version, so the next look settles again."""
        if len(self.waiting) > 100_000:
            self.waiting.clear()  # only a cache
        running = storage.events.running()
        for event_id in running:
            if service.due(storage, event_id, self.waiting):
                waiting = service.waiting_matches(storage, event_id)
                service.settle(storage, event_id)
                self.waiting.update(waiting)
        return bool(running)


def stop_keepers() -> None:
    """Stop every keeper thread of this process: before its archive is closed or dropped
    (the end of a test), so that none looks at an archive that is gone."""
    for keeper in list(_made):
        keeper.stop()
