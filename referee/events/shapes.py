"""The JSON shapes of events (EVENTS.md §4, §8, §11), written once: openapi.yaml documents
these schemas (``schema_of``) and ``referee.events.views`` dumps its answers through them
(``dumper``). Fields are declared in the order the answers give them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.adjudication.verdict import VerdictSchema
from referee.events.brackets import Bracket
from referee.events.standings import Standing
from referee.shapes import Shape, dumper, fields, validate
from referee.storage.model.events import Seeded, StoredPairing

FORMATS = ["round-robin", "swiss", "knockout", "double-elimination"]
BRACKETS = [str(name) for name in Bracket]
STATUSES = ["open", "running", "finished"]
PAIRING_STATUSES = ["pending", "playing", "finished", "disputed"]


class EventClock(Shape):
    reserve_per_point = fields.Integer(required=True)
    delay = fields.Integer(required=True)


class EventEntrant(Shape):
    name = fields.String(required=True)
    seed = fields.Integer(required=True)
    rating = fields.Float(required=True, metadata={"description": "before the event"})


class EventAward(Shape):
    winner = fields.String(required=True, validate=validate.OneOf(["w", "b"]))
    reason = fields.String(required=True)


class EventPairing(Shape):
    table = fields.Integer(required=True)
    w = fields.String(
        required=True, attribute="white", metadata={"description": "first named: White"}
    )
    b = fields.String(required=True, attribute="black")
    live_ids = fields.List(fields.Integer(), required=True)
    match_ids = fields.List(fields.Integer(), required=True)
    status = fields.String(required=True, validate=validate.OneOf(PAIRING_STATUSES))
    winner = fields.String(required=True, allow_none=True)
    points = fields.List(fields.Integer(), required=True, allow_none=True)
    termination = fields.String(required=True, allow_none=True)
    terminations = fields.List(
        fields.String(), required=True, metadata={"description": "each match's"}
    )
    draw = fields.Boolean(required=True)
    award = fields.Nested(EventAward, required=True, allow_none=True)
    verdict_id = fields.Integer(
        required=True, allow_none=True, metadata={"description": "a disputed record's id"}
    )
    dispute = fields.String(required=True, allow_none=True)
    bracket = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(BRACKETS),
        metadata={"description": "its bracket (a round robin's or a Swiss's: null)"},
    )


class EventRound(Shape):
    number = fields.Integer(required=True)
    pairings = fields.List(fields.Nested(EventPairing), required=True)
    byes = fields.List(fields.String(), required=True)


class EventStanding(Shape):
    rank = fields.Integer(required=True)
    name = fields.String(required=True)
    seed = fields.Integer(required=True)
    match_points = fields.Float(required=True)
    wins = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    byes = fields.Integer(required=True)
    points_for = fields.Integer(required=True)
    points_against = fields.Integer(required=True)
    tiebreaks = fields.Dict(
        keys=fields.String(),
        values=fields.Float(allow_none=True),
        required=True,
        metadata={
            "description": "buchholz, sonneborn_berger, points_difference; a knockout:"
            " round_reached; pr: the average PR (null: no match analysed), lower first"
        },
    )
    pr = fields.Float(
        required=True,
        allow_none=True,
        metadata={
            "description": "the average PR over its analysed matches (an event with analyse:"
            " gnubg's judgement on eXtreme Gammon's scale, not XG's); null: none analysed"
        },
    )
    analysed = fields.Integer(
        required=True, metadata={"description": "how many matches the average PR is over"}
    )


class EventBracket(Shape):
    bracket = fields.String(required=True, validate=validate.OneOf(BRACKETS))
    length = fields.Integer(required=True)
    champion = fields.String(required=True, allow_none=True, metadata={"description": "its winner"})
    standings = fields.List(
        fields.Nested(EventStanding),
        required=True,
        metadata={"description": "its entrants by the level reached in it, then seed"},
    )


class Event(Shape):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    variant = fields.String(required=True)
    length = fields.Integer(required=True)
    options = fields.Dict(required=True)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    rounds = fields.Integer(required=True)
    double = fields.Boolean(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["bots", "records"]))
    mirrored = fields.Boolean(required=True)
    rated = fields.Boolean(required=True)
    analyse = fields.Boolean(
        required=True, metadata={"description": "every finished match is analysed by gnubg"}
    )
    move_seconds = fields.Integer(required=True)
    join_seconds = fields.Integer(required=True, allow_none=True)
    tiebreaks = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "the standings' order after match points (a knockout: none)"},
    )
    clock = fields.Nested(EventClock, required=True, allow_none=True)
    withdrawn = fields.List(
        fields.String(), required=True, metadata={"description": "entrants withdrawn (§11)"}
    )
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    round = fields.Integer(required=True, metadata={"description": "the current round; 0: open"})
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)
    entrants = fields.List(fields.Nested(EventEntrant), required=True)
    rounds_played = fields.List(fields.Nested(EventRound), required=True)
    standings = fields.List(fields.Nested(EventStanding), required=True)
    grand_final_reset = fields.Boolean(
        required=True, allow_none=True, metadata={"description": "a double elimination's"}
    )
    consolation = fields.Boolean(required=True)
    last_chance = fields.Boolean(required=True)
    brackets = fields.List(
        fields.Nested(EventBracket),
        required=True,
        metadata={"description": "each bracket's standings (none without brackets)"},
    )


class EventSummary(Shape):
    """An event as the events list shows it."""

    id = Event.id
    name = Event.name
    variant = Event.variant
    length = Event.length
    format = Event.format
    kind = Event.kind
    status = Event.status
    round = Event.round
    rounds = Event.rounds
    entrants = fields.Integer(required=True, metadata={"description": "how many"})
    created_at = Event.created_at


class EventPage(Shape):
    events = fields.List(fields.Nested(EventSummary), required=True)
    next_cursor = fields.String(required=True, allow_none=True)


class EventResultResponse(Shape):
    event_id = fields.Integer(required=True)
    round = fields.Integer(required=True)
    pairing = fields.Nested(EventPairing, required=True)


class EventRecordResponse(EventResultResponse):
    match_id = fields.Integer(required=True)
    duplicate = fields.Boolean(required=True)
    verdict = fields.Nested(VerdictSchema, required=True)


class EventStandings(Shape):
    event = fields.Dict(required=True)
    standings = fields.List(fields.Nested(EventStanding), required=True)


class EventLedgerEntry(Shape):
    seq = fields.Integer(required=True)
    at = fields.String(required=True)
    by = fields.String(required=True, metadata={"description": "a token's name, or server"})
    action = fields.String(
        required=True, metadata={"description": "void, withdraw, award, forfeit or no_show"}
    )
    round = fields.Integer(required=True, allow_none=True)
    table = fields.Integer(required=True, allow_none=True)
    name = fields.String(required=True, allow_none=True, metadata={"description": "the entrant"})
    reason = fields.String(required=True)


class PlayerRating(Shape):
    name = fields.String(required=True)
    variant = fields.String(required=True)
    rating = fields.Float(required=True, metadata={"description": "unrounded"})
    experience = fields.Integer(required=True)
    matches = fields.Integer(required=True)


class RatingChange(Shape):
    match_id = fields.Integer(required=True)
    event_id = fields.Integer(
        required=True, allow_none=True, metadata={"description": "null: a challenge's match"}
    )
    before = fields.Float(required=True)
    after = fields.Float(required=True)


class PlayerRatingHistory(PlayerRating):
    history = fields.List(fields.Nested(RatingChange), required=True)


@dataclass(frozen=True, slots=True)
class AwardView:
    """An awarded result as ``EventAward`` shows it: the side that won, and why."""

    winner: str
    reason: str


@dataclass(frozen=True, slots=True)
class PairingView:
    """A stored pairing as ``EventPairing`` shows it: its award as an ``AwardView``, the
    rest as stored."""

    stored: StoredPairing

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stored, name)

    @property
    def award(self) -> AwardView | None:
        pairing = self.stored
        if pairing.award is None:
            return None
        return AwardView("w" if pairing.winner == pairing.white else "b", pairing.award)


@dataclass(frozen=True, slots=True)
class RoundView:
    """A round as ``EventRound`` shows it: its pairings by table and its byes."""

    number: int
    pairings: list[PairingView]
    byes: list[str]


@dataclass(frozen=True, slots=True)
class BracketView:
    """A bracket's standings as ``EventBracket`` shows them, with its match length."""

    bracket: str
    length: int
    champion: str | None
    standings: list[Standing]


