"""What this process last learned of a PostgreSQL archive's bad days (issue 33), per
location: the last request that could not be stored (a full disk, a read-only database, a
server out of connections or failing over), remembered for ``/readyz`` and for the live
clock (no deadline runs while an action cannot be stored) until a write succeeds or for
``MEMORY_SECONDS``; and whether a read-only refusal was met since the last write that
succeeded. PostgreSQL fixes ``default_transaction_read_only`` when a session starts, so
the pool's connections made while the database was read-only stay read-only after it is
switched back: until a write succeeds, writes take a connection of their own, and the
first that succeeds drains the pool (``Database.writing``). Those connections of their own
are bounded: at most the pool's size at once (``own_slots``), so that a read-only database
under a busy process does not use up the server's connections.

Only the lasting bad days keep ``/readyz`` at 503: a full disk (``lasting``) while
remembered, and a read-only database or a standby, checked by ``Database.ready``; a lost
connection or a server out of connections passes, and takes no instance out of the
balancer (the live clock still stops for it: ``why``)."""

from __future__ import annotations

import threading
import time

LASTING = {"full"}
"""The remembered bad days /readyz answers 503 for (the others pass, or are checked)."""
MEMORY_SECONDS = 10.0
"""How long a refused write is remembered without another (another process, another
instance may have written since)."""


class Health:
    """One archive's bad day as this process knows it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.last: tuple[str, float] | None = None
        self.lasting_last: tuple[str, float] | None = None
        self.read_only = False
        self.slots: threading.BoundedSemaphore | None = None

    @property
    def why(self) -> str | None:
        """Why the archive could not take the last write, while remembered."""
        last = self.last
        if last is None or time.monotonic() - last[1] > MEMORY_SECONDS:
            return None
        return last[0]

    @property
    def lasting(self) -> str | None:
        """Why the archive could not take a write, when it is a lasting reason (a full
        disk), while remembered."""
        last = self.lasting_last
        if last is None or time.monotonic() - last[1] > MEMORY_SECONDS:
            return None
        return last[0]

    def failed(self, why: str, kind: str) -> None:
        with self.lock:
            self.last = (why, time.monotonic())
            if kind in LASTING:
                self.lasting_last = self.last
            self.read_only = self.read_only or kind == "read_only"

    def own_slots(self, size: int) -> threading.BoundedSemaphore:
        """The slots of the connections of their own (at most ``size`` at once)."""
        with self.lock:
            if self.slots is None:
                self.slots = threading.BoundedSemaphore(size)
            return self.slots

    def suspect(self) -> None:
        """A pooled session was born read-only: writes take their own until one succeeds."""
        with self.lock:
            self.read_only = True

    def wrote(self) -> bool:
        """A write succeeded: the bad day is over; whether it was a read-only one (then
        the pool's connections are to be made anew)."""
        with self.lock:
            was_read_only, self.read_only = self.read_only, False
            self.last = self.lasting_last = None
        return was_read_only


_lock = threading.Lock()
_health: dict[str, Health] = {}


def health(url: str) -> Health:
    """This process's knowledge of the archive at ``url``."""
    with _lock:
        return _health.setdefault(url, Health())
