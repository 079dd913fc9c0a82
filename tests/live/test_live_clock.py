"""Deadlines are applied only while the service's clock runs (issue 22, LIVE.md §4): not
in a process that does not serve (an orphaned worker), not when no instance beat the clock
for a while (a master killed, a full disk); the beat after such a gap gives the player to
act a fresh full move_seconds."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.app import create_app
from referee.http.serving import stop_clocks
from referee.live import service
from referee.live.service import CLOCK, CLOCK_GAP_SECONDS
from referee.scopes import Scope
from referee.storage import open_storage, prepare_storage
from referee.storage.stores import Storage


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    location = tmp_path / "archive.sqlite3"
    prepare_storage(location)
    opened = open_storage(location)
    service.refresh_deadlines(opened)  # as every start does: the clock runs from now
    yield opened
    opened.close()


@pytest.fixture(autouse=True)
def serving() -> Iterator[None]:
    before = CLOCK.serving
    yield
    CLOCK.serving = before
    CLOCK.beaten = 0.0


def playing(storage: Storage) -> int:
    """A backgammon money game in play, with one second a move."""
    host = storage.tokens.create((Scope.LIVE_HOST,), "director").token
    alice = storage.tokens.create((Scope.PLAY,), "alice").token
    bob = storage.tokens.create((Scope.PLAY,), "bob").token
    players = {"w": "alice", "b": "bob"}
    live_id: int = service.create(storage, host, "backgammon", 0, {}, players, 1)["id"]
    service.join(storage, live_id, alice, "a")
    service.join(storage, live_id, bob, "b")
    return live_id


def test_a_deadline_missed_while_serving_is_lost(storage: Storage) -> None:
    live_id = playing(storage)
    time.sleep(1.6)
    assert service.state(storage, live_id)["termination"] == "timeout"


def test_a_process_that_does_not_serve_applies_no_deadline(storage: Storage) -> None:
    live_id = playing(storage)
    CLOCK.serving = lambda: False
    time.sleep(1.6)
    state = service.state(storage, live_id)
    assert (state["status"], state["termination"]) == ("playing", None)


def test_after_a_gap_in_the_clock_the_player_to_act_gets_a_fresh_full_time(
    storage: Storage,
) -> None:
    live_id = playing(storage)
    time.sleep(1.6)
    # nobody beat the clock for longer than the gap: the service was down
    storage.live.beat(time.time() - CLOCK_GAP_SECONDS - 5, -1.0)
    CLOCK.beaten = 0.0
    before = storage.live.versions([live_id])[live_id].deadline
    state = service.state(storage, live_id)
    assert (state["status"], state["termination"]) == ("playing", None)
    after = storage.live.versions([live_id])[live_id].deadline
    assert before is not None and after is not None and after > time.time()


def clock_threads() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if thread.name == "live-clock"}


def test_an_apps_clock_thread_stops_with_stop_clocks_and_starts_at_its_next_request(
    tmp_path: Path,
) -> None:
    """Counted against the clock threads already running (one a request of another test's
    thread may have started meanwhile): this app's own."""
    stop_clocks()
    location = tmp_path / "archive.sqlite3"
    prepare_storage(location)
    client = create_app({"DATABASE": str(location), "TESTING": True}).test_client()
    others = clock_threads()
    assert client.get("/healthz").status_code == 200
    (first,) = clock_threads() - others
    stop_clocks()
    assert not first.is_alive()
    others = clock_threads()
    assert client.get("/healthz").status_code == 200
    (second,) = clock_threads() - others
    assert second is not first and second.is_alive()
