"""The JSON shapes of challenges and of the bots online (EVENTS.md §14), written once:
openapi.yaml documents these schemas and the API dumps its answers through them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.challenges.rules import SeenPolicy
from referee.shapes import Shape, dumper, fields, validate
from referee.storage.model.challenges import StoredChallenge


class ChallengeClock(Shape):
    reserve = fields.Integer(required=True)
    delay = fields.Integer(required=True)


class Challenge(Shape):
    id = fields.Integer(required=True)
    status = fields.String(
        required=True,
        validate=validate.OneOf(["open", "accepted", "declined", "lapsed", "cancelled"]),
    )
    challenger = fields.String(required=True)
    opponent = fields.String(required=True)
    variant = fields.String(required=True, attribute="terms.variant")
    length = fields.Integer(required=True, attribute="terms.length")
    options = fields.Dict(required=True, attribute="terms.options")
    clock = fields.Nested(ChallengeClock, required=True, allow_none=True)
    rated = fields.Boolean(required=True, attribute="terms.rated")
    reason = fields.String(
        required=True, allow_none=True, metadata={"description": "why it was declined"}
    )
    live_id = fields.Integer(
        required=True, allow_none=True, metadata={"description": "the accepted one's match"}
    )
    created_at = fields.Float(required=True, metadata={"description": "Unix time"})
    expires_at = fields.Float(required=True, metadata={"description": "it lapses then"})


class PublicPolicy(Shape):
    accept = fields.String(required=True, validate=validate.OneOf(["none", "any", "some"]))
    variants = fields.List(fields.String(), required=True, allow_none=True)
    rated = fields.Boolean(required=True)
    max_concurrent = fields.Integer(required=True, allow_none=True)


class OnlineBot(Shape):
    name = fields.String(required=True)
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        required=True,
        metadata={"description": "by variant, every rated variant (1500: none yet)"},
    )
    policy = fields.Nested(PublicPolicy, required=True, allow_none=True)


@dataclass(frozen=True, slots=True)
class ClockView:
    """A challenge's backgammon clock as ``ChallengeClock`` shows it."""

    reserve: int
    delay: int


@dataclass(frozen=True, slots=True)
class ChallengeView:
    """A stored challenge as ``Challenge`` shows it: its clock as a ``ClockView``, the
    rest as stored."""

    stored: StoredChallenge

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stored, name)

    @property
    def clock(self) -> ClockView | None:
        clock = self.stored.terms.clock
        return None if clock is None else ClockView(*clock)


@dataclass(frozen=True, slots=True)
class OnlineView:
    """A bot online as ``OnlineBot`` shows it."""

    name: str
    ratings: dict[str, float]
    policy: SeenPolicy | None


dump_online = dumper(OnlineBot)
_dump_challenge = dumper(Challenge)


def challenge_json(found: StoredChallenge) -> dict[str, Any]:
    """A challenge as the API shows it; the stream's line has the same fields
    (``referee.challenges.rules.stream_line``)."""
    return _dump_challenge(ChallengeView(found))
