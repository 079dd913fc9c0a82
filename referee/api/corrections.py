"""The corrections of an event (EVENTS.md §11): a result voided, an entrant withdrawn, and
the ledger of every correction, award, forfeit and no-show."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from referee.api.events import SMALL_BODY, event_now, keep, readable
from referee.api.schemas import ReasonRequest
from referee.events import corrections, shapes, views
from referee.http.auth import token_holder
from referee.http.bodies import json_object
from referee.http.storage import storage
from referee.scopes import Scope
from referee.shapes import schema_of

blueprint = Blueprint("events_corrections", __name__)


EventLedgerEntry = schema_of(shapes.EventLedgerEntry)


@blueprint.post("/v1/events/<int:event_id>/rounds/<int:number>/pairings/<int:table>/void")
def void_result(event_id: int, number: int, table: int) -> dict[str, Any]:
    """The host voids a pairing's result.
    ---
    post:
      summary: Void a pairing's result
      description: >
        The event's host (docs/events.md#12-1), in a running or finished event: a records
        pairing is pending again (a new record or an award decides it), a bots pairing is
        played again in new live matches (a mirrored pair: both). Standings and ratings
        are computed again without it; rounds already paired stay as they are, and the
        next round waits for the new result. 409 pairing_undecided for a pairing without
        a result, event_state for an event not started; 422 unknown_pairing.
      security: [{bearer: []}]
      parameters:
        - {in: path, name: event_id, required: true, schema: {type: integer}}
        - {in: path, name: number, required: true, schema: {type: integer}}
        - {in: path, name: table, required: true, schema: {type: integer}}
      requestBody:
        required: true
        content: {application/json: {schema: ReasonRequest}}
      responses:
        200:
          description: The pairing, voided
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
    body = json_object(ReasonRequest, SMALL_BODY)
    pairing = corrections.void(storage(), event_id, number, table, body["reason"], host)
    return views.result_json(event_id, number, pairing)


@blueprint.post("/v1/events/<int:event_id>/entrants/<name>/withdraw")
def withdraw_entrant(event_id: int, name: str) -> dict[str, Any]:
    """The host withdraws an entrant.
    ---
    post:
      summary: Withdraw an entrant
      description: >
        The event's host (docs/events.md#12-2), in a running event: the entrant is not paired
        from the next round on (a Swiss leaves it out; in a round robin or a knockout its
        pairings are forfeited to the opponent), and a pairing of it in play is forfeited
        (termination forfeit, the opponent wins; in a knockout the opponent goes through).
        422 unknown_entrant; 409 already_withdrawn, event_state.
      security: [{bearer: []}]
      parameters:
        - {in: path, name: event_id, required: true, schema: {type: integer}}
        - {in: path, name: name, required: true, schema: {type: string}}
      requestBody:
        required: true
        content: {application/json: {schema: ReasonRequest}}
      responses:
        200:
          description: The event
          content: {application/json: {schema: Event}}
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
    body = json_object(ReasonRequest, SMALL_BODY)
    corrections.withdraw(storage(), event_id, name, body["reason"], host)
    return event_now(event_id)


@blueprint.get("/v1/events/<int:event_id>/ledger")
def event_ledger(event_id: int) -> list[dict[str, Any]]:
    """The event's ledger.
    ---
    get:
      summary: An event's ledger
      description: >
        Every correction, award, forfeit and no-show of the event (docs/events.md#12-3), in the
        order made; by is the host's token name, or server for what the server did (a
        no-show, a withdrawal of a bot whose token was revoked).
      parameters: [{in: path, name: event_id, required: true, schema: {type: integer}}]
      responses:
        200:
          description: The ledger
          content:
            application/json: {schema: {type: array, items: EventLedgerEntry}}
        401: Problem
        403: Problem
        404: Problem
    """
    readable()
    return [views.correction_json(entry) for entry in corrections.ledger(storage(), event_id)]
