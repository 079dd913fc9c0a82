"""gunicorn's own error answers as RFC 9457 problem+json, like every answer of the app.

gunicorn answers a request it cannot read (a request line past ``limit_request_line``, a
header past its limits, a malformed line) itself, before the app sees it, with an HTML page
written by ``gunicorn.util.write_error``. ``answer_problems()`` (the ``post_worker_init``
hook of ``gunicorn.conf.py``) replaces that function in the worker with one writing the
same status as a problem: ``type``, ``title``, ``status``, ``detail`` (gunicorn's words,
cut to a few hundred characters: an unreadable request line is repeated in them) and
``code``; no ``instance``, since no path was read.
"""

from __future__ import annotations

import json
import socket

from gunicorn import util  # type: ignore[import-untyped]

from referee.errors import MAX_MESSAGE, shortened
from referee.http.problems import HTTP_CODES, PROBLEM_JSON, problem_type


def problem_page(status: int, reason: str, message: str) -> bytes:
    """The whole HTTP answer (head and problem+json body) of gunicorn's refusal."""
    code = HTTP_CODES.get(status, "http_error")
    problem = {
        "type": problem_type(code),
        "title": reason,
        "status": status,
        "detail": shortened(message or reason, MAX_MESSAGE),
        "code": code,
    }
    body = json.dumps(problem).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
        f"Content-Type: {PROBLEM_JSON}\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def write_problem(sock: socket.socket, status: int, reason: str, message: str) -> None:
    """``gunicorn.util.write_error``'s twin: the same answer, as problem+json."""
    util.write_nonblock(sock, problem_page(status, reason, message))


def answer_problems() -> None:
    """Make this gunicorn process answer its own errors as problem+json."""
    util.write_error = write_problem
