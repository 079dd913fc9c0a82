"""Issue 30's events on PostgreSQL, two instances behind the shipped balancer (HAProxy): a
double elimination of six, a knockout of eight with consolation and last chance at lengths
3, 1 and 1, and a Swiss of nine ranked by head-to-head, median Buchholz and progressive
scores, played by the independent checker's bots through the balancer only and checked
by it (tests/events/test_acceptance.py) from the records and results."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.events.test_acceptance import (
    LIVE_ENV,
    NINE,
    Api,
    Checker,
    CheckerBot,
    brackets_and_tiebreaks,
    stopped,
)
from tests.multihost.balancer import balancer
from tests.multihost.cluster import Postgres, instance
from tests.reliability.gunicorns import port_of, stop
from tests.server import write_token


def test_three_events_through_the_balancer_agree_with_the_checker(
    postgres: Postgres, tmp_path: Path
) -> None:
    url = postgres.fresh()
    where: Any = url  # write_token takes any location
    secrets = {name: write_token(where, name, "play") for name in NINE}
    host = write_token(where, "director", "live:host")
    env = {**LIVE_ENV, "NARDY_REFEREE_PROXIES": "1"}
    servers = [instance(url, tmp_path, name, env) for name in ("a", "b")]
    proxy = None
    try:
        proxy, port = balancer([port_of(server) for server in servers], tmp_path)
        api = Api(f"http://127.0.0.1:{port}")
        checker = Checker(api, host)
        bots = [CheckerBot(api, name, secrets[name], seed) for seed, name in enumerate(NINE)]
        try:
            brackets_and_tiebreaks(checker, timeout=600)  # a slow machine's bound, no goal
        finally:
            stopped(bots)
        checker.check_ratings()
    finally:
        if proxy is not None:
            proxy.kill()
            proxy.wait()
        for server in servers:
            stop(server)
    for name in ("a", "b"):  # both instances took the bots' moves
        assert '"POST /v1/live/' in (tmp_path / f"{name}.log").read_text(), name
