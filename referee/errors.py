"""The one error hierarchy of the referee: every domain error has a stable ``code`` slug.

The API turns each of these into an RFC 9457 problem; the CLI prints its message.
"""

from __future__ import annotations

from typing import Any, ClassVar

MAX_MESSAGE = 500
"""Characters of an error's message; past them it is cut, with an ellipsis."""
MAX_EXTENSION_TEXT = 300
"""Characters of each text in an error's extensions (a name, a play, a nested message)."""


def shortened(value: Any, limit: int = MAX_EXTENSION_TEXT) -> Any:
    """``value`` with every text in it (in lists and objects too) cut to ``limit``
    characters and an ellipsis: whatever a client sent is repeated a few hundred
    characters at most, wherever the error was made (sources cut their own echoes first,
    ``notation.errors.echoed``; this is the net under them)."""
    if isinstance(value, str):
        return value if len(value) <= limit else f"{value[:limit]}…"
    if isinstance(value, dict):
        return {shortened(key, limit): shortened(item, limit) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [shortened(item, limit) for item in value]
    return value


class RefereeError(ValueError):
    """Base of every domain error; ``code`` is a stable machine-readable slug."""

    code: ClassVar[str] = "referee_error"
    title: ClassVar[str] = "Referee error"
    status: ClassVar[int] = 422
    retry_after: int | None = None
    """Seconds after which the same request may succeed (a ``Retry-After`` header)."""

    def __init__(self, message: str, **extensions: Any) -> None:
        self.message: str = shortened(message, MAX_MESSAGE)
        super().__init__(self.message)
        self.extensions: dict[str, Any] = shortened(extensions)


class InvalidNotationError(RefereeError):
    """Text that cannot be read as the notation it claims to be."""

    code = "invalid_notation"
    title = "Invalid notation"


class InvalidEncodingError(RefereeError):
    """A record whose bytes are not UTF-8 text."""

    code = "invalid_encoding"
    title = "Invalid encoding"


class InvalidPositionError(RefereeError):
    """A position string that parses but describes an impossible position."""

    code = "invalid_position"
    title = "Invalid position"


class UnknownVariantError(RefereeError):
    """A variant name that is neither an id nor an alias."""

    code = "unknown_variant"
    title = "Unknown variant"


class InvalidOptionError(RefereeError):
    """An unknown option, a bad value, or an option that does not apply to the variant."""

    code = "invalid_option"
    title = "Invalid option"


class DiceRequiredError(RefereeError):
    """A play was asked about a position whose state holds no dice."""

    code = "dice_required"
    title = "Dice required"


class GameOverError(RefereeError):
    """The position's game is already over, so nobody can play."""

    code = "game_over"
    title = "Game over"


class TooManyGamesError(RefereeError):
    """A record over the games limit (NOTATION.md §4)."""

    code = "too_many_games"
    title = "Too many games"
    status = 413


class InvalidRecordError(RefereeError):
    """A record with errors offered to the archive without ``allow_invalid``."""

    code = "invalid_record"
    title = "Invalid record"


class NotFoundError(RefereeError):
    """No stored match or live match has this id (or a match has no such game)."""

    code = "not_found"
    title = "Not Found"
    status = 404


class GoneError(RefereeError):
    """A stored match withdrawn from the archive's reads (EVENTS.md §11), with who withdrew
    it, when and why."""

    code = "withdrawn"
    title = "Gone"
    status = 410


class MatchInUseError(RefereeError):
    """A match an event's result rests on, which cannot be withdrawn before it is voided."""

    code = "match_in_use"
    title = "Match in use"
    status = 409


class UnauthorizedError(RefereeError):
    """No token, or one that is unknown or revoked."""

    code = "unauthorized"
    title = "Unauthorized"
    status = 401


class ForbiddenError(RefereeError):
    """A token without the scope the operation needs."""

    code = "forbidden"
    title = "Forbidden"
    status = 403


# -- live matches (LIVE.md §4) -----------------------------------------------------------

MAX_ALTERNATIVES = 5
"""Legal alternatives named with an illegal action or play (``referee.rules.judge`` lists
as many)."""


class IllegalActionError(RefereeError):
    """An action the rules do not allow now: the match is unchanged."""

    code = "illegal_action"
    title = "Illegal action"

    def __init__(self, code: str, message: str, alternatives: tuple[str, ...] = ()) -> None:
        super().__init__(
            message,
            reason={"code": code, "message": message},
            alternatives=list(alternatives[:MAX_ALTERNATIVES]),
        )


class InvalidPlayersError(RefereeError):
    """A live match between a bot and itself, or with a name no bot token carries."""

    code = "invalid_players"
    title = "Invalid players"


class StalePlyError(RefereeError):
    """An action for another ply than the current one (it carries the current ``ply``)."""

    code = "stale_ply"
    title = "Stale ply"
    status = 409


class NotPlayingError(RefereeError):
    """An action on a live match that is waiting, finished or aborted."""

    code = "not_playing"
    title = "Not playing"
    status = 409


class LiveBusyError(RefereeError):
    """A live match kept changing under a change, attempt after attempt: try again."""

    code = "busy"
    title = "Busy"
    status = 409


class NotReadyError(RefereeError):
    """The archive cannot be read at all (missing, unmigrated, broken): not ready."""

    code = "not_ready"
    title = "Not ready"
    status = 503
    retry_after = 5


class ArchiveBusyError(RefereeError):
    """The archive stayed locked by another writer past the busy timeout: try again."""

    code = "archive_busy"
    title = "Archive busy"
    status = 503
    retry_after = 2


class StorageUnavailableError(RefereeError):
    """The archive's disk is full or read-only: writes are refused until it can be written
    again (reads are served where the file can still be read)."""

    code = "storage_unavailable"
    title = "Storage unavailable"
    status = 503
    retry_after = 30


class ComputingError(RefereeError):
    """What was asked for is being computed by another request: ask again shortly."""

    code = "computing"
    title = "Being computed"
    status = 503
    retry_after = 10


class StreamsFullError(RefereeError):
    """This server holds as many streams open as it may: try again later."""

    code = "streams_full"
    title = "Too many streams"
    status = 503
    retry_after = 10


class TooManyStreamsError(RefereeError):
    """This client (its address, network or token), or this match, has as many streams
    open as it may."""

    code = "too_many_streams"
    title = "Too many streams"
    status = 429
    retry_after = 10


class UnknownFormatError(RefereeError):
    """A record in no format this referee reads, or a format name it does not know (the
    message names every format tried)."""

    code = "unknown_format"
    title = "Unknown record format"
