"""The frame every page stands in: the templates, the static files (``/assets``), the icon,
and ``pages(name)``, which makes a page group's blueprint with the site's error pages and
the words every template may use (a page answers an error as a page, not as a problem)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, render_template, send_from_directory
from marshmallow import ValidationError

from referee.errors import RefereeError
from referee.rules.variants import VARIANTS
from referee.rules.words import NO_MOVE, result_words

blueprint = Blueprint(
    "site", __name__, template_folder="templates", static_folder="static", static_url_path="/assets"
)

GAMES_OPEN = 30
"""A verdict's games table is shown open up to this many games, folded away past it."""
VARIANT_TITLES = {str(variant.id): variant.title for variant in VARIANTS}


def page_constants() -> dict[str, Any]:
    """What every template may use: a result and a play in the CLI's words among them."""
    return {
        "GAMES_OPEN": GAMES_OPEN,
        "VARIANT_TITLES": VARIANT_TITLES,
        "result_words": result_words,
        "NO_MOVE": NO_MOVE,
    }


def referee_error(error: RefereeError) -> tuple[str, int, dict[str, str]]:
    retry = {} if error.retry_after is None else {"Retry-After": str(error.retry_after)}
    page = render_template("error.html", title=error.title, message=error.message)
    return page, error.status, retry


def validation_error(error: ValidationError) -> tuple[str, int]:
    messages = error.messages
    fields = ", ".join(map(str, messages)) if isinstance(messages, dict) else "the query"
    message = f"these search fields are not valid: {fields}"
    return render_template("error.html", title="Invalid search", message=message), 422


def pages(name: str, import_name: str) -> Blueprint:
    """A page group's blueprint: its errors answered as the site's error page, its
    templates given ``page_constants``."""
    group = Blueprint(name, import_name)
    group.register_error_handler(RefereeError, referee_error)
    group.register_error_handler(ValidationError, validation_error)
    group.context_processor(page_constants)
    return group


@blueprint.get("/favicon.ico")
def favicon() -> Response:
    """The site's icon where browsers look for it unasked (the pages link the SVG one)."""
    assert blueprint.static_folder is not None
    return send_from_directory(
        blueprint.static_folder, "favicon.ico", mimetype="image/vnd.microsoft.icon", max_age=86400
    )
