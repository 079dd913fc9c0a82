"""The application factory: the configuration, the per-request plumbing (``referee.http``),
then the API's blueprints (``referee.api``) and the pages (``referee.web``), which never
import each other."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from referee import api, web
from referee.challenges import service as challenges
from referee.http.bodies import check_body
from referee.http.limits import Buckets, limits_config
from referee.http.problems import register_problem_handlers
from referee.http.serving import ensure_clock
from referee.http.shared import SharedCounters
from referee.http.storage import init_storage
from referee.http.streams import init_streams, proxy_buffering, streams_config
from referee.rules.engine import CHOSEN
from referee.storage.location import archive_location

MAX_BODY = 16 * 1024 * 1024


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A configured application. The archive comes from ``NARDY_REFEREE_DATABASE``
    (default: the user's, ``referee.storage.location``); ``NARDY_REFEREE_PRIVATE=1`` makes
    reads need a token; ``NARDY_REFEREE_WORK_LIMITS`` and ``NARDY_REFEREE_RATE_LIMITS`` set what one
    client may cost; ``NARDY_REFEREE_PROXIES=N`` trusts N proxies' X-Forwarded-For.
    ``NARDY_REFEREE_CHECKS`` is how many records a worker checks at once.
    ``config`` overrides them all (tests)."""
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY,
        DATABASE=archive_location(),
        PRIVATE=os.environ.get("NARDY_REFEREE_PRIVATE") == "1",
        ENGINE=CHOSEN,
        **limits_config(),
        **streams_config(),
    )
    app.config.update(config or {})
    challenges.check_settings()  # a wrong challenge limit stops the start, not a request
    counters = SharedCounters()  # made before gunicorn forks: shared by every worker
    app.extensions["rate_buckets"] = Buckets(counters)
    init_streams(app, counters)
    app.extensions["check_slots"] = threading.BoundedSemaphore(app.config["CHECKS_AT_ONCE"])
    proxies = int(os.environ.get("NARDY_REFEREE_PROXIES", "0"))
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    register_problem_handlers(app)
    init_storage(app)
    api.register(app)
    web.register(app)
    app.before_request(check_body)
    app.before_request(lambda: ensure_clock(app))
    app.after_request(proxy_buffering)
    return app
