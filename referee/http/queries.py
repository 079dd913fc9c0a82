"""Query strings: the fields they share, and the archive search's parameters (the API's
list and the archive page).

Every query parameter has a documented maximum length (``maxLength``, or a type or an
enum that bounds it) such that a URL with every parameter of its endpoint at its maximum,
each character percent-encoded as four UTF-8 bytes (12 bytes a character), fits gunicorn's
request line (``limit_request_line``, 8,190 bytes): a query within its limits is always
answered by the app, never by gunicorn (tests/api/test_query_limits.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import ValidationError, fields, validate

from referee.errors import UnknownVariantError
from referee.http.loading import QuerySchema, loaded
from referee.rules.variants import VARIANTS, find_variant
from referee.storage.model.matches import MatchQuery

VARIANT_NAMES = tuple(str(name) for variant in VARIANTS for name in (variant.id, *variant.aliases))
"""Every name a variant answers to: its id and its aliases."""


class VariantName(fields.String):
    """A variant's id or alias (any case), loaded as the variant's id; any other text is
    refused with the names allowed (documented as an enum)."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"enum": list(VARIANT_NAMES), **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return str(find_variant(text).id)
        except UnknownVariantError:
            raise ValidationError(f"Must be one of: {', '.join(VARIANT_NAMES)}.") from None


class MatchListQuery(QuerySchema):
    # Lengths such that every parameter at its maximum, percent-encoded, fits gunicorn's
    # request line (8,190 bytes): longer would be gunicorn's own 414.
    player = fields.String(
        validate=validate.Length(max=100), metadata={"description": "either player's name"}
    )
    event = fields.String(validate=validate.Length(max=100))
    event_id = fields.Integer(
        validate=validate.Range(min=1, max=2**63 - 1),
        metadata={"description": "the matches an event made or took (docs/events.md#11)"},
    )
    variant = VariantName()
    valid = fields.Boolean()
    date_from = fields.Date(data_key="from")
    date_to = fields.Date(data_key="to")
    q = fields.String(
        validate=validate.Length(max=300),
        metadata={"description": "full text over player names, event and site"},
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    cursor = fields.String(
        validate=validate.Regexp(r"[1-9][0-9]{0,17}\Z"),
        metadata={"description": "next_cursor of the previous page", "maxLength": 18},
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
        event_id=args.get("event_id"),
    )
