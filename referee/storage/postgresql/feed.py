"""PostgreSQL's change feed: ``LISTEN`` on one connection per process and archive, outside
the pool, fanning out to the waiters of that process.

Every change of a live match sends ``NOTIFY nardy_referee_changes, 'live ID VERSION'`` in
its own transaction (a trigger on ``live_matches``, migration ``0004_live_notify``), and
every change of an event ``'event ID VERSION'`` (``notify``, from ``Events.save``), and every new
announcement to the bots ``'bots 0 SEQ'`` and news of a challenge ``'bots 1 SEQ'`` (the
last ``seq`` of each, ``notify_bot_news``, sent under the lock that numbers them), so a
notification arrives only once the change is committed, from whichever instance made it,
and carries no more than the topic, the key and the counter: the waiter reads the rows
itself. The listener keeps the last counter heard of each key (the most recent
``REMEMBERED`` keys), so that a change committed between a waiter's read and its ``wait``
is not missed.

A lost listening connection (the server restarted, the network broke; a quiet connection
is asked ``SELECT 1`` every ``CHECK_SECONDS``) wakes every waiter, and so does the
connection made again: between the two the feed heard nothing, so every waiter reads
again. A thread that read before the feed (re)connected is told to read again by its next
``wait`` (each thread keeps the connection's generation it last waited under).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from contextlib import suppress
from typing import cast, get_args

import psycopg
from psycopg.rows import DictRow

from referee.errors import NotReadyError
from referee.storage.model.feed import BOTS_TOPIC, Topic
from referee.storage.postgresql.database import connect
from referee.storage.sql import Transaction
from referee.storage.stores import FeedWaiters

log = logging.getLogger(__name__)

CHANNEL = "nardy_referee_changes"
APPLICATION = "nardy-referee feed"
"""The listening connection's name (pg_stat_activity.application_name)."""
REMEMBERED = 10_000
CHECK_SECONDS = 5.0
RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0)
"""How long the listener waits before each attempt to connect again (the last repeats)."""
_TOPICS = frozenset(get_args(Topic))


class PostgresFeed:
    """The change feed of one archive in this process."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.waiters = FeedWaiters()
        self.lock = threading.Lock()
        self.latest: OrderedDict[tuple[Topic, int], int] = OrderedDict()
        self.generation = 0
        """How many times the listener has connected (0: not yet); while it listens."""
        self.listening = False
        self.connected = threading.Condition(self.lock)
        self.started = False
        self.stopped = False
        self.threads = threading.local()

    def wait(self, topic: Topic, key: int, seen: int, timeout: float) -> bool:
        return self.wait_any(topic, {key: seen}, timeout)

    def wait_any(self, topic: Topic, seen: Mapping[int, int], timeout: float) -> bool:
        with self.lock:
            if not self.started:
                self.started = True
                threading.Thread(target=self._listen, name="postgresql-feed", daemon=True).start()
            if not self.listening:  # every waiter reads again once the listener is back
                self.connected.wait(timeout)
                self._saw_generation()
                return True
            if self._saw_generation():
                return True  # it may have read before this connection listened
            for key, read in seen.items():
                heard = self.latest.get((topic, key))
                if heard is not None and heard > read:
                    return True
            waiters = self.waiters.enter_all(topic, seen)
        try:
            return waiters[0].wait(timeout)
        finally:
            self.waiters.leave_all(waiters)

    def _saw_generation(self) -> bool:
        """Whether this thread last waited under another connection (self.lock held)."""
        before = getattr(self.threads, "generation", None)
        self.threads.generation = self.generation
        return before != self.generation

    def stop(self) -> None:
        """Stop listening (before the database is dropped, say): the listener ends within
        ``CHECK_SECONDS``, or as soon as its connection goes; waiters are woken."""
        with self.lock:  # the listener ends within CHECK_SECONDS
            self.stopped = True
        self.waiters.wake_all()

    def _listen(self) -> None:
        attempt = 0
        while not self.stopped:
            try:
                connection = connect(self.url, autocommit=True, application_name=APPLICATION)
            except NotReadyError as error:
                pause = RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)]
                if attempt == 0:
                    log.warning("the change feed cannot listen (retrying): %s", error.message)
                attempt += 1
                time.sleep(pause)
                continue
            try:
                connection.execute(f"LISTEN {CHANNEL}")
                with self.lock:
                    self.generation += 1
                    self.listening = True
                    self.latest.clear()
                    self.connected.notify_all()
                if attempt:
                    log.warning("the change feed listens again")
                attempt = 0
                self.waiters.wake_all()
                self._hear(connection)
            except psycopg.Error as error:
                if not self.stopped:
                    log.warning("the change feed lost its connection: %s", error)
            finally:
                with self.lock:
                    self.listening = False
                self.waiters.wake_all()
                with suppress(psycopg.Error):
                    connection.close()
                attempt = max(attempt, 1)

    def _hear(self, connection: psycopg.Connection[DictRow]) -> None:
        while not self.stopped:
            for notice in connection.notifies(timeout=CHECK_SECONDS):
                self._heard(notice.payload)
                if self.stopped:
                    return
            connection.execute("SELECT 1")  # a quiet connection: is it still there?

    def _heard(self, payload: str) -> None:
        try:
            topic, key, counter = payload.split(" ")
            parsed = (int(key), int(counter))
        except ValueError:
            return  # not one of ours
        if topic not in _TOPICS:
            return
        named = cast(Topic, topic)
        with self.lock:
            self.latest[(named, parsed[0])] = parsed[1]
            self.latest.move_to_end((named, parsed[0]))
            while len(self.latest) > REMEMBERED:
                self.latest.popitem(last=False)
        self.waiters.moved(named, parsed[0], parsed[1])


def notify(tx: Transaction, topic: Topic, key: int, counter: int) -> None:
    """Tell every listener, when ``tx`` commits, that ``key``'s counter is ``counter``."""
    tx.execute("SELECT pg_notify(?, ?)", [CHANNEL, f"{topic} {key} {counter}"])


def notify_bot_news(tx: Transaction, key: int, table: str) -> None:
    """Tell the bot streams of news (``key``: ``ANNOUNCEMENTS`` or ``CHALLENGE_NEWS``) in
    the transaction that added it to ``table``, under the advisory lock that numbers its
    rows: the ``seq`` each notification carries only grows."""
    tx.execute(
        f"SELECT pg_notify(?, ? || (SELECT coalesce(max(seq), 0) FROM {table}))",
        [CHANNEL, f"{BOTS_TOPIC} {key} "],
    )


_lock = threading.Lock()
_feeds: dict[str, PostgresFeed] = {}
_owner = os.getpid()
_inherited: list[PostgresFeed] = []
"""Feeds a parent made before forking: their connections are the parent's, never closed
here (the child's threads are gone; it listens on its own)."""


def _forget_inherited() -> None:
    global _owner
    _inherited.extend(_feeds.values())
    _feeds.clear()
    _owner = os.getpid()


os.register_at_fork(after_in_child=_forget_inherited)


def feed(url: str) -> PostgresFeed:
    """This process's feed of the archive at ``url``; it listens from the first wait."""
    with _lock:
        if os.getpid() != _owner:
            _forget_inherited()
        found = _feeds.get(url)
        if found is None:
            found = _feeds[url] = PostgresFeed(url)
        return found


def stop_feeds(url: str | None = None) -> None:
    """Stop this process's feed of ``url`` (every feed when None)."""
    with _lock:
        urls = list(_feeds) if url is None else [url] if url in _feeds else []
        stopping = [_feeds.pop(each) for each in urls]
    for each in stopping:
        each.stop()
