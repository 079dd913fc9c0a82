"""The one place where the notation's NotationError becomes the referee's
InvalidNotationError (keeping the column where the notation knows it)."""

from __future__ import annotations

from notation.errors import NotationError
from referee.errors import InvalidNotationError


class _NotationErrors:
    """The one place where the notation's NotationError becomes the referee's
    InvalidNotationError (keeping the column where the notation knows it). A class, not a
    ``contextmanager`` generator: every request reads its position through it."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: object
    ) -> None:
        if isinstance(error, NotationError):
            column = {} if error.column is None else {"column": error.column}
            raise InvalidNotationError(error.message, **column) from None


def notation_errors() -> _NotationErrors:
    """Use as ``with notation_errors():`` around notation calls."""
    return _NOTATION_ERRORS


_NOTATION_ERRORS = _NotationErrors()
