"""What streamed answers (NDJSON) need from every request's plumbing."""

from __future__ import annotations

from flask import Response

NDJSON = "application/x-ndjson"


def proxy_buffering(response: Response) -> Response:
    """Streams (NDJSON) pass a proxy unbuffered; every other answer may be buffered by it,
    so a slow reader holds the proxy's memory, not a worker thread (docs/operations.md)."""
    if response.mimetype == NDJSON:
        response.headers["X-Accel-Buffering"] = "no"
    return response
