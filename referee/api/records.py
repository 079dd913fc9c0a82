"""The records endpoint: a whole record (one game or a match) in, a verdict out."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, request
from marshmallow import ValidationError

from notation.errors import NotationError
from notation.options import parse_rules_text
from referee.adjudication import adjudicate_record, read_record
from referee.api.bodies import json_object
from referee.api.schemas import RecordCheckRequest
from referee.errors import RefereeError

blueprint = Blueprint("records", __name__)

MAX_GAMES = 10_000


class TooManyGamesError(RefereeError):
    """A record over the games limit (NOTATION.md §4)."""

    code = "too_many_games"
    title = "Too many games"
    status = 413


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
    """Adjudicate a record: every action checked, every game scored (NOTATION.md §4)."""
    body = record_request()
    record = read_record(body["record"])
    if len(record.games) > MAX_GAMES:
        raise TooManyGamesError(
            f"a record holds at most {MAX_GAMES} games, this one {len(record.games)}"
        )
    adjudication = adjudicate_record(record, body["variant"], body["mode"], body["options"])
    return adjudication.verdict.to_json()
