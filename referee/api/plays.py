"""The plays endpoints: every legal play of a position, and the verdict on one play."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from referee.api.bodies import json_object
from referee.api.schemas import MAX_TEXT, CheckRequest, PositionRequest
from referee.plays import PlaysService

blueprint = Blueprint("plays", __name__)


@blueprint.post("/v1/plays/legal")
def legal_plays() -> dict[str, Any]:
    """Every legal play of the position's side on turn with its dice."""
    body = json_object(PositionRequest(), MAX_TEXT)
    plays = PlaysService(body["position"], body["options"]).legal()
    return {"count": len(plays), "plays": [play.to_json() for play in plays]}


@blueprint.post("/v1/plays/check")
def check_play() -> dict[str, Any]:
    """Whether a play is legal; the canonical play and the position after it when it is."""
    body = json_object(CheckRequest(), MAX_TEXT)
    return PlaysService(body["position"], body["options"]).check(body["play"]).to_json()
