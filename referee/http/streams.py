"""Streamed answers (NDJSON) and what bounds them, for every stream endpoint.

An open stream holds a worker thread (gthread) for as long as it is open, so streams are
admitted under hard limits, all counted across the server's workers
(``referee.http.shared``) except the first:

* per worker: at most ``per_worker`` streams (its threads less a reserve that is always
  kept for ordinary requests), of which at most ``anonymous`` without a token, so token
  holders (the bots of a match, its host) always find room;
* per subject (a live match, a bot's event feed): ``per_subject``;
* per client address (``per_client``) and per network prefix (``per_prefix``, an IPv4 /24
  or IPv6 /64) for callers without a token, per token (``per_token``) for the others.

A full worker is 503 ``streams_full``, a client or subject at its limit 429
``too_many_streams``, both problem+json with ``Retry-After``. An admitted stream:

* sends its head at once (an empty first chunk), so a reader learns it was admitted before
  the first line, which may be a keep-alive seconds later;
* drops a reader that does not read: before each line the socket must take it within
  ``write_seconds`` (then the connection is shut, the stream ends), and the socket's own
  timeout is the same, for a line that fills the buffer;
* ends when its token is revoked (``StreamGuard.alive``, which a stream asks between lines
  and at least every ``recheck_seconds``), or when the worker stops serving (its master
  died, it is shutting down): a graceful restart never waits on streams.

How an endpoint uses it (``referee/api/live.py``'s stream, ``referee/api/bot.py``'s alike)::

    guard = admit_stream(f"live/{live_id}", holder)  # 429/503 before any work
    def lines(guard: StreamGuard) -> Iterator[str]:
        storage = open_storage(location)
        try:
            while guard.alive(storage):   # False: revoked token, worker stopping
                ...
                yield line                # the guard drops a reader that does not read
        finally:
            storage.close()
    return guard.response(lines)
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from flask import Flask, Response, current_app, request, stream_with_context

from referee.errors import StreamsFullError, TooManyStreamsError
from referee.http.auth import bearer_token
from referee.http.limits import network_prefix
from referee.http.shared import SharedCounters, key_hash
from referee.storage.model.tokens import Token
from referee.storage.stores import Storage

NDJSON = "application/x-ndjson"
log = logging.getLogger(__name__)


def proxy_buffering(response: Response) -> Response:
    """Streams (NDJSON) pass a proxy unbuffered; every other answer may be buffered by it,
    so a slow reader holds the proxy's memory, not a worker thread (docs/operations.md)."""
    if response.mimetype == NDJSON:
        response.headers["X-Accel-Buffering"] = "no"
    return response


