"""What the token store gives: a token without its secret, and one just created with it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Token:
    """A stored API token, without its secret."""

    id: int
    name: str | None
    prefix: str
    scopes: tuple[str, ...]
    created_at: str
    revoked_at: str | None


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A token just created, with its secret: shown once, never stored."""

    token: Token
    secret: str
