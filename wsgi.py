"""The WSGI entry point: ``gunicorn wsgi:app``."""

from referee.api import create_app

app = create_app()
