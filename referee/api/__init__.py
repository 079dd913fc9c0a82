"""The REST API (NOTATION.md §4, LIVE.md, EVENTS.md): one blueprint per resource."""

from __future__ import annotations

from flask import Flask

from referee.api import (
    analyses,
    boards,
    bot,
    challenges,
    corrections,
    event_stream,
    events,
    health,
    live,
    matches,
    plays,
    records,
    reference,
)

BLUEPRINTS = (
    plays.blueprint,
    records.blueprint,
    matches.blueprint,
    reference.blueprint,
    boards.blueprint,
    live.blueprint,
    events.blueprint,
    event_stream.blueprint,
    corrections.blueprint,
    bot.blueprint,
    challenges.blueprint,
    analyses.blueprint,
    health.blueprint,
)


def register(app: Flask) -> None:
    """The API's blueprints and what the live matches need at start."""
    live.init_live(app)
    events.init_events(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
