"""The Flask application factory of the REST referee."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from referee import __version__
from referee.api import plays, records
from referee.api.problems import register_problem_handlers

MAX_BODY = 16 * 1024 * 1024


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A configured application; ``config`` overrides the defaults (for tests)."""
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, JSON_SORT_KEYS=False)
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    register_problem_handlers(app)
    app.register_blueprint(plays.blueprint)
    app.register_blueprint(records.blueprint)

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        """Liveness: the process answers."""
        return {"status": "ok", "version": __version__}

    return app
