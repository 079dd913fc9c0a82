"""The challenges service (EVENTS.md §14): a bot challenges another by name or whoever
online takes it; the challenged bot's policy answers at once, or the bot itself on its
stream; an accepted challenge becomes one live match between the two (LIVE.md), which
both bots' streams announce; an unanswered one lapses.

The operator's settings, read when used (docs/operations.md):
``NARDY_REFEREE_CHALLENGE_SECONDS`` (how long a challenge waits for its answer, default
60), ``NARDY_REFEREE_CHALLENGES_PER_TOKEN`` (open challenges per token, default 10; past
it 429 ``too_many_challenges``), ``NARDY_REFEREE_RATED_PER_PAIR_DAY`` (rated matches
between the same two names in 24 hours, default 10; past it 429 ``rated_pair_limit``).

Decision: the live match of an accepted challenge is hosted by the challenger's token
(it may abort the match before it starts, as a host may), the challenger plays White,
each move has 60 s (or the challenge's clock), and a bot that does not join within
``JOIN_SECONDS`` loses by no_show, so that a challenge accepted by a policy while its bot
is away does not keep that bot busy for ever."""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any

from referee.challenges import rules, shapes
from referee.challenges.errors import (
    ChallengeAnsweredError,
    NoOpponentError,
    RatedPairLimitError,
    SelfChallengeError,
    TooManyChallengesError,
)
from referee.challenges.rated import rate_finished
from referee.errors import ForbiddenError, NotFoundError, RefereeError
from referee.events.errors import UnknownBotError
from referee.events.rated import current
from referee.live import service as live
from referee.rules.variants import find_variant
from referee.scopes import Scope
from referee.storage.model.challenges import (
    Answer,
    ChallengeTerms,
    NewChallenge,
    Policy,
    StoredChallenge,
)
from referee.storage.model.tokens import Token
from referee.storage.shared import normal_name
from referee.storage.stores import Storage

ONLINE_SECONDS = 25.0
"""A bot stream not seen for this long is gone (its instance killed): the bot is offline."""
KEEPALIVE_SECONDS = 10.0
"""How often an open bot stream says it is still open."""
JOIN_SECONDS = 300
DAY_SECONDS = 86_400.0


SETTINGS = {"CHALLENGE_SECONDS": 60.0, "CHALLENGES_PER_TOKEN": 10.0, "RATED_PER_PAIR_DAY": 10.0}
"""The operator's settings ``NARDY_REFEREE_<name>`` and their defaults (docs/operations.md)."""


def setting(name: str) -> float:
    """An operator's setting ``NARDY_REFEREE_<name>``, read now; a number, 0 or more, or
    ValueError saying which setting is wrong (``check_settings`` at start-up)."""
    text = os.environ.get(f"NARDY_REFEREE_{name}")
    try:
        value = SETTINGS[name] if text is None else float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:  # NaN too
        raise ValueError(f"NARDY_REFEREE_{name} must be a number, 0 or more, not {text!r}")
    return value


def check_settings() -> None:
    """Read every setting once, so that a wrong one stops the server as it starts rather
    than failing the first challenge."""
    for name in SETTINGS:
        setting(name)


def challenge_seconds() -> float:
    return setting("CHALLENGE_SECONDS")


def bots(storage: Storage) -> dict[str, Token]:
    """The live tokens with scope ``play``, by name."""
    return {
        token.name: token
        for token in storage.tokens.all()
        if token.name and Scope.PLAY in token.scopes and token.revoked_at is None
    }


def terms_of(body: dict[str, Any]) -> ChallengeTerms:
    """A challenge's terms from a request's body, the variant and options checked
    (``unknown_variant``, ``invalid_option``)."""
    variant = find_variant(body["variant"])
    options = variant.options_json(variant.options_with(body["options"]))
    clock = body["clock"]
    return ChallengeTerms(
        variant=variant.id,
        length=body["length"],
        options=options,
        clock=None if clock is None else (clock["reserve"], clock["delay"]),
        rated=body["rated"],
    )


