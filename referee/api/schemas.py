"""Marshmallow schemas of the request and response bodies (the source of openapi.yaml)."""

from __future__ import annotations

from typing import ClassVar

from marshmallow import INCLUDE, RAISE, Schema, fields, validate

from notation.records.formats import NAMES as FORMAT_NAMES
from referee.adjudication.verdict import IssueSchema, VerdictSchema
from referee.http.loading import QuerySchema
from referee.http.queries import VariantName
from referee.live.dice import CLIENT_SEED
from referee.live.shapes import LIVE_ACTIONS
from referee.plays import LegalPlay
from referee.shapes import schema_of

MAX_TEXT = 64 * 1024
MAX_POSITION = 200
"""A position string in a query: every position string written with single spaces (the
longest aliases, two-digit counts in every cell, five-digit cube and match fields) has at
most 162 characters."""
MAX_QUERY_OPTIONS = 512
"""``options`` in a query (JSON or k=v,k=v): every option of RULES.md §12.1 at its longest
value, as indented JSON, is under 400 characters."""


EXPORT_FORMATS = ("mat", "sgf")
"""The formats a stored match is exported in (``?format=`` of GET /v1/matches/{id})."""
FORMAT_HELP = (
    "The record's format: detected from its content when not given (a Content-Type such as"
    " application/x-go-sgf names it too)"
)


def record_format_field(in_body: bool = False) -> fields.String:
    """The ``format`` of a record request (``?format=``, or the JSON field, None by default)."""
    validator = validate.OneOf(FORMAT_NAMES)
    metadata = {"description": FORMAT_HELP}
    if in_body:
        return fields.String(load_default=None, validate=validator, metadata=metadata)
    return fields.String(validate=validator, metadata=metadata)


class QueryOptions(fields.String):
    """``options`` as a query parameter: a JSON object or ``key=value,key=value``."""

    def __init__(self) -> None:
        super().__init__(
            validate=validate.Length(max=MAX_QUERY_OPTIONS),
            metadata={"description": "Rule options, as a JSON object or k=v,k=v"},
        )


class RequestSchema(Schema):
    class Meta:
        unknown = RAISE


class PositionRequest(RequestSchema):
    position = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_TEXT),
        metadata={"description": "A position string (docs/notation.md#1) holding the dice"},
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "Rule options of docs/rules.md#12-1; defaults apply"},
    )


class CheckRequest(PositionRequest):
    play = fields.String(
        required=True,
        validate=validate.Length(max=MAX_TEXT),
        metadata={"description": "The play, e.g. '24/18 13/11', '' or 'Cannot Move'"},
    )


class LegalResponse(Schema):
    count = fields.Integer(required=True)
    plays = fields.List(fields.Nested(schema_of(LegalPlay)), required=True)


class RecordCheckQuery(QuerySchema):
    """The query string of a record sent as text/plain to POST /v1/records/check."""

    variant = VariantName(metadata={"description": "Overrides the [Variation] tag"})
    mode = fields.String(validate=validate.OneOf(["strict", "condone"]))
    options = QueryOptions()
    format = record_format_field()


class RecordFormatSchema(Schema):
    name = fields.String(required=True)
    title = fields.String(required=True)
    media_types = fields.List(fields.String(), required=True)
    suffixes = fields.List(fields.String(), required=True)
    detected_by = fields.String(required=True)
    binary = fields.Boolean(
        required=True,
        metadata={
            "description": "A binary file (.xg): sent as its bytes (application/octet-stream)"
            " or as record_base64 in JSON, not as text"
        },
    )


class RecordFormatsResponse(Schema):
    read = fields.List(fields.Nested(RecordFormatSchema), required=True)
    export = fields.List(fields.String(), required=True)


class RecordCheckRequest(RequestSchema):
    text_query: ClassVar[type[Schema]] = RecordCheckQuery
    """The schema of the query string that carries the other fields of a text/plain record."""

    record = fields.String(
        required=True,
        validate=validate.Length(min=1),
        metadata={
            "description": "A match record (.mat, with the nardy extension tags, gnubg's SGF or"
            " another text format); a binary .xg goes as record_base64 (its bytes in base64)"
            " in place of record"
        },
    )
    variant = fields.String(
        load_default=None, metadata={"description": "Overrides the [Variation] tag"}
    )
    format = record_format_field(in_body=True)
    mode = fields.String(
        load_default="strict",
        validate=validate.OneOf(["strict", "condone"]),
        metadata={
            "description": "strict: a game stops at its first error; condone: docs/notation.md#4-3"
        },
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "Rule options; they override the record's header tags"},
    )


