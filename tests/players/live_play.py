"""Play a live match with an engine on one side and the reference random bot on the other."""

from __future__ import annotations

import random
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from referee.live.bot import EventsBot, LiveClient, RandomStrategy, play_match, strategy_player
from referee.players import Engine
from referee.players.seat import EngineStrategy, play_engine_match
from tests.live.harness import Tokens, create, token_of
from tests.server import ROOT, Server


@dataclass
class CountingStrategy(EngineStrategy):
    """The bridge, counting the actions it chose (every one was accepted, or it stops)."""

    actions: list[dict[str, Any]] = field(default_factory=list)

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        action = super().choose(state)
        self.actions.append(action)
        return action


def engine_match(
    server: Server,
    tokens: Tokens,
    engine: Engine,
    engine_side: str,
    length: int,
    seed: int,
    session_options: bool = True,
    **more: Any,
) -> tuple[dict[str, Any], CountingStrategy]:
    """A live match of ``length`` between the engine (at ``engine_side``) and the random
    bot, played to its end; the final state and the engine's strategy."""
    state = create(server, tokens, length=length, move_seconds=600, **more)
    url = f"{server.base}/v1/live/{state['id']}"
    strategy = CountingStrategy(engine, session_options=session_options)
    other = "b" if engine_side == "w" else "w"
    finals: dict[str, dict[str, Any]] = {}
    errors: list[BaseException] = []

    def run(name: str, call: Any) -> None:
        try:
            finals[name] = call()
        except BaseException as error:  # the test reports it; the other bot stops too
            errors.append(error)
            server.request("POST", f"/v1/live/{state['id']}/abort", {}, tokens.host)

    engine_client = LiveClient(url, token_of(tokens, engine_side))
    random_client = LiveClient(url, token_of(tokens, other))
    threads = [
        threading.Thread(
            target=run,
            args=("engine", lambda: play_engine_match(engine_client, strategy, "engine")),
        ),
        threading.Thread(
            target=run,
            args=(
                "random",
                lambda: play_match(random_client, RandomStrategy(random.Random(seed)), "rnd"),
            ),
        ),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert not errors, errors
    return finals["engine"], strategy


@dataclass(frozen=True, slots=True)
class Challenged:
    """A challenge a bot command took by its policy: the command's exit code and output,
    the challenge as made, and the challenger's final state of its match."""

    returncode: int
    out: str
    challenge: dict[str, Any]
    final: dict[str, Any]


def challenge_taken(server: Server, tokens: Tokens, command: list[str], variant: str) -> Challenged:
    """Start ``command`` (alice's bot with ``--accept``, to play one match), wait until
    alice is online with her policy, have bob's random bot challenge her to a one-point
    match of ``variant``, and wait for the command to end."""
    bot = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not any(  # its policy set and its stream open
            found["name"] == "alice" and found["policy"] is not None
            for found in server.json("GET", "/v1/bots/online")
        ):
            assert time.monotonic() < deadline and bot.poll() is None, "alice never came online"
            time.sleep(0.05)
        challenger = EventsBot(
            server.base, tokens.bob, strategy_player(RandomStrategy(random.Random(2))), 1
        )
        thread = threading.Thread(target=challenger.run, daemon=True)
        thread.start()
        body = {"opponent": "alice", "variant": variant, "length": 1}
        made = server.json("POST", "/v1/challenges", body, tokens.bob)
        assert made["status"] == "accepted", made
        out, _ = bot.communicate(timeout=600)
        thread.join(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
    (final,) = challenger.done
    return Challenged(bot.returncode, out, made, final)
