"""The live match endpoints of LIVE.md §2: create, read, join, act, stream, dice, abort."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, url_for

from referee.api.schemas import LiveActionRequest, LiveCreateRequest, LiveJoinRequest
from referee.errors import ArchiveBusyError, StorageUnavailableError
from referee.http.auth import bearer_token, token_holder
from referee.http.bodies import json_object
from referee.http.engine import engine
from referee.http.storage import prepared, storage
from referee.http.streams import StreamGuard, admit_stream
from referee.live import service as live
from referee.live import stream
from referee.scopes import Scope
from referee.storage import open_storage
from referee.storage.model.tokens import Token

blueprint = Blueprint("live", __name__)
log = logging.getLogger(__name__)

SMALL_BODY = 64 * 1024


READ_SCOPES = (Scope.ARCHIVE_READ, Scope.ARCHIVE_WRITE, Scope.PLAY, Scope.LIVE_HOST)


def _readable() -> None:
    """Reads need a token only in private mode; then any of the service's tokens will do."""
    if current_app.config["PRIVATE"]:
        token_holder(*READ_SCOPES)


@blueprint.post("/v1/live")
def create_live() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Create a live match between two bots.
    ---
    post:
      summary: Create a live match
      description: >
        Needs a bearer token with scope live:host. The players are named by their tokens'
        names (scope play). The server seed is drawn now and its SHA-256 published as
        commitment; play starts once both bots have joined.
      security: [{bearer: []}]
      requestBody:
        required: true
        content: {application/json: {schema: LiveCreateRequest}}
      responses:
        201:
          description: Created; Location is the match
          content: {application/json: {schema: LiveState}}
        401: Problem
        403: Problem
        413: Problem
        415: Problem
        422: Problem
    """
    host = token_holder(Scope.LIVE_HOST)
    body = json_object(LiveCreateRequest, SMALL_BODY)
    state = live.create(
        storage(),
        host,
        body["variant"],
        body["length"],
        body["options"],
        body["players"],
        body["move_seconds"],
        join_seconds=body["join_seconds"],
        clock=None if body["clock"] is None else (body["clock"]["reserve"], body["clock"]["delay"]),
    )
    return state, 201, {"Location": url_for("live.get_live", live_id=state["id"])}


@blueprint.get("/v1/live/<int:live_id>")
def get_live(live_id: int) -> dict[str, Any]:
    """The state of a live match (LIVE.md §3).
    ---
    get:
      summary: The state of a live match
      description: A missed deadline is applied first (the player to act loses).
      parameters: [{in: path, name: live_id, required: true, schema: {type: integer}}]
      responses:
        200:
          description: The state
          content: {application/json: {schema: LiveState}}
        401: Problem
        403: Problem
        404: Problem
    """
    _readable()
    return live.state(storage(), live_id)


@blueprint.post("/v1/live/<int:live_id>/join")
def join_live(live_id: int) -> dict[str, Any]:
    """A bot joins its match with its client seed.
    ---
    post:
      summary: Join a live match
      description: >
        Needs the token (scope play) whose name is one of the players; play starts once
        both bots have joined. Before that a bot may join again with another seed; after
        it, joining again (a bot resuming) changes nothing.
      security: [{bearer: []}]
      parameters: [{in: path, name: live_id, required: true, schema: {type: integer}}]
      requestBody:
        required: true
        content: {application/json: {schema: LiveJoinRequest}}
      responses:
        200:
          description: The state after joining
          content: {application/json: {schema: LiveState}}
        401: Problem
        403: Problem
        404: Problem
        409: Problem
        413: Problem
        415: Problem
        422: Problem
    """
    bot = token_holder(Scope.PLAY)
    body = json_object(LiveJoinRequest, SMALL_BODY)
    return live.join(storage(), live_id, bot, body["seed"], engine())


@blueprint.post("/v1/live/<int:live_id>/actions")
def act_live(live_id: int) -> dict[str, Any]:
    """The action of the bot to act (LIVE.md §4).
    ---
    post:
      summary: Act in a live match
      description: >
        200 and the new state once the action is committed; 409 stale_ply with the current
        ply when ply is not the current one (or not_playing); 403 when the token is not the
        player to act; 422 illegal_action with reason {code, message} and up to five legal
        alternatives when the action is not allowed now or the play is illegal.
      security: [{bearer: []}]
      parameters: [{in: path, name: live_id, required: true, schema: {type: integer}}]
      requestBody:
        required: true
        content: {application/json: {schema: LiveActionRequest}}
      responses:
        200:
          description: The state after the action
          content: {application/json: {schema: LiveState}}
        401: Problem
        403: Problem
        404: Problem
        409: Problem
        413: Problem
        415: Problem
        422: Problem
    """
    bot = token_holder(Scope.PLAY)
    body = json_object(LiveActionRequest, SMALL_BODY)
    details: dict[str, Any] = {name: body[name] for name in ("play", "value") if name in body}
    return live.act(storage(), live_id, bot, body["ply"], body["action"], details, engine())


@blueprint.get("/v1/live/<int:live_id>/stream")
def stream_live(live_id: int) -> Response:
    """The state now, then after every change, as NDJSON.
    ---
    get:
      summary: Follow a live match
      description: >
        One state per line (docs/live.md#3): now, then after every change; a blank line every
        10 s while nothing happens; the stream ends after the finished or aborted state.
        Each open stream holds one server thread.
      parameters: [{in: path, name: live_id, required: true, schema: {type: integer}}]
      responses:
        200:
          description: NDJSON states
          content: {application/x-ndjson: {schema: LiveState}}
        401: Problem
        403: Problem
        404: Problem
    """
    holder = _stream_holder()
    live.state(storage(), live_id)  # 404 before the stream starts
    guard = admit_stream(f"live/{live_id}", holder)  # 429 / 503 when full
    location = current_app.config["DATABASE"]

    def lines(check: StreamGuard) -> Iterator[str]:
        watching = open_storage(location)  # its own: the stream outlives the request
        try:
            for state in stream.watch(watching, live_id, check):
                yield "\n" if state is None else json.dumps(state) + "\n"
        finally:
            watching.close()

    return guard.response(lines)


def _stream_holder() -> Token | None:
    """The stream's live token: needed in private mode (as every read); otherwise a token
    sent is used when it is live (its streams count per token, in the room kept for token
    holders, and end when it is revoked) and an unknown one makes the caller anonymous."""
    if current_app.config["PRIVATE"]:
        return token_holder(*READ_SCOPES)
    secret = bearer_token()
    if secret is None:
        return None
    token = storage().tokens.holder(secret)
    return token if token is not None and set(READ_SCOPES) & set(token.scopes) else None


@blueprint.get("/v1/live/<int:live_id>/dice")
def live_dice(live_id: int) -> dict[str, Any]:
    """The dice proof (LIVE.md §5).
    ---
    get:
      summary: The dice proof of a live match
      description: >
        Every throw so far with the commitment and the client seeds; the server seed once
        the match has ended. nardy-referee verify-dice recomputes it.
      parameters: [{in: path, name: live_id, required: true, schema: {type: integer}}]
      responses:
        200:
          description: The proof
          content: {application/json: {schema: DiceProof}}
        401: Problem
        403: Problem
        404: Problem
    """
    _readable()
    return live.proof(storage(), live_id)


@blueprint.post("/v1/live/<int:live_id>/abort")
def abort_live(live_id: int) -> dict[str, Any]:
    """Abort a live match; nothing is stored.
    ---
    post:
      summary: Abort a live match
      description: The host (scope live:host) before the end, or either bot before its first action.
      security: [{bearer: []}]
      parameters: [{in: path, name: live_id, required: true, schema: {type: integer}}]
      responses:
        200:
          description: The aborted state
          content: {application/json: {schema: LiveState}}
        401: Problem
        403: Problem
        404: Problem
        409: Problem
    """
    caller = token_holder(Scope.LIVE_HOST, Scope.PLAY)
    return live.abort(storage(), live_id, caller)


def init_live(app: Flask) -> None:
    """After a (re)start the player to act in each match in play gets a fresh full time."""
    if not prepared(app):
        return  # the first beat of the live clock will give the fresh time (service.py)
    starting = open_storage(app.config["DATABASE"])
    try:
        live.refresh_deadlines(starting)
    except (StorageUnavailableError, ArchiveBusyError) as error:
        log.warning("deadlines not refreshed at start (the live clock will): %s", error)
    finally:
        starting.close()
