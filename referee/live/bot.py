"""A reference bot for live matches (LIVE.md): it plays through the public HTTP API only,
with the standard library, so bot authors have a working client to start from."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

STREAM_TIMEOUT = 60.0
"""Longer than the stream's 10 s keep-alive lines."""


class LiveApiError(Exception):
    """An answer that is not 200: its status and problem body."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        super().__init__(f"{status}: {problem.get('detail', problem)}")
        self.status = status
        self.problem = problem


class ActionRefused(LiveApiError):
    """The server refused an action (422): the bot stops rather than try something else."""

    def __init__(self, status: int, problem: dict[str, Any], action: dict[str, Any]) -> None:
        super().__init__(status, problem)
        self.action = action


class Strategy(Protocol):
    """What the bot asks for every decision: the action (without ``ply``) for a state in
    which it is to act. The random strategy below, or an engine (referee.engines)."""

    def choose(self, state: dict[str, Any]) -> dict[str, Any]: ...


@dataclass
class LiveClient:
    """The live endpoints of one match: ``url`` is ``http://host:port/v1/live/{id}``."""

    url: str
    token: str

    def call(self, method: str, path: str = "", body: Any = None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data, self._headers(), method=method)
        try:
            with urllib.request.urlopen(request, timeout=STREAM_TIMEOUT) as response:
                answer: dict[str, Any] = json.loads(response.read())
                return answer
        except urllib.error.HTTPError as error:
            raise LiveApiError(error.code, json.loads(error.read() or b"{}")) from None

    def stream(self) -> Iterator[dict[str, Any]]:
        """The match's states as the server streams them (keep-alive lines skipped)."""
        request = urllib.request.Request(self.url + "/stream", headers=self._headers())
        with urllib.request.urlopen(request, timeout=STREAM_TIMEOUT) as response:
            for line in response:
                if line.strip():
                    yield json.loads(line)

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}


@dataclass
class RandomStrategy:
    """Any legal play at random; doubles now and then, takes most doubles."""

    rng: random.Random = field(default_factory=random.Random)
    double_rate: float = 0.05
    take_rate: float = 0.75

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        expect = state["expect"]
        if "play" in expect:
            return {"action": "play", "play": self.rng.choice(state["legal_plays"])}
        if "take" in expect:
            if "beaver" in expect and self.rng.random() < self.double_rate:
                return {"action": "beaver"}
            return {"action": "take" if self.rng.random() < self.take_rate else "drop"}
        if "double" in expect and self.rng.random() < self.double_rate:
            return {"action": "double"}
        return {"action": "roll"}


STRATEGIES = {"random": RandomStrategy}


def play_match(client: LiveClient, strategy: Strategy, seed: str = "") -> dict[str, Any]:
    """Join, then act whenever a state (streamed, or the answer to our own action) says it
    is our turn; the final state. A refused action (422) raises ActionRefused."""
    joined = client.call("POST", "/join", {"seed": seed})
    sides = set(joined["you"])
    acted_on = -1
    state = joined
    for state in client.stream():
        while state["status"] == "playing" and state["to_act"] in sides:
            if state["ply"] <= acted_on:
                break
            acted_on = state["ply"]
            action = strategy.choose(state)
            try:
                state = client.call("POST", "/actions", {"ply": state["ply"], **action})
            except LiveApiError as error:
                if error.status == 422:
                    raise ActionRefused(error.status, error.problem, action) from None
                if error.status != 409:  # a 409 is a state the stream is about to show
                    raise
                break
    return state
