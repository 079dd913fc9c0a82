"""The Flask application factory of the REST referee."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response
from werkzeug.middleware.proxy_fix import ProxyFix

from referee import __version__
from referee.api import boards, live, matches, plays, records, reference
from referee.api.bodies import check_body
from referee.api.limits import Buckets, limits_config
from referee.api.matches import NDJSON
from referee.api.problems import register_problem_handlers
from referee.api.storage import archive, init_storage
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
    token; ``NARDY_REFEREE_WORK_LIMITS`` and ``NARDY_REFEREE_RATE_LIMITS`` set what one
    client may cost; ``NARDY_REFEREE_PROXIES=N`` trusts N proxies' X-Forwarded-For.
    ``NARDY_REFEREE_CHECKS`` is how many records a worker checks at once.
    ``config`` overrides them all (tests)."""
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY,
        DATABASE=os.environ.get("NARDY_REFEREE_DATABASE", DEFAULT_DATABASE),
        PRIVATE=os.environ.get("NARDY_REFEREE_PRIVATE") == "1",
        **limits_config(),
    )
    app.config.update(config or {})
    app.extensions["rate_buckets"] = Buckets()
    app.extensions["check_slots"] = threading.BoundedSemaphore(app.config["CHECKS_AT_ONCE"])
    proxies = int(os.environ.get("NARDY_REFEREE_PROXIES", "0"))
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    register_problem_handlers(app)
    init_storage(app)
    live.init_live(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    app.before_request(check_body)
    app.after_request(_proxy_buffering)
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

    @app.get("/readyz")
    def readyz() -> dict[str, str]:
        """Readiness: the process answers and reads its archive.
        ---
        get:
          summary: Readiness
          description: 503 archive_busy with Retry-After when the archive cannot be read.
          responses:
            200:
              description: Ready to serve
              content:
                application/json:
                  schema:
                    type: object
                    properties: {status: {type: string}, version: {type: string}}
            503: Problem
        """
        archive().ready()
        return {"status": "ready", "version": __version__}

    return app


def _proxy_buffering(response: Response) -> Response:
    """Streams (NDJSON) pass a proxy unbuffered; every other answer may be buffered by it,
    so a slow reader holds the proxy's memory, not a worker thread (docs/operations.md)."""
    if response.mimetype == NDJSON:
        response.headers["X-Accel-Buffering"] = "no"
    return response
