"""The records endpoint: a whole record (one game or a match) in, a verdict out."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from referee.adjudication import adjudicate
from referee.api.bodies import record_body
from referee.api.schemas import RecordCheckRequest

blueprint = Blueprint("records", __name__)


@blueprint.post("/v1/records/check")
def check_record() -> dict[str, Any]:
    """Adjudicate a record: every action checked, every game scored (NOTATION.md §4).
    ---
    post:
      summary: Check a whole record
      description: >
        A record with illegal plays is a 200 verdict with valid false. The record may also
        be sent as text/plain with variant, mode and options (JSON or k=v,k=v) as query
        parameters.
      parameters:
        - {in: query, name: variant, schema: {type: string}}
        - {in: query, name: mode, schema: {type: string, enum: [strict, condone]}}
        - {in: query, name: options, schema: {type: string}}
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
    """
    body = record_body(RecordCheckRequest())
    adjudication = adjudicate(body["record"], body["variant"], body["mode"], body["options"])
    return adjudication.verdict.to_json()
