"""``GET /v1/events/{id}/stream`` (EVENTS.md §9): the event now and after every change, as
NDJSON, admitted and bounded as every stream is (``referee.http.streams``)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from flask import Blueprint, Response, current_app

from referee.api.events import keep
from referee.api.live import _stream_holder as stream_holder
from referee.events import service
from referee.events.follow import follow
from referee.http.storage import storage
from referee.http.streams import StreamGuard, admit_stream
from referee.storage import open_storage

blueprint = Blueprint("event_stream", __name__)


@blueprint.get("/v1/events/<int:event_id>/stream")
def stream_event(event_id: int) -> Response:
    """The event now, then after every change, as NDJSON.
    ---
    get:
      summary: Follow an event
      description: >
        One event per line (docs/events.md#10): now, then again after every change (a pairing
        made or decided, a round paired, a correction, the end); a blank line every 10 s
        while nothing happens; the stream ends after the finished event. Admitted and
        limited as the live streams are (503 streams_full, 429 too_many_streams); each
        open stream holds one server thread.
      parameters: [{in: path, name: event_id, required: true, schema: {type: integer}}]
      responses:
        200:
          description: NDJSON events
          content: {application/x-ndjson: {schema: Event}}
        401: Problem
        403: Problem
        404: Problem
        429: Problem
        503: Problem
    """
    holder = stream_holder()
    service.load(storage(), event_id)  # 404 before the stream starts
    keep()  # this process's keeper takes the results of the event's live matches
    guard = admit_stream(f"event/{event_id}", holder)  # 429 / 503 when full
    location = current_app.config["DATABASE"]

    def lines(check: StreamGuard) -> Iterator[str]:
        watching = open_storage(location)  # its own: the stream outlives the request
        try:
            for event in follow(watching, event_id, check):
                yield "\n" if event is None else json.dumps(event) + "\n"
        finally:
            watching.close()

    return guard.response(lines)
