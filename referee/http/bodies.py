"""Reading request bodies: JSON objects, or a record as text/plain with its other fields
as query parameters; with the size limits of NOTATION.md §4."""

from __future__ import annotations

import json
from typing import Any

from flask import request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, UnsupportedMediaType

from notation.errors import NotationError
from notation.options import parse_rules_text
from notation.records.formats import format_of_media_type
from referee.errors import InvalidEncodingError
from referee.http.loading import loaded, refusal

READABLE_CHARSETS = frozenset({"utf-8", "utf8", "us-ascii", "ascii"})


def check_body() -> None:
    """Before any view: a body is read whole, in UTF-8, as sent. 415 for a Content-Encoding
    (compressed bodies are not read) or a charset other than UTF-8; 400 for a body shorter
    than its Content-Length (the client went away mid-upload: nothing of it is used)."""
    encoding = request.headers.get("Content-Encoding", "").strip().lower()
    if encoding not in ("", "identity"):
        raise UnsupportedMediaType(f"Content-Encoding {encoding[:40]!r}: send the body as is")
    charset = request.mimetype_params.get("charset")
    if charset is not None and charset.strip().lower() not in READABLE_CHARSETS:
        raise UnsupportedMediaType(f"charset {charset[:40]!r}: send the body in UTF-8")
    if request.content_length:
        received = len(request.get_data(cache=True))  # over MAX_CONTENT_LENGTH: 413
        if received < request.content_length:
            raise BadRequest(
                f"the body has {received} of its {request.content_length} bytes (Content-Length)"
            )


def json_object(schema: type[Schema], max_bytes: int | None = None) -> dict[str, Any]:
    """The JSON body, loaded by ``schema``; 413 over ``max_bytes``, 415 when not JSON. The
    bytes received are what counts: a chunked body has no Content-Length."""
    if max_bytes is not None and len(request.get_data(cache=True)) > max_bytes:
        raise RequestEntityTooLarge(f"this request body is at most {max_bytes} bytes")
    data = json_body()
    if not isinstance(data, dict):
        raise ValidationError({"body": ["must be a JSON object"]})
    return loaded(schema, data)


def json_body() -> Any:
    """The parsed JSON body (None when it is not JSON); 415 when it is not sent as JSON."""
    if not request.is_json:
        raise UnsupportedMediaType("send the request body as application/json")
    try:
        return request.get_json(silent=True)
    except RecursionError:
        raise ValidationError({"body": ["JSON nested too deeply"]}) from None


def has_body() -> bool:
    """Whether the request sent a body at all (with a Content-Length, or chunked)."""
    return bool(request.get_data(cache=True))


def record_text(data: bytes) -> str:
    """A record's bytes as text: UTF-8 (a BOM is dropped), or InvalidEncodingError; never
    a text with bytes replaced, since the archive keeps the record as received."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InvalidEncodingError(
            f"the record is not UTF-8 text (byte {error.start + 1} cannot be read)"
        ) from None


def record_body(schema: type[Schema]) -> dict[str, Any]:
    """A record request: JSON, or the record as a text/plain body (or one sent as its
    format's media type, application/x-go-sgf, which names the format) with the other
    fields (``variant``, ``mode``, ``allow_invalid``, ``options``, ``format``) as query
    parameters, which the body schema's ``text_query`` schema checks first (their lengths,
    their closed sets)."""
    named = format_of_media_type(request.mimetype)
    if request.mimetype != "text/plain" and named is None:
        return json_object(schema)
    body: dict[str, Any] = {"record": record_text(request.get_data(cache=True))}
    if named is not None and "format" not in request.args:
        body["format"] = named.name
    args: dict[str, Any] = request.args.to_dict()
    if "record" in args:
        message = "the record is the body, not a query parameter"
        raise refusal({"record": [message]}, everything=True)
    query_schema: type[Schema] | None = getattr(schema, "text_query", None)
    if query_schema is not None:
        args = loaded(query_schema, args)
    for name, value in args.items():
        body[name] = _query_options(value) if name == "options" else value
    return loaded(schema, body, query=args.keys())


def _query_options(text: str) -> dict[str, object]:
    """``options`` as a query parameter: a JSON object or ``key=value,key=value``."""
    value: object
    try:
        value = json.loads(text) if text.lstrip().startswith("{") else parse_rules_text(text)
    except (ValueError, NotationError, RecursionError) as error:
        raise refusal({"options": [f"not an options object: {error}"]}, everything=True) from None
    if not isinstance(value, dict):
        raise refusal({"options": ["must be an object"]}, everything=True)
    return {str(key): item for key, item in value.items()}
