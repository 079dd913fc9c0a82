"""The records endpoint: a whole record (one game or a match) in, a verdict out."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from referee.adjudication import check_record as verdict_on
from referee.api.schemas import RecordCheckRequest
from referee.http.bodies import record_body
from referee.http.engine import engine
from referee.http.limits import check_slot, rate_limited, work_limits

blueprint = Blueprint("records", __name__)


@blueprint.post("/v1/records/check")
@rate_limited("check")
@check_slot
def check_record() -> dict[str, Any]:
    """Adjudicate a record: every action checked, every game scored (NOTATION.md §4).
    ---
    post:
      summary: Check a whole record
      description: >
        A record with illegal plays is a 200 verdict with valid false. The record may also
        be sent as text/plain with variant, mode and options (JSON or k=v,k=v) as query
        parameters. A record whose checking goes past a work limit (games, actions,
        enumerated plays, errors, edits, seconds) is refused with 413 work_limit naming
        the limit.
        Clients without a bearer token are rate limited (limit check): 429
        rate_limited, with Retry-After and ratelimit {key, seconds}. 503 overloaded with
        Retry-After when the worker checks as many records at once as it may.
      parameters:
        - {in: query, schema: RecordCheckQuery}
      requestBody:
        required: true
        content:
          application/json:
            schema: RecordCheckRequest
          text/plain:
            schema: {type: string}
      responses:
        200:
          description: The verdict
          content: {application/json: {schema: Verdict}}
        413: Problem
        415: Problem
        422: Problem
        429: Problem
        503: Problem
    """
    body = record_body(RecordCheckRequest)
    verdict = verdict_on(
        body["record"], body["variant"], body["mode"], body["options"], work_limits(), engine()
    )
    return verdict.to_json()
