"""Reading request bodies: JSON objects only, with the size limits of NOTATION.md §4."""

from __future__ import annotations

from typing import Any

from flask import request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import RequestEntityTooLarge, UnsupportedMediaType


def json_object(schema: Schema, max_bytes: int | None = None) -> dict[str, Any]:
    """The JSON body, loaded by ``schema``; 413 over ``max_bytes``, 415 when not JSON."""
    if max_bytes is not None and (request.content_length or 0) > max_bytes:
        raise RequestEntityTooLarge(f"this request body is at most {max_bytes} bytes")
    if not request.is_json:
        raise UnsupportedMediaType("send the request body as application/json")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ValidationError({"body": ["must be a JSON object"]})
    loaded: dict[str, Any] = schema.load(data)
    return loaded
