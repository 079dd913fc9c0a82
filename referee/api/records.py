"""The records endpoint: a whole record (one game or a match) in, a verdict out."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from notation.records.formats import FORMATS
from referee.adjudication import check_record as verdict_on
from referee.api.schemas import EXPORT_FORMATS, RecordCheckRequest
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
        A record with illegal plays is a 200 verdict with valid false. The record is a
        .mat or gnubg's SGF (GM[6]), its format detected from the content or named by
        format (422 unknown_format names the formats tried when none fits); a .mat
        holding several matches is answered for the first, with a several_matches
        warning. The record may also be sent as text/plain (or application/x-go-sgf)
        with variant, mode, format and options (JSON or k=v,k=v) as query parameters.
        eXtreme Gammon's binary .xg is sent as its bytes (application/octet-stream or
        application/x-xg, its format detected from them or named by format=xg), or in
        JSON as record_base64 (the file in base64) in place of record; it is read and
        checked as the .mat text it holds (a cut or corrupt file: 422 invalid_notation
        naming the record and byte where reading stopped). A
        record whose reading or checking goes past a work limit (games, actions,
        enumerated plays, errors, edits, seconds) is refused with 413 work_limit naming
        the limit; SGF that cannot be read is 422 invalid_notation saying where reading
        stopped.
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
          application/x-go-sgf:
            schema: {type: string}
          application/octet-stream:
            schema: {type: string, format: binary}
          application/x-xg:
            schema: {type: string, format: binary}
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
        body["record"],
        body["variant"],
        body["mode"],
        body["options"],
        work_limits(),
        engine(),
        body["format"],
    )
    return verdict.to_json()


@blueprint.get("/v1/records/formats")
def record_formats() -> dict[str, Any]:
    """The record formats read and written.
    ---
    get:
      summary: Record formats
      description: >
        The formats POST /v1/records/check and the imports read (in the order detection
        tries them: the format= names, the media types and file suffixes that name each,
        what detection looks for), and the formats a stored match is exported in
        (GET /v1/matches/{id}?format=).
      responses:
        200:
          description: The formats
          content: {application/json: {schema: RecordFormatsResponse}}
    """
    read = [
        {
            "name": found.name,
            "title": found.title,
            "media_types": list(found.media_types),
            "suffixes": list(found.suffixes),
            "detected_by": found.hint,
            "binary": found.binary,
        }
        for found in FORMATS
    ]
    return {"read": read, "export": list(EXPORT_FORMATS)}
