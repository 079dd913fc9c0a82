"""The request's storage: opened lazily on first use, closed at teardown."""

from __future__ import annotations

from flask import Flask, current_app, g

from referee.storage import open_storage, prepare_storage
from referee.storage.stores import Storage


def storage() -> Storage:
    """This request's storage (one connection, opened on first use)."""
    if "storage" not in g:
        g.storage = open_storage(current_app.config["DATABASE"])
    opened: Storage = g.storage
    return opened


def init_storage(app: Flask) -> None:
    """Prepare the storage (create, migrate) and close each request's after it."""
    prepare_storage(app.config["DATABASE"])

    @app.teardown_appcontext
    def close_storage(error: BaseException | None) -> None:
        opened = g.pop("storage", None)
        if opened is not None:
            opened.close()
