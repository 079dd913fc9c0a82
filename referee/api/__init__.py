"""The Flask application factory of the REST referee."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from referee import __version__
from referee.api import boards, live, matches, plays, records, reference
from referee.api.problems import register_problem_handlers
from referee.api.storage import init_storage
from referee.rules import engine

MAX_BODY = 16 * 1024 * 1024
DEFAULT_DATABASE = "var/referee.sqlite3"
BLUEPRINTS = (
    plays.blueprint,
    records.blueprint,
    matches.blueprint,
    reference.blueprint,
    boards.blueprint,
    live.blueprint,
)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A configured application. The archive file comes from ``NARDY_REFEREE_DATABASE``
    (default ``var/referee.sqlite3``); ``NARDY_REFEREE_PRIVATE=1`` makes reads need a
    token. ``config`` overrides both (tests)."""
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY,
        DATABASE=os.environ.get("NARDY_REFEREE_DATABASE", DEFAULT_DATABASE),
        PRIVATE=os.environ.get("NARDY_REFEREE_PRIVATE") == "1",
    )
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    register_problem_handlers(app)
    init_storage(app)
    live.init_live(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    from referee.web import blueprint as pages  # late: the pages use the API's modules

    app.register_blueprint(pages)

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        """Liveness: the process answers; which engine judges plays (python or native).
        ---
        get:
          summary: Liveness
          responses:
            200:
              description: The service is up
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      status: {type: string}
                      version: {type: string}
                      engine: {type: string}
        """
        return {"status": "ok", "version": __version__, "engine": engine.description()}

    return app