@dataclass(frozen=True, slots=True)
class ClockView:
    """An event's backgammon clock as ``EventClock`` shows it."""

    reserve_per_point: int
    delay: int


@dataclass(frozen=True, slots=True)
class EventView:
    """The event as EVENTS.md §4 names its fields."""

    id: int
    name: str
    variant: str
    length: int
    options: dict[str, Any]
    format: str
    rounds: int
    double: bool
    kind: str
    mirrored: bool
    rated: bool
    analyse: bool
    move_seconds: int
    join_seconds: int | None
    tiebreaks: list[str]
    clock: ClockView | None
    withdrawn: list[str]
    status: str
    round: int
    created_at: str
    updated_at: str
    entrants: list[Seeded]
    rounds_played: list[RoundView]
    standings: list[Standing]
    grand_final_reset: bool | None
    consolation: bool
    last_chance: bool
    brackets: list[BracketView]


@dataclass(frozen=True, slots=True)
class ResultView:
    """A pairing's result in its event's round, as ``EventResultResponse`` shows it."""

    event_id: int
    round: int
    pairing: PairingView


@dataclass(frozen=True, slots=True)
class ChangeView:
    """One rated match's change of a rating (``event_id`` None: a challenge's match)."""

    match_id: int
    event_id: int | None
    before: float
    after: float


@dataclass(frozen=True, slots=True)
class RatingView:
    """A name's rating in one variant, with its changes for ``PlayerRatingHistory``."""

    name: str
    variant: str
    rating: float
    experience: int
    matches: int
    history: list[ChangeView]


dump_event = dumper(Event)
dump_standing = dumper(EventStanding)
dump_result = dumper(EventResultResponse)
dump_summary = dumper(EventSummary)
dump_correction = dumper(EventLedgerEntry)
dump_rating = dumper(PlayerRating)
dump_history = dumper(PlayerRatingHistory)