# -- verdicts: ``referee.adjudication.verdict`` defines their schemas once ----------------

# -- the archive ------------------------------------------------------------------------


class MatchSubmitQuery(QuerySchema):
    """The query string of a record sent as text/plain to POST /v1/matches."""

    allow_invalid = fields.Boolean()
    variant = VariantName()
    options = QueryOptions()
    format = record_format_field()


class MatchSubmitRequest(RequestSchema):
    text_query: ClassVar[type[Schema]] = MatchSubmitQuery

    record = fields.String(
        required=True,
        validate=validate.Length(min=1),
        metadata={"description": "The record's text; a binary .xg goes as record_base64"},
    )
    allow_invalid = fields.Boolean(load_default=False)
    variant = fields.String(load_default=None)
    options = fields.Dict(keys=fields.String(), load_default=dict)
    format = record_format_field(in_body=True)


class MatchSubmitResponse(Schema):
    id = fields.Integer(required=True)
    sha256 = fields.String(required=True)
    duplicate = fields.Boolean(required=True)
    verdict = fields.Nested(schema_of(VerdictSchema), required=True)


class ImportResult(Schema):
    item = fields.String(required=True, metadata={"description": "list index or file name"})
    status = fields.String(
        required=True, validate=validate.OneOf(["created", "duplicate", "refused"])
    )
    id = fields.Integer(allow_none=True)
    sha256 = fields.String(allow_none=True)
    duplicate = fields.Boolean(required=True)
    reason = fields.Dict(allow_none=True, metadata={"description": "the problem, if refused"})


class ImportResponse(Schema):
    results = fields.List(fields.Nested(ImportResult), required=True)


class StoredMatchSchema(Schema):
    id = fields.Integer(required=True)
    sha256 = fields.String(required=True)
    variant = fields.String(required=True)
    valid = fields.Boolean(required=True)
    players = fields.List(fields.String(allow_none=True), required=True)
    event = fields.String(required=True, allow_none=True)
    site = fields.String(required=True, allow_none=True)
    event_date = fields.String(required=True, allow_none=True)
    match_length = fields.Integer(required=True, allow_none=True)
    games = fields.Integer(required=True, allow_none=True)
    winner = fields.String(required=True, allow_none=True)
    created_at = fields.String(required=True)


class StoredMatchDetail(StoredMatchSchema):
    options = fields.Dict(required=True)
    verdict = fields.Nested(schema_of(VerdictSchema), required=True)


class MatchPage(Schema):
    matches = fields.List(fields.Nested(StoredMatchSchema), required=True)
    next_cursor = fields.String(required=True, allow_none=True)


class MatchDetailQuery(QuerySchema):
    class Meta:
        unknown = RAISE

    format = fields.String(
        validate=validate.OneOf(["canonical", "original", *EXPORT_FORMATS]),
        metadata={"description": "canonical and mat: the canonical .mat; sgf: gnubg's SGF"},
    )


class BoardQuery(QuerySchema):
    position = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_POSITION),
        metadata={"description": "A position string (docs/notation.md#1)"},
    )
    orientation = fields.String(
        load_default="w",
        validate=validate.OneOf(["w", "b"]),
        metadata={"description": "whose side the board is seen from"},
    )
    size = fields.Integer(validate=validate.Range(min=16, max=4096))
    before = fields.String(
        validate=validate.Length(min=1, max=MAX_POSITION),
        metadata={"description": "the position before a play: the points it changed are marked"},
    )
    white = fields.String(load_default="White", validate=validate.Length(min=1, max=100))
    black = fields.String(load_default="Black", validate=validate.Length(min=1, max=100))


class ReasonRequest(RequestSchema):
    reason = fields.String(
        required=True,
        validate=validate.Length(min=1, max=500),
        metadata={"description": "why, as the ledger and the audit keep it"},
    )


class MatchWithdrawal(Schema):
    id = fields.Integer(required=True)
    withdrawn_by = fields.String(required=True, metadata={"description": "the token's name"})
    withdrawn_at = fields.String(required=True)
    reason = fields.String(required=True)


class RecheckRequest(RequestSchema):
    mode = fields.String(load_default="strict", validate=validate.OneOf(["strict", "condone"]))
    options = fields.Dict(keys=fields.String(), load_default=dict)


