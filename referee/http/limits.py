"""What one client may cost: the work limits of a check, a few checks at once per worker
(503 past them), and rate limits on the costly endpoints for clients without a token
(429); both answered with ``Retry-After``."""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar

from flask import current_app, request

from referee.adjudication.budget import WorkLimits
from referee.errors import RefereeError
from referee.http.auth import bearer_token
from referee.http.storage import storage

Handler = TypeVar("Handler", bound=Callable[..., object])


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``count`` requests per ``seconds``, in bursts of up to ``count``."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``20/60``: 20 requests per 60 seconds."""
        count, _, seconds = text.partition("/")
        rate = cls(int(count), float(seconds or 60))
        if rate.count < 1 or rate.seconds <= 0:
            raise ValueError(f"a rate is 'requests/seconds', both positive, not {text!r}")
        return rate


DEFAULT_RATES = {"check": Rate(20, 60), "plays": Rate(600, 60)}
"""``check``: whole records (check, re-check, replay); ``plays``: one play or position."""


def parse_rates(text: str) -> dict[str, Rate]:
    """``NARDY_REFEREE_RATE_LIMITS``: ``off``, or ``check=20/60,plays=600/60`` over the
    defaults."""
    if text.strip() == "off":
        return {}
    rates = dict(DEFAULT_RATES)
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, _, rate = item.partition("=")
        if key.strip() not in DEFAULT_RATES:
            raise ValueError(f"unknown rate limit {key!r}: one of {', '.join(DEFAULT_RATES)}")
        rates[key.strip()] = Rate.parse(rate)
    return rates


CHECK_WAIT_SECONDS = 10.0
"""How long a check waits for one of its worker's check slots before a 503."""


def limits_config() -> dict[str, Any]:
    """The app config of the limits, from the environment."""
    return {
        "WORK_LIMITS": WorkLimits.from_text(os.environ.get("NARDY_REFEREE_WORK_LIMITS", "")),
        "RATE_LIMITS": parse_rates(os.environ.get("NARDY_REFEREE_RATE_LIMITS", "")),
        "CHECKS_AT_ONCE": int(os.environ.get("NARDY_REFEREE_CHECKS", "4")),
    }


def work_limits() -> WorkLimits:
    """The work limits of a check in this app."""
    limits: WorkLimits = current_app.config["WORK_LIMITS"]
    return limits


class RateLimitedError(RefereeError):
    """Too many costly requests from one client: wait ``retry_after`` seconds."""

    code = "rate_limited"
    title = "Too many requests"
    status = 429

    def __init__(self, key: str, seconds: int) -> None:
        super().__init__(
            f"too many {key} requests from this client; try again in {seconds} s",
            ratelimit={"key": key, "seconds": seconds},
        )
        self.retry_after = seconds


class OverloadedError(RefereeError):
    """Every check slot of this worker stayed taken: try again shortly."""

    code = "overloaded"
    title = "Too busy"
    status = 503
    retry_after = 5


def check_slot(view: Handler) -> Handler:
    """Guard a view that checks whole records: at most ``CHECKS_AT_ONCE`` of them run at
    once in this worker (its memory is that many checks' at most); a request waits up to
    ``CHECK_WAIT_SECONDS`` for a slot, then gets 503 ``overloaded``."""

    @wraps(view)
    def slotted(*args: object, **kwargs: object) -> object:
        slots: threading.BoundedSemaphore = current_app.extensions["check_slots"]
        if not slots.acquire(timeout=CHECK_WAIT_SECONDS):
            raise OverloadedError(
                "this worker is checking as many records as it may at once; try again"
            )
        try:
            return view(*args, **kwargs)
        finally:
            slots.release()

    return slotted  # type: ignore[return-value]


class Buckets:
    """Token buckets per (limit, client), in this process. Thread-safe; full buckets are
    forgotten when there are many, so memory stays bounded."""

    MAX_CLIENTS = 10_000

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.levels: dict[tuple[str, str], tuple[float, float]] = {}
        """(key, client) → (tokens left, when counted)."""

    def take(self, key: str, client: str, rate: Rate) -> float:
        """Take one token; 0 when granted, else the seconds until one is there."""
        now = time.monotonic()
        refill = rate.count / rate.seconds
        with self.lock:
            tokens, then = self.levels.get((key, client), (float(rate.count), now))
            tokens = min(float(rate.count), tokens + (now - then) * refill)
            if tokens < 1:
                self.levels[(key, client)] = (tokens, now)
                return (1 - tokens) / refill
            if len(self.levels) >= self.MAX_CLIENTS:
                self.forget_full(now, refill, rate.count)
            self.levels[(key, client)] = (tokens - 1, now)
            return 0.0

    def forget_full(self, now: float, refill: float, count: int) -> None:
        for entry, (tokens, then) in list(self.levels.items()):
            if tokens + (now - then) * refill >= count:
                del self.levels[entry]


def rate_limited(key: str) -> Callable[[Handler], Handler]:
    """Guard a costly view: clients without a live token get ``RATE_LIMITS[key]``."""

    def decorate(view: Handler) -> Handler:
        @wraps(view)
        def limited(*args: object, **kwargs: object) -> object:
            rates: Mapping[str, Rate] = current_app.config["RATE_LIMITS"]
            rate = rates.get(key)
            if rate is not None and not _has_live_token():
                buckets: Buckets = current_app.extensions["rate_buckets"]
                wait = buckets.take(key, request.remote_addr or "", rate)
                if wait:
                    raise RateLimitedError(key, math.ceil(wait))
            return view(*args, **kwargs)

        return limited  # type: ignore[return-value]

    return decorate


def _has_live_token() -> bool:
    token = bearer_token()
    return token is not None and storage().tokens.holder(token) is not None
