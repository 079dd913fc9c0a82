"""The check page's storing: a record checked on the page and stored in the archive with a
token the form carries (``archive:write``, as ``POST /v1/matches`` needs). What is stored is
the page's own adjudication (its mode, its verdict: no second one), through the archive
service the API stores with."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import url_for

from referee.adjudication import Adjudication
from referee.archive.submit import adjudicated_match, store_match
from referee.http.auth import token_holder
from referee.http.storage import storage
from referee.scopes import Scope

FORM_REFUSAL = (
    "the record has errors, so it was not stored: tick “even with errors” beside “store "
    "the record once checked” to store it anyway"
)
"""A record with errors offered from the form without its box ticked (the API's own words
name the JSON field instead)."""


@dataclass(frozen=True, slots=True)
class StoredOnPage:
    """What the verdict page says about the record it stored."""

    id: int
    duplicate: bool
    href: str


def store_checked(
    text: str,
    form: Mapping[str, str],
    options: Mapping[str, object],
    adjudication: Adjudication,
) -> StoredOnPage:
    """Store ``text`` as the form asks (its ``token``; ``allow_invalid`` ticked or not),
    from the page's ``adjudication``: UnauthorizedError or ForbiddenError for the token,
    InvalidRecordError (``FORM_REFUSAL``) for a record with errors the form may not store."""
    token_holder(Scope.ARCHIVE_WRITE, secret=form.get("token", "").strip() or None)
    allow_invalid = bool(form.get("allow_invalid"))
    match = adjudicated_match(text, adjudication, options, allow_invalid, FORM_REFUSAL)
    result = store_match(storage(), match)
    match_id = result.stored.id
    href = url_for("archive_pages.match", match_id=match_id)
    return StoredOnPage(match_id, result.stored.duplicate, href)
