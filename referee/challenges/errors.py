"""The refusals of challenges (EVENTS.md §14), each a ``RefereeError`` with a stable code:
the API answers them as problem+json."""

from __future__ import annotations

from referee.errors import RefereeError


class ChallengeError(RefereeError):
    """A challenge request that cannot be done as asked."""

    code = "invalid_challenge"
    title = "Invalid challenge"


class SelfChallengeError(ChallengeError):
    """A bot challenging itself."""

    code = "self_challenge"
    title = "A bot cannot challenge itself"


class NoOpponentError(ChallengeError):
    """An open call (no opponent named) that no online bot's policy takes."""

    code = "no_opponent"
    title = "No opponent"
    status = 409


class ChallengeAnsweredError(ChallengeError):
    """An answer to a challenge that was answered already or has lapsed."""

    code = "challenge_answered"
    title = "Challenge answered"
    status = 409


class TooManyChallengesError(ChallengeError):
    """A token with as many open challenges as the operator allows."""

    code = "too_many_challenges"
    title = "Too many open challenges"
    status = 429
    retry_after = 10


class RatedPairLimitError(ChallengeError):
    """As many rated matches between the same two names in the last day as the operator
    allows (rating farming)."""

    code = "rated_pair_limit"
    title = "Too many rated matches between these two"
    status = 429
    retry_after = 3600
