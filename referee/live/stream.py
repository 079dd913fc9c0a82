"""Following live matches as they change (LIVE.md §2, the stream): a stream reads its
match, then waits on the storage's change feed (``ChangeFeed``: SQLite's polls, PostgreSQL's
listens to the changes every instance makes) for another version, or for its deadline."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, Protocol

from referee.errors import ArchiveBusyError, NotReadyError
from referee.live.model import LiveMatch
from referee.live.service import current, state_json
from referee.storage.model.feed import LIVE_TOPIC
from referee.storage.stores import Storage

KEEPALIVE_SECONDS = 10.0
OUTAGE_LOOK_SECONDS = 1.0
"""While the archive cannot be read (busy, its server restarting), how often a stream
tries again: the stream goes on (keepalive lines) rather than ending."""


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


ALWAYS: StreamCheck = _Always()
"""The check of a stream that nothing ends (a test's, the command line's)."""


def watch(
    storage: Storage, live_id: int, check: StreamCheck | None = None
) -> Iterator[dict[str, Any] | None]:
    """The state now and after every change; None after ``KEEPALIVE_SECONDS`` without a
    line; ends after a finished or aborted state (LIVE.md §2), or as soon as ``check`` says
    the stream may not go on (a revoked token, a worker stopping). The match is read again
    whenever the feed says it may have changed, its deadline passes, or a keepalive is
    due (so that nothing a feed could miss waits longer), and, while the archive cannot be
    read, every ``OUTAGE_LOOK_SECONDS``: the first reading's error is the caller's (a
    404), later ones are waited out."""
    check = check or ALWAYS
    shown: int | None = None
    match: LiveMatch | None = current(storage, live_id)
    last_line = time.monotonic()
    while True:
        if match is not None and match.version != shown:
            shown = match.version
            state = state_json(match)
            last_line = time.monotonic()
            yield state
            if state["status"] in LiveMatch.ENDED:
                return
        if not check.alive(storage):
            return
        wait = check.wait_seconds(last_line + KEEPALIVE_SECONDS - time.monotonic())
        if match is None:
            wait = min(wait, OUTAGE_LOOK_SECONDS)
            time.sleep(max(wait, 0.0))
        else:
            if match.deadline is not None:
                late = match.deadline - time.time()
                # past it but not applied (the clock is suspended): look again now and then
                wait = min(wait, late + 0.01 if late > 0 else SUSPENDED_LOOK_SECONDS)
            storage.feed.wait(LIVE_TOPIC, live_id, match.version, wait)
        if time.monotonic() - last_line >= KEEPALIVE_SECONDS:
            last_line = time.monotonic()
            yield None
        try:
            match = current(storage, live_id)
        except (ArchiveBusyError, NotReadyError):
            match = None  # a busy or restarting archive: wait it out
