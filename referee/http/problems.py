"""RFC 9457 problem details for every error the service answers."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, json, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, InternalServerError

from referee.errors import RefereeError

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger(__name__)

_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    411: "length_required",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
    500: "internal_error",
    503: "service_unavailable",
}


def problem_body(
    status: int, code: str, title: str, detail: str, **extensions: Any
) -> dict[str, Any]:
    """An RFC 9457 problem; ``code`` is the stable slug clients switch on."""
    return {
        "type": f"/problems/{code.replace('_', '-')}",
        "title": title,
        "status": status,
        "detail": detail,
        "instance": request.path,
        "code": code,
        **extensions,
    }


def problem_response(
    status: int, code: str, title: str, detail: str, **extensions: Any
) -> Response:
    """A problem+json response."""
    body = problem_body(status, code, title, detail, **extensions)
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="nardy-referee"'
    return response


def _field_errors(messages: Any, prefix: str = "") -> list[dict[str, str]]:
    """Flatten marshmallow's nested messages into ``[{field, message}]``."""
    if isinstance(messages, dict):
        errors = []
        for key, value in messages.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            errors.extend(_field_errors(value, name))
        return errors
    if isinstance(messages, list) and all(isinstance(item, str) for item in messages):
        return [{"field": prefix or "body", "message": item} for item in messages]
    return [{"field": prefix or "body", "message": str(messages)}]


def register_problem_handlers(app: Flask) -> None:
    """Answer domain errors, request validation errors and HTTP errors as problems."""

    @app.errorhandler(RefereeError)
    def referee_error(error: RefereeError) -> Response:
        response = problem_response(
            error.status, error.code, error.title, error.message, **error.extensions
        )
        if error.retry_after is not None:
            response.headers["Retry-After"] = str(error.retry_after)
        return response

    @app.errorhandler(ValidationError)
    def validation_error(error: ValidationError) -> Response:
        errors = _field_errors(error.messages)
        fields = ", ".join(item["field"] for item in errors)
        return problem_response(
            422,
            "validation_failed",
            "Invalid request",
            f"the request body is not valid: {fields}",
            errors=errors,
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        response = problem_response(
            status,
            _HTTP_CODES.get(status, "http_error"),
            error.name,
            error.description or error.name,
        )
        for name, value in error.get_response().headers.items():
            if name.lower() not in ("content-type", "content-length"):
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception) -> Response:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return http_error(InternalServerError())
