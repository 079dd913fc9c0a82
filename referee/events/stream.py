"""The bot stream (EVENTS.md §2, ``GET /v1/bot/stream``): a line for every live match a
bot is to play, those already waiting first, then each as soon as it exists; and a line
for every challenge to it while it is open, and for the live match of every challenge of
it that was accepted (EVENTS.md §14).

Decision: a live match that does not exist yet has no version to watch, so a stream joins
its process's hub (``hub.py``), which waits on the storage's change feed (topic ``bots``)
for all the bot streams of the process at once and hands each its new lines; the stream
itself reads only what was waiting when it opened (``waiting``). A quiet bot costs a
sleeping thread, and two hundred bots cost no query while nothing happens (PostgreSQL) or
two a poll (SQLite: ``NARDY_REFEREE_BOT_POLL``), and one thread's reading when something
does, not two hundred.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from referee.errors import ArchiveBusyError, NotReadyError
from referee.events.bot_lines import Line, LineKey, LiveEnded, Marks, Owed, key_of, lines_of
from referee.events.hub import BotHub, Subscription
from referee.live.stream import ALWAYS, OUTAGE_LOOK_SECONDS, StreamCheck
from referee.storage.stores import Storage

KEEPALIVE_SECONDS = 10.0


def waiting(storage: Storage, name: str) -> list[Line]:
    """The lines of what waited for ``name`` when its stream opened."""
    owed = Owed.read(storage, name, Marks(), Marks.latest(storage))
    ended = LiveEnded(storage)
    ended.look_up(owed.live_ids())
    return list(lines_of(storage, name, owed, ended))


def matches_for(
    hub: BotHub, storage: Storage, name: str, check: StreamCheck | None = None
) -> Iterator[Line | None]:
    """Every live match ``name`` is to play and has not finished: those announced already
    first, then each new one as ``hub`` hands it; None after ``KEEPALIVE_SECONDS`` without
    one. Ends as soon as ``check`` says the stream may not go on (a revoked token, a
    worker stopping). While the archive cannot be read (busy, its server restarting) at
    the start, it looks again every ``OUTAGE_LOOK_SECONDS``, keep-alives going on."""
    check = check or ALWAYS
    sent: set[LineKey] = set()
    joined: Subscription | None = None
    caught_up = False  # what waited when the stream opened has been read
    last_line = time.monotonic()
    try:
        while True:
            lines: list[Line] = []
            try:
                joined = joined or hub.join(storage, name)
                if not caught_up:
                    lines = waiting(storage, name)
                    caught_up = True
                lines += joined.take()
            except (ArchiveBusyError, NotReadyError):
                pass  # wait it out: the stream goes on
            for found in lines:
                if key_of(found) not in sent:
                    sent.add(key_of(found))
                    last_line = time.monotonic()
                    yield found
            while True:
                if not check.alive(storage):
                    return
                left = last_line + KEEPALIVE_SECONDS - time.monotonic()
                if left <= 0:
                    last_line = time.monotonic()
                    yield None
                    break
                wait = check.wait_seconds(left)
                if joined is None or not caught_up:
                    time.sleep(max(min(wait, OUTAGE_LOOK_SECONDS), 0.0))
                    break
                if joined.wait(wait):
                    break
    finally:
        if joined is not None:
            hub.leave(joined)
