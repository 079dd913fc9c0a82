"""The archive search's query parameters, shared by the API's list and the archive page."""

from __future__ import annotations

from collections.abc import Mapping

from marshmallow import RAISE, Schema, fields, validate

from referee.http.loading import loaded
from referee.storage.model import MatchQuery


class MatchListQuery(Schema):
    class Meta:
        unknown = RAISE

    # Lengths such that every parameter at its maximum, percent-encoded, fits gunicorn's
    # request line (8,190 bytes): longer would be gunicorn's own HTML 414.
    player = fields.String(validate=validate.Length(max=100))
    event = fields.String(validate=validate.Length(max=100))
    variant = fields.String(validate=validate.Length(max=40))
    valid = fields.Boolean()
    date_from = fields.Date(data_key="from")
    date_to = fields.Date(data_key="to")
    q = fields.String(validate=validate.Length(max=300))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    cursor = fields.String(
        validate=validate.Regexp(r"[1-9][0-9]{0,17}\Z"),
        metadata={"description": "next_cursor of the previous page"},
    )


def match_query(values: Mapping[str, str]) -> MatchQuery:
    """The archive query of the list parameters (the API's query string, the page's form)."""
    args = loaded(MatchListQuery, dict(values))
    return MatchQuery(
        player=args.get("player"),
        event=args.get("event"),
        variant=args.get("variant"),
        valid=args.get("valid"),
        date_from=args["date_from"].isoformat() if "date_from" in args else None,
        date_to=args["date_to"].isoformat() if "date_to" in args else None,
        text=args.get("q"),
        limit=args["limit"],
        after_id=int(args["cursor"]) if "cursor" in args else None,
    )
