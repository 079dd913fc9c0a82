"""A gunicorn with threads for live matches, tokens for a host and three bots, and helpers
to create matches and play them with the reference bot."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.live.bot import LiveClient, RandomStrategy, play_match
from tests.server import Server, start, stop, write_token

LIVE_ENV = {
    "GUNICORN_CMD_ARGS": "--worker-class gthread --threads 16",
    "NARDY_REFEREE_LIVE_POLL": "0.02",
}


@dataclass
class Tokens:
    host: str
    alice: str
    bob: str
    mallory: str
    writer: str

    @classmethod
    def create(cls, database: Path) -> Tokens:
        return cls(
            host=write_token(database, "director", "live:host"),
            alice=write_token(database, "alice", "play"),
            bob=write_token(database, "bob", "play"),
            mallory=write_token(database, "mallory", "play"),
            writer=write_token(database, "archivist"),
        )


def live_server(database: Path) -> Server:
    return start(database, workers=2, env=LIVE_ENV)


@contextmanager
def live_setup(database: Path) -> Iterator[tuple[Server, Tokens]]:
    """A threaded server on ``database`` with the tokens of a host and three bots."""
    tokens = Tokens.create(database)
    server = live_server(database)
    try:
        yield server, tokens
    finally:
        stop(server)


def create(
    server: Server, tokens: Tokens, variant: str = "backgammon", length: int = 0, **more: Any
) -> dict[str, Any]:
    body = {"variant": variant, "length": length, "players": {"w": "alice", "b": "bob"}, **more}
    status, headers, _ = server.request("POST", "/v1/live", body, tokens.host)
    assert status == 201
    state: dict[str, Any] = server.json("GET", headers["Location"])
    return state


def join_both(server: Server, tokens: Tokens, live_id: int) -> dict[str, Any]:
    server.json("POST", f"/v1/live/{live_id}/join", {"seed": "alpha"}, tokens.alice)
    state: dict[str, Any] = server.json("POST", f"/v1/live/{live_id}/join", {}, tokens.bob)
    return state


def token_of(tokens: Tokens, side: str) -> str:
    return tokens.alice if side == "w" else tokens.bob


def play_out(server: Server, tokens: Tokens, live_id: int, seed: int) -> dict[str, Any]:
    """Both reference bots play the match to its end, each in its own thread."""
    finals: dict[str, dict[str, Any]] = {}

    def bot(name: str, token: str, offset: int) -> None:
        client = LiveClient(f"{server.base}/v1/live/{live_id}", token)
        finals[name] = play_match(client, RandomStrategy(random.Random(seed + offset)), name)

    threads = [
        threading.Thread(target=bot, args=("alice", tokens.alice, 0)),
        threading.Thread(target=bot, args=("bob", tokens.bob, 1)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert finals["alice"]["status"] == finals["bob"]["status"] == "finished"
    return finals["alice"]
