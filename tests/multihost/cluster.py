"""Several referee instances on one PostgreSQL: a temporary cluster of the tests' own (so a
test may restart it), a fresh database on it per test, real gunicorn instances (the shipped
config, gthread) on loopback ports, and bots that talk to one instance and move to another
when theirs goes away."""

from __future__ import annotations

import http.client
import random
import threading
import time
import urllib.error
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from referee.storage import prepare_storage
from referee.storage.postgresql import close_pools
from tests.reliability.gunicorns import call, choose, start_on
from tests.server import Server, write_token
from tests.storage.postgresql import REQUIRED, Cluster

LIVE_ENV = {
    "GUNICORN_CMD_ARGS": "--worker-class gthread --threads 16",
    "NARDY_REFEREE_POSTGRESQL_POOL_TIMEOUT": "3",
}
ERRORS = (OSError, urllib.error.URLError, http.client.HTTPException, ValueError)


class Postgres:
    """A temporary cluster the tests may stop and start again."""

    def __init__(self) -> None:
        self.cluster = Cluster()
        self.databases = 0

    def fresh(self) -> str:
        """The URL of a new database on it, migrated."""
        import psycopg

        self.databases += 1
        name = f"multihost_{self.databases}"
        with psycopg.connect(self.cluster.url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        url = self.cluster.url.replace("/postgres?", f"/{name}?")
        prepare_storage(url)
        return url

    def restart(self, down_seconds: float) -> None:
        """Stop the server (fast: sessions are ended), wait, start it again."""
        data = str(self.cluster.data)
        self.cluster._run("pg_ctl", "-D", data, "-m", "fast", "-w", "stop")
        time.sleep(down_seconds)
        options = (
            f"-k {self.cluster.folder} -c listen_addresses='' -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
        )
        log = str(self.cluster.folder / "log")
        self.cluster._run("pg_ctl", "-D", data, "-l", log, "-w", "-o", options, "start")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    try:
        made = Postgres()
    except Exception as error:  # no PostgreSQL installed, or it cannot start here
        if REQUIRED:
            pytest.fail(f"REQUIRE_POSTGRESQL=1: no temporary PostgreSQL cluster: {error}")
        pytest.skip(f"no temporary PostgreSQL cluster: {error}")
    try:
        yield made
    finally:
        close_pools()
        made.cluster.stop()


@dataclass
class Tokens:
    host: str
    alice: str
    bob: str
    writer: str

    @classmethod
    def create(cls, url: str) -> Tokens:
        where: Any = url  # write_token takes any location
        return cls(
            host=write_token(where, "director", "live:host"),
            alice=write_token(where, "alice", "play"),
            bob=write_token(where, "bob", "play"),
            writer=write_token(where, "archivist"),
        )


def instance(url: str, folder: Path, name: str, env: dict[str, str] | None = None) -> Server:
    """A gunicorn instance (2 gthread workers) on ``url``, its log in ``folder``."""
    where: Any = url
    return start_on(where, log=folder / f"{name}.log", env={**LIVE_ENV, **(env or {})})


def new_match(base: str, tokens: Tokens, move_seconds: int = 60, length: int = 0) -> int:
    """A live match between alice and bob, both joined; its id."""
    body = {"variant": "backgammon", "length": length, "move_seconds": move_seconds,
            "players": {"w": "alice", "b": "bob"}}  # fmt: skip
    status, state = call(base, "POST", "/v1/live", body, tokens.host)
    assert status == 201, state
    live_id = int(state["id"])
    for token, seed in ((tokens.alice, "a"), (tokens.bob, "b")):
        status, state = call(base, "POST", f"/v1/live/{live_id}/join", {"seed": seed}, token)
        assert status == 200, state
    return live_id


@dataclass(eq=False)
class Bot(threading.Thread):
    """One side of a match, talking to the first of ``bases`` that answers: an instance
    that goes away (connection refused or cut) sends it to the next. It keeps the ply of
    every action acknowledged (a 200), counts those whose answer was lost, and the final
    state; ``before_acting(state)`` may hold it back (a test's pacing)."""

    live_id: int
    side: str
    token: str
    bases: list[str]
    until: float
    seed: int = 0
    before_acting: Any = None
    acknowledged: list[int] = field(default_factory=list)
    unanswered: int = 0
    refused: list[tuple[int, Any]] = field(default_factory=list)
    final: dict[str, Any] | None = None
    moved: int = 0

    def __post_init__(self) -> None:
        super().__init__(daemon=True)

    def _next_base(self) -> None:
        self.bases = self.bases[1:] + self.bases[:1]
        self.moved += 1

    def run(self) -> None:
        rng = random.Random(self.seed)
        while time.monotonic() < self.until:
            base = self.bases[0]
            try:
                status, state = call(base, "GET", f"/v1/live/{self.live_id}")
            except ERRORS:
                self._next_base()
                time.sleep(0.1)
                continue
            if status != 200:
                self.refused.append((status, state))
                time.sleep(0.2)
                continue
            if state["status"] != "playing":
                self.final = state
                return
            if state["to_act"] != self.side:
                time.sleep(0.01)
                continue
            if self.before_acting is not None:
                self.before_acting(state)
            action = {"ply": state["ply"], **choose(state, rng)}
            path = f"/v1/live/{self.live_id}/actions"
            try:
                status, answer = call(base, "POST", path, action, self.token)
            except ERRORS:
                self.unanswered += 1  # committed or not: the next read tells
                self._next_base()
                continue
            if status == 200:
                self.acknowledged.append(int(answer["ply"]))
            elif status != 409:  # 409: stale, read again
                self.refused.append((status, answer))
                time.sleep(0.2)


def check_no_acknowledged_action_lost(final: dict[str, Any], bots: list[Bot]) -> None:
    """Every acknowledged action is in the match: no ply acknowledged twice, and its plies
    are the acknowledged ones plus at most those whose answer was lost (and the server's
    own rolls, which no bot sends: none in a money game without the cube here)."""
    acknowledged = [ply for bot in bots for ply in bot.acknowledged]
    assert len(set(acknowledged)) == len(acknowledged), acknowledged
    assert max(acknowledged) <= final["ply"]
    lost_answers = final["ply"] - len(acknowledged)
    assert 0 <= lost_answers <= sum(bot.unanswered for bot in bots), (final["ply"], bots)
