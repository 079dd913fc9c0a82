"""What a gunicorn worker does as it starts (``gunicorn.conf.py``'s hooks): it dies with
its master, says whether it serves, beats the live service's clock, and sizes its stream
limits by its threads.

* **Dies with its master** (``post_fork``): the kernel kills the worker when its master
  dies (``PR_SET_PDEATHSIG``, Linux), so a master killed with ``kill -9`` leaves no orphan
  holding the port or a stream: a supervisor's new master binds at once (and
  ``reuse_port`` lets it even while an orphan lingers elsewhere).
* **Serves** while its master lives and it is not stopping: ``referee.live.service.CLOCK``
  asks before it applies a deadline, and streams end when it stops
  (``referee.http.streams``).
* **Makes analyses** in ``NARDY_REFEREE_ANALYSIS_WORKERS`` threads of its own (default
  none), each one gnubg at a time (``referee.archive.analysis_worker``).
* **Beats the clock** once a second from a thread of its own, so deadlines run while any
  worker serves and are suspended (then refreshed) when none does; the same thread lapses
  the challenges past their time (EVENTS.md §14). Served otherwise (the
  Flask test client, another WSGI server) the app starts the same thread in the process
  before its first request (``ensure_clock``).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import threading
import weakref
from collections.abc import Callable
from typing import Any

from flask import Flask

from referee.archive import analysis_worker
from referee.challenges import service as challenges
from referee.errors import NotReadyError, RefereeError
from referee.live import service as live
from referee.storage import open_storage
from referee.storage.errors import StorageError
from referee.storage.stores import Storage

log = logging.getLogger(__name__)
PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when its parent dies (Linux; elsewhere nothing);
    exit at once if the parent is already gone."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


class Serving:
    """Whether this worker serves: its master (``parent``) lives and it is not stopping
    (gunicorn's ``worker.alive``)."""

    def __init__(self, parent: int, worker: Any) -> None:
        self.parent = parent
        self.worker = worker

    def __call__(self) -> bool:
        return os.getppid() == self.parent and bool(getattr(self.worker, "alive", True))


def worker_started(worker: Any) -> None:
    """``post_worker_init``: this worker serves while its master lives; its clock thread
    starts; its stream limits follow its threads."""
    serving = Serving(worker.ppid, worker)
    live.CLOCK.serving = serving
    app = getattr(worker, "wsgi", None)
    if isinstance(app, Flask):
        from referee.http.streams import size_streams

        size_streams(app, int(getattr(worker.cfg, "threads", 1)))
        app.extensions["serving"] = serving
        start_clock(app, serving)
        count = analysis_worker.server_workers()
        analysis_worker.start_server_workers(app.config["DATABASE"], count, serving)


def start_clock(app: Flask, serving: Callable[[], bool]) -> threading.Thread:
    """A thread that beats the service's clock every ``BEAT_SECONDS`` while the process
    serves (a failed beat, a busy or full archive, is tried again at the next); it stops
    when the archive is gone (a test's folder removed) or by ``stop_clocks``."""
    location = app.config["DATABASE"]
    app.extensions["clock_pid"] = os.getpid()
    stopping = threading.Event()

    def beat() -> None:
        while serving() and not stopping.wait(live.BEAT_SECONDS):
            try:
                storage = open_storage(location)
            except NotReadyError:
                return
            try:
                live.CLOCK.beat(storage)
                sweep(storage)
            finally:
                storage.close()

    thread = threading.Thread(target=beat, name="live-clock", daemon=True)
    _clocks[app] = (stopping, thread)
    thread.start()
    return thread


def sweep(storage: Storage) -> None:
    """With each beat: the challenges past their time lapse (EVENTS.md §14), on whichever
    instance beats first; a busy or failing archive waits for the next beat."""
    with contextlib.suppress(RefereeError, StorageError):
        challenges.sweep(storage)


def stop_clocks() -> None:
    """Stop the clock thread of every app of this process and wait for it: the end of a
    test, whose app is dropped with its archive (the next request to an app that is still
    used starts its clock again). Without it every app a test run makes would keep a
    thread beating the one process-wide clock, in other tests' way."""
    for app, (stopping, thread) in list(_clocks.items()):
        stopping.set()
        app.extensions.pop("clock_pid", None)
        if thread is not threading.current_thread():
            thread.join()
    _clocks.clear()


def ensure_clock(app: Flask) -> None:
    """Before a request: the clock's thread runs in this process (started here when the
    app is served by something other than gunicorn's workers, which start it first)."""
    if app.extensions.get("clock_pid") != os.getpid():
        with _starting:
            if app.extensions.get("clock_pid") != os.getpid():
                start_clock(app, live.CLOCK.serving)


_starting = threading.Lock()
_clocks: weakref.WeakKeyDictionary[Flask, tuple[threading.Event, threading.Thread]] = (
    weakref.WeakKeyDictionary()
)