@dataclass(frozen=True, slots=True)
class StreamLimits:
    """How many streams may be open at once, and how long a line may wait for its reader."""

    per_worker: int = 96
    anonymous: int = 72
    per_subject: int = 32
    per_client: int = 8
    per_prefix: int = 32
    per_token: int = 16
    write_seconds: float = 10.0
    recheck_seconds: float = 2.0

    @classmethod
    def for_threads(cls, threads: int, per_worker: int | None = None) -> StreamLimits:
        """The limits of a worker with ``threads`` threads: a quarter of them (at least
        8) kept for ordinary requests, three quarters of the streams for anonymous ones."""
        room = max(threads - max(8, threads // 4), 1)
        streams = room if per_worker is None else max(min(per_worker, room), 1)
        return cls(per_worker=streams, anonymous=max(streams * 3 // 4, 1))

    @classmethod
    def from_environment(cls, threads: int) -> StreamLimits:
        """``NARDY_REFEREE_STREAMS``: streams per worker (at most its threads less the
        reserve); ``NARDY_REFEREE_STREAM_LIMITS``: ``name=value,...`` over the rest."""
        wanted = os.environ.get("NARDY_REFEREE_STREAMS")
        limits = cls.for_threads(threads, int(wanted) if wanted else None)
        overrides: dict[str, Any] = {}
        text = os.environ.get("NARDY_REFEREE_STREAM_LIMITS", "")
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, _, value = item.partition("=")
            if name not in cls.__dataclass_fields__ or name == "per_worker":
                raise ValueError(f"unknown stream limit {name!r}")
            overrides[name] = float(value) if name.endswith("seconds") else int(value)
        return replace(limits, **overrides)


def size_streams(app: Flask, threads: int) -> None:
    """Size a worker's stream limits by its thread count (gunicorn's, at worker start)."""
    app.config["STREAM_LIMITS"] = StreamLimits.from_environment(threads)


def streams_config() -> dict[str, Any]:
    """The app config of the stream limits, before a worker sizes them by its threads."""
    threads = int(os.environ.get("NARDY_REFEREE_THREADS", "128"))
    return {"STREAM_LIMITS": StreamLimits.from_environment(threads)}


class WorkerStreams:
    """The streams this process holds open (the per-worker limits)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0
        self.anonymous = 0
        self.pid = os.getpid()

    def take(self, limits: StreamLimits, anonymous: bool) -> bool:
        with self.lock:
            if self.pid != os.getpid():  # counts made before a fork are not this worker's
                self.pid, self.open, self.anonymous = os.getpid(), 0, 0
            if self.open >= limits.per_worker or (anonymous and self.anonymous >= limits.anonymous):
                return False
            self.open += 1
            self.anonymous += anonymous
            return True

    def give(self, anonymous: bool) -> None:
        with self.lock:
            self.open -= 1
            self.anonymous -= anonymous


def init_streams(app: Flask, counters: SharedCounters) -> None:
    app.extensions["streams"] = WorkerStreams()
    app.extensions["stream_counters"] = counters


class StreamGuard:
    """One admitted stream: its counts (given back when it ends), its token (checked again
    while it runs) and its socket (a reader that does not read is dropped)."""

    def __init__(
        self,
        app: Flask,
        limits: StreamLimits,
        keys: list[int],
        holder: Token | None,
        secret: str | None,
    ) -> None:
        self.app = app
        self.limits = limits
        self.keys = keys
        self.holder = holder
        self.secret = secret
        self.checked = time.monotonic()
        self.socket: socket.socket | None = request.environ.get("gunicorn.socket")
        self.released = False
        self.dropped = False

    def alive(self, storage: Storage) -> bool:
        """Whether the stream may go on: the worker serves, the reader reads, and its token
        (when it has one) is still live, looked up again after ``recheck_seconds``."""
        serving: Callable[[], bool] | None = self.app.extensions.get("serving")
        if self.dropped or (serving is not None and not serving()):
            return False
        now = time.monotonic()
        if self.secret is not None and now - self.checked >= self.limits.recheck_seconds:
            self.checked = now
            if storage.tokens.holder(self.secret) is None:
                return False
        return True

    def wait_seconds(self, seconds: float) -> float:
        """How long the stream may sleep before it asks ``alive`` again."""
        return min(seconds, self.limits.recheck_seconds) if self.secret else seconds

    def writable(self) -> bool:
        """Whether the reader takes the next line within ``write_seconds``; if not the
        connection is shut (the stream ends, its thread is free)."""
        sock = self.socket
        if sock is None or self.dropped:
            return not self.dropped
        try:  # poll, not select: a worker's descriptors go past select's 1,024
            poller = select.poll()
            poller.register(sock.fileno(), select.POLLOUT)
            ready = any(
                events & select.POLLOUT
                for _, events in poller.poll(int(self.limits.write_seconds * 1000))
            )
        except (OSError, ValueError):
            ready = False
        if ready:
            return True
        self.dropped = True
        log.info("a stream's reader took nothing for %g s: dropped", self.limits.write_seconds)
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        return False

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        workers: WorkerStreams = self.app.extensions["streams"]
        workers.give(self.holder is None)
        counters: SharedCounters = self.app.extensions["stream_counters"]
        counters.close(self.keys)

    def response(self, lines: Callable[[StreamGuard], Iterator[str]]) -> Response:
        """The NDJSON answer of ``lines(guard)``: each line is sent only to a reader that
        takes it; the stream's counts are given back however it ends."""
        if self.socket is not None:
            try:
                self.socket.settimeout(self.limits.write_seconds)
                self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 * 1024)
            except OSError:
                pass

        def guarded() -> Iterator[str]:
            try:
                yield ""  # the head goes at once: the reader knows it is admitted
                for line in lines(self):
                    if not self.writable():
                        return
                    yield line
            finally:
                self.release()

        response = Response(stream_with_context(guarded()), mimetype=NDJSON)
        response.call_on_close(self.release)
        return response


def admit_stream(subject: str, holder: Token | None) -> StreamGuard:
    """Admit a stream on ``subject`` (say ``live/7``) for ``holder`` (the request's live
    token, None for an anonymous caller) under the app's ``STREAM_LIMITS``: 503
    ``streams_full`` when this worker holds as many as it may, 429 ``too_many_streams``
    when the subject, the client's address or network, or the token does."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    limits: StreamLimits = app.config["STREAM_LIMITS"]
    anonymous = holder is None
    workers: WorkerStreams = app.extensions["streams"]
    if not workers.take(limits, anonymous):
        raise StreamsFullError(
            "this server holds as many streams open as it may; try again later"
            + (" (or with a token)" if anonymous else "")
        )
    address = request.remote_addr or ""
    named: list[tuple[str, int, int]] = [
        ("this stream's subject", key_hash("stream", subject), limits.per_subject)
    ]
    if anonymous:
        named.append(("this address", key_hash("stream-client", address), limits.per_client))
        prefix = network_prefix(address)
        if prefix != address:
            named.append(("this network", key_hash("stream-net", prefix), limits.per_prefix))
    else:
        assert holder is not None
        named.append(("this token", key_hash("stream-token", str(holder.id)), limits.per_token))
    counters: SharedCounters = app.extensions["stream_counters"]
    full = counters.open([(key, limit) for _, key, limit in named])
    if full is not None:
        workers.give(anonymous)
        what, _, limit = named[full]
        raise TooManyStreamsError(
            f"{what} has {limit} streams open, as many as it may; close one or try again later",
            limit=limit,
        )
    secret = None if anonymous else bearer_token()
    return StreamGuard(app, limits, [key for _, key, _ in named], holder, secret)
