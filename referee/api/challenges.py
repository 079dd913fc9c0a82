"""Challenges between bots (EVENTS.md §14): a bot challenges another (or whoever online
takes it), the challenged one accepts or declines (or its policy does at once), and which
bots are online now."""

from __future__ import annotations

from typing import Any, Literal

from flask import Blueprint, Response, jsonify
from marshmallow import ValidationError, fields, validate, validates_schema

from referee.api.events import SMALL_BODY, readable
from referee.api.schemas import BOT_NAME, LiveClockRequest, RequestSchema
from referee.challenges import service, shapes
from referee.challenges.shapes import challenge_json
from referee.http.auth import token_holder
from referee.http.bodies import json_object
from referee.http.storage import storage
from referee.rules.variants import find_variant
from referee.scopes import Scope
from referee.shapes import schema_of
from referee.storage.model.challenges import Policy

blueprint = Blueprint("challenges", __name__)
NAMES = fields.List(
    fields.String(validate=validate.Regexp(BOT_NAME)),
    load_default=list,
    validate=validate.Length(max=256),
)


class ChallengeRequest(RequestSchema):
    opponent = fields.String(
        required=True,
        allow_none=True,
        validate=validate.Regexp(BOT_NAME),
        metadata={"description": "a bot's name; null: the first online bot that takes it"},
    )
    variant = fields.String(required=True, validate=validate.Length(min=1, max=40))
    length = fields.Integer(
        load_default=1,
        strict=True,
        validate=validate.Range(min=0, max=99),
        metadata={"description": "match length in points; 0 is one money game"},
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    clock = fields.Nested(
        LiveClockRequest,
        load_default=None,
        allow_none=True,
        metadata={"description": "the backgammon clock (docs/events.md#13-2); none: 60 s a move"},
    )
    rated = fields.Boolean(load_default=False)
    rating_range = fields.List(
        fields.Float(allow_nan=False),
        load_default=None,
        allow_none=True,
        validate=validate.Length(equal=2),
        metadata={"description": "[low, high]: an open call goes to a bot rated within"},
    )

    @validates_schema
    def _range(self, data: dict[str, Any], **_: Any) -> None:
        found = data.get("rating_range")
        if found is not None and found[0] > found[1]:
            raise ValidationError("low must not be above high", "rating_range")


class DeclineRequest(RequestSchema):
    reason = fields.String(
        required=True,
        validate=validate.Length(min=1, max=100),
        metadata={"description": "why, a short slug or text, kept with the challenge"},
    )


class PolicyRequest(RequestSchema):
    accept = fields.Raw(
        required=True,
        metadata={"description": '"none", "any" or a list of bot names'},
    )
    block = NAMES
    variants = fields.List(
        fields.String(validate=validate.Length(min=1, max=40)),
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=16),
        metadata={"description": "the variants the bot plays; null: every one"},
    )
    max_concurrent = fields.Integer(
        load_default=None, allow_none=True, strict=True, validate=validate.Range(min=0, max=1000)
    )
    rated = fields.Boolean(
        load_default=True, metadata={"description": "false: rated challenges are declined"}
    )

    @validates_schema
    def _accept(self, data: dict[str, Any], **_: Any) -> None:
        accept = data.get("accept")
        if accept in ("none", "any"):
            return
        if not isinstance(accept, list) or len(accept) > 256:
            raise ValidationError('"none", "any" or a list of at most 256 names', "accept")
        NAMES.deserialize(accept)


# The answers' schemas, named as openapi.yaml names them (referee/challenges/shapes.py).
Challenge = schema_of(shapes.Challenge)
OnlineBot = schema_of(shapes.OnlineBot)


@blueprint.post("/v1/challenges")
def create_challenge() -> tuple[Response, int, dict[str, str]]:
    """A bot challenges another.
    ---
    post:
      summary: Challenge a bot
      description: >
        Needs a bot's token (scope play): the challenger is the token's name
        (docs/challenges.md). opponent names a bot, or null for the first online bot (by
        name) whose policy takes the challenge, rated within rating_range when given (409
        no_opponent when none does). The opponent's bot stream gets a line {"type":
        "challenge", "id", "from", ...}; a policy answers at once (accepted: status
        accepted and its live_id; declined: status declined with the reason). An
        unanswered challenge lapses after 60 s (the operator's setting). Limits: open
        challenges per token (default 10: 429 too_many_challenges), rated matches between
        the same two names in 24 hours (default 10: 429 rated_pair_limit), both with
        Retry-After. 422 unknown_bot, self_challenge, unknown_variant, invalid_option.
      security: [{bearer: []}]
      requestBody:
        required: true
        content: {application/json: {schema: ChallengeRequest}}
      responses:
        201:
          description: The challenge, answered already when the opponent has a policy
          headers: {Location: {schema: {type: string}}}
          content: {application/json: {schema: Challenge}}
        401: Problem
        403: Problem
        409: Problem
        413: Problem
        415: Problem
        422: Problem
        429: Problem
    """
    bot = token_holder(Scope.PLAY)
    body = json_object(ChallengeRequest, SMALL_BODY)
    made = service.create(storage(), bot, body)
    return jsonify(challenge_json(made)), 201, {"Location": f"/v1/challenges/{made.id}"}


@blueprint.get("/v1/challenges/<int:challenge_id>")
def get_challenge(challenge_id: int) -> dict[str, Any]:
    """One challenge.
    ---
    get:
      summary: A challenge
      description: >
        Where a challenge stands (docs/challenges.md): open, accepted (with its live_id),
        declined (with the reason) or lapsed; one past its time reads as lapsed.
      parameters:
        - {in: path, name: challenge_id, required: true, schema: {type: integer}}
      responses:
        200:
          description: The challenge
          content: {application/json: {schema: Challenge}}
        401: Problem
        404: Problem
    """
    readable()
    return challenge_json(service.get(storage(), challenge_id))


