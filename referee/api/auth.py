"""Bearer tokens with scopes: writes need ``archive:write``; reads need a token only when
``NARDY_REFEREE_PRIVATE=1``. Tokens are compared by hash and never logged or echoed."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from flask import current_app, request

from referee.api.storage import archive
from referee.errors import ForbiddenError, UnauthorizedError

WRITE = "archive:write"
READ = "archive:read"

Handler = TypeVar("Handler", bound=Callable[..., object])


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def check_scope(scope: str) -> None:
    """Raise unless the request carries a live token with ``scope`` (write implies read)."""
    token = bearer_token()
    if token is None:
        raise UnauthorizedError(f"this needs a bearer token with scope {scope}")
    scopes = archive().token_scopes(token)
    if scopes is None:
        raise UnauthorizedError("the bearer token is unknown or revoked")
    granted = set(scopes) | ({READ} if WRITE in scopes else set())
    if scope not in granted:
        raise ForbiddenError(f"the token's scopes do not include {scope}")


def requires(scope: str) -> Callable[[Handler], Handler]:
    """Guard a view: ``archive:write`` always, ``archive:read`` only in private mode."""

    def decorate(view: Handler) -> Handler:
        @wraps(view)
        def guarded(*args: object, **kwargs: object) -> object:
            if scope == WRITE or current_app.config["PRIVATE"]:
                check_scope(scope)
            return view(*args, **kwargs)

        return guarded  # type: ignore[return-value]

    return decorate
