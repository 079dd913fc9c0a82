"""The bot stream of EVENTS.md §2: a bot learns of every live match it is to play."""

from __future__ import annotations

import json
from collections.abc import Iterator

from flask import Blueprint, Flask, Response, current_app
from marshmallow import Schema, fields, validate

from referee.events.stream import POLL_SECONDS, AnnouncementBoard, matches_for
from referee.http.auth import token_holder
from referee.http.streams import StreamGuard, admit_stream
from referee.scopes import Scope
from referee.storage import open_storage

blueprint = Blueprint("bot", __name__)


class BotMatch(Schema):
    type = fields.String(required=True, validate=validate.OneOf(["match"]))
    live_id = fields.Integer(required=True)
    event_id = fields.Integer(required=True)
    round = fields.Integer(required=True)
    side = fields.String(required=True, validate=validate.OneOf(["w", "b"]))
    table = fields.Integer(required=True)
    opponent = fields.String(required=True)


@blueprint.get("/v1/bot/stream")
def bot_stream() -> Response:
    """The live matches this bot is to play, as NDJSON.
    ---
    get:
      summary: A bot's matches
      description: >
        Needs the bot's token (scope play). One line {"type": "match", "live_id",
        "event_id", "round", "side", "table", "opponent"} for every live match of an
        event this bot is to play and that has not ended, the ones already waiting first,
        then each as soon as it exists; a blank line every 10 s otherwise. The answer's
        head comes at once, before any line, so a bot knows it was admitted. The stream
        ends only when the token is revoked (within seconds) or the reader stops reading.
        Each open stream holds one server thread, so bot streams count with the live
        streams: at most 16 per token and per bot at once (429 too_many_streams), 503
        streams_full when the worker holds as many as it may, both with Retry-After.
      security: [{bearer: []}]
      responses:
        200:
          description: NDJSON lines
          content: {application/x-ndjson: {schema: BotMatch}}
        401: Problem
        403: Problem
        429: Problem
        503: Problem
    """
    bot = token_holder(Scope.PLAY)
    guard = admit_stream(f"bot/{bot.id}", bot)  # 429 / 503 as every stream (http/streams)
    current_app.extensions["event_keeper"].ensure_started()  # their results come this way
    name = bot.name or ""
    location, board = current_app.config["DATABASE"], current_app.extensions["bot_board"]

    def lines(check: StreamGuard) -> Iterator[str]:
        watching = open_storage(location)  # its own: the stream outlives the request
        try:
            for found in matches_for(watching, name, board, check):
                yield "\n" if found is None else json.dumps(found) + "\n"
        finally:
            watching.close()

    return guard.response(lines)


def init_bot(app: Flask) -> None:
    """``NARDY_REFEREE_BOT_POLL``: how often (seconds) the bot streams look for news."""
    import os

    poll = float(os.environ.get("NARDY_REFEREE_BOT_POLL", str(POLL_SECONDS)))
    app.extensions["bot_board"] = AnnouncementBoard(app.config["DATABASE"], poll)
