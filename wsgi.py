"""The WSGI entry point: ``gunicorn wsgi:app``.

A setting the server cannot start with (an archive location no backend reads, a limit
that is not a number, an archive that cannot be read) is a ValueError with its reason:
gunicorn prints a RuntimeError's message alone and exits, where it would print any
other error after its traceback."""

from referee.app import create_app

try:
    app = create_app()
except ValueError as error:
    raise RuntimeError(f"the server cannot start: {error}") from error
