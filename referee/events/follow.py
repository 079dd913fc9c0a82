"""Following an event (EVENTS.md §9, ``GET /v1/events/{id}/stream``): the event now, then
again after every change of it, until it has finished.

An event changes only when it is saved (its version goes up: a pairing made or decided,
a round paired, a correction, the end), whoever saves it: the keeper of any process takes
the results of finished live matches (``referee.events.keeper``), a host's request does
the rest. So a stream waits on the storage's change feed for the event's version, as the
live streams wait for a match's, and reads the event again itself when it moved.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from referee.errors import ArchiveBusyError, NotReadyError
from referee.events import service, views
from referee.events.state import EventStatus
from referee.live.stream import KEEPALIVE_SECONDS, OUTAGE_LOOK_SECONDS, StreamCheck
from referee.storage.model.events import StoredEvent
from referee.storage.model.feed import EVENT_TOPIC
from referee.storage.stores import Storage


def follow(storage: Storage, event_id: int, check: StreamCheck) -> Iterator[dict[str, Any] | None]:
    """The event (its JSON, EVENTS.md §4) now and after every change; None after
    ``KEEPALIVE_SECONDS`` without one; ends after the finished event, or as soon as
    ``check`` says the stream may not go on. The first reading's error is the caller's
    (a 404); while the archive cannot be read later, the stream waits it out."""
    shown: int | None = None
    found: StoredEvent | None = service.load(storage, event_id)
    last_line = time.monotonic()
    while True:
        if found is not None and found.version != shown:
            shown = found.version
            last_line = time.monotonic()
            yield views.event_json(storage, found)
            if found.status == EventStatus.FINISHED:
                return
        if not check.alive(storage):
            return
        wait = check.wait_seconds(last_line + KEEPALIVE_SECONDS - time.monotonic())
        if found is None or shown is None:
            time.sleep(max(min(wait, OUTAGE_LOOK_SECONDS), 0.0))
        else:
            storage.feed.wait(EVENT_TOPIC, event_id, shown, max(wait, 0.0))
        if time.monotonic() - last_line >= KEEPALIVE_SECONDS:
            last_line = time.monotonic()
            yield None
        try:
            found = service.load(storage, event_id)
        except (ArchiveBusyError, NotReadyError):
            found = None  # a busy or restarting archive: wait it out
