"""Bearer tokens with scopes: writes need ``archive:write``; reads need a token only when
``NARDY_REFEREE_PRIVATE=1``. Tokens are compared by hash and never logged or echoed."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from flask import current_app, request

from referee.errors import ForbiddenError, UnauthorizedError
from referee.http.storage import storage
from referee.scopes import Scope
from referee.storage.model.tokens import Token

Handler = TypeVar("Handler", bound=Callable[..., object])


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def check_scope(scope: str) -> None:
    """Raise unless the request carries a live token with ``scope`` (write implies read)."""
    token_holder(
        *((Scope.ARCHIVE_READ, Scope.ARCHIVE_WRITE) if scope == Scope.ARCHIVE_READ else (scope,))
    )


def token_holder(*scopes: str, secret: str | None = None) -> Token:
    """The request's live token (its bearer token, or ``secret``, a page's form field),
    which must carry one of ``scopes`` (401, 403 otherwise)."""
    secret = secret or bearer_token()
    if secret is None:
        raise UnauthorizedError(f"this needs a bearer token with scope {' or '.join(scopes)}")
    token = storage().tokens.holder(secret)
    if token is None:
        raise UnauthorizedError("the bearer token is unknown or revoked")
    if not set(scopes) & set(token.scopes):
        raise ForbiddenError(f"the token's scopes do not include {' or '.join(scopes)}")
    return token


def requires(scope: str) -> Callable[[Handler], Handler]:
    """Guard a view: ``archive:write`` always, ``archive:read`` only in private mode."""

    def decorate(view: Handler) -> Handler:
        @wraps(view)
        def guarded(*args: object, **kwargs: object) -> object:
            if scope == Scope.ARCHIVE_WRITE or current_app.config["PRIVATE"]:
                check_scope(scope)
            return view(*args, **kwargs)

        return guarded  # type: ignore[return-value]

    return decorate
