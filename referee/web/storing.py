"""The check page's storing: a record checked on the page and stored in the archive with a
token the form carries (``archive:write``, as ``POST /v1/matches`` needs), the same service
as the API's, so the page stores exactly what the API would."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import url_for

from referee.archive.submit import submit
from referee.http.auth import token_holder
from referee.http.engine import engine
from referee.http.limits import work_limits
from referee.http.storage import storage
from referee.scopes import Scope


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
    variant: str | None,
    record_format: str | None,
) -> StoredOnPage:
    """Store ``text`` as the form asks (its ``token``; ``allow_invalid`` ticked or not):
    UnauthorizedError or ForbiddenError for the token, InvalidRecordError for a record
    with errors that may not be stored, as the API answers them."""
    token_holder(Scope.ARCHIVE_WRITE, secret=form.get("token", "").strip() or None)
    allow_invalid = bool(form.get("allow_invalid"))
    limits = work_limits()
    result = submit(
        storage(), text, options, allow_invalid, variant, limits, engine(), record_format
    )
    match_id = result.stored.id
    href = url_for("web.match", match_id=match_id)
    return StoredOnPage(match_id, result.stored.duplicate, href)
