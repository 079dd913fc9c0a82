"""The events endpoints of EVENTS.md §2: create, list, read and start events, a records
event's records, the host's awards, the exports of an event, and the ratings (the requests'
schemas in ``referee.api.event_requests``, the answers' in ``referee.events.shapes``)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request, stream_with_context, url_for

from notation.errors import echoed
from referee.api.event_requests import (
    EventCreateRequest,
    EventListQuery,
    EventRecordRequest,
    EventResultRequest,
    RatingQuery,
    RatingsQuery,
)
from referee.errors import NotFoundError
from referee.events import exports, rated, service, shapes, views
from referee.events.keeper import POLL_SECONDS, Keeper
from referee.http.auth import requires, token_holder
from referee.http.bodies import json_object, record_body
from referee.http.engine import engine
from referee.http.limits import check_slot, work_limits
from referee.http.loading import loaded
from referee.http.names import normal_name
from referee.http.problems import problem_body
from referee.http.storage import storage
from referee.http.streams import NDJSON
from referee.scopes import Scope
from referee.shapes import schema_of
from referee.storage import open_storage
from referee.storage.model.events import EventQuery

blueprint = Blueprint("events", __name__)

SMALL_BODY = 64 * 1024


# The answers' schemas, named as openapi.yaml names them (referee/events/shapes.py).
Event = schema_of(shapes.Event)
EventPage = schema_of(shapes.EventPage)
EventRecordResponse = schema_of(shapes.EventRecordResponse)
EventResultResponse = schema_of(shapes.EventResultResponse)
EventStandings = schema_of(shapes.EventStandings)
PlayerRating = schema_of(shapes.PlayerRating)
PlayerRatingHistory = schema_of(shapes.PlayerRatingHistory)


# -- the endpoints -----------------------------------------------------------------------


def readable() -> None:
    """Reads need a token only in private mode; then any of the service's tokens will do."""
    if current_app.config["PRIVATE"]:
        token_holder(Scope.ARCHIVE_READ, Scope.ARCHIVE_WRITE, Scope.PLAY, Scope.LIVE_HOST)


def event_now(event_id: int) -> dict[str, Any]:
    """The event now, its finished live matches taken first."""
    keep()
    opened = storage()
    return views.event_json(opened, service.now(opened, event_id, engine()))


