"""The plays endpoints: every legal play of a position, and the verdict on one play."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request
from werkzeug.exceptions import RequestEntityTooLarge, UnsupportedMediaType

from referee.api.schemas import MAX_TEXT, CheckRequest, PositionRequest
from referee.plays import PlaysService

blueprint = Blueprint("plays", __name__)


def _json_body(schema: PositionRequest) -> dict[str, Any]:
    if request.content_length is not None and request.content_length > MAX_TEXT:
        raise RequestEntityTooLarge(f"a plays request is at most {MAX_TEXT} bytes")
    if not request.is_json:
        raise UnsupportedMediaType("send the request as application/json")
    body = request.get_json(silent=True)
    if body is None:
        body = request.get_data(as_text=True)
    loaded: dict[str, Any] = schema.load(body if isinstance(body, dict) else {"": body})
    return loaded


@blueprint.post("/v1/plays/legal")
def legal_plays() -> dict[str, Any]:
    """Every legal play of the position's side on turn with its dice."""
    body = _json_body(PositionRequest())
    plays = PlaysService(body["position"], body["options"]).legal()
    return {"count": len(plays), "plays": [play.to_json() for play in plays]}


@blueprint.post("/v1/plays/check")
def check_play() -> dict[str, Any]:
    """Whether a play is legal; the canonical play and the position after it when it is."""
    body = _json_body(CheckRequest())
    return PlaysService(body["position"], body["options"]).check(body["play"]).to_json()
