"""The one error type of the notation package."""

from __future__ import annotations


class NotationError(ValueError):
    """Text that cannot be read; ``code`` is a stable slug, ``column`` is 1-based or None."""

    def __init__(self, code: str, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.column = column
