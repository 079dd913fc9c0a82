"""The WSGI entry point: ``gunicorn wsgi:app``.

An archive the server cannot start with (a location no backend reads, one that cannot be
read) is one of the referee's own errors, worded for the operator: gunicorn prints a
RuntimeError's message alone and exits, where it would print any other error after its
traceback (kept for everything else, which may be a bug)."""

from referee.app import create_app
from referee.errors import RefereeError
from referee.storage import StorageLocationError

try:
    app = create_app()
except (StorageLocationError, RefereeError) as error:
    raise RuntimeError(f"the server cannot start: {error}") from error