def create(storage: Storage, bot: Token, body: dict[str, Any]) -> StoredChallenge:
    """``POST /v1/challenges``: a challenge from ``bot`` (its token's name), answered at
    once when the opponent has a policy."""
    now = time.time()
    challenger = bot.name or ""
    if storage.challenges.open_count(bot.id, now) >= setting("CHALLENGES_PER_TOKEN"):
        raise TooManyChallengesError(
            "this token has as many open challenges as it may; wait for their answers",
            ratelimit={"key": "challenges", "seconds": 10},
        )
    terms = terms_of(body)
    rating_range = body.get("rating_range")
    opponent = body["opponent"]
    if opponent is None:
        opponent = open_call(storage, challenger, terms, rating_range)
    else:
        opponent = normal_name(opponent)
        if opponent == challenger:
            raise SelfChallengeError(f"{challenger!r} cannot challenge itself")
        if opponent not in bots(storage):
            raise UnknownBotError(f"no bot token (scope play) is named {opponent}", name=opponent)
    if terms.rated:
        since = now - DAY_SECONDS
        if storage.challenges.rated_between(challenger, opponent, since) >= setting(
            "RATED_PER_PAIR_DAY"
        ):
            raise pair_limit_error(challenger, opponent)
    policy = storage.challenges.policy(opponent)
    new = NewChallenge(
        challenger=challenger,
        opponent=opponent,
        terms=terms,
        token_id=bot.id,
        expires_at=now + challenge_seconds(),
        told=policy is None,
    )
    challenge_id = storage.challenges.create(new)
    if policy is not None:
        with contextlib.suppress(ChallengeAnsweredError):  # answered meanwhile: as it stands
            decide(storage, challenge_id, policy)
    return get(storage, challenge_id)


def pair_limit_error(first: str, second: str) -> RatedPairLimitError:
    return RatedPairLimitError(
        f"{first} and {second} have played as many rated matches in the last 24 hours as"
        " they may; an unrated challenge is still taken",
        ratelimit={"key": "rated_pair", "seconds": 3600},
    )


def open_call(
    storage: Storage,
    challenger: str,
    terms: ChallengeTerms,
    rating_range: tuple[float, float] | None,
) -> str:
    """The online bot an open call goes to (``rules.taker``); 409 ``no_opponent``."""
    rate_finished(storage)
    ratings = {player.name: player.rating for player in current(storage, terms.variant).players}
    known = bots(storage)
    candidates = [
        rules.Candidate(
            name,
            storage.challenges.policy(name),
            ratings.get(name, 1500.0),
            storage.challenges.in_play(name),
        )
        for name in storage.challenges.online(time.time() - ONLINE_SECONDS)
        if name in known
    ]
    found = rules.taker(candidates, challenger, terms, rating_range)
    if found is None:
        raise NoOpponentError(
            "no bot online now takes this challenge (its policy, or the rating range)"
        )
    return found


def decide(storage: Storage, challenge_id: int, policy: Policy) -> None:
    """The opponent's policy answers a new challenge: accepted (a live match) or
    declined with the reason."""
    found = storage.challenges.get(challenge_id)
    assert found is not None
    in_play = storage.challenges.in_play(found.opponent)
    reason = rules.refusal(policy, found.challenger, found.terms, in_play)
    if reason is None:
        limit = None if policy.max_concurrent is None else (found.opponent, policy.max_concurrent)
        accept(storage, challenge_id, None, limit)
    else:
        decline(storage, challenge_id, None, reason)


def get(storage: Storage, challenge_id: int) -> StoredChallenge:
    """One challenge (404 when there is none); one past its time lapses now."""
    found = storage.challenges.get(challenge_id) if 0 < challenge_id < 2**63 else None
    if found is None:
        raise NotFoundError(f"no challenge with id {str(challenge_id)[:20]}")
    if rules.lapsed(found, time.time()):
        storage.challenges.lapse(time.time())
        found = storage.challenges.get(challenge_id)
        assert found is not None
    return found


def _answerable(storage: Storage, challenge_id: int, by: Token | None) -> StoredChallenge:
    found = get(storage, challenge_id)
    if by is not None and by.name != found.opponent:
        raise ForbiddenError(f"only {found.opponent!r} may answer challenge {challenge_id}")
    if found.status != "open":
        raise ChallengeAnsweredError(
            f"challenge {challenge_id} is {found.status}", status_now=found.status
        )
    return found


