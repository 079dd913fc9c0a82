"""The rules of a challenge, as functions of values (EVENTS.md §14): whether a bot's
policy takes a challenge and, if not, why (a reason slug); when an open challenge has
lapsed; which online bot an open call (no opponent named) goes to; what of a policy the
online list shows. No storage, no web framework: checkable by anyone.

Decision: a policy decides every challenge at once, in this order: ``blocked`` (the
challenger is in ``block``), ``not_accepted`` (``accept`` is ``"none"``, or a list without
the challenger), ``variant`` (not in ``variants``), ``rated`` (a rated challenge to a bot
whose policy says ``rated: false``; ``rated: true`` takes rated and unrated ones alike),
``busy`` (the bot plays ``max_concurrent`` live matches already). A bot without a policy
answers its challenges itself."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from referee.storage.model.challenges import ChallengeTerms, Policy, StoredChallenge


class Reason(StrEnum):
    """Why a policy declined a challenge."""

    BLOCKED = "blocked"
    NOT_ACCEPTED = "not_accepted"
    VARIANT = "variant"
    RATED = "rated"
    BUSY = "busy"


def refusal(policy: Policy, challenger: str, terms: ChallengeTerms, in_play: int) -> Reason | None:
    """Why ``policy`` declines a challenge from ``challenger`` on ``terms`` while its bot
    plays ``in_play`` live matches (None: it accepts it)."""
    if challenger in policy.block:
        return Reason.BLOCKED
    if policy.accept == "none" or (policy.accept != "any" and challenger not in policy.accept):
        return Reason.NOT_ACCEPTED
    if policy.variants is not None and terms.variant not in policy.variants:
        return Reason.VARIANT
    if terms.rated and not policy.rated:
        return Reason.RATED
    if policy.max_concurrent is not None and in_play >= policy.max_concurrent:
        return Reason.BUSY
    return None


def lapsed(challenge: StoredChallenge, now: float) -> bool:
    """Whether an open challenge's time has run out at ``now``."""
    return challenge.status == "open" and challenge.expires_at <= now


def status_at(challenge: StoredChallenge, now: float) -> str:
    """Where a challenge stands at ``now``: an open one past its time has lapsed, whether
    or not the sweeper has written it yet."""
    return "lapsed" if lapsed(challenge, now) else challenge.status


def in_range(rating: float, rating_range: tuple[float, float] | None) -> bool:
    """Whether a rating is within an open call's ``rating_range`` (both ends in)."""
    return rating_range is None or rating_range[0] <= rating <= rating_range[1]


@dataclass(frozen=True, slots=True)
class Candidate:
    """An online bot an open call may go to: its name, policy (None: it answers itself),
    rating in the call's variant and how many live matches it plays."""

    name: str
    policy: Policy | None
    rating: float
    in_play: int


def taker(
    candidates: Iterable[Candidate],
    challenger: str,
    terms: ChallengeTerms,
    rating_range: tuple[float, float] | None,
) -> str | None:
    """The bot an open call goes to: the first by name, other than the challenger, whose
    policy accepts it and whose rating is within ``rating_range`` (None: none does; a bot
    without a policy is not asked, since nothing says it would take the call)."""
    for candidate in sorted(candidates, key=lambda found: found.name):
        if candidate.name == challenger or candidate.policy is None:
            continue
        if not in_range(candidate.rating, rating_range):
            continue
        if refusal(candidate.policy, challenger, terms, candidate.in_play) is None:
            return candidate.name
    return None


@dataclass(frozen=True, slots=True)
class SeenPolicy:
    """What others see of a bot's policy (``referee.challenges.shapes.PublicPolicy``)."""

    accept: str
    variants: tuple[str, ...] | None
    rated: bool
    max_concurrent: int | None


def public(policy: Policy | None) -> SeenPolicy | None:
    """What others see of a policy (``GET /v1/bots/online``): whether it takes
    challenges from anyone, from some names or from none (the names and the blocked ones
    stay private), its variants, its rated flag and its limit."""
    if policy is None:
        return None
    accept = policy.accept if isinstance(policy.accept, str) else "some"
    return SeenPolicy(accept, policy.variants, policy.rated, policy.max_concurrent)


def stream_line(challenge: StoredChallenge) -> dict[str, Any]:
    """The bot stream's line for a challenge to answer (EVENTS.md §14)."""
    terms = challenge.terms
    clock = None if terms.clock is None else {"reserve": terms.clock[0], "delay": terms.clock[1]}
    return {
        "type": "challenge",
        "id": challenge.id,
        "from": challenge.challenger,
        "variant": terms.variant,
        "length": terms.length,
        "options": terms.options,
        "clock": clock,
        "rated": terms.rated,
        "expires_at": challenge.expires_at,
    }
