"""The requests of the events endpoints (EVENTS.md §2-§3): an event's creation with its
match lengths and clock, a records event's record, the host's award, and the queries of
the events list and the ratings (openapi.yaml names them as the classes are named)."""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, validate

from referee.api.schemas import RequestSchema, clock_delay, record_format_field
from referee.events.shapes import BRACKETS, FORMATS, STATUSES
from referee.events.standings import Tiebreak
from referee.http.loading import QuerySchema
from referee.http.names import PersonName
from referee.http.queries import VariantName

LENGTH = validate.Range(min=1, max=99)
ENTRANT_NAME = r"[^\x00-\x1f\x7f/]*[^\x00-\x1f\x7f/\s][^\x00-\x1f\x7f/]*\Z"
"""A name: printable, not blank, no slash (it is a path segment of /v1/ratings/NAME)."""


class EventClockRequest(RequestSchema):
    reserve_per_point = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1, max=3600),
        metadata={"description": "each player's reserve: this many seconds a point"},
    )
    delay = clock_delay()


class MatchLength(fields.Field[int | dict[str, int]]):
    """A match length: a number of points, or an object of one per bracket (EVENTS.md §13:
    ``{"main": 7, "consolation": 5, "last_chance": 3}``)."""

    def _deserialize(
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> int | dict[str, int]:
        if isinstance(value, int) and not isinstance(value, bool):
            LENGTH(value)
            return value
        if not isinstance(value, dict) or not value:
            raise ValidationError("a number of points, or an object of them per bracket")
        for name, points in value.items():
            if name not in BRACKETS:
                raise ValidationError(f"{name!r} is no bracket ({', '.join(BRACKETS)})")
            if not isinstance(points, int) or isinstance(points, bool):
                raise ValidationError(f"the {name} bracket's length is a whole number")
            LENGTH(points)
        return dict(value)


class EventCreateRequest(RequestSchema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    variant = fields.String(required=True, validate=validate.Length(min=1, max=40))
    length = MatchLength(
        required=True,
        metadata={
            "description": "every pairing is a match to this many points; with brackets,"
            " one per bracket may be given (the first bracket's needed: main, or winners;"
            " docs/events.md#5-6)",
            "oneOf": [
                {"type": "integer", "minimum": 1, "maximum": 99},
                {
                    "type": "object",
                    "minProperties": 1,
                    "additionalProperties": False,
                    "properties": {
                        name: {"type": "integer", "minimum": 1, "maximum": 99} for name in BRACKETS
                    },
                },
            ],
        },
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    rounds = fields.Integer(
        load_default=None,
        strict=True,
        validate=validate.Range(min=1, max=255),
        metadata={"description": "a Swiss's rounds (the other formats' follow from the entrants)"},
    )
    double = fields.Boolean(
        load_default=False, metadata={"description": "round robin: twice, sides swapped"}
    )
    kind = fields.String(required=True, validate=validate.OneOf(["bots", "records"]))
    entrants = fields.List(
        PersonName(validate=[validate.Length(min=1, max=100), validate.Regexp(ENTRANT_NAME)]),
        required=True,
        metadata={
            "description": "2 to 256 names (stored in Unicode NFC; control characters and"
            " lone surrogates refused); in a bots event, play tokens' names, in a records"
            " event people's (no play token's name)"
        },
    )
    move_seconds = fields.Integer(
        load_default=60, strict=True, validate=validate.Range(min=1, max=3600)
    )
    mirrored = fields.Boolean(load_default=False)
    rated = fields.Boolean(
        load_default=True,
        metadata={
            "description": "its matches count for ratings; at most 6 a day between the"
            " same two names in one variant do (later ones count for standings only)"
        },
    )
    analyse = fields.Boolean(
        load_default=False,
        metadata={
            "description": "every finished match is analysed (backgammon by gnubg, the nardy"
            " games by the referee's own engine; 422 no_engine where that engine is not"
            " built): the standings show each entrant's average PR, and pr may be a"
            " tie-break (docs/events.md#5-7)"
        },
    )
    join_seconds = fields.Integer(
        load_default=300,
        strict=True,
        validate=validate.Range(min=1, max=86_400),
        metadata={
            "description": "bots: a bot not joined by then loses by no_show (docs/events.md#13-1)"
        },
    )
    tiebreaks = fields.List(
        fields.String(validate=validate.OneOf([str(name) for name in Tiebreak])),
        load_default=None,
        validate=validate.Length(min=1, max=len(Tiebreak)),
        metadata={
            "description": "Swiss and round robin: the standings' tie-breaks after match"
            " points, in this order (docs/events.md#5-5); none: buchholz, sonneborn_berger,"
            " points_difference; pr (lower first) needs analyse"
        },
    )
    grand_final_reset = fields.Boolean(
        load_default=None,
        metadata={
            "description": "double elimination: the losers' bracket winner must win the"
            " final twice (default true)"
        },
    )
    consolation = fields.Boolean(
        load_default=False,
        metadata={"description": "knockout: the first-match losers play a knockout of their own"},
    )
    last_chance = fields.Boolean(
        load_default=False,
        metadata={
            "description": "knockout with consolation: its first-round losers and the main"
            " bracket's second-round losers play a third"
        },
    )
    clock = fields.Nested(
        EventClockRequest,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "bots: the backgammon clock (docs/events.md#13-2); none: move_seconds"
        },
    )


class EventListQuery(QuerySchema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    cursor = fields.String(
        validate=validate.Regexp(r"[1-9][0-9]{0,17}\Z"),
        metadata={"description": "next_cursor of the previous page", "maxLength": 18},
    )


class EventRecordQuery(QuerySchema):
    """A text/plain (or SGF) record's query parameters: its format, when named."""

    format = record_format_field()


class EventRecordRequest(RequestSchema):
    text_query: ClassVar[type[Schema]] = EventRecordQuery

    record = fields.String(required=True, validate=validate.Length(min=1))
    format = record_format_field(in_body=True)


class EventResultRequest(RequestSchema):
    winner = fields.String(required=True, validate=validate.OneOf(["w", "b"]))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))


class RatingsQuery(QuerySchema):
    variant = VariantName(metadata={"description": "one variant (default: every variant)"})


class RatingQuery(QuerySchema):
    variant = VariantName(required=True)