@blueprint.post("/v1/events")
def create_event() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Create an event.
    ---
    post:
      summary: Create an event
      description: >
        Needs a bearer token with scope live:host (docs/events.md#3). 422 with a stable code:
        unknown_bot (a bots event's entrant that is no play token), duplicate_entrant,
        entrant_count (fewer than 2 or more than 256), mirrored_not_allowed (with knockout
        or double-elimination, or in a records event), invalid_brackets (consolation
        outside a knockout, last_chance without consolation, grand_final_reset outside a
        double elimination, a length for a bracket the event does not play),
        invalid_rounds (a Swiss without rounds, or other rounds than a round robin's or a
        knockout's), unknown_variant, invalid_option.
      security: [{bearer: []}]
      requestBody:
        required: true
        content: {application/json: {schema: EventCreateRequest}}
      responses:
        201:
          description: Created; Location is the event
          content: {application/json: {schema: Event}}
        401: Problem
        403: Problem
        413: Problem
        415: Problem
        422: Problem
    """
    host = token_holder(Scope.LIVE_HOST)
    body = json_object(EventCreateRequest, SMALL_BODY)
    clock = body.pop("clock") or {}
    tiebreaks = body.pop("tiebreaks")
    if body["grand_final_reset"] is None:
        del body["grand_final_reset"]
    asked = service.EventRequest(
        **{**body, "entrants": tuple(body["entrants"])},
        tiebreaks=None if tiebreaks is None else tuple(tiebreaks),
        reserve_per_point=clock.get("reserve_per_point"),
        delay=clock.get("delay", 0),
    )
    event_id = service.create(storage(), host, asked)
    location = url_for("events.get_event", event_id=event_id)
    return event_now(event_id), 201, {"Location": location}


@blueprint.get("/v1/events")
def list_events() -> Response | dict[str, Any]:
    """The events, newest first.
    ---
    get:
      summary: List events
      description: >
        Newest first, one page at a time (follow next_cursor); with Accept
        application/x-ndjson every event of every page, one JSON object per line.
      parameters:
        - {in: query, schema: EventListQuery}
      responses:
        200:
          description: A page of events
          content:
            application/json: {schema: EventPage}
            application/x-ndjson: {schema: {type: string}}
        401: Problem
        403: Problem
        422: Problem
    """
    readable()
    args = loaded(EventListQuery, request.args.to_dict())
    cursor = int(args["cursor"]) if "cursor" in args else None
    query = EventQuery(args.get("status"), args["limit"], cursor)
    if request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON:
        return Response(stream_with_context(_ndjson(query)), mimetype=NDJSON)
    page = storage().events.search(query)
    next_cursor = str(page[-1].id) if len(page) == query.page_size else None
    return {"events": [views.summary_json(found) for found in page], "next_cursor": next_cursor}


def _ndjson(query: EventQuery) -> Iterator[str]:
    try:
        while True:
            page = storage().events.search(query)
            for found in page:
                yield json.dumps(views.summary_json(found)) + "\n"
            if len(page) < query.page_size:
                return
            query = EventQuery(query.status, query.limit, page[-1].id)
    except Exception as error:  # headers are sent: the error becomes the last line
        yield json.dumps({"error": problem_body(500, "internal_error", "Error", str(error))}) + "\n"


@blueprint.get("/v1/events/<int:event_id>")
def get_event(event_id: int) -> dict[str, Any]:
    """An event (EVENTS.md §4).
    ---
    get:
      summary: An event
      description: >
        Its entrants and seeds, every round's pairings (linked to their live matches and
        stored records) and byes, and the standings with their tie-breaks. The results
        of live matches that have finished are taken first.
      parameters: [{in: path, name: event_id, required: true, schema: {type: integer}}]
      responses:
        200:
          description: The event
          content: {application/json: {schema: Event}}
        401: Problem
        403: Problem
        404: Problem
    """
    readable()
    return event_now(event_id)


@blueprint.post("/v1/events/<int:event_id>/start")
def start_event(event_id: int) -> dict[str, Any]:
    """Start an event.
    ---
    post:
      summary: Start an event
      description: >
        The event's host (the live:host token that created it): the entrants are seeded
        by rating, round 1 is paired, and a bots event's live matches are created. 409
        event_state when it is not open.
      security: [{bearer: []}]
      parameters: [{in: path, name: event_id, required: true, schema: {type: integer}}]
      responses:
        200:
          description: The event, running
          content: {application/json: {schema: Event}}
        401: Problem
        403: Problem
        404: Problem
        409: Problem
        422: Problem
    """
    host = token_holder(Scope.LIVE_HOST)
    service.start(storage(), event_id, host, engine())
    return event_now(event_id)


@blueprint.post("/v1/events/<int:event_id>/rounds/<int:number>/pairings/<int:table>/record")
@check_slot
def submit_record(event_id: int, number: int, table: int) -> dict[str, Any]:
    """A records event's pairing gets its record.
    ---
    post:
      summary: Submit a pairing's record
      description: >
        The event's host (docs/events.md#6). The record (JSON {"record"}, text/plain or
        application/x-go-sgf; an .xg as application/octet-stream or JSON
        {"record_base64"}, read as its .mat text), a .mat or gnubg's SGF, its format
        detected or named by format (format as a query parameter for a text body), gets
        the event's tags (an SGF's as its first game's root properties) and is
        adjudicated and stored as by POST /v1/matches (invalid ones too). A valid record
        of the match between the pairing's two entrants, at the event's length, gives the
        result; an invalid or incomplete one, or one of other players or of another
        length, is stored too and leaves the pairing disputed with the verdict's id and
        the reason in its dispute
        (200).
        422 pairing_decided for a pairing that has its result, unknown_pairing for a
        round or table the event does not have, wrong_kind in a bots event; 409
        event_state when the event is not running.
      security: [{bearer: []}]
      parameters:
        - {in: path, name: event_id, required: true, schema: {type: integer}}
        - {in: path, name: number, required: true, schema: {type: integer}}
        - {in: path, name: table, required: true, schema: {type: integer}}
        - {in: query, schema: EventRecordQuery}
      requestBody:
        required: true
        content:
          application/json: {schema: EventRecordRequest}
          text/plain: {schema: {type: string}}
          application/x-go-sgf: {schema: {type: string}}
          application/octet-stream: {schema: {type: string, format: binary}}
      responses:
        200:
          description: The pairing after the record
          content: {application/json: {schema: EventRecordResponse}}
        401: Problem
        403: Problem
        404: Problem
        409: Problem
        413: Problem
        415: Problem
        422: Problem
        503: Problem
    """
    host = token_holder(Scope.LIVE_HOST)
    keep()
    body = record_body(EventRecordRequest)
    done = service.submit_record(
        storage(),
        event_id,
        number,
        table,
        body["record"],
        host,
        work_limits(),
        engine(),
        body["format"],
    )
    return {
        **views.result_json(event_id, number, done.pairing),
        "match_id": done.match_id,
        "duplicate": done.duplicate,
        "verdict": done.verdict,
    }


@blueprint.post("/v1/events/<int:event_id>/rounds/<int:number>/pairings/<int:table>/result")
def award_result(event_id: int, number: int, table: int) -> dict[str, Any]:
    """The host awards a pairing's result.
    ---
    post:
      summary: Award a pairing's result
      description: >
        The event's host (docs/events.md#6): the pairing is decided with termination award
        and the host's reason; it counts for standings, not for ratings (a live match of
        it still in play is aborted). 422 unknown_pairing for a round or table the event
        does not have, pairing_decided for one that has its result; 409 event_state when
        the event is not running.
      security: [{bearer: []}]
      parameters:
        - {in: path, name: event_id, required: true, schema: {type: integer}}
        - {in: path, name: number, required: true, schema: {type: integer}}
        - {in: path, name: table, required: true, schema: {type: integer}}
      requestBody:
        required: true
        content: {application/json: {schema: EventResultRequest}}
      responses:
        200:
          description: The pairing, decided
          content: {application/json: {schema: EventResultResponse}}
        401: Problem
        403: Problem
        404: Problem
        409: Problem
        413: Problem
        415: Problem
        422: Problem
    """
    host = token_holder(Scope.LIVE_HOST)
    keep()
    body = json_object(EventResultRequest, SMALL_BODY)
    pairing = service.award(
        storage(), event_id, number, table, body["winner"], body["reason"], host
    )
    return views.result_json(event_id, number, pairing)


@blueprint.get("/v1/events/<int:event_id>/standings.json")
def standings_json(event_id: int) -> dict[str, Any]:
    """The standings of an event.
    ---
    get:
      summary: An event's standings as JSON
      description: The event's facts and its standings (an export; also part of the event).
      parameters: [{in: path, name: event_id, required: true, schema: {type: integer}}]
      responses:
        200:
          description: The standings
          content: {application/json: {schema: EventStandings}}
        401: Problem
        403: Problem
        404: Problem
    """
    readable()
    return exports.standings_document(event_now(event_id))


@blueprint.get("/v1/events/<int:event_id>/standings.csv")
def standings_csv(event_id: int) -> Response:
    """The standings of an event as CSV.
    ---
    get:
      summary: An event's standings as CSV
      description: >
        One line per entrant (rank, name, seed, match points, wins, draws, losses, byes,
        points for and against, then the tie-breaks), with a header line.
      parameters: [{in: path, name: event_id, required: true, schema: {type: integer}}]
      responses:
        200:
          description: The standings
          content: {text/csv: {schema: {type: string}}}
        401: Problem
        403: Problem
        404: Problem
    """
    readable()
    text = exports.standings_csv(event_now(event_id))
    disposition = f'attachment; filename="event-{event_id}-standings.csv"'
    return Response(text, mimetype="text/csv", headers={"Content-Disposition": disposition})


@blueprint.get("/v1/events/<int:event_id>/records.zip")
@requires(Scope.ARCHIVE_READ)
def records_zip(event_id: int) -> Response:
    """Every record of an event, as one zip.
    ---
    get:
      summary: An event's records as a zip of .mat files
      description: >
        The stored record of every finished pairing (a mirrored pair's two), named by
        round, table and players. Records, so in private mode it needs what
        GET /v1/matches/{match_id} needs: a token with scope archive:read.
      parameters: [{in: path, name: event_id, required: true, schema: {type: integer}}]
      responses:
        200:
          description: The zip
          content: {application/zip: {schema: {type: string, format: binary}}}
        401: Problem
        403: Problem
        404: Problem
    """
    event_now(event_id)
    data = exports.records_zip(storage(), service.load(storage(), event_id))
    disposition = f'attachment; filename="event-{event_id}-records.zip"'
    return Response(data, mimetype="application/zip", headers={"Content-Disposition": disposition})


@blueprint.get("/v1/ratings")
def list_ratings() -> list[dict[str, Any]]:
    """The ratings (EVENTS.md §8), best first.
    ---
    get:
      summary: Ratings
      description: >
        FIBS ratings per name and variant from the finished matches of rated events, best
        first (without variant: every variant's, by variant).
      parameters:
        - {in: query, schema: RatingsQuery}
      responses:
        200:
          description: The ratings
          content: {application/json: {schema: {type: array, items: PlayerRating}}}
        401: Problem
        403: Problem
        422: Problem
    """
    readable()
    args = loaded(RatingsQuery, request.args.to_dict())
    opened = storage()
    variants = [args["variant"]] if "variant" in args else opened.ratings.variants()
    return [
        views.rating_json(variant, player)
        for variant in variants
        for player in rated.current(opened, variant).players
    ]


@blueprint.get("/v1/ratings/<name>")
def get_rating(name: str) -> dict[str, Any]:
    """One name's rating and its history.
    ---
    get:
      summary: A rating and its history
      description: The rating of one name in one variant, with every rated match's change.
      parameters:
        - {in: path, name: name, required: true, schema: {type: string, maxLength: 100}}
        - {in: query, schema: RatingQuery}
      responses:
        200:
          description: The rating
          content: {application/json: {schema: PlayerRatingHistory}}
        401: Problem
        403: Problem
        404: Problem
        422: Problem
    """
    readable()
    args = loaded(RatingQuery, request.args.to_dict())
    variant, opened, name = args["variant"], storage(), normal_name(name)
    found = next((p for p in rated.current(opened, variant).players if p.name == name), None)
    if found is None:
        raise NotFoundError(f"{echoed(name, 100)} has no {variant} rating")
    return views.history_json(variant, found, opened.ratings.history(variant, name))


def init_events(app: Flask) -> None:
    """The keeper of each serving process (started on its first request).
    ``NARDY_REFEREE_EVENTS_POLL``: how often (seconds) it looks at the running events
    (0: never; events then move on when they are read)."""
    poll = float(os.environ.get("NARDY_REFEREE_EVENTS_POLL", str(POLL_SECONDS)))
    keeper = Keeper(app.config["DATABASE"], poll)
    starting = open_storage(app.config["DATABASE"])
    try:
        keeper.wanted = bool(starting.events.running())
    finally:
        starting.close()
    app.extensions["event_keeper"] = keeper
    app.before_request(keeper.wake)


def keep() -> None:
    """Start this process's keeper (a request about events: one may be running)."""
    current_app.extensions["event_keeper"].ensure_started()