class ReplayAction(Schema):
    move_number = fields.Integer(required=True, allow_none=True)
    side = fields.String(required=True)
    action = fields.String(required=True)
    dice = fields.List(fields.Integer(), required=True, allow_none=True)
    play = fields.String(required=True, allow_none=True)
    value = fields.Integer(required=True, allow_none=True)
    position_before = fields.String(required=True)
    position_after = fields.String(required=True)
    line = fields.Integer(required=True)
    error = fields.Nested(schema_of(IssueSchema))


class ReplayResponse(Schema):
    match_id = fields.Integer(required=True)
    game = fields.Integer(required=True)
    actions = fields.List(fields.Nested(ReplayAction), required=True)


# -- live matches (LIVE.md) -------------------------------------------------------------

BOT_NAME = r"[A-Za-z0-9_.-]{1,40}\Z"


class LivePlayers(RequestSchema):
    w = fields.String(required=True, validate=validate.Regexp(BOT_NAME))
    b = fields.String(required=True, validate=validate.Regexp(BOT_NAME))


def clock_delay() -> fields.Integer:
    """A backgammon clock's delay (EVENTS.md §12), in a live match's or an event's clock."""
    return fields.Integer(
        load_default=0,
        strict=True,
        validate=validate.Range(min=0, max=3600),
        metadata={"description": "each decision's time before the reserve runs, seconds"},
    )


class LiveClockRequest(RequestSchema):
    reserve = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1, max=86_400),
        metadata={"description": "each player's reserve, seconds"},
    )
    delay = clock_delay()


class LiveCreateRequest(RequestSchema):
    variant = fields.String(required=True, validate=validate.Length(min=1, max=40))
    length = fields.Integer(
        load_default=0,
        strict=True,
        validate=validate.Range(min=0, max=99),
        metadata={"description": "match length in points; 0 is one money game"},
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    players = fields.Nested(
        LivePlayers,
        required=True,
        metadata={"description": "the bots' token names (scope play)"},
    )
    move_seconds = fields.Integer(
        load_default=60, strict=True, validate=validate.Range(min=1, max=3600)
    )
    join_seconds = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=1, max=86_400),
        metadata={"description": "a bot not joined by then loses by no_show (docs/events.md#13-1)"},
    )
    clock = fields.Nested(
        LiveClockRequest,
        load_default=None,
        allow_none=True,
        metadata={"description": "the backgammon clock (docs/events.md#13-2); none: move_seconds"},
    )


class LiveJoinRequest(RequestSchema):
    seed = fields.String(
        load_default="",
        validate=validate.Regexp(CLIENT_SEED.pattern + r"\Z"),
        metadata={"description": "the bot's client seed for the dice (docs/live.md#5)"},
    )


class LiveActionRequest(RequestSchema):
    ply = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=2**31))
    action = fields.String(required=True, validate=validate.OneOf(LIVE_ACTIONS))
    play = fields.String(validate=validate.Length(max=MAX_TEXT))
    value = fields.Integer(strict=True, validate=validate.Range(min=-(2**31), max=2**31))


# -- variants, positions, problems ------------------------------------------------------


class OptionInfo(Schema):
    name = fields.String(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["enum", "boolean", "integer"]))
    values = fields.List(fields.String(), allow_none=True)
    default = fields.Raw(required=True)
    description = fields.String(required=True)


class VariantInfo(Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    aliases = fields.List(fields.String(), required=True)
    start = fields.String(required=True, metadata={"description": "start position string"})
    cube = fields.Boolean(required=True)
    options = fields.List(fields.Nested(OptionInfo), required=True)


class VariantsResponse(Schema):
    variants = fields.List(fields.Nested(VariantInfo), required=True)


class ConvertRequest(RequestSchema):
    position = fields.String(
        required=True,
        validate=validate.Length(min=1, max=4096),
        metadata={"description": "A position string, a GNUbg ID (posid:matchid) or an XGID"},
    )
    to = fields.String(required=True, validate=validate.OneOf(["position", "gnubg", "xgid"]))


class ConvertResponse(Schema):
    position = fields.String(required=True, metadata={"description": "as a position string"})
    to = fields.String(required=True)
    result = fields.String(required=True)


class ProblemSchema(Schema):
    """RFC 9457 problem details; problems may carry further members (extensions)."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    instance = fields.String(required=True)
    code = fields.String(required=True)
