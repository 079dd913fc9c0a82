"""Stored matches as the API and the pages show them."""

from __future__ import annotations

from typing import Any

from referee.errors import GoneError, MatchInUseError, NotFoundError
from referee.storage.model.matches import MatchSummary, StoredMatch, Withdrawal
from referee.storage.stores import MatchRestingError, Storage
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
    """Everything stored of a match, or NotFoundError; GoneError once it is withdrawn."""
    stored = storage.matches.get(match_id) if 0 < match_id <= MAX_ID else None
    if stored is None:
        raise NotFoundError(f"no match with id {match_id}")
    gone = storage.matches.withdrawal(match_id)
    if gone is not None:
        raise GoneError(
            f"match {match_id} was withdrawn by {gone.by} at {gone.at}: {gone.reason}",
            withdrawn_by=gone.by,
            withdrawn_at=gone.at,
            reason=gone.reason,
        )
    return stored


def withdraw_match(storage: Storage, match_id: int, by: str, reason: str, at: str) -> Withdrawal:
    """Withdraw a match from reads and searches (EVENTS.md §11), keeping it for audit:
    MatchInUseError while an event's result rests on it (void that first)."""
    stored_match(storage, match_id)  # 404, or 410 when withdrawn already
    withdrawal = Withdrawal(match_id, at, by, reason)
    try:
        storage.matches.withdraw(withdrawal)
    except MatchRestingError as resting:
        event_id, number, table = resting.seat
        raise MatchInUseError(
            f"event {event_id}'s result of round {number}, table {table} rests on match"
            f" {match_id}: void it first",
            event_id=event_id,
            round=number,
            table=table,
        ) from None
    return withdrawal


def known_variant(stored: StoredMatch) -> str | None:
    """The stored match's variant when the referee knows it; None for a variation it cannot
    check (NackGammon...), whose record then speaks for itself (a verdict, not a 422)."""
    variant = stored.variant
    return variant if variant in frozenset(VariantId) else None
