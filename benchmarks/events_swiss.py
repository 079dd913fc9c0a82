"""A Swiss of ``BOTS`` random bots played to the end: ``BOTS / 2`` matches in flight each
round (one-point backgammon), every bot an ``EventsBot`` (``nardy-referee bot --events``)
that learns of its matches only on ``GET /v1/bot/stream``.

Real gunicorn (``WORKERS`` gthread workers with ``THREADS`` threads each: every bot
stream and every live stream holds one thread). Reports: the event's time to the end and
each round's, the bots' matches (finished, failed), the server's actions/s (``POST
.../actions`` answered, from the access log, over the run) and its requests/s, the 5xx
count, checks that every pairing finished with a stored record, and how long after each
round's last match ended the event's stream (``GET /v1/events/{id}/stream``, what the
event page follows) showed the round finished, and how long after a live match's
announcement was stored its line reached each of its two bots' stream readers (p50 and
p99 over every line of the run: the announcement's moment is when a reader of the archive
polling every ``WATCH_SECONDS``, in a process of its own, first saw it, so up to that much
late). The event starts once every bot is online (``GET /v1/bots/online``), so that each
match line is news to a waiting stream, not what a late stream reads as it opens. The
bots run in ``PROCESSES`` processes (4 unless told), as real bots are processes of their
own: with all in one, the readers' wake-ups queue on that one process's GIL and the figure
is the benchmark's as much as the server's; each reader notes ``time.monotonic()`` (one
clock for every process) as its line comes.
Not run in CI. Run with
``.venv/bin/python benchmarks/events_swiss.py [BOTS [ROUNDS [PROCESSES]]]``.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import sqlite3
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.live.bot import EventsBot, RandomStrategy, strategy_player
from tests.server import Server, start, stop, write_token

BOTS = int(sys.argv[1]) if len(sys.argv) > 1 else 200
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else math.ceil(math.log2(BOTS))
WORKERS = 2
THREADS = 320
PROCESSES = int(sys.argv[3]) if len(sys.argv) > 3 else 4
CONTEXT = multiprocessing.get_context("fork")  # before any thread of this process starts
LIMIT_SECONDS = 3600.0
WATCH_SECONDS = 0.001
ENV = {
    "GUNICORN_CMD_ARGS": f"--worker-class gthread --threads {THREADS}",
    "NARDY_REFEREE_EVENTS_POLL": "0.2",
}


class TimedBot(EventsBot):
    """An ``EventsBot`` that notes when each match line reached its stream reader
    (``arrived``: live id to ``time.monotonic()``, the first time only)."""

    arrived: dict[int, float]

    def announcements(self) -> Iterator[dict[str, Any]]:
        for line in super().announcements():
            if line.get("type") == "match" and "live_id" in line:
                self.arrived.setdefault(int(line["live_id"]), time.monotonic())
            yield line


def watch_announcements(database: Path, stopping: Any, results: Any) -> None:
    """When each live match's announcement was first seen stored in the archive (live id
    to ``time.monotonic()``), read every ``WATCH_SECONDS`` until ``stopping``, then put on
    ``results``. A process of its own: the event stream's lines parsed in the main one
    would hold this reader back."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)
    stored: dict[int, float] = {}
    last = 0
    try:
        while not stopping.wait(WATCH_SECONDS):
            try:
                rows = connection.execute(
                    "SELECT seq, live_id FROM event_live WHERE seq > ? ORDER BY seq", [last]
                ).fetchall()
            except sqlite3.OperationalError:
                continue  # busy: look again
            now = time.monotonic()
            for seq, live_id in rows:
                stored.setdefault(live_id, now)
                last = max(last, seq)
    finally:
        connection.close()
        results.put(stored)


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="events-swiss-"))
    database = folder / "archive.sqlite3"
    host = write_token(database, "director", "live:host")
    names = [f"bot{number:03d}" for number in range(1, BOTS + 1)]
    secrets = {name: write_token(database, name, "play") for name in names}
    server = start(database, WORKERS, folder / "server.log", ENV)
    try:
        elapsed, event, done = run(server, host, secrets, database)
    finally:
        stop(server, kill=True)  # the bots' streams stay open: no graceful stop
    log = (folder / "server.log").read_text().splitlines()
    requests = [line for line in log if '"' in line and "HTTP/" in line]
    actions = sum(1 for line in requests if "/actions HTTP" in line and '" 200 ' in line)
    errors = sum(1 for line in requests if '" 5' in line)
    print(f"Swiss of {BOTS} bots, {ROUNDS} rounds, {WORKERS} workers x {THREADS} threads")
    print(f"event {event['status']} in {elapsed:.1f} s")
    finished = [f for f in done if f["status"] == "finished"]
    print(f"bots' matches: {len(done)} ended, {len(finished)} finished")
    print(f"server: {actions} actions, {actions / elapsed:.0f} actions/s;")
    print(f"  {len(requests)} requests, {len(requests) / elapsed:.0f} requests/s; 5xx: {errors}")
    pairings = [p for r in event["rounds_played"] for p in r["pairings"]]
    stored = sum(1 for p in pairings if p["status"] == "finished" and p["match_ids"])
    print(f"pairings finished with a stored record: {stored}/{len(pairings)}")
    print(f"archive: {database}")


