"""RFC 9457 problem details for every error the service answers."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, json, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, InternalServerError

from referee.errors import MAX_MESSAGE, RefereeError, shortened

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger(__name__)

HTTP_CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    411: "length_required",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    417: "expectation_failed",
    429: "rate_limited",
    431: "request_header_fields_too_large",
    500: "internal_error",
    501: "not_implemented",
    503: "service_unavailable",
}
"""The ``code`` of each HTTP error status, answered by the app or by gunicorn before it
(``referee.http.gunicorn_errors``)."""


def problem_type(code: str) -> str:
    """The documented ``type`` of the problems with ``code``."""
    return f"/problems/{code.replace('_', '-')}"


def problem_body(
    status: int, code: str, title: str, detail: str, **extensions: Any
) -> dict[str, Any]:
    """An RFC 9457 problem; ``code`` is the stable slug clients switch on."""
    return {
        "type": problem_type(code),
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


def refused_fields(error: ValidationError) -> list[dict[str, str]]:
    """``[{field, in, message}]`` of a refused request: ``in`` is ``query`` for a query
    parameter (``referee.http.loading.refusal`` says which), else ``body``; texts cut."""
    query = error.kwargs.get("query", frozenset())
    errors = _field_errors(shortened(error.messages))
    for item in errors:
        item["in"] = "query" if item["field"].split(".")[0] in query else "body"
    return errors


def refusal_detail(errors: list[dict[str, str]]) -> str:
    """The problem's detail: each query parameter named with what is wrong with it, then the
    fields of the body that are not valid."""
    clauses: dict[str, list[str]] = {}
    for item in errors:
        if item["in"] == "query":
            clauses.setdefault(item["field"], []).append(item["message"])
    parts = [
        f"the query parameter {name} is not valid: {' '.join(messages).rstrip('.')}"
        for name, messages in clauses.items()
    ]
    body = [item["field"] for item in errors if item["in"] != "query"]
    if body:
        parts.append(f"the request body is not valid: {', '.join(body)}")
    detail: str = shortened("; ".join(parts), MAX_MESSAGE)
    return detail


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
        errors = refused_fields(error)
        return problem_response(
            422,
            "validation_failed",
            "Invalid request",
            refusal_detail(errors),
            errors=errors,
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        response = problem_response(
            status,
            HTTP_CODES.get(status, "http_error"),
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
