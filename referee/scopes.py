"""The scopes an API token can hold (a token may hold several)."""

from __future__ import annotations

from enum import StrEnum


class Scope(StrEnum):
    """What a token may do: archive writes and reads, play as a bot, host live matches,
    withdraw stored matches, queue analyses."""

    ARCHIVE_WRITE = "archive:write"
    ARCHIVE_READ = "archive:read"
    PLAY = "play"
    LIVE_HOST = "live:host"
    ARCHIVE_ADMIN = "archive:admin"
    """Withdraw stored matches (EVENTS.md §11)."""
    ANALYSIS_RUN = "analysis:run"
    """Queue analyses of stored matches by gnubg (ANALYSIS.md §2)."""
