"""The request's storage: opened lazily on first use, closed at teardown.

The storage is prepared (created, migrated) when the application is made. When that
cannot be done for want of a writable disk (``StorageUnavailableError``: the archive is
missing or has migrations pending on a full or read-only disk) the application starts
anyway and every request that needs storage is answered 503 ``storage_unavailable`` with
``Retry-After`` while ``prepare`` is tried again, at most every ``PREPARE_RETRY_SECONDS``:
the server recovers by itself when the disk does.
"""

from __future__ import annotations

import logging
import threading
import time

from flask import Flask, current_app, g

from referee.errors import StorageUnavailableError
from referee.storage import open_storage, prepare_storage
from referee.storage.stores import Storage

PREPARE_RETRY_SECONDS = 5.0
log = logging.getLogger(__name__)


class Preparation:
    """Whether the storage is prepared; tried again after a failure."""

    def __init__(self, location: object) -> None:
        self.location = location
        self.lock = threading.Lock()
        self.failure: StorageUnavailableError | None = None
        self.tried = 0.0

    def attempt(self) -> None:
        """Prepare the storage; a failure is kept, and raised by ``check``."""
        self.tried = time.monotonic()
        try:
            prepare_storage(self.location)  # type: ignore[arg-type]
        except StorageUnavailableError as error:
            log.warning("the archive is not ready: %s", error.message)
            self.failure = error
        else:
            self.failure = None

    def check(self) -> None:
        """Raise the last failure unless a new attempt (when due) succeeds."""
        if self.failure is None:
            return
        with self.lock:
            if self.failure is not None and time.monotonic() - self.tried >= PREPARE_RETRY_SECONDS:
                self.attempt()
            if self.failure is not None:
                raise StorageUnavailableError(self.failure.message)


def storage() -> Storage:
    """This request's storage (one connection, opened on first use)."""
    if "storage" not in g:
        preparation: Preparation = current_app.extensions["preparation"]
        preparation.check()
        g.storage = open_storage(current_app.config["DATABASE"])
    opened: Storage = g.storage
    return opened


def init_storage(app: Flask) -> None:
    """Prepare the storage (create, migrate) and close each request's after it."""
    preparation = Preparation(app.config["DATABASE"])
    preparation.attempt()
    app.extensions["preparation"] = preparation

    @app.teardown_appcontext
    def close_storage(error: BaseException | None) -> None:
        opened = g.pop("storage", None)
        if opened is not None:
            opened.close()


def prepared(app: Flask) -> bool:
    """Whether the app's storage is prepared (it may be used outside a request)."""
    preparation: Preparation = app.extensions["preparation"]
    return preparation.failure is None
