"""One archive connection per request, opened lazily and closed at teardown."""

from __future__ import annotations

from flask import Flask, current_app, g

from referee.storage.sqlite import Archive


def archive() -> Archive:
    """This request's archive connection."""
    if "archive" not in g:
        g.archive = Archive(current_app.config["DATABASE"])
    connection: Archive = g.archive
    return connection


def init_storage(app: Flask) -> None:
    """Prepare the database file (WAL, migrations) and close connections after requests."""
    Archive.prepare(app.config["DATABASE"])

    @app.teardown_appcontext
    def close_archive(error: BaseException | None) -> None:
        connection = g.pop("archive", None)
        if connection is not None:
            connection.close()
