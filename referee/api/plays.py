"""The plays endpoints: every legal play of a position, and the verdict on one play."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from referee.api.schemas import MAX_TEXT, CheckRequest, PositionRequest
from referee.http.bodies import json_object
from referee.http.engine import engine
from referee.http.limits import rate_limited
from referee.plays import PlaysService
from referee.plays import check_play as verdict_on

blueprint = Blueprint("plays", __name__)


@blueprint.post("/v1/plays/legal")
@rate_limited("plays")
def legal_plays() -> dict[str, Any]:
    """Every legal play of the position's side on turn with its dice.
    ---
    post:
      summary: List the legal plays
      description: >
        One play per distinct resulting position, in canonical text, with the position
        after it. When no die can be played the only play is the empty play "".
        Clients without a bearer token are rate limited (limit plays): 429
        rate_limited, with Retry-After and ratelimit {key, seconds}.
      requestBody:
        required: true
        content:
          application/json:
            schema: PositionRequest
      responses:
        200:
          description: The legal plays
          content: {application/json: {schema: LegalResponse}}
        413: Problem
        415: Problem
        422: Problem
        429: Problem
    """
    body = json_object(PositionRequest, MAX_TEXT)
    plays = PlaysService(body["position"], body["options"], engine()).legal()
    return {"count": len(plays), "plays": [play.to_json() for play in plays]}


@blueprint.post("/v1/plays/check")
@rate_limited("plays")
def check_play() -> dict[str, Any]:
    """Whether a play is legal; the canonical play and the position after it when it is.
    ---
    post:
      summary: Judge one play
      description: >
        A rules problem is a 200 answer with legal false, a reason and up to five legal
        alternatives; 422 only for an unreadable position or play text.
        Clients without a bearer token are rate limited (limit plays): 429
        rate_limited, with Retry-After and ratelimit {key, seconds}.
      requestBody:
        required: true
        content:
          application/json:
            schema: CheckRequest
      responses:
        200:
          description: The verdict on the play
          content: {application/json: {schema: CheckResponse}}
        413: Problem
        415: Problem
        422: Problem
        429: Problem
    """
    body = json_object(CheckRequest, MAX_TEXT)
    return verdict_on(body["position"], body["play"], body["options"], engine()).to_json()