def accept(
    storage: Storage,
    challenge_id: int,
    by: Token | None,
    busy: tuple[str, int] | None = None,
) -> StoredChallenge:
    """Accept a challenge (``by`` the challenged bot; None: its policy): its live match is
    made, then the acceptance saved with the news for both streams; a match made for an
    acceptance that lost the race (an answer or the lapse came first, or the bot became
    busy meanwhile) is aborted, so a challenge becomes one live match at most."""
    found = _answerable(storage, challenge_id, by)
    pair_limit = int(setting("RATED_PER_PAIR_DAY")) if found.terms.rated else None
    host = bots(storage).get(found.challenger)
    if host is None:
        return decline(storage, challenge_id, by, "challenger_gone")
    terms = found.terms
    made = live.create(
        storage,
        host,
        terms.variant,
        terms.length,
        terms.options,
        {"w": found.challenger, "b": found.opponent},
        join_seconds=JOIN_SECONDS,
        clock=terms.clock,
    )
    answer = Answer(
        challenge_id=challenge_id,
        status="accepted",
        now=time.time(),
        live_id=made["id"],
        busy=busy,
        pair_limit=pair_limit,
    )
    if storage.challenges.answer(answer):
        return get(storage, challenge_id)
    with contextlib.suppress(RefereeError):
        live.abort(storage, made["id"], host)
    now_found = get(storage, challenge_id)
    if now_found.status == "open" and pair_limit is not None:
        since = time.time() - DAY_SECONDS
        if storage.challenges.rated_between(found.challenger, found.opponent, since) >= pair_limit:
            if by is None:  # a policy's answer: the challenge is declined
                return decline(storage, challenge_id, None, "rated_pair_limit")
            raise pair_limit_error(found.challenger, found.opponent)  # it may lapse
    if now_found.status == "open" and busy is not None:
        return decline(storage, challenge_id, None, rules.Reason.BUSY)
    raise ChallengeAnsweredError(
        f"challenge {challenge_id} is {now_found.status}", status_now=now_found.status
    )


def decline(storage: Storage, challenge_id: int, by: Token | None, reason: str) -> StoredChallenge:
    """Decline a challenge with a reason (``by`` the challenged bot; None: its policy)."""
    _answerable(storage, challenge_id, by)
    answer = Answer(challenge_id=challenge_id, status="declined", now=time.time(), reason=reason)
    if not storage.challenges.answer(answer):
        found = get(storage, challenge_id)
        raise ChallengeAnsweredError(
            f"challenge {challenge_id} is {found.status}", status_now=found.status
        )
    return get(storage, challenge_id)


def cancel(storage: Storage, challenge_id: int, by: Token) -> StoredChallenge:
    """The challenger takes back an open challenge (403 for another token's bot; 409
    ``challenge_answered`` once answered or lapsed)."""
    found = get(storage, challenge_id)
    if by.name != found.challenger:
        raise ForbiddenError(f"only {found.challenger!r} may cancel challenge {challenge_id}")
    answer = Answer(challenge_id=challenge_id, status="cancelled", now=time.time())
    if found.status != "open" or not storage.challenges.answer(answer):
        found = get(storage, challenge_id)
        raise ChallengeAnsweredError(
            f"challenge {challenge_id} is {found.status}", status_now=found.status
        )
    return get(storage, challenge_id)


def set_policy(storage: Storage, bot: Token, name: str, policy: Policy | None) -> None:
    """``PUT /v1/bots/{name}/policy``: by the bot itself only (403 otherwise)."""
    if bot.name != normal_name(name):
        raise ForbiddenError(f"only the bot {name!r} may set its policy")
    storage.challenges.set_policy(bot.name, policy)


def online(storage: Storage) -> list[dict[str, Any]]:
    """``GET /v1/bots/online``: the bots with a bot stream open now, each with its
    ratings (every rated variant; 1500 where it has none) and its policy's public parts."""
    known = bots(storage)
    names = [
        name for name in storage.challenges.online(time.time() - ONLINE_SECONDS) if name in known
    ]
    rate_finished(storage)
    kept = {variant: current(storage, variant) for variant in storage.ratings.variants()}
    answer = []
    for name in names:
        ratings = {
            variant: next((p.rating for p in found.players if p.name == name), 1500.0)
            for variant, found in kept.items()
        }
        policy = rules.public(storage.challenges.policy(name))
        answer.append(shapes.dump_online(shapes.OnlineView(name, ratings, policy)))
    return answer


def sweep(storage: Storage) -> int:
    """Every open challenge past its time lapses, and the rated ones finished since go
    into the ratings' ledger; how many lapsed (the clock's thread, each beat:
    ``referee.http.serving``)."""
    lapsed = storage.challenges.lapse(time.time())
    rate_finished(storage)
    return lapsed
