"""EVENTS.md §12 on a live match: ``join_seconds`` (a bot not joined by then loses by
``no_show``, both absent: nobody wins) and the backgammon clock (each decision first uses
the delay, then the player's reserve; a reserve run out loses on ``time``), kept across a
restart. The service's time is a fake one here, moved by the tests: no sleeping."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.live import service
from referee.live.service import CLOCK, CLOCK_GAP_SECONDS
from referee.scopes import Scope
from referee.storage import open_storage, prepare_storage
from referee.storage.model.tokens import Token
from referee.storage.stores import Storage


class FakeTime:
    """The service's ``time`` module, standing still until a test moves it."""

    def __init__(self) -> None:
        self.now = time.time()
        self.storage: Storage | None = None

    def time(self) -> float:
        return self.now

    def passes(self, seconds: float) -> None:
        """Time passes while the service serves: its clock is beaten on the way."""
        while seconds > 0:
            step = min(seconds, CLOCK_GAP_SECONDS / 2)
            self.now += step
            seconds -= step
            assert self.storage is not None
            CLOCK.beat(self.storage, force=True)

    def jumps(self, seconds: float) -> None:
        """Time passes while no instance serves."""
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeTime]:
    fake = FakeTime()
    monkeypatch.setattr(service, "time", fake)
    CLOCK.beaten = 0.0
    yield fake
    CLOCK.beaten = 0.0


@pytest.fixture
def storage(tmp_path: Path, clock: FakeTime) -> Iterator[Storage]:
    location = tmp_path / "archive.sqlite3"
    prepare_storage(location)
    opened = open_storage(location)
    service.refresh_deadlines(opened)
    clock.storage = opened
    yield opened
    opened.close()


@pytest.fixture
def bots(storage: Storage) -> dict[str, Token]:
    return {
        "host": storage.tokens.create((Scope.LIVE_HOST,), "director").token,
        "w": storage.tokens.create((Scope.PLAY,), "alice").token,
        "b": storage.tokens.create((Scope.PLAY,), "bob").token,
    }


def created(storage: Storage, bots: dict[str, Token], **more: Any) -> int:
    players = {"w": "alice", "b": "bob"}
    state = service.create(storage, bots["host"], "backgammon", 1, {}, players, 60, **more)
    live_id: int = state["id"]
    return live_id


def test_a_bot_that_does_not_join_in_time_loses_by_no_show(
    storage: Storage, bots: dict[str, Token], clock: FakeTime
) -> None:
    live_id = created(storage, bots, join_seconds=30)
    waiting = service.join(storage, live_id, bots["w"], "a")
    assert (waiting["status"], waiting["join_seconds"]) == ("waiting", 30)
    assert waiting["join_deadline"] is not None and waiting["deadline"] is None
    clock.passes(29)
    assert service.state(storage, live_id)["status"] == "waiting"
    clock.passes(2)
    state = service.state(storage, live_id)
    assert (state["status"], state["termination"], state["winner"]) == ("finished", "no_show", "w")
    assert state["match_id"] is None and state["games"] == []
    late = service.join(storage, live_id, bots["b"], "b")  # too late: nothing changes
    assert (late["status"], late["winner"]) == ("finished", "w")


def test_two_absent_bots_both_lose(
    storage: Storage, bots: dict[str, Token], clock: FakeTime
) -> None:
    live_id = created(storage, bots, join_seconds=5)
    clock.passes(6)
    state = service.state(storage, live_id)
    assert (state["termination"], state["winner"]) == ("no_show", None)


def test_without_join_seconds_a_match_waits(
    storage: Storage, bots: dict[str, Token], clock: FakeTime
) -> None:
    live_id = created(storage, bots)
    clock.passes(10_000)
    state = service.state(storage, live_id)
    assert (state["status"], state["join_deadline"], state["clock"]) == ("waiting", None, None)


def decide(storage: Storage, bots: dict[str, Token], live_id: int) -> dict[str, Any]:
    """The player to act makes a decision: a roll, else the first legal play."""
    state = service.state(storage, live_id)
    side, expect = state["to_act"], state["expect"]
    details = {} if "roll" in expect else {"play": state["legal_plays"][0]}
    action = "roll" if "roll" in expect else "play"
    return service.act(storage, live_id, bots[side], state["ply"], action, details)


def test_the_clock_spends_the_delay_first_then_the_reserve(
    storage: Storage, bots: dict[str, Token], clock: FakeTime
) -> None:
    live_id = created(storage, bots, clock=(10, 2))
    service.join(storage, live_id, bots["w"], "a")
    state = service.join(storage, live_id, bots["b"], "b")
    assert state["clock"] == {"reserve": 10, "delay": 2, "reserves": {"w": 10.0, "b": 10.0}}
    first = state["to_act"]
    clock.passes(1.5)  # within the delay: the reserve is untouched
    after = decide(storage, bots, live_id)
    assert after["clock"]["reserves"][first] == 10.0
    second = after["to_act"]
    clock.passes(5)  # 2 s of delay, then 3 s of reserve
    after = decide(storage, bots, live_id)
    assert after["clock"]["reserves"][second] == pytest.approx(7.0)
    # the next decision gets the delay and what is left of that player's reserve
    mover = after["to_act"]
    left = after["clock"]["reserves"][mover]
    clock.passes(2 + left - 0.5)
    assert service.state(storage, live_id)["status"] == "playing"
    clock.passes(1)
    final = service.state(storage, live_id)
    assert (final["status"], final["termination"]) == ("finished", "time")
    assert final["winner"] == ("b" if mover == "w" else "w")
    assert final["clock"]["reserves"][mover] == 0.0
    stored = storage.matches.get(final["match_id"])
    assert stored is not None and stored.valid


def test_a_restart_gives_the_decision_its_delay_and_reserve_again(
    storage: Storage, bots: dict[str, Token], clock: FakeTime
) -> None:
    live_id = created(storage, bots, clock=(10, 2))
    service.join(storage, live_id, bots["w"], "a")
    service.join(storage, live_id, bots["b"], "b")
    clock.passes(5)
    decide(storage, bots, live_id)  # 3 s of the first mover's reserve spent
    state = service.state(storage, live_id)
    reserve = state["clock"]["reserves"][state["to_act"]]
    clock.jumps(500)  # the service was down: nobody beat its clock
    storage.live.beat(clock.now, -1.0)  # the next start
    deadline = storage.live.versions([live_id])[live_id].deadline
    assert deadline == pytest.approx(clock.now + 2 + reserve)
    assert service.state(storage, live_id)["status"] == "playing"
