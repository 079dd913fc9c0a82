"""The web pages: check a record, browse the archive, replay a match on a drawn board,
watch a live match, follow events and ratings, read the documents. One blueprint per page
group, each standing in the site's frame (``site``: templates, static files, error pages).

Server-rendered (Jinja2) and usable as plain links; small scripts add keys, in-place
stepping and live updates. The pages call the same services as the API (``adjudicate``,
the archive service, the replay, the events service), never their own copies.
"""

from __future__ import annotations

from flask import Flask

from referee.web import archive, check, docs, events, live, ratings, site

BLUEPRINTS = (
    site.blueprint,
    check.blueprint,
    archive.blueprint,
    live.blueprint,
    events.blueprint,
    ratings.blueprint,
    docs.blueprint,
)


def register(app: Flask) -> None:
    """The pages' blueprints."""
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
