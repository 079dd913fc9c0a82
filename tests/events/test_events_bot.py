"""``nardy-referee bot --events`` and ``EventsBot``: bots that learn of their matches only
on ``GET /v1/bot/stream`` play whole events to the end on a real gunicorn (two workers):
the reference bot in threads and as the command, gnubg through the bridge, and the builtin
nardy engine as the command."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from referee.live.bot import EventsBot, RandomStrategy, strategy_player
from referee.players.gnubg import GnubgExternal
from referee.players.seat import engine_player
from tests.native.conftest import native  # noqa: F401 (the fixture: built, or skipped)
from tests.players.gnubg import external_player
from tests.server import ROOT, Server, start, stop, write_token

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy")
LIVE_ENV = {
    "GUNICORN_CMD_ARGS": "--worker-class gthread --threads 32",
    "NARDY_REFEREE_LIVE_POLL": "0.02",
    "NARDY_REFEREE_BOT_POLL": "0.05",
    "NARDY_REFEREE_EVENTS_POLL": "0.05",
}
Site = tuple[Server, str, dict[str, str]]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    database = tmp_path_factory.mktemp("events-bot") / "archive.sqlite3"
    host = write_token(database, "director", "live:host")
    bots = {name: write_token(database, name, "play") for name in NAMES}
    server = start(database, workers=2, env=LIVE_ENV)
    try:
        yield server, host, bots
    finally:
        stop(server)


def started(server: Server, host: str, **body: Any) -> dict[str, Any]:
    event = {"name": "bots", "variant": "backgammon", "length": 1, "kind": "bots", **body}
    created = server.json("POST", "/v1/events", event, host)
    assert "id" in created, created
    running = server.json("POST", f"/v1/events/{created['id']}/start", None, host)
    assert running["status"] == "running", running
    return running


def finished(server: Server, event_id: int, timeout: float = 300) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        event: dict[str, Any] = server.json("GET", f"/v1/events/{event_id}")
        if event["status"] == "finished":
            return event
        assert time.monotonic() < deadline, event
        time.sleep(0.1)


def live_ids_of(event: dict[str, Any], name: str) -> set[int]:
    """The live matches the event gave ``name`` (from the event, not from the bots)."""
    return {
        live_id
        for played in event["rounds_played"]
        for pairing in played["pairings"]
        if name in (pairing["w"], pairing["b"])
        for live_id in pairing["live_ids"]
    }


def check_played(server: Server, event: dict[str, Any], finals: dict[str, list[Any]]) -> None:
    """Every bot played exactly its matches, each to the end the server stored."""
    for name, done in finals.items():
        assert {final["id"] for final in done} == live_ids_of(event, name)
        for final in done:
            stored = server.json("GET", f"/v1/live/{final['id']}")
            assert final["status"] == stored["status"] == "finished"
            assert (final["score"], final["winner"]) == (stored["score"], stored["winner"])
    for played in event["rounds_played"]:
        for pairing in played["pairings"]:
            assert pairing["status"] == "finished" and pairing["match_ids"]


def run_bots(site: Site, names: tuple[str, ...], event: dict[str, Any]) -> dict[str, list[Any]]:
    """An EventsBot for each name, in a thread, until it has played its matches."""
    server, _, secrets = site
    finals: dict[str, list[Any]] = {}
    threads = []
    for seed, name in enumerate(names):
        # How many matches it will play is the only thing it is told; which, it learns
        # on the bot stream (the later rounds' do not exist yet).
        count = count_for(event, name)
        player = strategy_player(RandomStrategy(random.Random(seed)), name)
        bot = EventsBot(server.base, secrets[name], player, count)
        thread = threading.Thread(target=lambda b=bot, n=name: finals.__setitem__(n, b.run()))
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join(timeout=300)
    assert sorted(finals) == sorted(names)
    return finals


def count_for(event: dict[str, Any], name: str) -> int:
    """Matches ``name`` plays in a round robin: one a pairing (two mirrored) against each
    other entrant."""
    assert event["format"] == "round-robin"
    return (len(event["entrants"]) - 1) * (2 if event["mirrored"] else 1)


def test_events_bots_in_threads_play_a_round_robin_of_three(site: Site) -> None:
    server, host, _ = site
    names = NAMES[:3]
    event = started(server, host, format="round-robin", entrants=list(names))
    finals = run_bots(site, names, event)
    done = finished(server, event["id"])
    assert len(done["rounds_played"]) == 3  # a bye each round
    check_played(server, done, finals)


def command(secret: str, base: str, *more: str) -> list[str]:
    return [sys.executable, "-m", "referee.cli", "bot", "--events", "--url", base,
            "--token", secret, *more]  # fmt: skip


def outputs(processes: dict[str, subprocess.Popen[str]]) -> dict[str, list[Any]]:
    finals = {}
    for name, process in processes.items():
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        finals[name] = [json.loads(line) for line in out.splitlines()]
    return finals


def test_two_commands_play_a_mirrored_round_robin(site: Site) -> None:
    """Two ``bot --events`` processes enter before the event starts; each prints a line
    per match as it ends and stops after its two (the mirrored pair)."""
    server, host, secrets = site
    names = NAMES[3:5]
    processes = {
        name: subprocess.Popen(
            command(secrets[name], server.base, "--matches", "2", "--seed", name),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for name in names
    }
    event = started(server, host, format="round-robin", mirrored=True, entrants=list(names))
    finals = outputs(processes)
    done = finished(server, event["id"])
    check_played(server, done, finals)
    for lines in finals.values():
        assert all(set(line) == {"id", "status", "score", "winner"} for line in lines)


@pytest.fixture
def gnubg() -> Iterator[GnubgExternal]:
    with external_player() as engine:
        yield engine


def test_gnubg_plays_a_round_robin_through_the_bridge(site: Site, gnubg: GnubgExternal) -> None:
    """gnubg (one connection) plays both its matches of a round robin of three at once in
    threads, against reference bots: every action it chose accepted."""
    server, host, secrets = site
    names = NAMES[5:8]
    event = started(server, host, format="round-robin", entrants=list(names))
    finals: dict[str, list[Any]] = {}
    engine_bot = EventsBot(server.base, secrets[names[0]], engine_player(gnubg), 2)
    thread = threading.Thread(target=lambda: finals.__setitem__(names[0], engine_bot.run()))
    thread.start()
    finals.update(run_bots(site, names[1:], event))
    thread.join(timeout=300)
    done = finished(server, event["id"])
    check_played(server, done, finals)


def engine_command_plays(
    site: Site, names: tuple[str, str], spec: str, matches: int, **event: Any
) -> None:
    """``bot --events --engine SPEC`` for ``names[0]`` and the reference bot for
    ``names[1]`` play a two-entrant event to its end."""
    server, host, secrets = site
    engine = subprocess.Popen(
        command(secrets[names[0]], server.base, "--matches", str(matches), "--engine", spec),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    started_event = started(server, host, format="round-robin", entrants=list(names), **event)
    finals = run_bots(site, names[1:], started_event)
    finals.update(outputs({names[0]: engine}))
    done = finished(server, started_event["id"])
    check_played(server, done, finals)


def test_the_command_with_gnubg(site: Site, gnubg: GnubgExternal) -> None:
    """``bot --events --engine gnubg:HOST:PORT`` plays a two-entrant event to its end."""
    gnubg.close()  # gnubg takes one controller at a time: the command's, now
    spec = f"gnubg:127.0.0.1:{gnubg.port}"
    engine_command_plays(site, (NAMES[8], NAMES[0]), spec, 1, length=3)


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("variant", ["long-nardy", "khachapuri"])
def test_the_command_with_the_builtin_engine(site: Site, variant: str) -> None:
    """``bot --events --engine builtin:0`` plays both games of a mirrored nardy pairing."""
    engine_command_plays(site, (NAMES[1], NAMES[2]), "builtin:0", 2, variant=variant, mirrored=True)
