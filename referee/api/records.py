"""The records endpoint: a whole record (one game or a match) in, a verdict out."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, request
from marshmallow import ValidationError

from notation.errors import NotationError
from notation.options import parse_rules_text
from referee.api.bodies import json_object
from referee.api.schemas import RecordCheckRequest
from referee.matches import check_text

blueprint = Blueprint("records", __name__)


def record_request() -> dict[str, Any]:
    """The request as ``{record, variant, mode, options}``, from JSON or a text/plain body."""
    if request.mimetype == "text/plain":
        args = request.args
        body: dict[str, Any] = {"record": request.get_data(as_text=True)}
        for name in ("variant", "mode"):
            if name in args:
                body[name] = args[name]
        if "options" in args:
            body["options"] = _query_options(args["options"])
        loaded: dict[str, Any] = RecordCheckRequest().load(body)
        return loaded
    return json_object(RecordCheckRequest())


def _query_options(text: str) -> dict[str, object]:
    """``options`` as a query parameter: a JSON object or ``key=value,key=value``."""
    value: object
    try:
        value = json.loads(text) if text.lstrip().startswith("{") else parse_rules_text(text)
    except (ValueError, NotationError) as error:
        raise ValidationError({"options": [str(error)]}) from None
    if not isinstance(value, dict):
        raise ValidationError({"options": ["must be an object"]})
    return {str(key): item for key, item in value.items()}


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
    body = record_request()
    adjudication = check_text(body["record"], body["variant"], body["mode"], body["options"])
    return adjudication.verdict.to_json()
