"""The engine this application lists and judges plays with (``ENGINE`` in its config)."""

from __future__ import annotations

from flask import current_app

from referee.rules.engine import Engine


def engine() -> Engine:
    """The application's engine (``NARDY_REFEREE_ENGINE``'s choice unless configured)."""
    chosen: Engine = current_app.config["ENGINE"]
    return chosen
