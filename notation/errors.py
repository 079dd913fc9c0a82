"""The one error type of the notation package, and how errors repeat a client's text."""

from __future__ import annotations

ECHO_LIMIT = 200
"""Characters of a client's text that an error repeats; the rest is cut, visibly."""


class NotationError(ValueError):
    """Text that cannot be read; ``code`` is a stable slug, ``column`` is 1-based or None."""

    def __init__(self, code: str, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.column = column


def cut(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text``, or its first ``limit`` characters and an ellipsis (``…``) when longer."""
    return text if len(text) <= limit else f"{text[:limit]}…"


def echoed(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` quoted as an error repeats it (its ``repr``), its first ``limit`` characters
    only, then an ellipsis and its length: ``'xxxx…' (60,000 characters)``."""
    shown = repr(text[:limit])
    if len(text) <= limit and len(shown) <= limit + 2:
        return shown
    quote, body = shown[0], shown[1:-1]
    return f"{quote}{body[:limit]}…{quote} ({len(text):,} characters)"