@blueprint.post("/v1/challenges/<int:challenge_id>/accept")
def accept_challenge(challenge_id: int) -> dict[str, Any]:
    """The challenged bot accepts.
    ---
    post:
      summary: Accept a challenge
      description: >
        The challenged bot only (403 otherwise): the challenge becomes one live match
        between the two (the challenger White), announced on both bots' streams as
        {"type": "match", ...} with the challenge_id. 409 challenge_answered when it was
        answered already or has lapsed.
      security: [{bearer: []}]
      parameters:
        - {in: path, name: challenge_id, required: true, schema: {type: integer}}
      responses:
        200:
          description: The challenge, accepted
          content: {application/json: {schema: Challenge}}
        401: Problem
        403: Problem
        404: Problem
        409: Problem
    """
    bot = token_holder(Scope.PLAY)
    return challenge_json(service.accept(storage(), challenge_id, bot))


@blueprint.post("/v1/challenges/<int:challenge_id>/decline")
def decline_challenge(challenge_id: int) -> dict[str, Any]:
    """The challenged bot declines.
    ---
    post:
      summary: Decline a challenge
      description: >
        The challenged bot only (403 otherwise), with a reason kept with the challenge.
        409 challenge_answered when it was answered already or has lapsed.
      security: [{bearer: []}]
      parameters:
        - {in: path, name: challenge_id, required: true, schema: {type: integer}}
      requestBody:
        required: true
        content: {application/json: {schema: DeclineRequest}}
      responses:
        200:
          description: The challenge, declined
          content: {application/json: {schema: Challenge}}
        401: Problem
        403: Problem
        404: Problem
        409: Problem
        413: Problem
        415: Problem
        422: Problem
    """
    bot = token_holder(Scope.PLAY)
    body = json_object(DeclineRequest, SMALL_BODY)
    return challenge_json(service.decline(storage(), challenge_id, bot, body["reason"]))


@blueprint.post("/v1/challenges/<int:challenge_id>/cancel")
def cancel_challenge(challenge_id: int) -> dict[str, Any]:
    """The challenger takes a challenge back.
    ---
    post:
      summary: Cancel a challenge
      description: >
        The challenger only (403 otherwise), while it is open: its status is cancelled,
        it no longer counts among the token's open challenges, and the opponent's stream
        no longer tells it. 409 challenge_answered when it was answered already or has
        lapsed.
      security: [{bearer: []}]
      parameters:
        - {in: path, name: challenge_id, required: true, schema: {type: integer}}
      responses:
        200:
          description: The challenge, cancelled
          content: {application/json: {schema: Challenge}}
        401: Problem
        403: Problem
        404: Problem
        409: Problem
    """
    bot = token_holder(Scope.PLAY)
    return challenge_json(service.cancel(storage(), challenge_id, bot))


@blueprint.put("/v1/bots/<name>/policy")
def put_policy(name: str) -> dict[str, Any]:
    """A bot sets its policy.
    ---
    put:
      summary: Set a bot's policy
      description: >
        The bot itself only (scope play, the token's name; 403 otherwise). From now on
        every challenge to it is answered at once by the policy (docs/challenges.md):
        declined with the reason blocked, not_accepted, variant, rated or busy (it plays
        max_concurrent live matches already), else accepted. accept "none" declines
        every challenge; without a policy the bot answers its challenges itself.
      security: [{bearer: []}]
      parameters:
        - {in: path, name: name, required: true, schema: {type: string}}
      requestBody:
        required: true
        content: {application/json: {schema: PolicyRequest}}
      responses:
        200:
          description: The policy as kept
          content: {application/json: {schema: PolicyRequest}}
        401: Problem
        403: Problem
        413: Problem
        415: Problem
        422: Problem
    """
    bot = token_holder(Scope.PLAY)
    body = json_object(PolicyRequest, SMALL_BODY)
    found = body["accept"]
    accept: Literal["none", "any"] | tuple[str, ...] = (
        ("any" if found == "any" else "none") if isinstance(found, str) else tuple(found)
    )
    variants = body["variants"]
    policy = Policy(
        accept=accept,
        block=tuple(body.get("block") or ()),
        variants=None if variants is None else tuple(find_variant(v).id for v in variants),
        max_concurrent=body["max_concurrent"],
        rated=body["rated"],
    )
    service.set_policy(storage(), bot, name, policy)
    return {
        "accept": accept if isinstance(accept, str) else list(accept),
        "block": list(policy.block),
        "variants": None if policy.variants is None else list(policy.variants),
        "max_concurrent": policy.max_concurrent,
        "rated": policy.rated,
    }


@blueprint.get("/v1/bots/online")
def bots_online() -> list[dict[str, Any]]:
    """The bots online now.
    ---
    get:
      summary: Bots online
      description: >
        The bots with a bot stream (GET /v1/bot/stream) open now on any instance, by
        name, each with its ratings and the public parts of its policy (whether it takes
        challenges from anyone, some names or none; its variants, rated flag and limit;
        not whom it names or blocks). A stream is seen every 10 s while open, and a bot
        not seen for 25 s is offline (its server was killed, say).
      responses:
        200:
          description: The bots online
          content:
            application/json:
              schema: {type: array, items: OnlineBot}
        401: Problem
    """
    readable()
    return service.online(storage())
