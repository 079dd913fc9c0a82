"""Stored matches as the API and the pages show them."""

from __future__ import annotations

from typing import Any

from referee.errors import (
    NotFoundError,
)
from referee.storage.model import MatchSummary, StoredMatch
from referee.storage.stores import Storage
from vocabulary import VariantId

MAX_ID = 2**63 - 1
"""SQLite's largest integer: larger ids in a URL are simply not found."""


def summary_json(summary: MatchSummary | StoredMatch) -> dict[str, Any]:
    """A stored match as the list endpoint shows it."""
    return {
        "id": summary.id,
        "sha256": summary.sha256,
        "variant": summary.variant,
        "valid": summary.valid,
        "players": list(summary.players),
        "event": summary.event,
        "site": summary.site,
        "event_date": summary.event_date,
        "match_length": summary.match_length,
        "games": summary.games,
        "winner": summary.winner,
        "created_at": summary.created_at,
    }


def stored_match(storage: Storage, match_id: int) -> StoredMatch:
    """Everything stored of a match, or NotFoundError."""
    stored = storage.matches.get(match_id) if 0 < match_id <= MAX_ID else None
    if stored is None:
        raise NotFoundError(f"no match with id {match_id}")
    return stored


def known_variant(stored: StoredMatch) -> str | None:
    """The stored match's variant when the referee knows it; None for a variation it cannot
    check (NackGammon...), whose record then speaks for itself (a verdict, not a 422)."""
    variant = stored.variant
    return variant if variant in frozenset(VariantId) else None
