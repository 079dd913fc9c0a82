"""A reference bot for live matches (LIVE.md): it plays through the public HTTP API only,
with the standard library, so bot authors have a working client to start from. With
``play_events`` it follows the bot stream (EVENTS.md §2) and plays every match it is
given, each in a thread of its own, and answers its challenges by a policy (§14)."""

from __future__ import annotations

import http.client
import json
import logging
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

STREAM_TIMEOUT = 60.0
"""Longer than the stream's 10 s keep-alive lines."""
RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)
"""Waits before reconnecting to a server that went away (a restart), the last repeated."""
log = logging.getLogger("nardy_referee.bot")


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
    which it is to act. The random strategy below, or an engine (referee.players)."""

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


Player = Callable[["LiveClient"], dict[str, Any]]
"""Plays one live match to its end (the final state): ``play_match`` with a strategy, or
an engine's (``referee.players.seat.engine_player``)."""


def refusal(policy: dict[str, Any], challenge: dict[str, Any]) -> str | None:
    """Why a policy (as ``PUT /v1/bots/{name}/policy`` takes it) declines a challenge line
    (None: it accepts it); how many matches the bot plays is the server's to count."""
    challenger = challenge.get("from")
    accept = policy.get("accept", "none")
    if challenger in (policy.get("block") or ()):
        return "blocked"
    if accept == "none" or (accept != "any" and challenger not in accept):
        return "not_accepted"
    variants = policy.get("variants")
    if variants is not None and challenge.get("variant") not in variants:
        return "variant"
    if challenge.get("rated") and not policy.get("rated", True):
        return "rated"
    return None


@dataclass
class EventsBot:
    """A bot in events and challenges: it follows ``GET /v1/bot/stream`` at ``base`` (the
    server, ``http://host:port``) and plays every match announced (of an event or of an
    accepted challenge), each in its own thread, until ``matches`` have ended (None: for
    ever). When the server goes away (a restart) it connects again, and resumes the
    matches it was playing (joining again is harmless).

    With a ``policy`` (EVENTS.md §14) it first sets it as the bot ``name``'s, so that the
    server answers its challenges at once; a challenge line that still reaches it (made
    before) it answers by the same policy. Without one it leaves challenges unanswered
    (they lapse). Lines of a type it does not know are passed over."""

    base: str
    token: str
    play: Player
    matches: int | None = None
    done: list[dict[str, Any]] = field(default_factory=list)
    on_done: Callable[[dict[str, Any]], None] = lambda state: None
    name: str | None = None
    policy: dict[str, Any] | None = None
    answers: list[tuple[int, str]] = field(default_factory=list)
    """The challenges it answered itself: (id, "accepted" or the reason declined)."""
    _started: set[int] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _finished: threading.Event = field(default_factory=threading.Event)

    def run(self) -> list[dict[str, Any]]:
        """Play until ``matches`` have ended; their final states, in the order they ended."""
        self.start()
        self._finished.wait()
        return self.done

    def start(self) -> None:
        """Set the policy, then follow the stream in a thread of its own (``run`` waits
        for it; ``stop`` ends it)."""
        if self.policy is not None:
            server = LiveClient(f"{self.base}/v1/bots/{self.name}", self.token)
            server.call("PUT", "/policy", self.policy)
        follower = threading.Thread(target=self._follow, name="bot-stream", daemon=True)
        follower.start()

    def stop(self) -> None:
        """Stop following the stream and starting matches (those in play go on)."""
        self._finished.set()

    def _follow(self) -> None:
        failures = 0
        while not self._finished.is_set():
            try:
                for line in self.announcements():
                    failures = 0
                    kind = line.get("type", "match")
                    if kind == "match" and "live_id" in line:
                        self._start(int(line["live_id"]))
                    elif kind == "challenge" and self.policy is not None:
                        self._answer(line)
            except (OSError, http.client.HTTPException, LiveApiError, ValueError) as error:
                wait = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                failures += 1
                log.warning("the bot stream stopped (%s); connecting again in %s s", error, wait)
                time.sleep(wait)

    def announcements(self) -> Iterator[dict[str, Any]]:
        """The stream's match lines (keep-alive lines skipped)."""
        headers = {"Authorization": f"Bearer {self.token}"}
        request = urllib.request.Request(f"{self.base}/v1/bot/stream", headers=headers)
        try:
            response = urllib.request.urlopen(request, timeout=STREAM_TIMEOUT)
        except urllib.error.HTTPError as error:
            raise LiveApiError(error.code, json.loads(error.read() or b"{}")) from None
        with response:
            for line in response:
                if self._finished.is_set():
                    return
                if line.strip():
                    found: dict[str, Any] = json.loads(line)
                    yield found

    def _answer(self, challenge: dict[str, Any]) -> None:
        """Answer a challenge line by the policy (one answered or lapsed meanwhile: 409,
        passed over)."""
        assert self.policy is not None
        reason = refusal(self.policy, challenge)
        client = LiveClient(f"{self.base}/v1/challenges/{int(challenge['id'])}", self.token)
        try:
            if reason is None:
                client.call("POST", "/accept", {})
            else:
                client.call("POST", "/decline", {"reason": reason})
        except LiveApiError as error:
            if error.status != 409:
                raise
            return
        with self._lock:
            self.answers.append((int(challenge["id"]), reason or "accepted"))

    def _start(self, live_id: int) -> None:
        with self._lock:
            if live_id in self._started:
                return
            self._started.add(live_id)
        worker = threading.Thread(target=self._play, args=(live_id,), daemon=True)
        worker.start()

    def _play(self, live_id: int) -> None:
        client = LiveClient(f"{self.base}/v1/live/{live_id}", self.token)
        failures = 0
        while True:
            try:
                final = self.play(client)
            except ActionRefused as refused:
                log.error(
                    "live match %s: the server refused %s: %s", live_id, refused.action, refused
                )
                final = {"id": live_id, "status": "refused", "score": None, "winner": None}
            except (OSError, http.client.HTTPException, LiveApiError) as error:
                if isinstance(error, LiveApiError) and error.status < 500:
                    log.error("live match %s: %s", live_id, error)
                    final = {"id": live_id, "status": "failed", "score": None, "winner": None}
                else:  # the server went away: resume once it is back
                    time.sleep(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
                    failures += 1
                    continue
            except Exception as error:  # an engine that stopped, say: the others go on
                log.error("live match %s: %s", live_id, error)
                final = {"id": live_id, "status": "failed", "score": None, "winner": None}
            if final.get("status") in ("playing", "waiting"):
                continue  # the stream ended early (a restart): go on playing
            self._ended(final)
            return

    def _ended(self, final: dict[str, Any]) -> None:
        """Keep a match's final state and tell ``on_done`` (one at a time), then end the
        run after the last one: ``run`` returns only after every ``on_done`` (the command
        prints each match's line there, and exits when ``run`` returns)."""
        with self._lock:
            self.done.append(final)
            self.on_done(final)
            if self.matches is not None and len(self.done) >= self.matches:
                self._finished.set()


def strategy_player(strategy: Strategy, seed: str = "") -> Player:
    """Each match played with ``strategy`` (the reference bot's loop)."""
    return lambda client: play_match(client, strategy, seed)
