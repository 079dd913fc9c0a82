"""What the challenge store takes and gives (EVENTS.md §14): challenges between bots, the
bots' policies, the news of the bot stream about challenges, and which bots hold a bot
stream open. Frozen values, the same for every backend."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

ChallengeStatus = Literal["open", "accepted", "declined", "lapsed", "cancelled"]
NewsKind = Literal["challenge", "match"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ChallengeTerms:
    """The match a challenge offers: variant, length, options, an optional backgammon
    clock (reserve, delay), whether it is rated."""

    variant: str
    length: int
    options: dict[str, Any]
    clock: tuple[int, int] | None
    rated: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class NewChallenge:
    """A challenge to store: who challenges whom on what terms, through which token, and
    when it lapses (a Unix time); ``told``: the opponent's stream is told of it (not when
    its policy answers at once)."""

    challenger: str
    opponent: str
    terms: ChallengeTerms
    token_id: int
    expires_at: float
    told: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredChallenge(NewChallenge):
    """A stored challenge: its id, where it stands, why it was declined, the live match
    it became, when it was made and answered (Unix times); ``told`` is not stored (read
    back as True)."""

    id: int
    status: ChallengeStatus
    reason: str | None
    live_id: int | None
    created_at: float
    answered_at: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """An answer to an open challenge: accepted (with its live match), declined (with a
    reason) or cancelled (by its challenger), at ``now``. ``busy`` (a name and a number):
    accepted only while that bot plays fewer other live matches than the number;
    ``pair_limit``: a rated one accepted only while fewer rated challenges between the two
    were accepted in the day before ``now``; both counted in the answer's transaction."""

    challenge_id: int
    status: Literal["accepted", "declined", "cancelled"]
    now: float
    reason: str | None = None
    live_id: int | None = None
    busy: tuple[str, int] | None = None
    pair_limit: int | None = None


@dataclass(frozen=True, slots=True)
class ChallengeNews:
    """A line the bot stream of ``name`` owes: a challenge to answer, or the live match
    an accepted challenge became (``seq``: the order the news was made)."""

    seq: int
    name: str
    challenge_id: int
    kind: NewsKind
    live_id: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Policy:
    """A bot's policy: whom it accepts (``"none"``, ``"any"`` or names), whom it blocks,
    the variants it plays (None: every one), how many live matches it plays at once at
    most (None: no limit), and whether it plays rated matches."""

    accept: Literal["none", "any"] | tuple[str, ...]
    block: tuple[str, ...] = ()
    variants: tuple[str, ...] | None = None
    max_concurrent: int | None = None
    rated: bool = True
