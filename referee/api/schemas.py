"""Marshmallow schemas of the request and response bodies (the source of openapi.yaml)."""

from __future__ import annotations

from marshmallow import RAISE, Schema, fields, validate

MAX_TEXT = 64 * 1024


class RequestSchema(Schema):
    class Meta:
        unknown = RAISE


class PositionRequest(RequestSchema):
    position = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_TEXT),
        metadata={"description": "A position string (NOTATION.md §1) holding the dice"},
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "Rule options of RULES.md §12.1; defaults apply"},
    )


class CheckRequest(PositionRequest):
    play = fields.String(
        required=True,
        validate=validate.Length(max=MAX_TEXT),
        metadata={"description": "The play, e.g. '24/18 13/11', '' or 'Cannot Move'"},
    )


class Finding(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)


class LegalPlay(Schema):
    play = fields.String(required=True, metadata={"description": "Canonical play text"})
    position = fields.String(required=True, metadata={"description": "Position after the play"})


class LegalResponse(Schema):
    count = fields.Integer(required=True)
    plays = fields.List(fields.Nested(LegalPlay), required=True)


class CheckResponse(Schema):
    legal = fields.Boolean(required=True)
    play = fields.String(required=True, allow_none=True)
    position = fields.String(required=True, allow_none=True)
    reason = fields.Nested(Finding, required=True, allow_none=True)
    alternatives = fields.List(fields.String(), required=True)
    warnings = fields.List(fields.Nested(Finding), required=True)


class RecordCheckRequest(RequestSchema):
    record = fields.String(
        required=True,
        validate=validate.Length(min=1),
        metadata={"description": "A match record (.mat, with the nardy extension tags)"},
    )
    variant = fields.String(
        load_default=None, metadata={"description": "Overrides the [Variation] tag"}
    )
    mode = fields.String(
        load_default="strict",
        validate=validate.OneOf(["strict", "condone"]),
        metadata={"description": "strict: a game stops at its first error; condone: see §4"},
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "Rule options; they override the record's header tags"},
    )
