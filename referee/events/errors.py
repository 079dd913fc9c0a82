"""The events' refusals (EVENTS.md §3, §6), each a ``RefereeError`` with a stable code:
the API answers them as problem+json (422 unless said otherwise)."""

from __future__ import annotations

from referee.errors import RefereeError


class EventError(RefereeError):
    """An event request that cannot be done as asked."""

    code = "invalid_event"
    title = "Invalid event"


class UnknownBotError(EventError):
    """A ``bots`` event's entrant that is no live token with scope ``play``."""

    code = "unknown_bot"
    title = "Unknown bot"


class BotEntrantError(EventError):
    """A ``records`` event's entrant that is a bot's name (a play token's)."""

    code = "bot_entrant"
    title = "Bot entered as a person"


class DuplicateEntrantError(EventError):
    """A name entered twice."""

    code = "duplicate_entrant"
    title = "Duplicate entrant"


class EntrantCountError(EventError):
    """Fewer than two entrants, or more than 256."""

    code = "entrant_count"
    title = "Wrong number of entrants"


class MirroredFormatError(EventError):
    """``mirrored`` with ``knockout`` (a drawn pair decides nothing), or in a ``records``
    event (its dice are not the server's)."""

    code = "mirrored_not_allowed"
    title = "Mirrored pairs not allowed"


class TiebreaksError(EventError):
    """Tie-breaks named twice, given to a knockout (it ranks by the round reached), or
    ``pr``, which needs an analysis of every match that this server does not make yet."""

    code = "invalid_tiebreaks"
    title = "Invalid tie-breaks"


class BracketsError(EventError):
    """Bracket options the format does not have (a consolation outside a knockout, a last
    chance without a consolation, a reset outside a double elimination), a length for a
    bracket the event does not play, or a consolation of fewer than three entrants."""

    code = "invalid_brackets"
    title = "Invalid brackets"


class RoundsError(EventError):
    """A Swiss without its number of rounds, or rounds given to another format."""

    code = "invalid_rounds"
    title = "Invalid rounds"


class PairingDecidedError(EventError):
    """A record or an award for a pairing that has its result already."""

    code = "pairing_decided"
    title = "Pairing decided"


class UnknownPairingError(EventError):
    """A record or an award for a round or table the event does not have (yet)."""

    code = "unknown_pairing"
    title = "Unknown pairing"


class WrongKindError(EventError):
    """A record submitted to a ``bots`` event (its matches are played live)."""

    code = "wrong_kind"
    title = "Not a records event"


class RecordInUseError(EventError):
    """A record that is already another pairing's result."""

    code = "record_in_use"
    title = "Record in use"


class EventStateError(RefereeError):
    """An event that is not in the state the request needs (starting one that started,
    a result in one that is not running)."""

    code = "event_state"
    title = "Event not in this state"
    status = 409


class EventBusyError(RefereeError):
    """An event kept changing under a change, attempt after attempt: try again."""

    code = "busy"
    title = "Busy"
    status = 409


class UnknownEntrantError(EventError):
    """A withdrawal of a name that is not one of the event's entrants."""

    code = "unknown_entrant"
    title = "Unknown entrant"


class AlreadyWithdrawnError(RefereeError):
    """A withdrawal of an entrant withdrawn already."""

    code = "already_withdrawn"
    title = "Already withdrawn"
    status = 409


class PairingUndecidedError(RefereeError):
    """A void of a pairing that has no result to void."""

    code = "pairing_undecided"
    title = "Pairing undecided"
    status = 409
