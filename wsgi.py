"""The WSGI entry point: ``gunicorn wsgi:app``."""

from referee.app import create_app

app = create_app()
