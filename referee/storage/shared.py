"""What every backend does the same way: timestamps, token secrets and their hashes,
names in one Unicode spelling, paging through a search."""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime

from referee.storage.model.matches import MatchQuery, MatchSummary

TOKEN_BYTES = 32


def timestamp() -> str:
    """The time stored with a row: UTC, ISO 8601, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def normal_name(text: str) -> str:
    """A name in Unicode's composed form (NFC): how entrants and token names are stored
    and compared, so that names that read the same are the same."""
    return unicodedata.normalize("NFC", text)


def new_secret() -> str:
    """A token's secret: ``nrt_`` and 32 random bytes, URL-safe."""
    return "nrt_" + secrets.token_urlsafe(TOKEN_BYTES)


def secret_hash(secret: str) -> str:
    """What is stored of a secret: its SHA-256 (hex)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def pages(
    search: Callable[[MatchQuery], list[MatchSummary]], query: MatchQuery
) -> Iterator[MatchSummary]:
    """Every summary ``search`` finds for ``query``, page after page along the cursor."""
    page_query = query
    while True:
        page = search(page_query)
        yield from page
        if len(page) < query.page_size:
            return
        page_query = replace(page_query, after_id=page[-1].id)
