"""Reading request bodies: JSON objects, or a record as text/plain with its other fields
as query parameters; with the size limits of NOTATION.md §4."""

from __future__ import annotations

import binascii
import json
from typing import Any

from flask import request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, UnsupportedMediaType

from notation.errors import NotationError
from notation.options import parse_rules_text
from notation.records.formats import format_of_media_type
from referee.adjudication.formats import binary_format, binary_text
from referee.errors import InvalidEncodingError
from referee.http.limits import work_limits
from referee.http.loading import loaded, refusal

BYTES_TYPE = "application/octet-stream"
"""A record sent as its file's bytes, its format detected from them."""

READABLE_CHARSETS = frozenset({"utf-8", "utf8", "us-ascii", "ascii"})

RECORD_TYPES = (
    "send the record itself as the body, as text/plain (a binary file such as .xg as"
    " application/octet-stream, or as its format's own media type, listed by"
    " GET /v1/records/formats), the other fields as query parameters; or a JSON object"
    " with a record field as application/json (docs/notation.md, section 4.5)"
)
"""What a record request with a body of another type is told (a form post, say)."""


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
    length = request.content_length  # worked out from the headers each time it is asked
    if length:
        received = len(request.get_data(cache=True))  # over MAX_CONTENT_LENGTH: 413
        if received < length:
            raise BadRequest(f"the body has {received} of its {length} bytes (Content-Length)")


def json_object(schema: type[Schema], max_bytes: int | None = None) -> dict[str, Any]:
    """The JSON body, loaded by ``schema``; 413 over ``max_bytes``, 415 when not JSON. The
    bytes received are what counts: a chunked body has no Content-Length."""
    return loaded(schema, json_object_data(max_bytes))


def json_object_data(max_bytes: int | None = None) -> dict[str, Any]:
    """The JSON body as an object, not loaded yet (``json_object``'s checks)."""
    if max_bytes is not None and len(request.get_data(cache=True)) > max_bytes:
        raise RequestEntityTooLarge(f"this request body is at most {max_bytes} bytes")
    data = json_body()
    if not isinstance(data, dict):
        raise ValidationError({"body": ["must be a JSON object"]})
    return data


def json_body() -> Any:
    """The parsed JSON body; 415 when it is not sent as JSON, 422 when it is not valid
    JSON (where the parser stopped). Parsed as ``request.get_json`` parses it (the app's
    JSON provider is the standard library's), without the machinery around it that every
    request paid."""
    if not request.is_json:
        raise UnsupportedMediaType("send the request body as application/json")
    try:
        return json.loads(request.get_data(cache=True))
    except ValueError as error:  # a JSONDecodeError, or bytes that are not UTF-8
        raise ValidationError({"body": [f"not valid JSON: {error}"]}) from None
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


def record_of_bytes(data: bytes, name: str | None = None) -> dict[str, str]:
    """A record sent as bytes, as the request fields ``record`` (and ``format``): a binary
    format's file (named, or detected: XG's ``.xg``) read and written as its ``.mat`` text,
    any other its UTF-8 text (InvalidEncodingError when it is not)."""
    found = binary_format(data, name)
    if found is None:
        return {"record": record_text(data)}
    return {"record": binary_text(found, data, work_limits()), "format": "mat"}


def record_body(schema: type[Schema]) -> dict[str, Any]:
    """A record request: JSON, or the record as a text/plain body (or one sent as its
    format's media type, application/x-go-sgf, which names the format, or as
    application/octet-stream, the file's bytes) with the other fields (``variant``,
    ``mode``, ``allow_invalid``, ``options``, ``format``) as query parameters, which the
    body schema's ``text_query`` schema checks first (their lengths, their closed sets)."""
    named = format_of_media_type(request.mimetype)
    if request.mimetype not in ("text/plain", BYTES_TYPE) and named is None:
        if not request.is_json:
            raise UnsupportedMediaType(RECORD_TYPES)
        return loaded(schema, json_record(json_object_data()))
    args: dict[str, Any] = request.args.to_dict()
    if "record" in args:
        message = "the record is the body, not a query parameter"
        raise refusal({"record": [message]}, everything=True)
    query_schema: type[Schema] | None = getattr(schema, "text_query", None)
    if query_schema is not None:
        args = loaded(query_schema, args)
    name = args.get("format") or (named.name if named is not None else None)
    body: dict[str, Any] = {"format": name} if name else {}
    for key, value in args.items():
        body[key] = _query_options(value) if key == "options" else value
    body.update(record_of_bytes(request.get_data(cache=True), name))
    return loaded(schema, body, query=args.keys())


def json_record(data: dict[str, Any]) -> dict[str, Any]:
    """A JSON record request, its ``record_base64`` (a binary file's bytes in base64, in
    place of ``record``) read as ``record_of_bytes`` reads bytes."""
    if "record_base64" not in data:
        return data
    encoded = data["record_base64"]
    data = {key: value for key, value in data.items() if key != "record_base64"}
    if "record" in data or not isinstance(encoded, str):
        raise refusal({"record_base64": ["a base64 string, in place of record"]})
    try:
        raw = binascii.a2b_base64(encoded.encode("ascii"), strict_mode=True)
    except (binascii.Error, UnicodeEncodeError) as error:
        raise refusal({"record_base64": [f"not base64: {error}"]}) from None
    name = data.get("format")
    return {**data, **record_of_bytes(raw, name if isinstance(name, str) else None)}


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