def run(
    server: Server, host: str, secrets: dict[str, str], database: Path
) -> tuple[float, dict[str, Any], list[dict[str, Any]]]:
    body = {
        "name": f"Swiss of {BOTS}",
        "variant": "backgammon",
        "length": 1,
        "format": "swiss",
        "rounds": ROUNDS,
        "kind": "bots",
        "move_seconds": 600,
        "entrants": list(secrets),
    }
    created = server.json("POST", "/v1/events", body, host)
    assert "id" in created, created
    stopping = CONTEXT.Event()
    results: Any = CONTEXT.Queue()
    seeded = list(enumerate(secrets.values()))
    players = [
        CONTEXT.Process(
            target=play, args=(server.base, seeded[part::PROCESSES], stopping, results), daemon=True
        )
        for part in range(PROCESSES)
    ]
    for player in players:
        player.start()
    watched, announced = CONTEXT.Event(), CONTEXT.Queue()
    watcher = CONTEXT.Process(
        target=watch_announcements, args=(database, watched, announced), daemon=True
    )
    watcher.start()
    streamed: list[tuple[float, dict[str, Any]]] = []
    follower = threading.Thread(target=follow, args=(server, created["id"], streamed), daemon=True)
    follower.start()
    online(server, len(secrets))  # the matches find every bot waiting on its stream
    started = time.perf_counter()
    event = server.json("POST", f"/v1/events/{created['id']}/start", None, host)
    assert event["status"] == "running", event
    number, round_started = 1, started
    while event["status"] != "finished":
        if time.perf_counter() - started > LIMIT_SECONDS:
            break
        time.sleep(0.5)
        event = server.json("GET", f"/v1/events/{created['id']}")
        if event["round"] != number or event["status"] == "finished":
            now = time.perf_counter()
            print(f"round {number}: {now - round_started:.1f} s", flush=True)
            number, round_started = event["round"], now
    elapsed = time.perf_counter() - started
    stopping.set()
    ended: dict[int, float] = {}
    arrived: list[tuple[int, float]] = []
    done: list[dict[str, Any]] = []
    for _ in players:
        their_ended, their_arrived, their_done = results.get(timeout=60)
        ended.update(their_ended)
        arrived.extend(their_arrived)
        done.extend(their_done)
    follower.join(timeout=30)
    watched.set()
    stored = announced.get(timeout=60)
    watcher.join(timeout=5)
    report_stream(event, ended, streamed)
    report_announcements(stored, arrived)
    return elapsed, event, done


def online(server: Server, bots: int) -> None:
    """Wait until every bot's stream is open (``GET /v1/bots/online``), and a moment more
    for the last to have read what waited for it."""
    deadline = time.monotonic() + LIMIT_SECONDS
    while len(server.json("GET", "/v1/bots/online")) < bots:
        assert time.monotonic() < deadline, "the bots did not come online"
        time.sleep(0.2)
    time.sleep(0.5)


def play(base: str, seeded: list[tuple[int, str]], stopping: Any, results: Any) -> None:
    """One reader process: its share of the bots, each following its stream and playing
    in threads, until ``stopping``; then what they saw goes to ``results`` (``ended``:
    live id to when its final state came, ``arrived``: (live id, when its line came) per
    bot, ``done``: the final states)."""
    ended: dict[int, float] = {}

    def note_end(state: dict[str, Any]) -> None:
        ended[state["id"]] = time.monotonic()

    bots = [
        TimedBot(
            base, secret, strategy_player(RandomStrategy(random.Random(seed))), on_done=note_end
        )
        for seed, secret in seeded
    ]
    for bot in bots:
        bot.arrived = {}
        threading.Thread(target=bot.run, daemon=True).start()
    stopping.wait()
    deadline = time.monotonic() + 10  # a match's final state may be on its way still
    while time.monotonic() < deadline and any(len(b.done) < len(b.arrived) for b in bots):
        time.sleep(0.05)
    arrived = [item for bot in bots for item in bot.arrived.items()]
    results.put((ended, arrived, [final for bot in bots for final in bot.done]))


def follow(server: Server, event_id: int, lines: list[tuple[float, dict[str, Any]]]) -> None:
    """Read the event's stream to its end: each event line with when it came."""
    request = urllib.request.Request(f"{server.base}/v1/events/{event_id}/stream")
    with urllib.request.urlopen(request, timeout=60) as answer:
        for raw in answer:
            if raw.strip():
                lines.append((time.monotonic(), json.loads(raw)))


def report_stream(
    event: dict[str, Any], ended: dict[int, float], lines: list[tuple[float, dict[str, Any]]]
) -> None:
    """Per round: from its last live match's end (the bot's final state) to the first
    stream line that shows every pairing of the round finished."""
    delays = []
    for played in event["rounds_played"]:
        live_ids = [i for p in played["pairings"] for i in p["live_ids"]]
        if not live_ids or any(i not in ended for i in live_ids):
            continue
        last = max(ended[i] for i in live_ids)
        for at, shown in lines:
            rounds = shown["rounds_played"]
            if len(rounds) >= played["number"] and all(
                p["status"] == "finished" for p in rounds[played["number"] - 1]["pairings"]
            ):
                delays.append(at - last)
                break
    if delays:
        print(
            f"event stream: a round shown finished {min(delays):.2f} to {max(delays):.2f} s"
            f" after its last match ended ({len(delays)} rounds, {len(lines)} lines)"
        )


def report_announcements(stored: dict[int, float], arrived: list[tuple[int, float]]) -> None:
    """From each live match's announcement stored to its line at each bot's reader."""
    delays = sorted(at - stored[live_id] for live_id, at in arrived if live_id in stored)
    if delays:
        p50 = delays[len(delays) // 2]
        p99 = delays[min(len(delays) - 1, math.ceil(len(delays) * 0.99) - 1)]
        print(
            f"bot stream: a match's line {p50 * 1000:.0f} ms at p50, {p99 * 1000:.0f} ms at"
            f" p99, {delays[-1] * 1000:.0f} ms at most after its announcement was stored"
            f" ({len(delays)} lines, {len(stored)} matches announced)"
        )


if __name__ == "__main__":
    main()
