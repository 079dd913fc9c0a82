"""What one client may cost: the work limits of a check, a few checks at once per worker
(503 past them), and rate limits on the costly endpoints for clients without a token
(429); both answered with ``Retry-After``."""

from __future__ import annotations

import ipaddress
import math
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar

from flask import current_app, request

from referee.adjudication.budget import WorkLimits
from referee.errors import RefereeError
from referee.http.auth import bearer_token
from referee.http.shared import SharedCounters, key_hash
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
        why = f"a rate is 'requests/seconds', both positive, not {text!r}"
        try:
            rate = cls(int(count), float(seconds or 60))
        except ValueError:
            raise ValueError(why) from None
        if rate.count < 1 or not 0 < rate.seconds < math.inf:  # not NaN either
            raise ValueError(why)
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
        with held_check_slot():
            return view(*args, **kwargs)

    return slotted  # type: ignore[return-value]


@contextmanager
def held_check_slot() -> Iterator[None]:
    """One of this worker's check slots, held for the block (``check_slot``)."""
    slots: threading.BoundedSemaphore = current_app.extensions["check_slots"]
    if not slots.acquire(timeout=CHECK_WAIT_SECONDS):
        raise OverloadedError(
            "this worker is checking as many records as it may at once; try again"
        )
    try:
        yield
    finally:
        slots.release()


@contextmanager
def costly(key: str) -> Iterator[None]:
    """What a costly computation passes when a view decides late that it has one to make
    (the replay page, whose kept replays cost nothing): the rate limit ``key`` and a check
    slot, as ``rate_limited(key)`` and ``check_slot`` guard a whole view."""
    charge(key)
    with held_check_slot():
        yield


class Buckets:
    """Token buckets per (limit, client) and per (limit, network prefix), shared by every
    worker of the server (``referee.http.shared``), so a limit holds per client whichever
    worker answers. Memory is the shared table's, fixed."""

    def __init__(self, counters: SharedCounters | None = None) -> None:
        self.counters = counters or SharedCounters()

    def take(self, key: str, client: str, rate: Rate) -> float:
        """Take one token; 0 when granted, else the seconds until one is there."""
        return self.counters.take(key_hash("rate", key, client), rate.count, rate.seconds)

    def take_anonymous(self, key: str, address: str, rate: Rate) -> float:
        """An anonymous caller's token: of its address's bucket, then of its network's
        (``network_prefix``), which holds ``PREFIX_SHARE`` times as many."""
        wait = self.take(key, address, rate)
        if wait:
            return wait
        prefix = network_prefix(address)
        if prefix == address:
            return 0.0
        wider = Rate(rate.count * PREFIX_SHARE, rate.seconds)
        return self.take(key, prefix, wider)


PREFIX_SHARE = int(os.environ.get("NARDY_REFEREE_PREFIX_SHARE", "4"))
"""How many clients' worth of requests one network prefix (an IPv4 /24, an IPv6 /64) may
make without a token: many addresses of one network share it."""


def network_prefix(address: str) -> str:
    """The network an address is in, as the limits count it: its /24 (IPv4) or /64
    (IPv6); an address that cannot be read is its own."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    bits = 24 if parsed.version == 4 else 64
    return str(ipaddress.ip_network(f"{parsed}/{bits}", strict=False))


def rate_limited(key: str) -> Callable[[Handler], Handler]:
    """Guard a costly view: clients without a live token get ``RATE_LIMITS[key]``."""

    def decorate(view: Handler) -> Handler:
        @wraps(view)
        def limited(*args: object, **kwargs: object) -> object:
            charge(key)
            return view(*args, **kwargs)

        return limited  # type: ignore[return-value]

    return decorate


def charge(key: str) -> None:
    """Take one of ``RATE_LIMITS[key]`` for a client without a live token, from its
    address's bucket and its network's; 429 ``rate_limited`` when either is empty."""
    rates: Mapping[str, Rate] = current_app.config["RATE_LIMITS"]
    rate = rates.get(key)
    if rate is not None and not _has_live_token():
        buckets: Buckets = current_app.extensions["rate_buckets"]
        wait = buckets.take_anonymous(key, request.remote_addr or "", rate)
        if wait:
            raise RateLimitedError(key, math.ceil(wait))


def _has_live_token() -> bool:
    token = bearer_token()
    return token is not None and storage().tokens.holder(token) is not None
