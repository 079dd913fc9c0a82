"""The bot stream of EVENTS.md §2: a bot learns of every live match it is to play, and of
every challenge to it (§14); while it reads, the bot is online."""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections.abc import Iterator

from flask import Blueprint, Response, current_app
from marshmallow import Schema, fields, validate

from referee.challenges.service import KEEPALIVE_SECONDS
from referee.errors import RefereeError
from referee.events.hub import hub
from referee.events.stream import matches_for
from referee.http.auth import token_holder
from referee.http.streams import StreamGuard, admit_stream
from referee.scopes import Scope
from referee.storage import open_storage
from referee.storage.errors import StorageError
from referee.storage.stores import Storage

blueprint = Blueprint("bot", __name__)


class BotMatch(Schema):
    type = fields.String(required=True, validate=validate.OneOf(["match", "challenge"]))
    live_id = fields.Integer(metadata={"description": "match lines"})
    event_id = fields.Integer(allow_none=True, metadata={"description": "null: a challenge's"})
    round = fields.Integer(allow_none=True)
    side = fields.String(validate=validate.OneOf(["w", "b"]))
    table = fields.Integer(allow_none=True)
    opponent = fields.String()
    challenge_id = fields.Integer(
        allow_none=True, metadata={"description": "the accepted challenge a match came from"}
    )
    id = fields.Integer(metadata={"description": "challenge lines: the challenge to answer"})
    from_ = fields.String(data_key="from", metadata={"description": "the challenger"})
    variant = fields.String()
    length = fields.Integer()
    options = fields.Dict()
    clock = fields.Dict(allow_none=True)
    rated = fields.Boolean()
    expires_at = fields.Float(metadata={"description": "Unix time: it lapses then"})


@blueprint.get("/v1/bot/stream")
def bot_stream() -> Response:
    """The live matches this bot is to play, as NDJSON.
    ---
    get:
      summary: A bot's matches
      description: >
        Needs the bot's token (scope play). One line {"type": "match", "live_id",
        "event_id", "round", "side", "table", "opponent", "challenge_id"} for every live
        match this bot is to play and that has not ended (of an event, or of an accepted
        challenge: then event_id, round and table are null), the ones already waiting
        first, then each as soon as it exists; one line {"type": "challenge", "id",
        "from", "variant", "length", "options", "clock", "rated", "expires_at"} for every
        challenge to it while open (docs/challenges.md); a blank line every 10 s
        otherwise. While the stream is open the bot is online (GET /v1/bots/online).
        Clients should ignore lines of a type they do not know. The answer's head comes
        at once, before any line, so a bot knows it was admitted. The stream
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
    location = current_app.config["DATABASE"]
    streams = hub(location)  # this process's: it reads for every bot stream at once

    def lines(check: StreamGuard) -> Iterator[str]:
        watching = open_storage(location)  # its own: the stream outlives the request
        online = Online(watching, name)
        try:
            for found in matches_for(streams, watching, name, check):
                yield "\n" if found is None else json.dumps(found) + "\n"
                online.still()  # after the line: a write may wait for the archive's lock
        finally:
            online.left()
            watching.close()

    return guard.response(lines)


class Online:
    """A bot stream's row among the bots online (EVENTS.md §14, ``GET /v1/bots/online``):
    written as it opens, seen again every ``KEEPALIVE_SECONDS`` while it is read, removed
    as it closes; a row not seen for ``ONLINE_SECONDS`` (its instance killed) no longer
    counts. A busy or failing archive costs the row a refresh, never the stream."""

    def __init__(self, storage: Storage, name: str) -> None:
        self.storage = storage
        self.name = name
        self.key = secrets.token_hex(12)
        self.last = 0.0
        self.still()

    def still(self) -> None:
        now = time.time()
        if now - self.last >= KEEPALIVE_SECONDS:
            self.last = now
            with contextlib.suppress(RefereeError, StorageError):
                self.storage.challenges.seen(self.key, self.name, now)

    def left(self) -> None:
        with contextlib.suppress(RefereeError, StorageError):
            self.storage.challenges.left(self.key)
